"""Rules with bugs end in one line and exit 2, never a crash; Ctrl-C and SIGTERM end a command within 2 s.

Each command runs as ``python -m gameproof`` in a process of its own: a kernel that wrote out of bounds
would kill it, and only a real signal shows how fast a command answers one."""

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from gameproof.atomic import atomic_output
from gameproof.games.declaration import Engine
from gameproof.games.game import Game
from gameproof.games.registry import games_in_file
from gameproof.games.state import RulesState
from gameproof.interrupts import Halt, RulesBroken
from gameproof.logic.cnf import Cnf
from gameproof.logic.dimacs import write_dimacs
from gameproof.search.dfpn import Options
from gameproof.search.perft import fast_perft
from gameproof.search.solve import solve

BROKEN = Path(__file__).parent / "data" / "broken_rules"
COMMANDS = {"solve": ["solve", "{game}", "--quiet"], "alphabeta": ["solve", "{game}", "--engine", "alphabeta", "--quiet"],
            "perft": ["perft", "{game}", "5"]}
# perft to depth 5 never sees past the ninth ply, and counts moves without their order.
CASES = [(bug, command) for bug in ("occupied", "unchanged", "bad_result", "never_ends", "too_long", "bad_order")
         for command in COMMANDS if command != "perft" or bug not in ("too_long", "bad_order")]
SOURCES = Path(__file__).parent.parent / "src"


