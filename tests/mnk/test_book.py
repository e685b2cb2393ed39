"""Opening books: build (resumable, parallel), query in any orientation, dump, verify."""

import sqlite3

import pytest

from gameproof.errors import BadInput
from gameproof.games.mnk import book, reference
from gameproof.games.mnk.positions import distinct_positions
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.search.book import Book
from gameproof.search.dfpn import Options

GAME = MnkGame(3, 3, 3, "misere")
SMALL = Options(tt_mb=1)
NAMES = {1: "win", 0: "draw", -1: "loss"}


def test_build_query_verify(tmp_path):
    path = tmp_path / "book.db"
    report = book.build(GAME, 2, path, options=SMALL)
    assert report.solved == 12 and report.entries == 1 + 3 + 12
    opened, game, depth = book.open_book(path)
    with opened:
        for record in ["", "a1", "c3", "b2 a3", "a1 c3", "c1 b2"]:
            state = MnkState(GAME, record)
            answer = book.query(opened, state, depth, SMALL)
            assert answer.source == "book"
            expected = reference.move_values(state.marks(), 3, 3, 3, "misere")
            assert answer.moves == {m: NAMES[v] for m, v in expected.items()}
        assert book.query(opened, MnkState(GAME, "a1 b1 c1"), depth, SMALL).source == "df-pn"
        checked = book.verify(opened, game, depth)
    assert not checked.problems and checked.counts[book.Recheck.BY_MINIMAX] == 12
    assert checked.counts[book.Recheck.BY_CHILDREN] == 4


def test_a_killed_build_resumes(tmp_path):
    path = tmp_path / "book.db"
    with Book(path, writable=True) as partial:
        partial.set_meta(game=GAME.name, depth="2", format=book.FORMAT)
    first = book.build(GAME, 2, path, options=SMALL)
    with sqlite3.connect(path) as db:  # forget one job's leaves (those after one first move), as a kill would
        (first_leaf,) = db.execute("SELECT record FROM positions WHERE plies = 2 ORDER BY rowid").fetchone()
        db.execute("DELETE FROM positions WHERE plies <= 2 AND record LIKE ?", (first_leaf.split()[0] + " %",))
    again = book.build(GAME, 2, path, options=SMALL)
    assert 0 < again.solved < first.solved and again.solved + again.skipped == first.solved
    with Book(path) as opened:
        assert not book.verify(opened, GAME, 2).problems


def test_workers_give_the_same_book(tmp_path):
    book.build(GAME, 1, tmp_path / "one.db", options=SMALL)
    book.build(GAME, 1, tmp_path / "two.db", workers=2, options=SMALL)
    with Book(tmp_path / "one.db") as one, Book(tmp_path / "two.db") as two:
        strip = lambda e: (e.key, e.value, tuple(sorted(e.moves.items())))  # noqa: E731
        assert sorted(map(strip, one.entries())) == sorted(map(strip, two.entries()))


def test_verify_catches_a_tampered_entry(tmp_path):
    path = tmp_path / "book.db"
    book.build(GAME, 1, path, options=SMALL)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE positions SET value = 'win' WHERE record = 'b2'")
    with Book(path) as opened:
        problems = book.verify(opened, GAME, 1).problems
    assert len(problems) == 2  # the entry itself and its parent, which disagrees with it


def test_book_settings_must_match(tmp_path):
    path = tmp_path / "book.db"
    book.build(GAME, 1, path, options=SMALL)
    with pytest.raises(BadInput):
        book.build(MnkGame(3, 3, 3), 1, path)
    with pytest.raises(BadInput):
        book.open_book(tmp_path / "missing.db")


def test_books_with_keys_of_an_older_format_are_refused(tmp_path):
    path = tmp_path / "old.db"
    with Book(path, writable=True) as old:  # as books were before the keys took in the side to move
        old.set_meta(game=GAME.name, depth="1")
    for opening in (lambda: book.open_book(path), lambda: book.build(GAME, 1, path, options=SMALL)):
        with pytest.raises(BadInput, match="book format 1"):
            opening()


def test_depth_three_of_five_by_five_has_904_leaves():
    assert len(distinct_positions(MnkGame(5, 5, 3, "misere"), 3)) == 904
