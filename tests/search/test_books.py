"""Books of any declared game (`gameproof book`): the same book as the m,n,k path builds where both apply,
every entry equal to a direct solve, resumed after a lost job, moves kept by number, bad input one line."""

import json
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from gameproof.answers import Value
from gameproof.cli import main
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search import book_build, book_check
from gameproof.search.book import Book, Entry
from gameproof.search.book_game import open_book
from gameproof.search.dfpn import Options
from gameproof.search.solve import solve

DOMINEERING = Path(__file__).resolve().parents[2] / "examples" / "domineering.py"
SMALL = Options(tt_mb=16)


def run(capsys, *arguments) -> tuple[int, str, str]:
    code = main([str(argument) for argument in arguments])
    out, err = capsys.readouterr()
    return code, out, err


def rows(path: Path) -> tuple[list[tuple], list[tuple]]:
    """A book file's meta rows and entry rows, as stored."""
    with sqlite3.connect(path) as db:
        found = sorted(db.execute("SELECT * FROM meta")), sorted(db.execute("SELECT * FROM positions"))
    db.close()
    return found


@pytest.fixture(scope="module")
def connect4_book(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("book") / "c4.db"
    book_build.build(load_game("connect4:4,4"), 2, path, options=SMALL)
    return path


@pytest.fixture(scope="module")
def domineering_book(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("book")
    rules = folder / "domineering.py"
    shutil.copy(DOMINEERING, rules)  # a copy of its own, which a test changes
    assert main(["book", "build", f"{rules}:3,3", str(folder / "dom.db"), "--depth", "2", "--tt-mb", "16",
                 "--quiet"]) == 0
    return folder / "dom.db"


def test_a_generic_book_of_an_mnk_game_is_the_book_the_mnk_path_builds(tmp_path, capsys):
    generic, mnk = tmp_path / "generic.db", tmp_path / "mnk.db"
    assert run(capsys, "book", "build", "mnk:3,3,3", generic, "--depth", "3", "--tt-mb", "1", "--json")[0] == 0
    assert run(capsys, "mnk", "book", "build", "--rows", "3", "--cols", "3", "--k", "3", "--db", mnk, "--depth", "3",
               "--tt-mb", "1", "--json")[0] == 0
    (generic_meta, generic_rows), (mnk_meta, mnk_rows) = rows(generic), rows(mnk)
    assert generic_meta == mnk_meta and ("game", "mnk:3,3,3") in generic_meta
    strip = lambda row: row[:5] + row[7:]  # noqa: E731 (not the effort: nodes, seconds)
    assert [strip(row) for row in generic_rows] == [strip(row) for row in mnk_rows] and len(generic_rows) == 1 + 3 + 12 + 38
    # and each path reads the other's book
    assert run(capsys, "mnk", "verify", "--db", generic)[0] == 0
    assert run(capsys, "book", "verify", mnk, "--tt-mb", "1")[0] == 0


@pytest.mark.parametrize("fixture", ["connect4_book", "domineering_book"])
def test_every_entry_of_a_generic_book_is_what_a_direct_solve_gives(fixture, request):
    path = request.getfixturevalue(fixture)
    with Book(path) as opened:
        entries = list(opened.entries())
    _, game, depth = open_book(path)
    assert depth == 2 and {entry.method for entry in entries} >= {"children", "df-pn"}
    for entry in entries:
        state = RulesState(game, entry.record)
        solution = solve(state, SMALL)
        assert entry.key == state.key and entry.value == solution.value, entry.record
        assert entry.moves == solution.moves, entry.record  # by move number, every move of the position


@pytest.mark.parametrize(("game", "depth"), [("dots-boxes:1,2", 4), ("dots-boxes:1,2", 6), ("kalah:2,2", 3)])
def test_a_book_of_a_game_with_extra_turns_backs_up_by_the_side_to_move(game, depth, tmp_path):
    """A move that earns another turn keeps its child's value (the same side moves there), not its opposite."""
    path = tmp_path / "book.db"
    book_build.build(load_game(game), depth, path, options=SMALL)
    with Book(path) as opened:
        entries = list(opened.entries())
    rules = load_game(game)
    again = [entry for entry in entries if entry.method == "children"
             and any(RulesState(rules, entry.record).to_move == _after(rules, entry.record, move).to_move
                     for move in entry.moves)]
    assert again  # backed-up entries with a move that earns another turn
    for entry in entries:
        solution = solve(RulesState(rules, entry.record), SMALL)
        assert (entry.value, entry.moves) == (solution.value, solution.moves), entry.record
    assert book_check.verify(Book(path), rules, depth, book_check.by_search(SMALL)).problems == []


def _after(game, record: str, move: int) -> RulesState:
    state = RulesState(game, record)
    state.play(move)
    return state


@pytest.mark.parametrize(("fixture", "records"), [("connect4_book", ["a", "d", "a d", "d a", "b c", "c b"]),
                                                   ("domineering_book", ["c1", "c2", "b2", "c2 a3", "a2 b1", "c1 a1"])])
def test_a_query_in_another_orientation_gets_its_own_moves(fixture, records, request):
    path = request.getfixturevalue(fixture)
    with open_book(path)[0] as opened:
        game = open_book(path)[1]
        for record in records:
            state = RulesState(game, record)
            answer = book_check.query(opened, state, 2, book_check.by_search(SMALL))
            assert answer.source == "book" and answer.moves == solve(state, SMALL).moves, record


def test_a_query_names_how_it_checked_and_searches_beyond_the_book(connect4_book, capsys):
    with open_book(connect4_book)[0] as opened:
        beyond = book_check.query(opened, RulesState(load_game("connect4:4,4"), "a a a"), 2, book_check.by_search(SMALL))
    assert beyond.source == "alpha-beta"  # connect4's own engine
    code, out, _ = run(capsys, "book", "query", connect4_book, "--moves", "d a", "--json", "--tt-mb", "16")
    answer = json.loads(out)
    assert code == 0 and answer["checked"] == "by a fresh search" and set(answer["moves"]) == {"a", "b", "c", "d"}


def test_a_book_searched_through_is_verified_and_a_forged_leaf_is_found(domineering_book, tmp_path, capsys):
    path = tmp_path / "dom.db"
    shutil.copy(domineering_book, path)
    code, out, _ = run(capsys, "book", "verify", path, "--tt-mb", "16")
    assert code == 0 and "verified: every entry re-checked by search" in out
    code, out, _ = run(capsys, "book", "verify", path, "--consistency-only", "--json")
    assert code == 3 and json.loads(out)["verdict"] == "consistent, not verified"
    game = open_book(path)[1]
    with Book(path, writable=True) as opened:  # a leaf forged consistently: its moves and value all flipped
        leaf = next(entry for entry in opened.entries() if entry.method == "df-pn")
        flipped = {move: value.flipped() for move, value in leaf.moves.items()}
        opened.put(Entry(leaf.key, leaf.record, leaf.plies, Value.best(flipped.values()), flipped))
    code, out, _ = run(capsys, "book", "verify", path, "--tt-mb", "16")
    assert code == 1 and "MISMATCH" in out
    code, out, err = run(capsys, "book", "query", path, "--moves", leaf.record, "--tt-mb", "16")
    assert code == 2 and out == "" and "fails its re-check" in err and len(err.splitlines()) == 1
    assert RulesState(game, leaf.record).key == leaf.key


def test_a_build_that_lost_jobs_resumes_to_the_same_book(connect4_book, tmp_path):
    path = tmp_path / "c4.db"
    shutil.copy(connect4_book, path)
    with sqlite3.connect(path) as db:  # forget the backed-up entries and one job's leaves, as a kill would leave it
        db.execute("DELETE FROM positions WHERE plies < 2 OR record LIKE 'a %'")
    db.close()
    again = book_build.build(load_game("connect4:4,4"), 2, path, options=SMALL)
    assert 0 < again.solved < again.solved + again.skipped == 8
    assert rows(path)[0] == rows(connect4_book)[0]
    same = lambda found: [row[:5] + row[7:] for row in found[1]]  # noqa: E731
    assert same(rows(path)) == same(rows(connect4_book))


def _leaves(path: Path) -> int:
    """How many solved leaves the book at `path` holds now (0 before its tables are there)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("SELECT COUNT(*) FROM positions WHERE method = 'df-pn'").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_build_killed_by_sigkill_resumes_to_the_same_book(tmp_path, killed_midway):
    game = f"{DOMINEERING}:4,5"
    book_build.build(load_game(game), 4, tmp_path / "whole.db", options=SMALL)

    def command(attempt: int) -> list[str]:
        return [sys.executable, "-m", "gameproof", "book", "build", game, str(tmp_path / f"book{attempt}.db"),
                "--depth", "4", "--workers", "2", "--tt-mb", "16", "--quiet"]

    attempt, kept = killed_midway(command, lambda attempt: _leaves(tmp_path / f"book{attempt}.db"), 200, 945)
    path = tmp_path / f"book{attempt}.db"
    resumed = subprocess.run([*command(attempt), "--json"], capture_output=True, text=True, check=True)
    summary = json.loads(resumed.stdout)
    assert summary["already_there"] == kept and summary["solved"] == 945 - kept  # no finished leaf solved again
    same = lambda found: [row[:5] + row[7:] for row in found[1]]  # noqa: E731
    assert rows(path)[0] == rows(tmp_path / "whole.db")[0] and same(rows(path)) == same(rows(tmp_path / "whole.db"))


def test_moves_are_kept_by_number_beyond_64(tmp_path):
    entry = Entry(12345, "a1", 1, Value.WIN, {3: Value.LOSS, 64: Value.DRAW, 4096 * 64 + 17: Value.WIN})
    with Book(tmp_path / "book.db", writable=True) as opened:
        opened.put(entry)
        assert opened.get(12345) == entry
    assert Entry.from_json(json.loads(json.dumps(entry.as_json()))) == entry


def test_a_changed_game_file_is_refused(domineering_book, tmp_path, capsys):
    path = tmp_path / "dom.db"
    shutil.copy(domineering_book, path)
    rules = domineering_book.parent / "domineering.py"
    original = rules.read_text()
    try:
        rules.write_text(original + "\n# changed\n")
        for command in (["book", "query", path], ["book", "verify", path], ["book", "dump", path],
                        ["book", "build", f"{rules}:3,3", path, "--depth", "2"]):
            code, out, err = run(capsys, *command)
            assert code == 2 and out == "" and len(err.splitlines()) == 1 and "has changed" in err, command
    finally:
        rules.write_text(original)
    assert run(capsys, "book", "dump", path)[0] == 0


@pytest.mark.parametrize(("command", "message"), [
    (["book", "build", "nosuch:3", "{new}", "--depth", "1"], "unknown game"),
    (["book", "build", "domineering_file:3,3", "{book}", "--depth", "2"], "holds connect4:4,4 to depth 2"),
    (["book", "build", "connect4:4,4", "{book}", "--depth", "1"], "holds connect4:4,4 to depth 2, deeper than"),
    (["book", "build", "connect4:4,4", "{new}", "--depth", "17"], "--depth must be between 0 and 16"),
    (["book", "query", "{new}"], "no book at"),
    (["book", "query", "{book}", "--moves", "e"], "not a column"),
])
def test_bad_input_is_one_line_and_exit_2_with_no_file_changed(connect4_book, tmp_path, capsys, command, message):
    path = tmp_path / "c4.db"
    shutil.copy(connect4_book, path)
    before = path.read_bytes()
    fill = {"{new}": str(tmp_path / "new.db"), "{book}": str(path), "domineering_file:3,3": f"{DOMINEERING}:3,3"}
    code, out, err = run(capsys, *(fill.get(word, word) for word in command))
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and message in err, err
    assert path.read_bytes() == before and not (tmp_path / "new.db").exists()


@pytest.mark.parametrize(("table", "column", "value"), [
    ("meta", "game", "connect4:99,99"), ("meta", "game", "nosuch"), ("meta", "format", "2"),
    ("meta", "file", str(DOMINEERING)), ("positions", "moves", '{"a": "win"}'), ("positions", "value", "maybe")])
@pytest.mark.parametrize("command", [["book", "query"], ["book", "verify"], ["book", "dump"]])
def test_damaged_rows_are_one_line_and_exit_2(connect4_book, tmp_path, capsys, table, column, value, command):
    path = tmp_path / "c4.db"
    shutil.copy(connect4_book, path)
    with sqlite3.connect(path) as db:
        if table == "meta":
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (column, value))
        else:
            db.execute(f"UPDATE positions SET {column} = ? WHERE plies = 0", (value,))
    db.close()
    damaged = path.read_bytes()
    code, out, err = run(capsys, *command, path, "--tt-mb", "16") if command[-1] != "dump" else run(capsys, *command, path)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("gameproof: error:"), err
    assert path.read_bytes() == damaged


@pytest.fixture(scope="module")
def scored_books(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("scored")
    books = {}
    for game, depth in (("dots-boxes:1,2", 4), ("kalah:2,2", 3)):
        books[game] = folder / f"{game.replace(':', '_')}.db"
        book_build.build(load_game(game), depth, books[game], options=SMALL, scores=True)
    return books


@pytest.mark.parametrize("game", ["dots-boxes:1,2", "kalah:2,2"])
def test_every_entry_of_a_book_with_scores_holds_the_exact_scores(scored_books, game):
    from gameproof.search.score import exact_score

    rules = load_game(game)
    with Book(scored_books[game]) as opened:
        entries = list(opened.entries())
        assert opened.scored and {entry.method for entry in entries} >= {"children", "df-pn"}
        for entry in entries:
            solution = exact_score(RulesState(rules, entry.record), SMALL)
            assert (entry.score, entry.move_scores) == (solution.score, solution.moves), entry.record
            assert entry.value == Value.of_score(entry.score)
            assert entry.moves == {move: Value.of_score(score) for move, score in solution.moves.items()}
        depth = open_book(scored_books[game])[2]
        assert book_check.verify(opened, rules, depth, book_check.by_search(SMALL)).problems == []


@pytest.mark.parametrize("forged", ["leaf", "interior", "missing"])
def test_a_forged_score_is_found_by_verify_and_refused_by_query(scored_books, tmp_path, capsys, forged):
    """A score moved by one, even where its value stays the same, and a score dropped."""
    path = tmp_path / "book.db"
    shutil.copy(scored_books["dots-boxes:1,2"], path)
    with Book(path, writable=True) as opened:
        method = "children" if forged == "interior" else "df-pn"
        entry = next(entry for entry in opened.entries() if entry.method == method and entry.score > 0)
        if forged == "missing":
            changed = replace(entry, score=None, move_scores={})
        else:
            changed = replace(entry, score=entry.score + 1,
                              move_scores={move: score + (score > 0) for move, score in entry.move_scores.items()})
        assert changed.value == entry.value
        opened.put(changed)
    code, out, _ = run(capsys, "book", "verify", path, "--tt-mb", "16")
    assert code == 1 and "MISMATCH" in out and (entry.record or "(start)") in out
    code, out, err = run(capsys, "book", "query", path, "--moves", entry.record, "--tt-mb", "16")
    assert code == 2 and out == "" and "fails its re-check" in err and len(err.splitlines()) == 1


def test_a_query_of_a_book_with_scores_gives_every_moves_score(scored_books, capsys):
    path = scored_books["dots-boxes:1,2"]
    code, out, _ = run(capsys, "book", "query", path, "--json", "--tt-mb", "16")
    answer = json.loads(out)
    assert code == 0 and answer["source"] == "book" and answer["score"] == 0
    assert answer["move_scores"] == {"c2": 0} | {name: -2 for name in ("b1", "d1", "a2", "e2", "b3", "d3")}
    code, out, _ = run(capsys, "book", "query", path, "--moves", "b1 d1 a2 e2 c2", "--json", "--tt-mb", "16")
    beyond = json.loads(out)  # 5 plies: beyond the book, searched with scores
    assert code == 0 and beyond["source"] == "df-pn" and beyond["score"] == max(beyond["move_scores"].values())
    code, out, _ = run(capsys, "book", "query", path)
    assert code == 0 and "score for the player to move: +0" in out and "-2  b1 d1 a2 e2 b3 d3" in out


@pytest.mark.parametrize(("command", "message"), [
    (["book", "build", "connect4:4,4", "{new}", "--depth", "1", "--score"], "declares no score"),
    (["book", "build", "dots-boxes:1,2", "{values}", "--depth", "1", "--score"], "built without scores"),
    (["book", "build", "dots-boxes:1,2", "{scored}", "--depth", "4"], "built with scores"),
])
def test_scores_asked_of_a_game_or_book_without_them_are_one_line(scored_books, tmp_path, capsys, command, message):
    values = tmp_path / "values.db"
    book_build.build(load_game("dots-boxes:1,2"), 1, values, options=SMALL)
    scored = tmp_path / "scored.db"
    shutil.copy(scored_books["dots-boxes:1,2"], scored)
    before = {path: path.read_bytes() for path in (values, scored)}
    fill = {"{new}": str(tmp_path / "new.db"), "{values}": str(values), "{scored}": str(scored)}
    code, out, err = run(capsys, *(fill.get(word, word) for word in command))
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and message in err, err
    assert {path: path.read_bytes() for path in before} == before and not (tmp_path / "new.db").exists()


def test_scores_are_kept_and_read_back_and_a_book_from_before_scores_reads_as_one_without(tmp_path):
    entry = Entry(77, "a1", 1, Value.WIN, {3: Value.LOSS, 64: Value.WIN}, score=5, move_scores={3: -1, 64: 5})
    with Book(tmp_path / "book.db", writable=True) as opened:
        opened.put(entry)
        assert opened.get(77) == entry
        opened.put(replace(entry, score=None, move_scores={}))
        assert opened.get(77).score is None
    assert Entry.from_json(json.loads(json.dumps(entry.as_json()))) == entry
    with sqlite3.connect(tmp_path / "book.db") as db:  # as books were before scores had a table
        db.execute("DROP TABLE scores")
    db.close()
    with Book(tmp_path / "book.db") as opened:
        assert not opened.scored and opened.get(77) == replace(entry, score=None, move_scores={})
