"""The rules self-check (gameproof.framework.selfcheck): a game from a user's file gets no symmetry it does not
declare, its declared symmetries and maximum length are checked on random games, and every broken rule or
declaration is one line naming it (exit 2), before any kernel runs it."""

from __future__ import annotations

import json
import textwrap
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.declaration import ALL_SYMMETRIES, DRAW, LOSS, WIN, GameSpec, Symmetry
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))
from corner_rules import CORNER as MARKED  # noqa: E402

#: The corner game (corner_rules.py), with `{declared}` where _file adds to its declaration.
CORNER = MARKED.replace("perspective=False,  # DECLARED", "perspective=False,{declared}")

#: Breakthrough on COLS x ROWS, a row of pieces each (as a newcomer wrote it from docs/new_game.md): step
#: forward onto an empty cell or diagonally forward onto an empty or enemy cell; reaching the far row wins.
#: The mover always moves up: play() turns the board over. A move is bit from + layer * CELLS (layer 0
#: straight, 1 left, 2 right), so most moves are no cell. Games last longer than one move per cell.
BREAKTHROUGH = '''
import sys

from gameproof.framework.declaration import LOSS, Board, GameSpec, Parameter, Symmetry

COLS, ROWS = 3, 4
CELLS = COLS * ROWS
ALL = (1 << CELLS) - 1
ROW = (1 << COLS) - 1
NOT_LEFT = ALL & ~sum(1 << (r * COLS) for r in range(ROWS))
NOT_RIGHT = ALL & ~sum(1 << (r * COLS + COLS - 1) for r in range(ROWS))


def constants(cols, rows):
    cells = cols * rows
    every = (1 << cells) - 1
    return {"COLS": cols, "ROWS": rows, "CELLS": cells, "ALL": every, "ROW": (1 << cols) - 1,
            "NOT_LEFT": every & ~sum(1 << (r * cols) for r in range(rows)),
            "NOT_RIGHT": every & ~sum(1 << (r * cols + cols - 1) for r in range(rows))}


def flip(word):
    out = 0
    for r in range(ROWS):
        out |= ((word >> (r * COLS)) & ROW) << ((ROWS - 1 - r) * COLS)
    return out


def start():
    return ROW, ROW << ((ROWS - 1) * COLS)


def legal(mine, theirs):
    """The pieces that can move (each side moves up: the position is flipped after every move)."""
    if (theirs & ROW) != 0 or mine == 0:
        return 0
    empty = ALL & ~(mine | theirs)
    up = (empty >> COLS) & mine
    left = ((~mine & ALL) >> (COLS - 1)) & mine & NOT_LEFT
    right = ((~mine & ALL) >> (COLS + 1)) & mine & NOT_RIGHT
    return up | left | right


def legal_to(mine, theirs, source):
    empty = ALL & ~(mine | theirs)
    up = (source << COLS) & empty
    left = ((source & NOT_LEFT) << (COLS - 1)) & ~mine & ALL
    right = ((source & NOT_RIGHT) << (COLS + 1)) & ~mine & ALL
    return up | left | right


def play(mine, theirs, source, target):
    return flip(theirs & ~target), flip((mine & ~source) | target)


def result(mine, theirs):
    return LOSS


GAME = GameSpec(
    name="breakthrough",
    rules=sys.modules[__name__],
    summary="Breakthrough, one row of pieces each",
    parameters=(Parameter("cols", 3, 2, 8), Parameter("rows", 4, 3, 8)),
    parts=("from", "to"),
    constants=constants,
    board=lambda cols, rows: Board(rows, cols),{declared}
)
'''


