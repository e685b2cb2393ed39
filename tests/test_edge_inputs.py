"""Inputs at the edges, as a user (or a hostile one) gives them: numbers longer than Python converts to or from text,
rules that numba cannot compile or that are not deterministic, books of another schema, rules broken where only a
book build's jobs search. Each is one line on stderr and exit 2, files unchanged; and messages say what was checked
(the rules file a certificate was checked against, book values as values)."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.registry import unchecked_game
from gameproof.framework.state import RulesState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "games"))
from corner_rules import CORNER as RULES  # noqa: E402

HUGE = "9" * 5000  # past Python's 4,300 digits for int <-> str


def rules_file(tmp_path: Path, prelude: str = "", **changes: str) -> Path:
    """The rules above with the line marked ``# KEY`` replaced by ``changes[KEY]`` (indented as it was), and
    `prelude` put after the imports."""
    text = RULES.replace("COLS = 4\n", prelude + "\nCOLS = 4\n")
    lines = []
    for line in text.splitlines():
        marker = line.rpartition("# ")[2]
        if marker in changes:
            line = line[:len(line) - len(line.lstrip())] + changes[marker]
        lines.append(line)
    path = tmp_path / "corner.py"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str) -> str:
    """The one line a command refuses `argv` with (exit 2)."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith("gameproof: error: "), (code, err[:300])
    assert len(err) < 400
    return err


# --- numbers of more than 4,300 digits --------------------------------------------------------------------------

@pytest.mark.parametrize("name, said", [(f"connect4:7,{HUGE}", "height must be 4..16, not a number of 5,000 digits"),
                                        (f"connect4:{HUGE},6", "width must be 4..16, not a number of 5,000 digits"),
                                        (f"connect4:7,x{HUGE}", "connect4 takes 2 whole-number parameters")])
def test_a_parameter_of_5000_digits_is_out_of_range(capsys, name, said):
    assert said in refused(capsys, "games", name)


@pytest.mark.parametrize("move", [f"a{HUGE}", f"@{HUGE}"])
def test_a_move_of_5000_digits_is_no_move(capsys, move):
    assert "is not a cell of a 3x3 board" in refused(capsys, "solve", "mnk:3,3,3", "--moves", move, "--quiet")


@pytest.mark.parametrize("value, said", [("10 ** 5000", "BIG = a number of 16,610 bits"),
                                         ("1 << 64", "BIG = 18446744073709551616"),
                                         ("-(1 << 64)", "BIG = -18446744073709551616")])
def test_a_constant_past_64_bits_is_refused_by_name(tmp_path, capsys, value, said):
    """A constant the compiled rules would see cut to 64 bits (so that they would differ from the Python rules)."""
    path = rules_file(tmp_path, CONSTANTS=f'return {{"COLS": cols, "CELLS": (1 << cols) - 1, "LAST": 1 << (cols - 1), '
                                          f'"BIG": {value}}}')
    err = refused(capsys, "solve", str(path), "--quiet")
    assert f"constants() gives {said}, which does not fit in the 64 bits" in err


@pytest.mark.parametrize("change", [{"START": "return 10 ** 5000, 0"}, {"START": "return [10 ** 5000]"},
                                    {"LEGAL": "return 10 ** 5000"},
                                    {"RESULT": "if first | second:\n        return 10 ** 5000"},
                                    {"DECLARED": "perspective=False, max_plies=lambda cols: 10 ** 5000,"},
                                    {"DECLARED": "perspective=False, max_moves=lambda cols: -10 ** 5000,"}])
def test_a_rule_value_of_5000_digits_is_one_line(tmp_path, capsys, change):
    """Wherever a message shows what the rules gave, a number Python will not write is no traceback."""
    refused(capsys, "solve", str(rules_file(tmp_path, **change)), "--quiet")


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[bytes, bytes, bytes]:
    """A true certificate of m,n,k 3,3,3: its header line, its first part's line and the rest."""
    path = tmp_path_factory.mktemp("cert") / "draw.cert"
    assert main(["solve", "mnk:3,3,3", "--certificate", str(path), "--quiet"]) == 0
    header, part, rest = gzip.decompress(path.read_bytes()).split(b"\n", 2)
    return header, part, rest


@pytest.mark.parametrize("field, line, said", [("moves", 0, "the header line holds a number of more than 4,300 digits"),
                                               ("words", 0, "the header line holds a number of more than 4,300 digits"),
                                               ("game", 0, "k must be 1..26, not a number of 5,000 digits"),
                                               ("nodes", 1, "the part line holds a number of more than 4,300 digits")])
