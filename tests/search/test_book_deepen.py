"""A book built again with a deeper --depth is deepened: it becomes, entry for entry, the book a build to that
depth makes from nothing, resumes the same way when it is stopped half way, and verifies; a shallower --depth, a
stopped deepening asked for less, another game and other scores are each one line, exit 2, the file unchanged."""

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from gameproof.cli import main
from gameproof.framework.registry import load_game
from gameproof.search import book_build, book_check
from gameproof.search.book import Book
from gameproof.search.book_game import DEEPENING, open_book
from gameproof.search.dfpn import Options

SMALL = Options(tt_mb=16)


def contents(path: Path) -> tuple[list[tuple], ...]:
    """What a book holds, as stored: its meta rows, its entries but for their effort (nodes, seconds), its scores."""
    db = sqlite3.connect(path)
    try:
        meta = sorted(db.execute("SELECT * FROM meta"))
        entries = sorted(row[:5] + row[7:] for row in db.execute("SELECT * FROM positions"))
        return meta, entries, sorted(db.execute("SELECT * FROM scores"))
    finally:
        db.close()


def run(capsys, *arguments) -> tuple[int, str, str]:
    code = main([str(argument) for argument in arguments])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("game", "depths", "settings"), [
    ("mnk:3,3,3", (1, 3), {}),
    ("connect4:4,4", (2, 3), {}),
    ("connect4:4,4", (0, 1, 3), {"values_only": True}),
    ("dots-boxes:1,2", (2, 4), {}),  # extra turns: a child's value is the mover's own
    ("kalah:2,2", (1, 3), {"scores": True}),
])
def test_a_deepened_book_is_the_book_built_to_that_depth(game, depths, settings, tmp_path):
    rules = load_game(game)
    fresh, deepened = tmp_path / "fresh.db", tmp_path / "deepened.db"
    book_build.build(rules, depths[-1], fresh, options=SMALL, **settings)
    for shallower, depth in zip(depths, depths[1:]):
        book_build.build(rules, shallower, deepened, options=SMALL, **settings)
        report = book_build.build(rules, depth, deepened, options=SMALL, **settings)
        assert report.deepened_from == shallower and report.skipped == 0
    assert contents(deepened) == contents(fresh)
    with Book(deepened) as opened:
        assert book_check.verify(opened, rules, depths[-1], book_check.by_search(SMALL)).problems == []


class Stopped(Exception):
    """Stands for a kill: raised once some jobs of a build are in the book."""


def test_a_deepening_stopped_half_way_reads_as_the_book_it_was_and_resumes_to_the_deeper_one(tmp_path, monkeypatch,
                                                                                              capsys):
    rules, fresh, path = load_game("connect4:4,4"), tmp_path / "fresh.db", tmp_path / "c4.db"
    book_build.build(rules, 4, fresh, options=SMALL)
    book_build.build(rules, 2, path, options=SMALL)
    record = book_build._BookJournal.record
    kept = []

    def stopping(journal, key, result, seconds):
        record(journal, key, result, seconds)
        kept.append(key)
        if len(kept) == 2:
            raise Stopped

    monkeypatch.setattr(book_build._BookJournal, "record", stopping)
    with pytest.raises(Stopped):
        book_build.build(rules, 4, path, options=SMALL)
    monkeypatch.undo()
    meta = dict(contents(path)[0])
    assert meta["depth"] == "2" and meta[DEEPENING] == "4"
    with Book(path) as opened:  # still the depth-2 book, with some leaves of depth 4 besides
        assert book_check.verify(opened, rules, 2, book_check.by_search(SMALL)).problems == []
    before = path.read_bytes()
    code, out, err = run(capsys, "book", "build", "connect4:4,4", path, "--depth", "2")
    assert code == 2 and out == "" and err.count("\n") == 1 and "resume it with --depth 4" in err
    assert path.read_bytes() == before
    code, out, _ = run(capsys, "book", "build", "connect4:4,4", path, "--depth", "4", "--tt-mb", "16", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["deepened_from"] == 2 and summary["depth"] == 4
    leaves = summary["solved"] + summary["already_there"]
    assert summary["already_there"] == sum(len(key.split(",")) for key in kept) and 0 < summary["solved"] < leaves
    assert contents(path) == contents(fresh)


def test_a_deepened_book_answers_and_dumps_at_its_new_depth(tmp_path, capsys):
    path = tmp_path / "c4.db"
    assert run(capsys, "book", "build", "connect4:4,4", path, "--depth", "2", "--tt-mb", "16", "--quiet")[0] == 0
    code, out, _ = run(capsys, "book", "build", "connect4:4,4", path, "--depth", "3", "--tt-mb", "16", "--quiet")
    assert code == 0 and " depth=3 deepened_from=2 " in out and " already_there=0 " in out
    code, out, _ = run(capsys, "book", "build", "connect4:4,4", path, "--depth", "3", "--tt-mb", "16", "--quiet")
    assert code == 0 and "deepened_from" not in out and " solved=0 " in out  # as deep as asked: nothing to do
    code, out, _ = run(capsys, "book", "dump", path, "--json")
    assert code == 0 and json.loads(out)["depth"] == 3
    code, out, _ = run(capsys, "book", "query", path, "--moves", "a b", "--tt-mb", "16")
    assert code == 0 and "(book, entry re-checked against its children in the book)" in out
    code, out, _ = run(capsys, "book", "query", path, "--moves", "a b c", "--tt-mb", "16")
    assert code == 0 and "(book, entry re-checked by a fresh search)" in out
    code, out, _ = run(capsys, "book", "verify", path, "--tt-mb", "16")
    assert code == 0 and "by_children=11 by_search=26" in out
    assert open_book(path)[2] == 3


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("deepen")
    found = {"c4": folder / "c4.db", "scored": folder / "d12.db"}
    book_build.build(load_game("connect4:4,4"), 2, found["c4"], options=SMALL)
    book_build.build(load_game("dots-boxes:1,2"), 2, found["scored"], options=SMALL, scores=True)
    return found


@pytest.mark.parametrize(("command", "message"), [
    (["connect4:4,4", "{c4}", "--depth", "1"], "holds connect4:4,4 to depth 2, deeper than --depth 1"),
    (["connect4:5,4", "{c4}", "--depth", "3"], "holds connect4:4,4 to depth 2, not connect4:5,4"),
    (["connect4:4,4", "{c4}", "--depth", "3", "--values-only"], "keeps its leaves' moves only"),
    (["dots-boxes:1,2", "{scored}", "--depth", "3"], "was built with scores"),
    (["connect4:4,4", "{damaged}", "--depth", "3"], 'its meta row "deepening" is \'2\', not a depth from 3 to 16'),
])
def test_a_build_that_cannot_deepen_the_book_is_one_line_and_leaves_it_unchanged(books, tmp_path, capsys, command,
                                                                                 message):
    damaged = tmp_path / "damaged.db"
    shutil.copy(books["c4"], damaged)
    with Book(damaged, writable=True) as opened:
        opened.set_meta(**{DEEPENING: "2"})  # no deeper than the book itself
    files = {"{c4}": books["c4"], "{scored}": books["scored"], "{damaged}": damaged}
    before = {path: path.read_bytes() for path in files.values()}
    code, out, err = run(capsys, "book", "build", *(files.get(word, word) for word in command), "--tt-mb", "16")
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
    assert {path: path.read_bytes() for path in files.values()} == before