def _file(tmp_path: Path, template: str, declared: str = "", more: str = "", name: str = "game.py") -> str:
    """A rules file from `template` with `declared` added to its GameSpec and `more` appended (a rule
    redefined after the declaration replaces the first one)."""
    path = tmp_path / name
    path.write_text(template.replace("{declared}", f"\n    {declared}" if declared else "") + textwrap.dedent(more))
    return str(path)


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line_error(capsys, argv: list[str], *names: str) -> str:
    code, out, err = _run(capsys, argv)
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("gameproof: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for name in names:
        assert name in err, err
    return err


def _bits(mask: int) -> list[int]:
    return [1 << bit for bit in range(64) if mask >> bit & 1]


def _children(rules, words: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The positions after each legal move, by plain enumeration (a move is a cell, or a cell and its target
    where the rules have legal_to)."""
    if not hasattr(rules, "legal_to"):
        return [tuple(rules.play(*words, move)) for move in _bits(rules.legal(*words))]
    return [tuple(rules.play(*words, source, target)) for source in _bits(rules.legal(*words))
            for target in _bits(rules.legal_to(*words, source))]


def _value(rules, words: tuple[int, ...], known: dict | None = None) -> int:
    """+1 if the side to move wins, -1 if it loses, 0 for a draw: plain minimax (games without passes)."""
    known = {} if known is None else known
    if words not in known:
        legal = rules.legal(*words)
        if legal == 0:
            known[words] = {WIN: 1, LOSS: -1, DRAW: 0}[rules.result(*words)]
        else:
            known[words] = max(-_value(rules, child, known) for child in _children(rules, words))
    return known[words]


NAMES = {1: "win", -1: "loss", 0: "draw"}


# --- no symmetry assumed, declared symmetries checked ---------------------------------------------------


def test_a_game_that_declares_no_symmetry_is_solved_with_identity_only(tmp_path, capsys):
    corner = _file(tmp_path, CORNER)
    game = load_game(f"{corner}:4")
    assert game.symmetries == [Symmetry.IDENTITY]
    code, out, _ = _run(capsys, ["solve", f"{corner}:4", "--json", "--quiet"])
    answer = json.loads(out)
    assert code == 0 and answer["value"] == NAMES[_value(game.rules, game.rules.start())] == "win"
    state = RulesState(game)
    for name, value in answer["moves"].items():
        state.play(state.parse_move(name))
        assert value == NAMES[-_value(game.rules, state.words)], name
        state.undo()


@pytest.mark.parametrize("symmetries", ["(Symmetry.MIRROR_COLS,)", "ALL_SYMMETRIES"])
def test_a_declared_symmetry_the_rules_break_is_one_line_naming_it(tmp_path, capsys, symmetries):
    corner = _file(tmp_path, CORNER.replace("Symmetry\n", "Symmetry, ALL_SYMMETRIES\n"), f"symmetries={symmetries},")
    _one_line_error(capsys, ["solve", f"{corner}:4", "--quiet"], "rules self-check", "symmetry mirror-cols",
                    "result()", "after")


def test_a_symmetry_that_holds_passes_and_is_checked(tmp_path):
    from gameproof.framework.selfcheck import self_check

    breakthrough = _file(tmp_path, BREAKTHROUGH, "symmetries=(Symmetry.MIRROR_COLS,), max_plies=lambda cols, rows: 24,")
    report = self_check(load_game(f"{breakthrough}:3,4"), 20)
    assert report.symmetries == ("identity", "mirror-cols") and report.images == report.positions > 0


def test_a_symmetry_that_moves_pieces_against_their_direction_is_refused(tmp_path, capsys):
    breakthrough = _file(tmp_path, BREAKTHROUGH, "symmetries=(Symmetry.MIRROR_ROWS,), max_plies=lambda cols, rows: 24,")
    _one_line_error(capsys, ["solve", f"{breakthrough}:3,4"], "symmetry mirror-rows", "legal()")


# --- the declared longest game --------------------------------------------------------------------------


def test_a_game_longer_than_one_move_per_cell_must_declare_its_length(tmp_path, capsys):
    breakthrough = _file(tmp_path, BREAKTHROUGH)
    _one_line_error(capsys, ["solve", f"{breakthrough}:3,4", "--quiet"], "went past 12 plies", "max_plies")
    _one_line_error(capsys, ["perft", f"{breakthrough}:3,4", "13"], "max_plies")


def test_a_declared_length_is_solved_and_counted_to_its_end(tmp_path, capsys):
    breakthrough = _file(tmp_path, BREAKTHROUGH, "max_plies=lambda cols, rows: 2 * cols * (rows - 1),")
    game = load_game(f"{breakthrough}:3,4")
    assert game.max_plies == 18
    code, out, _ = _run(capsys, ["solve", f"{breakthrough}:3,4", "--json", "--quiet"])
    answer = json.loads(out)
    assert code == 0 and answer["value"] == NAMES[_value(game.rules, game.rules.start())]
    assert all("-" in name for name in answer["moves"])  # moves from a cell to a cell, named so
    state = RulesState(game)
    for name, value in answer["moves"].items():
        state.play(state.parse_move(name))
        assert value == NAMES[-_value(game.rules, state.words)], name
        state.undo()
    code, out, _ = _run(capsys, ["perft", f"{breakthrough}:3,4", "13", "--json"])
    assert code == 0 and json.loads(out)["paths"] == _paths(game.rules, game.rules.start(), 13, {}) > 0


def _paths(rules, words: tuple[int, ...], depth: int, known: dict) -> int:
    """Move paths of `depth` plies from `words` (games that end sooner are not counted), by plain counting."""
    if (words, depth) not in known:
        children = _children(rules, words)
        known[words, depth] = len(children) if depth == 1 else sum(_paths(rules, child, depth - 1, known)
                                                                   for child in children)
    return known[words, depth]


# --- broken rules and declarations: one line naming what broke --------------------------------------------

BROKEN_RULES = {
    "legal returns a str": ("def legal(first, second):\n    return 'x'\n", "legal()"),
    "legal returns -1": ("def legal(first, second):\n    return -1\n", "legal()"),
    "legal returns 2**64": ("def legal(first, second):\n    return 1 << 64\n", "legal()"),
    "legal raises": ("def legal(first, second):\n    return 1 // (first & 0)\n", "legal() raised ZeroDivisionError"),
    "legal offers a filled cell": ("def legal(first, second):\n    return CELLS & ~first\n", "play()"),
    "play changes nothing": ("def play(first, second, move):\n    return first, second\n", "play()"),
    "play gives three words": ("def play(first, second, move):\n    return first | move, second, 0\n", "play()"),
    "play leaves the board": ("def play(first, second, move):\n    return first | move << 40, second | move\n",
                              "no cell"),
    "play returns a bare word": ("def play(first, second, move):\n    return first | move\n", "play()"),
    "result gives an unknown code": ("def result(first, second):\n    return 7\n", "result()"),
    "result says ONGOING with no pass": ("def result(first, second):\n    return ONGOING\n", "pass_turn"),
    "start gives an int": ("def start():\n    return 0\n", "start()"),
    "start gives seventeen words": ("def start():\n    return (0,) * 17\n", "start()"),
    "start gives a negative word": ("def start():\n    return ~0, 0\n", "start()"),
    "estimate gives a negative count": ("def estimate(first, second):\n    return -1, 0\n", "estimate()"),
    "a pass that never ends": ("def result(first, second):\n    return ONGOING\n\n\n"
                               "def pass_turn(first, second):\n    return first, second\n", "max_plies"),
}


@pytest.mark.parametrize("broken", sorted(BROKEN_RULES))
def test_a_broken_rule_is_one_line_naming_it(tmp_path, capsys, broken):
    source, named = BROKEN_RULES[broken]
    corner = _file(tmp_path, CORNER, more="\n\n" + source)
    _one_line_error(capsys, ["perft", f"{corner}:4", "3"], named, "corner:4")


def test_a_rule_stuck_in_a_loop_is_one_line_naming_it_not_a_hang(tmp_path, capsys, monkeypatch):
    from gameproof.framework import selfcheck

    monkeypatch.setattr(selfcheck, "CALL_SECONDS", 0.5)
    corner = _file(tmp_path, CORNER, more="\n\ndef legal(first, second):\n    spin = first\n"
                   "    while spin != 0:\n        spin = spin * 3 | 1\n    return CELLS & ~(first | second)\n")
    _one_line_error(capsys, ["perft", f"{corner}:4", "3"], "legal() did not return within 0.5 s", "after a1")


def test_the_error_names_the_position_and_the_move(tmp_path, capsys):
    corner = _file(tmp_path, CORNER, more="\n\ndef play(first, second, move):\n"
                   "    if popcount(first | second) == 2:\n        return first, second\n"
                   "    return (first | move, second) if first_to_move(first, second) else (first, second | move)\n")
    err = _one_line_error(capsys, ["perft", f"{corner}:4", "3"], "play() returned the position unchanged")
    assert re.search(r"at the position after [a-d]1 [a-d]1 \(0x[0-9a-f]+, 0x[0-9a-f]+\), move [a-d]1$", err), err


def _declared(fields: str) -> str:
    """A declaration of the file's rules with `fields` added."""
    return f"GAME = GameSpec(name='c', rules=sys.modules[__name__], summary='', {fields})\n"


BROKEN_DECLARATIONS = {
    "GAMES of a number": ("GAMES = [42]\n", "GAMES must be a list of GameSpec"),
    "GAME of a string": ("GAME = 'corner'\n", "GAME must be a GameSpec"),
    "a symmetry named by a string": (_declared("symmetries=('mirror-cols',)"), "symmetries must be a tuple of Symmetry"),
    "constants raising": (_declared("constants=lambda: {}['COLS']"), "constants() raised KeyError"),
    "a board that is no Board": (_declared("board=lambda: 3"), "board() must return a Board"),
    "max_plies of a number": (_declared("max_plies=12"), "max_plies must be a function"),
    "max_plies giving zero": (_declared("board=lambda: Board(1, 4), max_plies=lambda: 0"), "max_plies() must give"),
    "pieces for fewer words": (_declared("board=lambda: Board(1, 4), pieces='X'"), "pieces must give"),
    "a negative estimate weight": (_declared("board=lambda: Board(1, 4), estimate_weight=-1"), "estimate_weight must be"),
    "an estimate weight of True": (_declared("board=lambda: Board(1, 4), estimate_weight=True"), "estimate_weight must be"),
    "an ε of nan": (_declared("board=lambda: Board(1, 4), epsilon=float('nan')"), "epsilon must be"),
    "a negative ε": (_declared("board=lambda: Board(1, 4), epsilon=-0.5"), "epsilon must be"),
    "an ε past the largest": (_declared("board=lambda: Board(1, 4), epsilon=1e9"), "epsilon must be"),
    "an ε of text": (_declared("board=lambda: Board(1, 4), epsilon='0'"), "epsilon must be"),
}


@pytest.mark.parametrize("broken", sorted(BROKEN_DECLARATIONS))
@pytest.mark.parametrize("command", [["solve", "{file}", "--quiet"], ["games", "{file}", "--check", "--games", "2"]])
def test_a_broken_declaration_is_one_line_naming_it(tmp_path, capsys, broken, command):
    source, named = BROKEN_DECLARATIONS[broken]
    corner = _file(tmp_path, CORNER, more="\n\n" + source)
    _one_line_error(capsys, [part.replace("{file}", corner) for part in command], named)


# --- gameproof games FILE.py --check ---------------------------------------------------------------------


def test_games_check_reports_what_it_checked(capsys):
    code, out, _ = _run(capsys, ["games", str(ROOT / "examples" / "domineering.py:4,4"), "--check", "--games", "30",
                                 "--json"])
    (report,) = json.loads(out)["checked"]
    assert code == 0 and report["game"] == "domineering:4,4" and report["playouts"] == 30
    assert report["symmetries"] == ["identity", "mirror-cols", "mirror-rows", "rotate-180"]
    assert report["positions"] > 30 and report["images"] == 3 * report["positions"]
    assert 0 < report["longest"] <= report["max_plies"] == 16
    code, out, _ = _run(capsys, ["games", str(ROOT / "examples" / "domineering.py"), "--check", "--games", "3"])
    assert code == 0 and "domineering:5,5: rules self-check passed: 3 random games" in out


def test_games_check_plays_long_games_against_the_declared_length(tmp_path, capsys):
    game = load_game(f"{_file(tmp_path, BREAKTHROUGH, 'max_plies=lambda cols, rows: 18,')}:3,4")
    assert _longest(game.rules, game.rules.start()) == 13
    too_short = _file(tmp_path, BREAKTHROUGH, "max_plies=lambda cols, rows: 12,", name="short.py")
    _one_line_error(capsys, ["games", f"{too_short}:3,4", "--check"], "went past 12 plies", "max_plies")
    exact = _file(tmp_path, BREAKTHROUGH, "max_plies=lambda cols, rows: 13,", name="exact.py")
    code, out, _ = _run(capsys, ["games", f"{exact}:3,4", "--check", "--json"])
    assert code == 0 and json.loads(out)["checked"][0]["longest"] == 13
    _one_line_error(capsys, ["games", f"{exact}:3,4", "--check", "--games", "0"], "--games")


def _longest(rules, words: tuple[int, ...], known: dict | None = None) -> int:
    """The most plies a game lasts from `words` (plain search)."""
    known = {} if known is None else known
    if words not in known:
        children = _children(rules, words)
        known[words] = 1 + max(_longest(rules, child, known) for child in children) if children else 0
    return known[words]


# --- the built-in games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["connect4:5,4", "connect4:7,6", "othello:4", "othello:6", "mnk:3,3,3",
                                  "mnk-misere:4,4,3", "mnk-notakto:3,3,3", "mnk:4,3,3"])
