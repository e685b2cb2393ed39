"""Cube-and-conquer for reach: the same answers as one solve, proofs and coverage checked, resumed after a kill."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from gameproof.cli import main
from gameproof.games.othello.cubes import CUBE_CONFLICTS, CUBE_PLIES, _formula, first_cubes, solve_by_cubes, solve_cube
from gameproof.games.othello.notation import tokenize_record
from gameproof.search.jobs import SqliteJournal, task_name


def test_first_cubes_follow_the_rules():
    # With N = 1 every ply may stop. Three plies after f5: a quarter of perft(3) = 56 (the openings are
    # symmetric); a stop before f5, after it, and after each of the 3 replies.
    cubes = first_cubes(_formula(1, 6), 3)
    finished = [c for c in cubes if not c.stops]
    assert len(finished) == 56 // 4 and all(c.moves[0] == 37 for c in finished)
    assert sorted(len(c.moves) for c in cubes if c.stops) == [0, 1, 2, 2, 2]


def test_a_refutation_by_cubes_has_every_proof_and_the_coverage_checked(tmp_path):
    result = solve_by_cubes(13, 6, tmp_path / "j.db", cube_plies=3, workers=2, proof_dir=tmp_path)
    assert result.status == "unsat" and result.cubes == 17
    assert result.cube_proofs == {"verified": result.cubes} and result.coverage.accepted is True


def test_a_cube_past_its_budget_is_split_and_the_answer_stands(tmp_path):
    seen = []
    result = solve_by_cubes(13, 6, tmp_path / "j.db", cube_plies=3, conflicts=300, workers=1, proof_dir=tmp_path,
                            progress=lambda *report: seen.append(report))
    assert result.status == "unsat" and result.splits > 0 and result.coverage.accepted is True
    notes = [note for *_, note in seen]
    assert any(" to split 0 " not in note for note in notes)  # the progress counts the cubes to split
    done, total, _, last = seen[-1]
    assert done == total and last == f"refuted {result.cubes}  to split 0  open 0"


def test_a_satisfiable_cube_gives_a_witness_that_replays(tmp_path):
    result = solve_by_cubes(12, 6, tmp_path / "j.db", cube_plies=3, workers=1)
    assert result.status == "sat" and result.witness.legal_move_count >= 12 and len(result.witness.moves) <= 6


def test_exact_plies_by_cubes_agree_with_the_brute_force_curve(tmp_path):
    # After exactly 5 moves the most legal moves is 11 (enumerated in tests/test_results.py).
    found = solve_by_cubes(11, 5, tmp_path / "j.db", cube_plies=2, workers=1, exact=True)
    assert found.status == "sat" and found.witness.legal_move_count >= 11 and len(found.witness.moves) == 5
    refuted = solve_by_cubes(12, 5, tmp_path / "j.db", cube_plies=2, workers=1, proof_dir=tmp_path, exact=True)
    assert refuted.status == "unsat" and refuted.coverage.accepted is True
    assert refuted.cube_proofs == {"verified": refuted.cubes}
    # Within 5 moves (not exactly) the same 12 is refuted too, but as another question in the journal.
    within = solve_by_cubes(12, 5, tmp_path / "j.db", cube_plies=2, workers=1)
    assert within.status == "unsat" and within.journalled == 0


def test_the_command_asks_the_exact_question_and_says_so(tmp_path, capsys):
    arguments = ["othello", "cubes", "--legal-moves", "12", "--plies", "5", "--exact", "--workers", "1",
                 "--journal", str(tmp_path / "j.db")]
    assert main([*arguments, "--json"]) == 1  # unsat
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "unsat" and answer["exact_plies"] is True
    assert main(arguments) == 1
    assert "after exactly 5 moves" in capsys.readouterr().out


def test_a_run_killed_by_sigkill_resumes_without_solving_a_cube_again(tmp_path):
    journal = tmp_path / "j.db"
    command = [sys.executable, "-m", "gameproof", "othello", "cubes", "--legal-moves", "16", "--plies", "8",
               "--journal", str(journal), "--cube-plies", "4", "--workers", "2", "--json"]
    driver = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    kept = 0
    while kept < 10 and driver.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
        if journal.exists():
            with SqliteJournal(journal, task_name(solve_cube)) as opened:
                kept = len(opened.finished())
    assert driver.poll() is None, "the run finished before it could be killed"
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    with SqliteJournal(journal, task_name(solve_cube)) as opened:
        kept = len(opened.finished())
    resumed = json.loads(subprocess.run(command, capture_output=True, text=True, check=False).stdout)
    assert resumed["status"] == "unsat" and resumed["journalled"] == kept


@pytest.mark.parametrize("arguments", [["--legal-moves", "0"], ["--legal-moves", "20", "--cube-plies", "9"],
                                       ["--legal-moves", "20", "--address", "x:1"],
                                       ["--legal-moves", "20", "--proof", "/nonexistent/folder"],
                                       ["--legal-moves", "20", "--exact"]])
def test_bad_arguments_are_one_line_and_exit_2(arguments, tmp_path, capsys):
    assert main(["othello", "cubes", "--journal", str(tmp_path / "j.db"), *arguments]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not (tmp_path / "j.db").exists()


def test_the_help_states_the_defaults_the_api_uses(capsys):
    with pytest.raises(SystemExit):
        main(["othello", "cubes", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {CUBE_PLIES})" in text and f"(default {CUBE_CONFLICTS})" in text


def test_a_cube_whose_loose_witness_passes_by_choice_is_solved_on_the_strict_formula(tmp_path, dratify_only):
    # Within 8 moves the loose formula lets the last turn pass by choice and count the other side's
    # 16 moves (f5d6c5f4f3g4d3e3, then a pass); real Othello reaches 15 at most there.
    moves = tuple(tokenize_record("f5d6c5f4f3g4"))
    loose = solve_cube(16, 8, moves, False, CUBE_CONFLICTS, None)
    assert loose["status"] == "unsat" and loose["formula"] == "strict"
    proved = solve_cube(16, 8, moves, False, CUBE_CONFLICTS, str(tmp_path / "cube.drat"))
    assert proved["formula"] == "strict" and proved["proof_verdict"] == "verified"
