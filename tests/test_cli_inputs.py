"""Wrong input anywhere on the command line gives one line on stderr and exit 2, never a traceback; a command
that fails, or only reads, leaves every file as it was (checksums before and after)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import gzip
import hashlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.cli import build_parser, main

ROOT = Path(__file__).parent.parent
FACTOR = ROOT / "examples" / "factor.py"
SMALL_BOOK = ["--rows", "3", "--cols", "3", "--k", "3", "--misere"]
FUZZ = settings(max_examples=15, deadline=None, database=None)


@dataclass
class Run:
    code: int
    out: str
    err: str


def invoke(argv: list[str]) -> Run:
    """Run the command line in this process, capturing what it prints."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # --help and --version
            code = stop.code
    return Run(code, out.getvalue(), err.getvalue())


def snapshot(folder: Path) -> dict[str, str]:
    """Every file and folder below `folder`, with a checksum of each file."""
    return {str(path.relative_to(folder)): "folder" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*"))}


def checked(argv: list[str], place: Path, writes: bool = False) -> Run:
    """Run `argv`, asserting the promises: exit 0, 1 or 2; no traceback; exit 2 is one line on stderr; nothing
    below `place` changes unless the command `writes` and succeeds."""
    before = snapshot(place)
    run = invoke(argv)
    assert run.code in (0, 1, 2), (argv, run)
    assert "Traceback" not in run.err, (argv, run.err)
    if run.code == 2:
        assert run.err.startswith("gameproof: error: ") and run.err.count("\n") == 1, (argv, run.err)
    if run.code == 2 or not writes:
        assert snapshot(place) == before, argv
    return run


#: A game whose moves (cells a2 and b2, bits 4 and 5: take one token or two) are not where its pieces are (the
#: tokens on row 1).
TOKENS_GAME = '''import sys
from gameproof.framework.declaration import LOSS, Board, GameSpec, Symmetry
ONE, TWO = 1 << 4, 1 << 5
def start():
    return (0b1111, 0)
def legal(tokens, other):
    if tokens == 0:
        return 0
    if tokens == 1:
        return ONE
    return ONE | TWO
def play(tokens, other, move):
    if move == ONE:
        return (tokens >> 1, other)
    return (tokens >> 2, other)
def result(tokens, other):
    return LOSS
GAME = GameSpec(name="tokens", rules=sys.modules[__name__], summary="take one or two tokens",
                board=lambda: Board(2, 4), symmetries=(Symmetry.IDENTITY,), perspective=False)
'''


def renamed_certificate(source: Path, target: Path, game: str) -> None:
    """Copy the certificate at `source` to `target` with another game named in its header."""
    with gzip.open(source, "rb") as read:
        header, rest = read.read().split(b"\n", 1)
    fields = json.loads(header)
    fields["game"] = game
    with gzip.open(target, "wb") as write:
        write.write(json.dumps(fields, ensure_ascii=False).encode() + b"\n" + rest)


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of inputs: a real book, files that are not books, puzzles, broken harnesses, a folder."""
    folder = tmp_path_factory.mktemp("inputs")
    assert invoke(["mnk", "book", "build", *SMALL_BOOK, "--depth", "1", "--db", str(folder / "book.db"),
                   "--quiet"]).code == 0
    (folder / "text.txt").write_text("hello\n")
    (folder / "empty.txt").write_text("")
    (folder / "zeros80.txt").write_text("0" * 80 + "\n")
    (folder / "puzzles.txt").write_text("1...3..2...3..2.\n.23..1..4.......\n")  # the second: no solution
    (folder / "exits.py").write_text("import sys\ndef h():\n    sys.exit(0)\n")
    (folder / "broken.py").write_text("def f(:\n")
    (folder / "folder").mkdir()
    (folder / "folder.py").mkdir()
    (folder / "tokens.py").write_text(TOKENS_GAME)
    assert invoke(["solve", "mnk:3,3,3", "--certificate", str(folder / "ttt.cert"), "--quiet"]).code == 0
    renamed_certificate(folder / "ttt.cert", folder / "superscript.cert", "mnk:\u00b2,3,3")
    with contextlib.closing(sqlite3.connect(folder / "other.db")) as other:
        other.execute("CREATE TABLE notes (text)")
        other.commit()
    return folder


# --- every case of issue 14, one by one ---------------------------------------------------------------

BAD_INPUT = [
    (["solve", "mnk:3,3,3", "--backend", "ray", "--address", "127.0.0.1:99999999"], "a port is a number 1..65535"),
    (["othello", "reach", "--legal-moves", "18", "--proof", "{place}/missing/x.drat"], "no folder"),
    (["check", f"{FACTOR}::factor", "--proof", "{place}/missing/p.drat"], "no folder"),
    (["check", f"{FACTOR}::factor", "--playback", "{place}/folder"], "it is a folder"),
    (["othello", "reach", "--legal-moves", "18", "--dimacs", "{place}/folder"], "it is a folder"),
    (["reach", "connect4:4,4", "--plies", "2", "--where", f"{FACTOR}::factor", "--proof", "{place}/missing/x"],
     "no folder"),
    (["check", f"{FACTOR}::factor", "--solver", "ext:false"], "exited with code 1"),
    (["check", "{place}/exits.py::h"], "SystemExit"),
    (["check", f"{FACTOR}::factor", "--timeout", "nan"], "positive number of seconds"),
    (["mnk", "solve", *SMALL_BOOK, "--epsilon", "nan"], "--epsilon"),
    (["mnk", "solve", *SMALL_BOOK, "--heuristic", str(10**20)], "--heuristic"),
    (["perft", "connect4:4,4", str(10**20)], "perft depth"),
    (["mnk", "book", "build", *SMALL_BOOK, "--depth", "1", "--db", "{place}/folder"], "it is a folder"),
    (["mnk", "book", "build", *SMALL_BOOK, "--depth", "1", "--db", "{place}/missing/b.db"], "no folder"),
    (["mnk", "book", "build", *SMALL_BOOK, "--depth", "1", "--db", "{place}/text.txt"], "not a gameproof book"),
    (["mnk", "book", "build", *SMALL_BOOK, "--depth", "1", "--db", "{place}/other.db"], "not a gameproof book"),
    (["mnk", "book", "build", *SMALL_BOOK, "--depth", "100", "--db", "{place}/deep.db"], "--depth"),
    (["mnk", "book", "build", *SMALL_BOOK, "--depth", "1", "--db", "{place}/w.db", "--workers", str(10**20)],
     "--workers"),
    (["mnk", "book", "query", "--db", "{place}/folder"], "folder"),
    (["mnk", "book", "query", "--db", "{place}/missing/b.db"], "no book"),
    (["mnk", "book", "query", "--db", "{place}/text.txt"], "not a gameproof book"),
    (["mnk", "book", "query", "--db", "{place}/empty.txt"], "not a gameproof book"),
    (["mnk", "book", "dump", "--db", "{place}/other.db"], "not a gameproof book"),
    (["mnk", "verify", "--db", "{place}/other.db"], "not a gameproof book"),
    (["book", "build", "nosuch", "{place}/new.db", "--depth", "1"], "unknown game 'nosuch'"),
    (["book", "build", "{place}/broken.py", "{place}/new.db", "--depth", "1"], "cannot import"),
    (["book", "build", "mnk:3,3,3", "{place}/book.db", "--depth", "1"], "holds mnk-misere:3,3,3 to depth 1"),
    (["book", "build", "mnk-misere:3,3,3", "{place}/text.txt", "--depth", "1"], "not a gameproof book"),
    (["book", "build", "connect4:4,4", "{place}/folder", "--depth", "1"], "it is a folder"),
    (["book", "query", "{place}/missing/b.db"], "no book"),
    (["book", "query", "{place}/book.db", "--moves", "b2 b2"], "not legal"),
    (["book", "dump", "{place}/other.db"], "not a gameproof book"),
    (["book", "verify", "{place}/empty.txt"], "not a gameproof book"),
    (["tui", "mnk", *SMALL_BOOK, "--book", "{place}/text.txt"], "not a gameproof book"),
    (["tui", "mnk", *SMALL_BOOK, "--book", "{place}/folder"], "folder"),
    (["tui", "mnk:3,3,3", "--book", "{place}/book.db"], "holds mnk-misere:3,3,3 to depth 1"),
    (["tui", "connect4:4,4", "--book", "{place}/text.txt"], "not a gameproof book"),
    (["tui", "connect4:4,4", "--score"], "connect4:4,4 declares no score"),
    (["sudoku", "solve", "1...3..2...3..2.", "--count", "--cap", str(10**30)], "--cap"),
    (["sudoku", "solve", "{place}/zeros80.txt"], "16, 81 or 256 cells, got 80 characters"),
    (["sudoku", "solve", "0" * 300], "got 300 characters"),
    (["render", "sudoku", "1.1.3..2...3..2.", "--svg", "{place}/s.svg"], "the givens repeat 1 in row 1 (r1c1 and r1c3)"),
    (["render", "othello", "f5", "--svg", "{place}/missing/x.svg"], "no folder"),
    (["othello", "show", "f5", "--svg", "-", "--json"], "--svg -"),
    # issue 24: game names in other digits than 0-9, partial parameters, folders, bounds, files that cannot be filled
    (["solve", "mnk:\u00b2,3,3"], "mnk takes 3 whole-number parameters: mnk:ROWS,COLS,K (e.g. mnk:3,3,3)"),
    (["perft", "mnk:\u00b2,3,3", "1"], "got '\u00b2,3,3'"),
    (["perft", "mnk:\u0663,3,3", "1"], "mnk takes 3"),  # an Arabic-Indic 3
    (["solve", "mnk:3,3,3", "--moves", "a\u00b2"], "not a cell"),
    (["certificate", "check", "{place}/superscript.cert"], "mnk takes 3"),
    (["perft", "connect4:5", "1"],
     "connect4 takes 2 whole-number parameters: connect4:WIDTH,HEIGHT (e.g. connect4:7,6)"),
    (["perft", "mnk-misere:4,4", "1"], "mnk-misere takes 3"),
    (["perft", "connect4:5,", "1"], "connect4 takes 2"),
    (["solve", "{place}/folder.py"], "folder.py is a folder"),
    (["check", "{place}/folder.py::h"], "folder.py is a folder"),
    (["games", "nosuch"], "unknown game 'nosuch'"),
    (["reach", "connect4:4,4", "--plies", "201", "--where", f"{FACTOR}::factor"], "between 0 and 200, got 201"),
    (["othello", "reach", "--legal-moves", "5", "--plies", "201"], "between 0 and 200, got 201"),
    (["render", "mnk:3,3,3", "--svg", "{place}/\ud800.svg"], "is not valid text"),
    (["check", f"{FACTOR}::factor", "--dimacs", "\ud800.cnf"], "is not valid text"),
]


@pytest.mark.parametrize("argv, message", BAD_INPUT, ids=lambda value: " ".join(value)[:70]
                         if isinstance(value, list) else None)
def test_bad_input_is_one_line_exit_2_and_changes_nothing(place, argv, message):
    run = checked([word.replace("{place}", str(place)) for word in argv], place)
    assert run.code == 2 and message in run.err


@pytest.mark.parametrize("argv", [["check", f"{FACTOR}::factor"], ["othello", "reach", "--legal-moves", "5",
                                                                    "--plies", "2"]], ids=["check", "othello reach"])
def test_a_dimacs_file_the_disk_cannot_hold_is_named(tmp_path, monkeypatch, argv):
    """As `--dimacs /dev/full` fails (simulated: renaming a finished file onto a device would replace it)."""

    def disk_full(*_):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("gameproof.logic.dimacs._format_clauses", disk_full)
    run = invoke([*argv, "--dimacs", "full.cnf"])
    assert run.code == 2 and run.err == "gameproof: error: full.cnf: No space left on device\n"


def test_othello_reachable_without_a_position_does_not_ask_for_a_record(place):
    run = checked(["othello", "reachable"], place)
    assert run.code == 2 and "RECORD" not in run.err and "--board" in run.err


def test_a_16x16_puzzle_is_given_inline(place):
    run = checked(["sudoku", "solve", "." * 256, "--json"], place)
    assert run.code == 0 and '"solution": "' in run.out


def test_a_file_of_puzzles_prints_each_solution(place):
    run = checked(["sudoku", "solve", str(place / "puzzles.txt"), "--quiet"], place)
    assert run.code == 1 and "puzzles.txt:1: 1234341221434321" in run.out and "puzzles.txt:2: no solution" in run.out


def test_svg_dash_is_standard_output(place, monkeypatch):
    monkeypatch.chdir(place)
    for argv in (["othello", "show", "f5", "--svg", "-"], ["render", "othello", "f5", "--svg", "-"]):
        run = checked(argv, place)
        assert run.code == 0 and run.out.startswith("<svg") and run.out.rstrip().endswith("</svg>")
    assert not (place / "-").exists()


def test_short_version_option():
    run = invoke(["-V"])
    assert run.code == 0 and run.out.startswith("gameproof ")


def test_every_command_says_its_exit_codes():
    parser = build_parser()
    leaves, todo = [], [parser]
    while todo:
        current = todo.pop()
        children = [a for a in current._actions if isinstance(a, argparse._SubParsersAction)]
        if not children:
            leaves.append(current)
        for action in children:
            todo.extend(action.choices.values())
    assert len(leaves) > 20
    for leaf in leaves:
        assert "exit codes: 0 " in leaf.format_help().replace("\n", " "), leaf.prog
        assert leaf.description, leaf.prog
    assert "3 unknown" in parser.format_help().replace("\n", " ")


def group_parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """`parser` and every parser below it that holds subcommands."""
    groups, todo = [], [parser]
    while todo:
        current = todo.pop()
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                groups.append(current)
                todo.extend(action.choices.values())
    return groups


def test_every_group_of_commands_ends_its_help_with_every_exit_code():
    groups = group_parsers(build_parser())
    assert {group.prog for group in groups} >= {"gameproof", "gameproof othello", "gameproof mnk", "gameproof mnk book"}
    for group in groups:
        help_text = " ".join(group.format_help().split())
        codes = help_text[help_text.index("exit codes: "):]
        for code in ("0 success", "1 a finding", "2 bad input", "3 unknown", "4 the --proof", "5 the work failed",
                     "130 interrupted", "143 terminated"):
            assert code in codes, (group.prog, code)


def test_work_that_fails_ends_in_one_line_and_exit_code_5_writing_nothing(tmp_path, monkeypatch):
    """A failure no input caused (here: the workers of a solve dying more often than the retries allow)."""
    from gameproof.search import jobs, parallel

    def dying(*args, **options):
        raise jobs.JobFailed("a worker died 3 times while running job solve-1")

    monkeypatch.setattr(parallel, "solve_on_workers", dying)
    certificate = tmp_path / "c4.cert"
    run = invoke(["solve", "mnk:3,3,3", "--workers", "2", "--quiet", "--certificate", str(certificate)])
    assert run.code == 5
    assert run.err.splitlines() == ["gameproof: failed: a worker died 3 times while running job solve-1"]
    assert not certificate.exists() and list(tmp_path.iterdir()) == []


def test_top_level_help_says_what_othello_holds_and_how_solve_searches():
    help_text = " ".join(invoke(["--help"]).out.split())
    othello_line = help_text[help_text.index("othello "):help_text.index(" mnk ")]
    for command in ("perft", "reach", "reachable", "equivalence", "cubes"):
        assert command in othello_line
    assert "df-pn or alpha-beta" in help_text[help_text.index("solve "):help_text.index(" perft ")]


def test_results_check_help_lists_every_result_name():
    from gameproof.results import RESULTS

    help_text = invoke(["results", "check", "--help"]).out
    assert all(result.name in help_text.split() for result in RESULTS)


def test_games_name_describes_a_built_in_game(place):
    text = checked(["games", "connect4:5,4"], place).out
    for line in ("connect4:5,4: Connect Four", "usage: connect4:WIDTH,HEIGHT (default connect4:7,6)",
                 "width = 5 (4..16, default 7", "board: 4 rows x 5 columns (20 cells)",
                 "symmetries: identity, mirror-cols",
                 "engine: alphabeta", "notation: moves named by column (a b c …)"):
        assert line in text
    described = json.loads(checked(["games", "othello", "--json"], place).out)
    assert described["name"] == "othello:8" and described["aliases"] == ["reversi"] and described["passes"]
    assert described["board"] == {"rows": 8, "cols": 8, "cells": 64} and len(described["symmetries"]) == 8
    assert described["engine"] == "dfpn" and described["notation"] == "cell" and described["chosen"] == {"n": 8}


def test_game_parameters_are_all_or_none():
    from gameproof.framework.registry import specs

    connect4 = specs()["connect4"]
    assert connect4.parse_parameters("") == {"width": 7, "height": 6}
    assert connect4.parse_parameters(" 5, 4 ") == {"width": 5, "height": 4}
    for partial in ("5", "5,", ",4", "5,4,3", "\u00b2,4", "5,\uff14"):  # the last a fullwidth 4
        with pytest.raises(ValueError, match="connect4 takes 2 whole-number parameters"):
            connect4.parse_parameters(partial)


def test_a_typed_square_takes_only_the_digits_0_to_9():
    from gameproof.tui.keys import SquareEntry

    entry = SquareEntry(rows=3)
    entry.push("b")
    assert not entry.accepts("\u00b2") and entry.accepts("2") and entry.push("2") == "b2"


def test_a_file_name_stdout_cannot_encode_is_printed_escaped(tmp_path):
    puzzles = tmp_path / "p\udcff.txt"  # the bytes b"p\xff.txt": not UTF-8
    puzzles.write_text("1...3..2...3..2.\n")
    done = subprocess.run([sys.executable, "-m", "gameproof", "sudoku", "solve", str(puzzles)], capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})  # a strict UTF-8 standard output
    assert done.returncode == 0 and done.stderr == b""
    assert b"p\\udcff.txt:1: 1234341221434321" in done.stdout


def test_check_help_names_the_default_solver():
    from gameproof.logic.solvers import DEFAULT_SOLVER

    assert f"default {DEFAULT_SOLVER}" in invoke(["check", "--help"]).out


# --- what runs in a fresh process: start-up, pipes, Ctrl-C ------------------------------------------


def gameproof(*argv: str, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "gameproof", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **options)


@pytest.mark.parametrize("argv", [["--help"], ["othello", "perft", "x"], ["check", "--help"]])
def test_help_and_argument_errors_import_no_heavy_library(argv):
    code = ("import sys\nfrom gameproof.cli import main\ntry:\n    main(sys.argv[1:])\nfinally:\n"
            "    heavy = [m for m in ('numba', 'numpy', 'pysat', 'textual', 'gameproof.logic') if m in sys.modules]\n"
            "    sys.stderr.write(f'heavy={heavy}')")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert "heavy=[]" in done.stderr


def test_a_reader_that_stops_early_is_not_an_error(tmp_path):
    puzzles = tmp_path / "many.txt"
    puzzles.write_text("1...3..2...3..2.\n" * 5000)  # far more output than a pipe holds
    child = gameproof("sudoku", "solve", str(puzzles), "--quiet")
    assert child.stdout.readline().endswith(": 1234341221434321\n")
    child.stdout.close()
    assert child.wait(timeout=120) == 0 and child.stderr.read() == ""


def test_ctrl_c_during_the_solver_race_says_only_interrupted():
    child = gameproof("othello", "reach", "--legal-moves", "34", "--timeout", "120", start_new_session=True,
                      preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4)  # encoded, and both solvers of the race running
    os.killpg(child.pid, signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130 and err == "gameproof: interrupted\n"


def test_timeout_bounds_tracing_an_endless_harness(tmp_path):
    endless = tmp_path / "endless.py"
    endless.write_text("def h():\n    while True:\n        pass\n")
    began = time.monotonic()
    run = invoke(["check", f"{endless}::h", "--timeout", "0.5", "--json"])
    assert run.code == 3 and '"status": "unknown"' in run.out and time.monotonic() - began < 30


# --- fuzzing each class of input ----------------------------------------------------------------------

SQUARES = "abcdefgh12345678"
numbers = st.one_of(st.integers(-3, 4), st.integers(60, 10**30), st.sampled_from(["", "x", "nan", "inf", "1e3", "0x5"]))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["", "x", "1e400", "-0"]))


def paths(place: Path) -> st.SearchStrategy[str]:
    """Paths of every kind: real files of each sort, a folder, missing ones, a name too long, stdout."""
    names = ["book.db", "text.txt", "empty.txt", "other.db", "puzzles.txt", "folder", "missing/x", "new.out", "x" * 300]
    return st.one_of(st.sampled_from([str(place / name) for name in names] + ["", "-"]),
                     st.text(SQUARES + "/.", max_size=12).map(lambda name: str(place / "missing" / name)))


@FUZZ
@given(record=st.text(SQUARES + "pa -", max_size=24), to_move=st.sampled_from([[], ["--to-move", "white"]]))
def test_fuzz_records(place, record, to_move):
    checked(["othello", "show", *to_move, "--", record], place)
    checked(["render", "othello", "--svg", "-", "--", record], place)


@FUZZ
@given(board=st.text("XO-xo.", min_size=60, max_size=66), player=st.one_of(st.integers(0, 2**65).map(hex),
       st.text("0123456789abcdefx", max_size=20)), opponent=st.integers(0, 2**64 - 1).map(hex))
def test_fuzz_boards_and_bitboards(place, board, player, opponent):
    checked(["othello", "show", f"--board={board}"], place)
    checked(["othello", "show", f"--player={player}", f"--opponent={opponent}", "--to-move", "white", "--json"], place)


@FUZZ
@given(game=st.sampled_from(["connect4", "othello", "mnk", "mnk-misere", "nosuch", "examples/domineering.py",
                             "examples/factor.py", "tests"]),
       parameters=st.one_of(st.just(""), st.lists(numbers.map(str), max_size=4).map(lambda p: ":" + ",".join(p))),
       depth=st.integers(-2, 2))
def test_fuzz_game_names(place, game, parameters, depth):
    checked(["perft", f"{ROOT / game if '/' in game else game}{parameters}", str(depth)], place)
    checked(["games", str(ROOT / game)], place)


@FUZZ
@given(rows=numbers, cols=numbers, k=numbers, tt_mb=floats, epsilon=floats)
def test_fuzz_numbers(place, rows, cols, k, tt_mb, epsilon):
    small = [str(min(int(v), 3)) if isinstance(v, int) else v for v in (rows, cols, k)]
    checked(["mnk", "solve", "--rows", small[0], "--cols", small[1], "--k", small[2], f"--tt-mb={tt_mb}",
             f"--epsilon={epsilon}", "--quiet", "--value-only"], place)
    checked(["othello", "perft", f"{min(rows, 3) if isinstance(rows, int) else rows}", f"--threads={cols}"], place)


@FUZZ
@given(data=st.data())
def test_fuzz_book_paths(place, data):
    db = data.draw(paths(place))
    moves = data.draw(st.text("abc123 ", max_size=8))
    checked(["mnk", "book", "query", "--db", db, f"--moves={moves}"], place)
    checked(["mnk", "book", "dump", "--db", db], place)
    checked(["mnk", "verify", "--db", db], place)
    checked(["book", "query", db, f"--moves={moves}", "--tt-mb=1"], place)
    checked(["book", "dump", db], place)
    checked(["book", "verify", db, "--tt-mb=1"], place)


def test_a_book_of_a_game_whose_moves_are_not_its_pieces_cells(place, tmp_path):
    book = str(tmp_path / "tokens.db")
    assert checked(["book", "build", str(place / "tokens.py"), book, "--depth", "2", "--quiet"], place).code == 0
    assert "verified: every entry re-checked by search" in checked(["book", "verify", book], place).out
    assert "loss  a2 b2" in checked(["book", "query", book, "--moves", "@4"], place).out


@FUZZ
@given(data=st.data())
def test_fuzz_output_paths(place, data):
    svg = data.draw(paths(place))
    checked(["render", "sudoku", "1...3..2...3..2.", "--svg", svg], place, writes=True)
    checked(["othello", "reach", "--legal-moves", "70", "--dimacs", svg], place)


@FUZZ
@given(data=st.data())
def test_fuzz_harness_paths(place, data):
    harness = data.draw(st.one_of(paths(place), st.sampled_from([str(place / "broken.py"), str(place / "exits.py")])))
    function = data.draw(st.sampled_from(["h", "f", "missing", ""]))
    checked(["check", f"{harness}::{function}"], place)


puzzles = st.one_of(st.sampled_from([15, 16, 17, 80, 81, 82, 255, 256, 257]).flatmap(
    lambda n: st.text("0.", min_size=n, max_size=n)), st.text("0123456789.ABCDEFGx #", max_size=90))


@FUZZ
@given(puzzle=puzzles, cap=st.one_of(st.integers(-1, 3), st.integers(2**63 - 2, 10**30)))
def test_fuzz_puzzles(place, puzzle, cap):
    checked(["sudoku", "solve", f"--cap={cap}", "--count", "--json", "--", puzzle], place)
    checked(["render", "sudoku", "--svg", "-", "--", puzzle], place)


OPTIONS = [  # every numeric option, on a command that is quick whatever the value
    ["othello", "reach", "--legal-moves", "5", "--plies"], ["othello", "reach", "--plies", "2", "--legal-moves"],
    ["othello", "reach", "--plies", "2", "--flips"], ["othello", "reach", "--legal-moves", "70", "--timeout"],
    ["othello", "perft", "2", "--threads"], ["perft", "mnk:3,3,3", "--count-finished"],
    ["mnk", "verify", *SMALL_BOOK, "--moves", "a1 b1 c1", "--max-empty"],
    ["mnk", "solve", *SMALL_BOOK, "--moves", "a1 b1 c1", "--tt-mb"], ["mnk", "solve", *SMALL_BOOK, "--brute-force"],
    ["mnk", "book", "build", *SMALL_BOOK, "--db", "{place}/missing/b.db", "--depth"],
    ["mnk", "book", "build", *SMALL_BOOK, "--db", "{place}/missing/b.db", "--depth", "1", "--workers"],
    ["sudoku", "solve", "1...3..2...3..2.", "--count", "--cap"], ["check", f"{FACTOR}::missing", "--timeout"],
    ["reach", "connect4:4,4", "--where", f"{FACTOR}::missing", "--plies"],
]


@FUZZ
@given(option=st.sampled_from(OPTIONS), value=st.one_of(numbers.map(str), floats.map(str)))
def test_fuzz_numeric_options(place, option, value):
    checked([word.replace("{place}", str(place)) for word in option] + [value], place)


@pytest.mark.parametrize(("argv", "weight"), [(["solve", "othello:4"], 8), (["solve", "mnk:3,3,3"], 16),
                                              (["solve", "othello:4", "--heuristic", "3"], 3),
                                              (["solve", "mnk:3,3,3", "--heuristic", "0"], 0)])
def test_df_pn_weighs_the_estimate_as_the_game_declares_unless_told(argv, weight):
    from gameproof.commands._search import options_from_args
    from gameproof.framework.registry import load_game

    assert options_from_args(build_parser().parse_args(argv), load_game(argv[1])).heuristic == weight


@pytest.mark.parametrize(("name", "meant"), [("conect4", "connect4"), ("tictactoe", "mnk:3,3,3"),
                                              ("Othelo", "othello"), ("dotsandboxes", "dots-boxes"),
                                              ("gomoku", "mnk:15,15,5"), ("breaktrough", "breakthrough")])
def test_a_misspelt_or_other_name_of_a_game_gets_a_suggestion(name, meant, capsys):
    assert main(["solve", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"unknown game {name!r} (did you mean {meant}?)" in err


def test_a_name_like_no_game_gets_no_suggestion(capsys):
    assert main(["solve", "xyzzy"]) == 2
    assert "did you mean" not in capsys.readouterr().err


@pytest.mark.parametrize(("target", "says"), [
    ("", "names no function: give FILE.py::FUNCTION; its functions: centre, grid, is_magic,"),
    ("::nosuch", "has no function 'nosuch'; its functions: centre, grid, is_magic, lines,"),
])
def test_check_without_a_known_function_lists_the_files_functions(target, says, capsys):
    assert main(["check", f"{ROOT / 'examples' / 'magic_square.py'}{target}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err


def test_perft_takes_quiet_as_the_other_long_commands_do(capsys):
    assert main(["perft", "connect4:4,4", "3", "--quiet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["paths"] == 4 ** 3


@pytest.mark.parametrize("argv", [["mnk", "solve", "--rows", "1", "--cols", "1", "--k", "1", "--tt-mb", "0"],
                                  ["solve", "mnk:1,1,1", "--tt-mb", "0"], ["solve", "mnk:1,1,1", "--epsilon", "-1"],
                                  ["solve", "mnk:1,1,1", "--score"]])
def test_a_bad_search_option_is_refused_before_the_games_remarks(argv, capsys):
    """k = 1 has a remark (the first move wins); a bad option (or --score for a game without a score) is the one
    line said, not a line after it."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gameproof: error: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(("argv", "epsilon"), [(["solve", "othello:4"], 0), (["solve", "mnk-misere:3,3,3"], 0.25),
                                               (["solve", "hex:3", "--epsilon", "0.5"], 0.5),
                                               (["solve", "mnk-misere:3,3,3", "--epsilon", "0"], 0)])
def test_df_pn_takes_the_epsilon_the_game_declares_unless_told(argv, epsilon):
    from gameproof.api.running import options_for
    from gameproof.commands._search import options_from_args
    from gameproof.framework.registry import load_game

    game = load_game(argv[1])
    assert options_from_args(build_parser().parse_args(argv), game).epsilon == epsilon
    assert options_for(game, 16).epsilon == game.spec.epsilon