def test_the_built_in_games_pass_the_self_check(name):
    from gameproof.framework.selfcheck import self_check

    report = self_check(load_game(name), 20)
    assert report.positions > 20 and report.longest <= report.max_plies


def test_the_built_in_games_declare_the_symmetries_they_always_had():
    assert GameSpec(name="plain", rules=load_game("connect4").spec.rules, summary="").symmetries == ()
    assert load_game("othello:6").spec.symmetries == ALL_SYMMETRIES
    assert all(load_game(name).spec.symmetries == ALL_SYMMETRIES for name in ("mnk", "mnk-misere", "mnk-notakto"))
    assert load_game("connect4").spec.symmetries == (Symmetry.MIRROR_COLS,)


# --- fuzzing: whatever a rule or a declaration gives, one line or a game ----------------------------------

_SCALARS = st.one_of(st.integers(-2**66, 2**66), st.sampled_from([0, 1, 15, 2**64 - 1, 2**64]), st.text(max_size=2),
                     st.none(), st.booleans(), st.floats(allow_nan=False, allow_infinity=False))
_VALUES = st.one_of(_SCALARS, st.lists(_SCALARS, max_size=5).map(tuple))
_RULES = ("start", "legal", "play", "result", "pass_turn", "estimate")
_FIELDS = ("board", "constants", "max_plies", "move_order", "symmetries", "pieces", "player_names", "perspective",
           "parameters", "name", "estimate_weight", "epsilon")


