import json
import os
import subprocess
import sys

import pytest

from gameproof.cli import main


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_solve_json(capsys):
    out = run_json(capsys, "mnk", "solve", "--rows", "3", "--cols", "3", "--k", "3", "--notakto")
    assert out["value"] == "win" and out["moves"]["b2"] == "win" and out["moves"]["a1"] == "loss"
    assert {"value", "moves", "nodes", "seconds", "tt_entries"} <= set(out)


def test_solve_after_moves_and_finished_game(capsys):
    out = run_json(capsys, "mnk", "solve", "--rows", "3", "--cols", "3", "--k", "3", "--misere", "--moves", "b2 a1")
    assert out["value"] == "draw" and "b2" not in out["moves"] and len(out["moves"]) == 7
    out = run_json(capsys, "mnk", "solve", "--rows", "3", "--cols", "3", "--k", "3", "--moves", "a1 b1 a2 b2 a3")
    assert out["value"] == "loss" and out["moves"] == {}


@pytest.mark.parametrize("argv", [
    ["--rows", "3", "--cols", "3", "--k", "3", "--moves", "z9"],
    ["--rows", "9", "--cols", "9", "--k", "3"],
    ["--rows", "3", "--cols", "3", "--k", "3", "--misere", "--notakto"],
    ["--rows", "3", "--cols", "3", "--k", "3", "--tt-mb", "0"],
    ["--rows", "3", "--cols", "3", "--k", "3", "--moves", "a1 a1"],
])
def test_bad_input_is_one_line_exit_2(capsys, argv):
    assert main(["mnk", "solve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("gameproof: error:")


def test_book_build_query_dump_verify(capsys, tmp_path):
    db = str(tmp_path / "b.db")
    built = run_json(capsys, "mnk", "book", "build", "--rows", "3", "--cols", "3", "--k", "3", "--misere", "--db", db, "--depth", "1", "--tt-mb", "1")
    assert built["entries"] == 4
    answer = run_json(capsys, "mnk", "book", "query", "--db", db, "--moves", "c3")
    assert answer["source"] == "book" and answer["moves"]["a1"] == "draw"
    dump = run_json(capsys, "mnk", "book", "dump", "--db", db)
    assert len(dump["entries"]) == 4 and {"key", "moves", "value"} <= set(dump["entries"][0])
    checked = run_json(capsys, "mnk", "verify", "--db", db)
    assert checked["problems"] == [] and checked["by_minimax"] == 3
    assert main(["mnk", "book", "query", "--db", str(tmp_path / "none.db")]) == 2


def test_verify_position_against_minimax(capsys):
    out = run_json(capsys, "mnk", "verify", "--rows", "4", "--cols", "4", "--k", "3", "--misere", "--moves", "a1 b2 c3 d4 a2")
    assert out["agree"] is True
    assert main(["mnk", "verify", "--rows", "5", "--cols", "5", "--k", "3"]) == 2


def test_pure_python_search_agrees_without_jit():
    """The kernels and df-pn also run as plain Python (NUMBA_DISABLE_JIT=1), for differential testing."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    code = ("from gameproof.cli import main; import sys; "
            "sys.exit(main(['mnk', 'verify', '--rows', '3', '--cols', '3', '--k', '3', '--misere', '--moves', 'a1', '--json']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agree"] is True


def test_progress_displays_run_off_a_terminal():
    from gameproof.commands._search import search_progress
    from gameproof.commands._output import job_progress

    with search_progress(False) as update:
        update(5_000_000, 250, 1000)
    with job_progress(False, "book") as update:
        update(3, 10, 1.5)
    with search_progress(True) as update:
        assert update is None
