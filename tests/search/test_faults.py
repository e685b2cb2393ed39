"""Faults: a book, journal or DIMACS file that is damaged ends in one clear line and exit 2, never a changed
file or a wrong answer."""

import hashlib
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.cli import main
from gameproof.games.mnk import book
from gameproof.games.othello.reach_direct import encode_direct
from gameproof.logic.dimacs import DimacsError, read_dimacs, write_dimacs
from gameproof.games.mnk.state import MnkGame
from gameproof.search.dfpn import Options

BUILD = ["mnk", "book", "build", "--rows", "3", "--cols", "3", "--k", "3", "--misere", "--depth", "2", "--quiet"]


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def whole_book(tmp_path_factory):
    path = tmp_path_factory.mktemp("book") / "book.db"
    book.build(MnkGame(3, 3, 3, "misere"), 2, path, options=Options(tt_mb=1))
    return path


@pytest.mark.parametrize("damage", ["truncated", "zeroed header", "garbage"])
@pytest.mark.parametrize("command", [BUILD, ["mnk", "book", "query", "--moves", "b2"], ["mnk", "book", "dump"],
                                     ["mnk", "verify"]])
def test_a_damaged_book_is_refused_and_left_as_it_was(whole_book, tmp_path, capsys, damage, command):
    path = tmp_path / "book.db"
    data = whole_book.read_bytes()
    path.write_bytes({"truncated": data[:len(data) // 3], "zeroed header": bytes(100) + data[100:],
                      "garbage": b"\x00\x01garbage" * 500}[damage])
    before = _digest(path)
    assert main([*command, "--db", str(path)]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and str(path) in error[0] and "Traceback" not in error[0]
    assert _digest(path) == before


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_a_damaged_cube_journal_is_refused_and_left_as_it_was(tmp_path, capsys, damage):
    journal = tmp_path / "j.db"
    assert main(["othello", "cubes", "--legal-moves", "13", "--plies", "6", "--cube-plies", "2", "--workers", "1",
                 "--journal", str(journal), "--json"]) == 1
    capsys.readouterr()
    data = journal.read_bytes()
    journal.write_bytes(data[:len(data) // 2] if damage == "truncated" else b"not a journal\n" * 100)
    before = _digest(journal)
    assert main(["othello", "cubes", "--legal-moves", "13", "--plies", "6", "--journal", str(journal)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert _digest(journal) == before


def test_a_resumed_book_after_a_lost_job_equals_the_whole_one(whole_book, tmp_path):
    """A book copied mid-way (the state a kill leaves: whole jobs or none) builds to the same entries."""
    path = tmp_path / "book.db"
    shutil.copy(whole_book, path)
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM positions WHERE plies <= 1 OR record LIKE 'a1 %'")
    book.build(MnkGame(3, 3, 3, "misere"), 2, path, options=Options(tt_mb=1))
    def contents(db_path):
        with book.open_book(db_path)[0] as opened:
            return sorted((e.key, e.value, tuple(sorted(e.moves.items()))) for e in opened.entries())

    assert contents(path) == contents(whole_book)


@settings(max_examples=40, deadline=None)
@given(cut=st.floats(0.0, 0.999))
def test_a_truncated_dimacs_file_is_an_error_never_a_smaller_formula(cut, tmp_path_factory):
    path = tmp_path_factory.mktemp("cnf") / "reach.cnf"
    formula = encode_direct(8, 3)
    write_dimacs(formula.cnf, path)
    text = path.read_text()
    kept = text[:int(len(text) * cut)]
    if kept.strip() == text.strip():
        return
    path.write_text(kept)
    with pytest.raises(DimacsError):
        read_dimacs(path)