def _junk_rules(function: str, value: object) -> tuple[str, str]:
    """`function` of the corner game redefined to give `value`; the game's name."""
    return f"\n\ndef {function}(*words):\n    return {value!r}\n", "game.py:4"


def _junk_declaration(field: str, value: object) -> tuple[str, str]:
    """A declaration of the corner rules whose `field` is `value` (a function giving it, for those that are
    functions); the game's name."""
    fields = {"board": "lambda: Board(1, 4)"}
    fields[field] = f"lambda: {value!r}" if field in ("board", "constants", "max_plies", "move_order") else repr(value)
    return "\n\n" + _declared(", ".join(f"{key}={text}" for key, text in fields.items())), "game.py"


@settings(max_examples=200, deadline=None)
@given(junk=st.one_of(st.tuples(st.sampled_from(_RULES), _VALUES).map(lambda a: _junk_rules(*a)),
                      st.tuples(st.sampled_from(_FIELDS), _VALUES).map(lambda a: _junk_declaration(*a))))
def test_whatever_the_rules_or_the_declaration_give_is_a_game_or_one_line(tmp_path_factory, junk):
    source, name = junk
    folder = tmp_path_factory.mktemp("junk")
    (folder / "game.py").write_text(CORNER.replace("{declared}", "") + source)
    try:
        game = load_game(str(folder / name))
    except BadInput as error:
        assert "\n" not in str(error) and str(error), error
    else:
        assert game.max_plies >= 1 and len(game.symmetries) >= 1