def test_a_certificate_field_of_5000_digits_is_refused(certificate, tmp_path, capsys, field, line, said):
    lines = [json.loads(text) for text in certificate[:2]]
    lines[line][field] = {"moves": [HUGE], "game": f"mnk:3,3,{HUGE}"}.get(field, HUGE)
    text = [json.dumps(data).replace(f'"{HUGE}"', HUGE) for data in lines]
    path = tmp_path / "c.cert"
    path.write_bytes(gzip.compress("\n".join(text).encode() + b"\n" + certificate[2]))
    assert said in refused(capsys, "certificate", "check", str(path), "--quiet")


# --- rules numba cannot compile -----------------------------------------------------------------------------------

@pytest.mark.parametrize("prelude, legal, said", [
    ("TABLE = [15, 7]", "return CELLS & ~(first | second) & TABLE[0]",
     "legal() cannot be compiled: line {line} of {path} uses TABLE, a module-level list; compiled rules see only"),
    ("import random", "return CELLS & ~(first | second) & random.randint(15, 15)",
     "legal() cannot be compiled: line {line} of {path} uses random, the module random"),
    ("", "return CELLS & ~(first | second) & int(str(15))",
     "legal() cannot be compiled: line {line} of {path}: No implementation of function Function(<class 'int'>)"),
    ("", "if first == 0xABCDE:\n        return 0.5\n    return CELLS & ~(first | second)",  # a game never gets there
     "legal() compiles to return float64, not ints (a / makes a float: // does not)")])
def test_rules_numba_cannot_compile_are_one_line_naming_the_function(tmp_path, capsys, prelude, legal, said):
    """What numba refuses in a rule, or a rule it compiles to give what the kernels cannot take (a float)."""
    path = rules_file(tmp_path, prelude=prelude, LEGAL=legal)
    line = path.read_text().splitlines().index(f"    {legal.splitlines()[0]}") + 1
    err = refused(capsys, "perft", str(path), "2")
    assert "gameproof: error: corner:4: " + said.format(line=line, path=path) in err


# --- rules that are not deterministic ------------------------------------------------------------------------------

def test_a_legal_that_answers_otherwise_when_asked_again_is_named_not_deterministic(tmp_path, capsys):
    """Every other call leaves a1 out: a1 is refused, and asked again the rules offer it. Deterministic rules still
    say why a move is refused."""
    path = rules_file(tmp_path, prelude="CALLS = []", LEGAL="CALLS.append(0)\n    return CELLS & ~(first | second) & "
                      "~(len(CALLS) % 2)")
    with pytest.raises(BadInput, match=r"move 1 \(a1\): corner:4: legal\(\) gave different answers for the same "
                                       r"position, asked twice \(at the start\): the rules must be deterministic"):
        RulesState(unchecked_game(str(path)), "a1")
    assert "a1 is not legal here (legal: b1, c1" in refused(capsys, "solve", "mnk:3,3,3", "--moves", "a1 a1", "--quiet")
    assert "the game is over; c3 cannot be played" in refused(capsys, "solve", "mnk:3,3,3", "--moves",
                                                              "a1 b1 a2 b2 a3 c3", "--quiet")


# --- books ---------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """A true book of m,n,k 3,3,3 to depth 1."""
    path = tmp_path_factory.mktemp("book") / "mnk.db"
    assert main(["book", "build", "mnk:3,3,3", str(path), "--depth", "1", "--quiet"]) == 0
    return path


def changed_book(book: Path, tmp_path: Path, *statements: str, parameters: tuple = ()) -> Path:
    path = tmp_path / "changed.db"
    shutil.copy(book, path)
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement, parameters)
    db.close()
    return path


@pytest.mark.parametrize("table, columns", [("meta", "x INTEGER"), ("meta", "name TEXT, value TEXT, extra TEXT"),
                                            ("positions", "y")])
@pytest.mark.parametrize("command", [["dump"], ["verify"], ["query"], ["build", "mnk:3,3,3"]])
def test_a_book_table_of_another_schema_is_not_a_book_and_stays_as_it_was(book, tmp_path, capsys, table, columns,
                                                                           command):
    path = changed_book(book, tmp_path, f"DROP TABLE {table}", f"CREATE TABLE {table} ({columns})")
    before = path.read_bytes()
    argv = ["book", command[0], *command[1:], str(path)] + (["--depth", "1"] if command[0] == "build" else [])
    assert f"is not a gameproof book: its table {table} has other columns than a book's" in refused(capsys, *argv)
    assert path.read_bytes() == before


