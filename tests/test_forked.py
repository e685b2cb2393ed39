"""Tasks side by side in forked children: the first accepted answer, errors, and no child left behind."""

import os
import time

import pytest

from gameproof.forked import first_accepted


def _after(seconds: float, value):
    def task():
        time.sleep(seconds)
        return value
    return task


def test_the_first_accepted_value_wins_and_earlier_ones_are_kept():
    value, finished = first_accepted([_after(0.0, 1), _after(0.5, 2), _after(30, 3)], lambda v: v % 2 == 0)
    assert value == 2 and finished == [1]


def test_without_an_accepted_value_every_finished_one_comes_back():
    value, finished = first_accepted([_after(0.0, 1), _after(0.2, 3)], lambda v: v % 2 == 0)
    assert value is None and sorted(finished) == [1, 3]


def test_a_time_limit_stops_the_wait():
    began = time.monotonic()
    assert first_accepted([_after(30, 1)], seconds=0.5) == (None, [])
    assert time.monotonic() - began < 10


def test_a_childs_error_is_raised_in_the_parent():
    def fails():
        raise ValueError("no such square")
    with pytest.raises(ValueError, match="no such square"):
        first_accepted([fails, _after(30, 1)])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waits for its parent only to be reaped
        return stat.read().split(")")[-1].split()[0] != "Z"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads process states from /proc")
def test_children_of_children_are_killed_too(tmp_path):
    pid_file = tmp_path / "grandchild.pid"

    def sleeper():
        pid_file.write_text(str(os.getpid()))
        time.sleep(60)

    def parent_of_a_sleeper():
        return first_accepted([sleeper])

    value, _ = first_accepted([parent_of_a_sleeper, _after(1.0, "done")], lambda v: v == "done")
    assert value == "done"
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().split(")")[-1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def _descendants(pid: int) -> list[int]:
    found = _children(pid)
    return found + [grandchild for child in found for grandchild in _descendants(child)]


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads process states from /proc")
def test_a_terminated_command_leaves_no_solver_running():
    import signal
    import subprocess
    import sys

    # Two lanes (Kissat's in a child of its own) on a question that takes a minute: stopped at once.
    command = subprocess.Popen([sys.executable, "-m", "gameproof", "othello", "reach", "--legal-moves", "34", "--json"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(started) < 3 and time.monotonic() < deadline:  # both lanes and Kissat's child
            time.sleep(0.1)
            started = _descendants(command.pid)
        assert len(started) >= 3
        command.send_signal(signal.SIGTERM)
        assert command.wait(timeout=30) == 128 + signal.SIGTERM
        deadline = time.monotonic() + 10
        while any(map(_alive, started)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(_alive, started))
    finally:  # never leave a solver behind, even when the test fails
        for pid in [command.pid, *started]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        command.wait()