def test_a_rule_that_breaks_past_the_self_check_is_one_line_too(tmp_path):
    from gameproof.framework.game import Game
    from gameproof.framework.registry import games_in_file

    corner = _file(tmp_path, CORNER, more="\n\ndef play(first, second, move):\n    if popcount(first | second) == 3:\n"
                   "        return 1 // (first & 0)\n    return (first | move, second) if first_to_move(first, second)"
                   " else (first, second | move)\n")
    spec = games_in_file(corner)[0]
    with pytest.raises(BadInput, match=r"corner:4: play\(\) raised ZeroDivisionError.*, after a1 b1 c1, move d1$"):
        RulesState(Game(spec, {"cols": 4}), "a1 b1 c1 d1")  # a game built without the check, as the API allows


def test_one_rules_file_with_two_symmetry_sets_gets_kernels_for_each(tmp_path):
    from gameproof.framework.game import Game
    from gameproof.framework.registry import games_in_file
    from gameproof.search.solve import solve

    both = _file(tmp_path, BREAKTHROUGH, "max_plies=lambda cols, rows: 18,", more="\n\nGAMES = [GAME, GameSpec(**{"
                 "**vars(GAME), 'name': 'mirrored', 'symmetries': (Symmetry.MIRROR_COLS,)})]\n")
    plain, mirrored = (Game(spec, {"cols": 3, "rows": 4}) for spec in games_in_file(both))
    assert len(mirrored.symmetries) == 2 and len(plain.symmetries) == 1
    mirrored_value = solve(RulesState(mirrored), with_moves=False).value  # its kernels first: two keys a frame
    assert plain.kernels is not mirrored.kernels
    expected = NAMES[_value(plain.rules, plain.rules.start())]
    assert str(solve(RulesState(plain), with_moves=False).value) == str(mirrored_value) == expected