def _gameproof(*args: str, **options) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SOURCES), os.environ.get("PYTHONPATH")]))}
    return subprocess.Popen([sys.executable, "-m", "gameproof", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment, **options)


@pytest.mark.parametrize(("bug", "command"), CASES)
def test_rules_with_a_bug_end_in_one_line_never_a_crash(bug, command):
    arguments = [word.format(game=BROKEN / f"{bug}.py") for word in COMMANDS[command]]
    run = _gameproof(*arguments)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gameproof: error: "), err


FAULTS = {"occupied": Halt.UNCHANGED, "unchanged": Halt.UNCHANGED, "bad_result": Halt.UNKNOWN_RESULT,
          "never_ends": Halt.NO_MOVE, "too_long": Halt.TOO_LONG, "bad_order": Halt.BAD_MOVE}


@pytest.mark.parametrize(("bug", "command"), CASES)
def test_the_kernels_name_the_fault_they_found(bug, command):
    """The kernels' own guards, whatever checks the rules before they reach a kernel."""
    spec = games_in_file(BROKEN / f"{bug}.py")[0]
    if bug == "bad_order":  # a Game refuses such an order when it reads it: hand the kernels one directly
        game = Game(replace(spec, move_order=None), {})
        game.__dict__["move_order"] = np.array(spec.move_order(), dtype=np.int64)
    else:
        game = Game(spec, {})
    state = RulesState(game)
    with pytest.raises(RulesBroken) as raised:
        if command == "perft":
            fast_perft(state, 5)
        else:
            solve(state, Options(tt_mb=1), engine=Engine.ALPHABETA if command == "alphabeta" else Engine.DFPN)
    assert raised.value.fault is FAULTS[bug] and raised.value.game == state.game.name


def _stopped_within_two_seconds(run: subprocess.Popen, signum: int, after: float) -> list[str]:
    """Send `signum` `after` seconds in; the lines of stderr, once the command ended within two seconds."""
    time.sleep(after)
    assert run.poll() is None, run.communicate()
    sent = time.monotonic()
    run.send_signal(signum)
    try:
        _, err = run.communicate(timeout=2)
    finally:
        run.kill()
    assert time.monotonic() - sent < 2
    assert run.returncode == 128 + signum
    return err.strip().splitlines()


@pytest.fixture(scope="module")
def warm_kernels():
    """The kernels these tests interrupt, compiled and cached on disk, so that a signal lands in a kernel."""
    nearly_full = ["--moves", "a a a a a a b b b b b b c c c c c c g g g g g g", "--quiet"]
    for arguments in (["perft", "connect4:7,6", "3"], ["othello", "perft", "5"], ["perft", str(BROKEN / "loops.py"), "1"],
                      ["solve", "connect4:7,6", *nearly_full], ["solve", "connect4:7,6", "--engine", "dfpn", *nearly_full]):
        assert _gameproof(*arguments).wait(timeout=300) == 0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("command", [["perft", "connect4:7,6", "14"], ["othello", "perft", "14"],
                                     ["othello", "perft", "14", "--threads", "2"], ["solve", "connect4:7,6", "--quiet"],
                                     ["solve", "connect4:7,6", "--engine", "dfpn", "--quiet"]],
                         ids=["perft", "othello", "othello-threads", "alphabeta", "dfpn"])
def test_a_signal_stops_a_long_kernel_within_two_seconds(warm_kernels, command, signum):
    assert _stopped_within_two_seconds(_gameproof(*command), signum, after=2.0) == ["gameproof: interrupted"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_rule_that_loops_forever_still_stops_within_two_seconds(warm_kernels, signum):
    assert _stopped_within_two_seconds(_gameproof("perft", str(BROKEN / "loops.py"), "3"), signum,
                                       after=2.0) == ["gameproof: interrupted"]


def _descendants(pid: int) -> list[int]:
    """The processes below `pid` (from /proc)."""
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        children += [int(child) for child in (task / "children").read_text().split()]
    return children + [grandchild for child in children for grandchild in _descendants(child)]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:  # a zombie waits for its parent only to be reaped
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("moment", ["workers starting", "workers solving"])
@pytest.mark.parametrize("command", [
    ["othello", "cubes", "--legal-moves", "16", "--plies", "8", "--cube-plies", "2", "--workers", "2", "--quiet",
     "--journal", "{folder}/journal.db", "--proof", "{folder}"],
    ["mnk", "book", "build", "--rows", "4", "--cols", "5", "--k", "3", "--misere", "--depth", "2", "--workers", "2",
     "--quiet", "--db", "{folder}/book.db"]], ids=["cubes", "book"])
def test_an_interrupted_multi_worker_run_ends_at_once_and_leaves_nothing_behind(tmp_path, command, moment, signum):
    run = _gameproof(*[word.format(folder=tmp_path) for word in command], start_new_session=True)
    workers: list[int] = []
    try:
        while len(workers) < 2 and run.poll() is None:
            workers = _descendants(run.pid)
            time.sleep(0.02)
        time.sleep(0.1 if moment == "workers starting" else 4.0)
        sent = time.monotonic()
        if signum == signal.SIGINT:
            os.killpg(run.pid, signum)  # as Ctrl-C does: to every process of the terminal's group
        else:
            run.send_signal(signum)
        _, err = run.communicate(timeout=10)
        assert time.monotonic() - sent < 2
        assert run.returncode == 128 + signum and err.strip().splitlines() == ["gameproof: interrupted"], err
        deadline = time.monotonic() + 2
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert workers and not any(map(_alive, workers))
        assert not list(tmp_path.glob(".*.partial"))
    finally:
        for pid in [run.pid, *workers]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        run.wait()


def test_a_dimacs_file_that_fails_midway_leaves_no_file(tmp_path):
    cnf = Cnf()
    cnf.add_clause([1, -2])

    def comments():
        yield "the first line is written"
        raise OSError("the disk went away")

    with pytest.raises(OSError, match="the disk went away"):
        write_dimacs(cnf, tmp_path / "out.cnf", comments=comments())
    assert list(tmp_path.iterdir()) == []


def test_an_output_file_appears_whole_or_not_at_all(tmp_path):
    target = tmp_path / "proof.drat"
    with pytest.raises(KeyboardInterrupt), atomic_output(target) as partial:
        partial.write_text("half a proof")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with atomic_output(target) as partial:
        partial.write_text("a whole proof")
        assert not target.exists()
    assert [path.name for path in tmp_path.iterdir()] == [target.name] and target.read_text() == "a whole proof"
