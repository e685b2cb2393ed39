"""A book is not trusted: `verify` says "verified" only for what it searched, an entry is re-checked before
`query` reports it, and a damaged or locked book is one line and exit 2 with the file unchanged."""

import json
import sqlite3

import pytest

from gameproof.answers import Value
from gameproof.cli import main
from gameproof.games.mnk import book
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.search.book import Book, Entry
from gameproof.search.book_build import from_children
from gameproof.search.dfpn import Options

MISERE_4X4 = MnkGame(4, 4, 3, "misere")  # a loss for the first player
MISERE_3X3 = MnkGame(3, 3, 3, "misere")


@pytest.fixture(scope="module")
def forged(tmp_path_factory) -> bytes:
    """A misère 4×4 k3 book of depth 1 whose leaf after a1 is forged (a loss for O, consistently with its
    moves), and the start backed up from it: the book claims the first player wins."""
    path = tmp_path_factory.mktemp("book") / "forged.db"
    book.build(MISERE_4X4, 1, path, options=Options(tt_mb=16))
    with Book(path, writable=True) as opened:
        leaf = opened.get(MnkState(MISERE_4X4, "a1").key)
        opened.put(Entry(leaf.key, leaf.record, leaf.plies, Value.LOSS, dict.fromkeys(leaf.moves, Value.LOSS)))
        start = MnkState(MISERE_4X4, "")
        backed_up = from_children(start, opened)
        opened.put(backed_up)
    assert backed_up.value is Value.WIN
    return path.read_bytes()


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> bytes:
    """A true misère 3×3 book of depth 2, as bytes."""
    path = tmp_path_factory.mktemp("book") / "small.db"
    book.build(MISERE_3X3, 2, path, options=Options(tt_mb=1))
    return path.read_bytes()


def run(capsys, *arguments) -> tuple[int, str, str]:
    code = main(["mnk", *arguments])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_forged_leaf_that_is_not_searched_does_not_make_the_book_verified(forged, tmp_path, capsys):
    path = tmp_path / "forged.db"
    path.write_bytes(forged)
    code, out, _ = run(capsys, "verify", "--db", str(path))
    assert code == 3 and "NOT VERIFIED" in out and "3 leaves" in out
    assert not any(line.startswith("verified") for line in out.splitlines())
    code, out, _ = run(capsys, "verify", "--db", str(path), "--json")
    assert code == 3 and json.loads(out)["verdict"] == "consistent, not verified"


def test_a_book_searched_through_is_verified(small, tmp_path, capsys):
    path = tmp_path / "small.db"
    path.write_bytes(small)
    code, out, _ = run(capsys, "verify", "--db", str(path))
    assert code == 0 and "verified: every entry re-checked by search" in out


def test_a_query_names_how_the_entry_was_checked_and_refuses_a_forged_one(small, tmp_path, capsys):
    path = tmp_path / "small.db"
    path.write_bytes(small)
    code, out, _ = run(capsys, "book", "query", "--db", str(path), "--moves", "b2 a1", "--json")
    assert code == 0 and json.loads(out)["checked"] == "by plain minimax"
    with Book(path, writable=True) as opened:  # a leaf forged consistently: its moves and value all "win"
        leaf = opened.get(MnkState(MISERE_3X3, "b2 a1").key)
        opened.put(Entry(leaf.key, leaf.record, leaf.plies, Value.WIN, dict.fromkeys(leaf.moves, Value.WIN)))
    code, out, err = run(capsys, "book", "query", "--db", str(path), "--moves", "b2 a1")
    assert code == 2 and out == "" and "fails its re-check" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(("name", "value"), [("game", "garbage"), ("game", 42), ("depth", "x"), ("depth", "99"),
                                             ("depth", None), ("leaves", "some"), ("format", "[red]9")])
@pytest.mark.parametrize("command", [["book", "query"], ["book", "dump"], ["verify"], ["book", "build"]])
def test_bad_meta_rows_are_one_line_and_exit_2_in_every_book_command(small, tmp_path, capsys, name, value, command):
    path = tmp_path / "small.db"
    path.write_bytes(small)
    with sqlite3.connect(path) as db:
        if value is None:
            db.execute("DELETE FROM meta WHERE name = ?", (name,))
        else:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, value))
    db.close()
    damaged = path.read_bytes()
    build = ["--rows", "3", "--cols", "3", "--k", "3", "--misere", "--depth", "2"] if command[-1] == "build" else []
    code, out, err = run(capsys, *command, "--db", str(path), *build)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("gameproof: error:")
    assert path.read_bytes() == damaged


@pytest.mark.parametrize(("column", "value"), [("value", "maybe"), ("moves", "{"), ("moves", "[1]"), ("key", "k")])
def test_a_damaged_entry_is_one_line_and_exit_2(small, tmp_path, capsys, column, value):
    path = tmp_path / "small.db"
    path.write_bytes(small)
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE positions SET {column} = ? WHERE plies = 0", (value,))
    db.close()
    queried = [["book", "query"]] if column != "key" else []  # a query looks the position up by its key
    for command in [*queried, ["book", "dump"], ["verify"]]:
        code, out, err = run(capsys, *command, "--db", str(path))
        assert code == 2 and len(err.splitlines()) == 1 and "damaged entry" in err, (command, err)


def test_building_a_book_another_process_holds_locked_is_refused(small, tmp_path, capsys):
    path = tmp_path / "small.db"
    path.write_bytes(small)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        code, out, err = run(capsys, "book", "build", "--rows", "3", "--cols", "3", "--k", "3", "--misere",
                             "--depth", "3", "--db", str(path))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 2 and "locked" in err and len(err.splitlines()) == 1
    assert path.read_bytes() == small


def test_text_from_the_book_is_printed_escaped(small, tmp_path, capsys):
    path = tmp_path / "small.db"
    path.write_bytes(small)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE positions SET record = ? WHERE plies = 0", ("\x1b[2J\nverified [bold]x",))
    db.close()
    code, out, _ = run(capsys, "book", "dump", "--db", str(path))
    assert code == 0 and "\x1b" not in out and "\\x1b[2J\\nverified [bold]x" in out
    code, out, _ = run(capsys, "verify", "--db", str(path))
    assert code == 1 and "\x1b" not in out and not any(line.startswith("verified") for line in out.splitlines())


def test_a_leaf_of_a_values_only_book_is_queried_and_verified(tmp_path, capsys):
    path = tmp_path / "values.db"
    book.build(MISERE_3X3, 2, path, options=Options(tt_mb=1), values_only=True)
    code, out, _ = run(capsys, "book", "query", "--db", str(path), "--moves", "b2 a1", "--json")
    assert code == 0 and json.loads(out)["value"] == "draw" and json.loads(out)["checked"] == "by plain minimax"
    assert run(capsys, "verify", "--db", str(path))[0] == 0
