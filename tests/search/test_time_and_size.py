"""Searches within a time limit (`solve --timeout`, `time_limit`), the compile time reported apart from the search's,
and the estimate of a search's size that warns before one that cannot finish."""

import json
import math
import os
import pty
import subprocess
import sys
import time

import pytest

from gameproof.cli import main
from gameproof.errors import Unknown
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.interrupts import _limits, _running, time_limit
from gameproof.search.size import Size, size_of, tree_size_log10
from gameproof.search.solve import solve


def test_a_time_limit_ends_a_search_with_unknown_and_the_next_search_is_whole():
    state = RulesState(load_game("othello:6"))
    solve(RulesState(load_game("othello:4")))  # the kernels' modules compiled or loaded before the clock starts
    started = time.perf_counter()
    with pytest.raises(Unknown, match="no answer within 0.3 s"), time_limit(0.3):
        solve(state, with_moves=False)
    assert time.perf_counter() - started < 0.3 + 60  # compiling othello:6 on a cold cache is not counted
    assert not _limits and not _running
    with time_limit(60):  # a limit that does not run out changes nothing
        assert solve(RulesState(load_game("mnk:3,3,3"))).value == "draw"


def test_a_limit_that_ran_out_before_a_kernel_starts_stops_it_at_once():
    state = RulesState(load_game("mnk:3,3,3"))
    solve(state)  # compiled
    with pytest.raises(Unknown), time_limit(0.05):
        time.sleep(0.2)
        solve(state)


def test_solve_timeout_answers_unknown_with_exit_code_3(capsys):
    assert main(["solve", "othello:6", "--timeout", "0.5", "--json"]) == 3
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert document["value"] == "unknown" and document["timeout"] == 0.5 and "0.5 s" in document["reason"]
    assert main(["solve", "othello:6", "--timeout", "0.5", "--value-only", "--score"]) == 3
    assert "value: unknown (no answer within 0.5 s" in capsys.readouterr().out
    assert main(["solve", "othello:6", "--timeout", "0"]) == 2
    assert "positive number of seconds" in capsys.readouterr().err


def test_the_estimate_is_exact_on_a_tree_where_every_line_meets_the_same_move_counts():
    """mnk:3,3,4: nobody can make four in a row, so every line fills the board: 9, 8, ... 1 moves."""
    nodes = sum(math.perm(9, plies) for plies in range(10))  # 1 + 9 + 9·8 + ... + 9!
    state = RulesState(load_game("mnk:3,3,4"))
    assert tree_size_log10(state) == pytest.approx(math.log10(nodes))
    assert state.record == "" and len(state.legal_moves()) == 9  # left as it was


@pytest.mark.parametrize(("name", "size"), [("mnk:3,3,3", Size.FEASIBLE), ("connect4:5,4", Size.FEASIBLE),
                                            ("othello:6", Size.FEASIBLE), ("connect4:8,7", Size.HOURS),
                                            ("othello:8", Size.NEVER), ("hex:11", Size.NEVER)])
def test_sizes_of_boards_that_solve_in_minutes_and_of_those_that_do_not(name, size):
    assert size_of(RulesState(load_game(name)))[0] is size


def test_a_search_that_cannot_finish_is_said_before_it_starts(capsys):
    assert main(["solve", "othello:8", "--timeout", "0.2", "--json"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "will not finish" in err and "gameproof games othello" in err
    assert "--timeout" not in err  # given already
    assert main(["solve", "mnk:3,3,3", "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_compile_time_is_reported_apart_and_the_first_run_says_it_compiles(tmp_path):
    """A fresh numba cache: the first run of the compiled search says on its terminal that it compiles, and reports
    that apart from the search's time; the second loads what the first compiled."""
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    reports = []
    for _ in range(2):
        terminal, other_end = pty.openpty()
        done = subprocess.run([sys.executable, "-m", "gameproof", "solve", "mnk:3,3,2", "--engine", "dfpn"],
                              stdout=subprocess.PIPE,
                              stderr=other_end, text=True, env=environment, cwd=tmp_path, timeout=600)
        os.close(other_end)
        seen = os.read(terminal, 65536).decode()
        os.close(terminal)
        assert done.returncode == 0
        reports.append((seen, done.stdout.splitlines()[-1]))
    (first_err, first), (second_err, second) = reports
    assert "compiling the rules (first run only)" in first_err and "compiling the rules, first run only)" in first
    assert "compiling" not in second_err and "loading compiled kernels)" in second
    document = json.loads(subprocess.run([sys.executable, "-m", "gameproof", "solve", "mnk:3,3,2", "--json", "--engine",
                                          "dfpn"],
                                         capture_output=True, text=True, env=environment, check=True).stdout)
    assert document["value"] == "win" and 0 <= document["seconds"] and 0 < document["compile_seconds"]


def test_a_journalled_solve_that_runs_out_of_time_saves_its_work_and_the_next_run_goes_on(capsys, tmp_path):
    journal = str(tmp_path / "o6.journal")
    saved = []
    for _ in range(2):
        assert main(["solve", "othello:6", "--workers", "2", "--tt-mb", "16", "--timeout", "1.5", "--journal", journal,
                     "--value-only", "--json"]) == 3
        document = json.loads(capsys.readouterr().out)
        assert document["value"] == "unknown" and len(document["notes"]) == 1
        saved.append(int(document["notes"][0].split("saved (")[1].split(" nodes")[0].replace(",", "")))
    assert 0 < saved[0] < saved[1]  # the second run resumed from the first's work