@pytest.mark.parametrize("statement, said", [
    ("UPDATE meta SET value = ? WHERE name = 'depth'", 'its meta row "depth" is'),
    ("UPDATE meta SET value = ? WHERE name = 'format'", "is in book format a number of 5,000 digits"),
    ("UPDATE positions SET key = ? WHERE plies = 0", "is not a position's key"),
    ("UPDATE positions SET moves = '{\"' || ? || '\": \"win\"}' WHERE plies = 0", "is not a move number")])
def test_a_book_field_of_5000_digits_is_a_damaged_book(book, tmp_path, capsys, statement, said):
    path = changed_book(book, tmp_path, statement, parameters=(HUGE,))
    assert said in refused(capsys, "book", "dump", str(path))


def test_a_book_mismatch_says_values_not_their_reprs(book, tmp_path, capsys):
    path = changed_book(book, tmp_path, "UPDATE positions SET value = 'win' WHERE plies = 0")
    code, out, _ = run(capsys, "book", "verify", str(path), "--quiet")
    assert code == 1 and "<Value" not in out
    assert "problem: (start): book says win (a1:draw b1:draw c1:draw a2:draw b2:draw" in out
    assert ", re-check gives draw (a1:draw b1:draw" in out


@pytest.mark.parametrize("workers", ["1", "2"])
def test_rules_broken_below_a_book_leaf_are_the_line_a_solve_gives(tmp_path, capsys, workers):
    """result() gives a code of no result at one full row, which the searches reach (and random games from the start
    hardly ever): the build's line is the solve's (but for the depth, which the searches count each their way)."""
    path = rules_file(tmp_path, RESULT="if first == 0x555:\n        return 9\n    "
                                       "if (first & LAST != 0) == first_to_move(first, second):")
    solved = refused(capsys, "solve", f"{path}:12", "--quiet")
    assert "result() returned a code that is none of ONGOING, WIN, LOSS, DRAW" in solved
    built = tmp_path / "corner.db"
    err = refused(capsys, "book", "build", f"{path}:12", str(built), "--depth", "1", "--workers", workers, "--quiet")
    assert re.sub(r"at depth \d+", "", err) == re.sub(r"at depth \d+", "", solved)
    assert not built.exists()


# --- a certificate's rules file ------------------------------------------------------------------------------------

def test_certificate_check_says_which_rules_file_and_hash_it_checked(certificate, tmp_path, capsys, monkeypatch):
    """That of a game loaded from a file, at the path the certificate gives or at --rules; a built-in game has none."""
    built_in = tmp_path / "built_in.cert"
    built_in.write_bytes(gzip.compress(b"\n".join(certificate)))
    code, out, _ = run(capsys, "certificate", "check", str(built_in), "--quiet")
    assert code == 0 and "rules:" not in out
    monkeypatch.chdir(ROOT)
    certificate = tmp_path / "d.cert"
    assert main(["solve", "examples/domineering.py:4,4", "--certificate", str(certificate), "--quiet",
                 "--value-only"]) == 0
    digest = hashlib.sha256((ROOT / "examples/domineering.py").read_bytes()).hexdigest()
    capsys.readouterr()
    code, out, _ = run(capsys, "certificate", "check", str(certificate), "--quiet")
    assert code == 0
    assert f"  rules: examples/domineering.py, whose content has the certificate's sha256 {digest}\n" in out
    moved = tmp_path / "moved.py"
    shutil.copy(ROOT / "examples/domineering.py", moved)
    code, out, _ = run(capsys, "certificate", "check", str(certificate), "--rules", str(moved), "--quiet")
    assert code == 0 and (f"  rules: {moved} (given by --rules; the certificate names examples/domineering.py), whose "
                          f"content has the certificate's sha256 {digest}\n") in out


def test_a_rule_value_whose_repr_raises_is_named_by_its_type(tmp_path, capsys):
    path = tmp_path / "odd.py"
    path.write_text("import sys\nfrom gameproof.framework.declaration import LOSS, Board, GameSpec\n\n\n"
                    "class Odd:\n    def __repr__(self):\n        raise RuntimeError('no')\n\n\n"
                    "def start():\n    return Odd()\n\n\ndef legal(x):\n    return 0\n\n\n"
                    "def play(x, m):\n    return (x | m,)\n\n\ndef result(x):\n    return LOSS\n\n\n"
                    "GAME = GameSpec(name='odd', rules=sys.modules[__name__], summary='odd', board=lambda: Board(2, 2))\n")
    err = refused(capsys, "solve", str(path))
    assert "start() returned a Odd whose repr() raises RuntimeError" in err
