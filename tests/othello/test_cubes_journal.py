"""A cubes journal is not trusted: every answer read back is re-checked as a fresh one, a bad row is solved
again (and said so), and a journal that cannot be used is refused in one line with the file unchanged."""

import json
import os
import sqlite3
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameproof.cli import main
from gameproof.games.othello.cubes import solve_by_cubes, solve_cube
from gameproof.games.othello.notation import PASS, tokenize_record
from gameproof.search.jobs import SqliteJournal, task_name

#: >= 12 legal moves is refuted within 5 moves and reached within 6 (this record, in cube f5f4).
WITNESS_6 = tokenize_record("f5f4d3c4e3e6")
QUESTION = "12/5/loose/"


@pytest.fixture(scope="module")
def refuted(tmp_path_factory):
    """The journal of the unsat question 12 within 5 moves (3 cubes of 2 plies), as bytes."""
    path = tmp_path_factory.mktemp("journal") / "j.db"
    assert solve_by_cubes(12, 5, path, cube_plies=2).status == "unsat"
    return path.read_bytes()


def _forge(tmp_path, refuted: bytes, rows: dict[str, object]):
    path = tmp_path / "j.db"
    path.write_bytes(refuted)
    with SqliteJournal(path, task_name(solve_cube)) as journal:
        for cube, answer in rows.items():
            journal.record(QUESTION + cube, answer, 0.0)
    return path


@pytest.mark.parametrize(("moves", "reason"), [
    (WITNESS_6, "moves long"),  # a true witness of 6 moves for a question of 5
    ([37, 29, 19, 26, 20, 44, 0], "illegal"),
    ([PASS], "passes while a move exists"),
    ([37, 29], "legal moves, not 12"),
    ("f5f4", "not a list of moves"),
])
def test_a_forged_sat_row_is_not_reported_but_solved_again(moves, reason, tmp_path, refuted):
    path = _forge(tmp_path, refuted, {"f5f4": {"status": "sat", "moves": moves, "seconds": 0.1, "formula": "loose"}})
    result = solve_by_cubes(12, 5, path, cube_plies=2)
    assert result.status == "unsat" and result.witness is None
    assert any("f5f4 is not used" in note and reason in note for note in result.notes)
    with SqliteJournal(path, task_name(solve_cube)) as journal:  # the row solved again replaced the forged one
        assert journal.results()[QUESTION + "f5f4"]["status"] == "unsat"


def test_a_witness_outside_its_cube_is_not_used(tmp_path):
    path = tmp_path / "j.db"
    with SqliteJournal(path, task_name(solve_cube)) as journal:
        journal.record("12/6/loose/f5d6", {"status": "sat", "moves": WITNESS_6, "seconds": 0.1}, 0.1)
    result = solve_by_cubes(12, 6, path, cube_plies=2)
    assert result.status == "sat" and any("f5d6 is not used (the witness" in note and "not in the cube" in note
                                          for note in result.notes)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                 max_leaves=12),
    st.fixed_dictionaries({"status": st.sampled_from(["sat", "unsat", "unknown", "SAT", 1]),
                           "moves": st.lists(st.integers(-2, 70), max_size=12),
                           "seconds": st.one_of(st.floats(), st.integers(-5, 5))})))
def test_fuzzed_journal_rows_never_give_a_false_sat_or_a_traceback(tmp_path_factory, refuted, row):
    path = _forge(tmp_path_factory.mktemp("fuzz"), refuted, {"f5d6": row})
    result = solve_by_cubes(12, 5, path, cube_plies=2)
    assert result.status == "unsat"


def test_a_row_nested_too_deeply_to_read_is_solved_again(tmp_path, refuted):
    path = _forge(tmp_path, refuted, {})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE results SET result = ? WHERE key = ?", ("[" * 100_000 + "]" * 100_000, QUESTION + "f5f6"))
    db.close()
    result = solve_by_cubes(12, 5, path, cube_plies=2)
    assert result.status == "unsat" and any("f5f6 is not used" in note for note in result.notes)


def test_a_journal_made_without_proofs_resumed_with_them_solves_and_proves_again(tmp_path, refuted):
    path = _forge(tmp_path, refuted, {})
    proofs = tmp_path / "proofs"
    proofs.mkdir()
    result = solve_by_cubes(12, 5, path, cube_plies=2, proof_dir=proofs)
    assert result.status == "unsat" and result.cube_proofs == {"verified": 3} and result.coverage.accepted
    assert result.journalled == 0 and sum("proof" in note and "missing" in note for note in result.notes) == 3
    (proofs / "cube-f5d6.drat").write_text("1 2 0\n")  # the other two proofs are checked again and pass
    forged = solve_by_cubes(12, 5, path, cube_plies=2, proof_dir=proofs)
    assert forged.journalled == 2 and forged.cube_proofs == {"verified": 3}
    assert len(forged.notes) == 1 and "cube-f5d6.drat is rejected" in forged.notes[0]


def test_the_output_says_the_answer_came_from_the_journal(tmp_path, capsys):
    arguments = ["othello", "cubes", "--legal-moves", "12", "--plies", "6", "--cube-plies", "2", "--workers", "1",
                 "--quiet", "--journal", str(tmp_path / "j.db")]
    assert main(arguments) == 0
    assert "journal" not in capsys.readouterr().out
    assert main(arguments) == 0
    text = capsys.readouterr().out
    assert "(read back from the journal, replayed again)" in text and "from the journal" in text
    assert main([*arguments, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["witness_from_journal"] is True and answer["journalled"] >= 1


def _one_line_exit_2(arguments, capsys) -> str:
    assert main(["othello", "cubes", "--legal-moves", "12", "--plies", "5", "--workers", "1", "--quiet",
                 *arguments]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("gameproof: error:")
    return err


def test_a_journal_in_a_missing_folder_is_refused(tmp_path, capsys):
    assert "cannot open the journal" in _one_line_exit_2(["--journal", str(tmp_path / "no" / "j.db")], capsys)
    assert not (tmp_path / "no").exists()


def test_a_journal_locked_by_another_process_is_refused_and_unchanged(tmp_path, refuted, capsys):
    path = tmp_path / "j.db"
    path.write_bytes(refuted)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        assert "locked" in _one_line_exit_2(["--journal", str(path)], capsys)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert path.read_bytes() == refuted


@pytest.fixture
def read_only(tmp_path, refuted):
    """A journal file this process cannot write: chmod for a user, the immutable attribute for root."""
    path = tmp_path / "j.db"
    path.write_bytes(refuted)
    path.chmod(0o444)
    as_root = os.geteuid() == 0
    if as_root and (shutil.which("chattr") is None
                    or subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False).returncode != 0):
        pytest.skip("root here cannot make a file read-only (no chattr, from e2fsprogs, or no +i on this filesystem)")
    yield path
    if as_root:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_journal_is_refused_and_unchanged(read_only, refuted, capsys):
    assert "readonly" in _one_line_exit_2(["--journal", str(read_only)], capsys)
    assert read_only.read_bytes() == refuted


def test_a_witness_of_a_million_passes_is_refused_at_once(tmp_path, refuted):
    path = _forge(tmp_path, refuted, {"f5f6": {"status": "sat", "moves": [PASS] * 1_000_000, "seconds": 0.0}})
    result = solve_by_cubes(12, 5, path, cube_plies=2)
    assert result.status == "unsat" and any("1000000 moves and passes" in note for note in result.notes)
