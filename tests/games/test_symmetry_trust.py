"""A declared symmetry is never trusted where it decides a value: a mirror that the rules break at one position
five plies deep, which the rules self-check's random games never reach, made `solve` answer "draw" where plain
minimax says "win", and the certificate of that draw was accepted. The checker now checks every image of every
position it accepts, and a solve of a game from a file that declares symmetries is confirmed by such certificates."""

from __future__ import annotations

import json

from functools import cache
from pathlib import Path

import pytest

from gameproof.answers import Value
from gameproof.certify.check import check_certificate
from gameproof.certify.records import write_certificate
from gameproof.cli import main
from gameproof.framework.declaration import DRAW, LOSS, WIN
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.certificate import certify
from gameproof.search.dfpn import Options, Search

TEMPLATE = '''"""Columns: fill a 2x4 board in turn; the first player wins by holding a whole column. The declared mirror
holds everywhere but at one position five plies deep, where the second player, to move, has lost at once."""
import sys

from gameproof.framework.bits import popcount
from gameproof.framework.declaration import DRAW, LOSS, WIN, Board, GameSpec, Symmetry

CELLS = 0xFF
TRAP_FIRST, TRAP_SECOND = {first:#x}, {second:#x}


def trapped(first, second):
    return first == TRAP_FIRST and second == TRAP_SECOND


def start():
    return 0, 0


def legal(first, second):
    if trapped(first, second):
        return 0
    return CELLS & ~(first | second)


def play(first, second, move):
    if (popcount(first | second) & 1) == 0:
        return first | move, second
    return first, second | move


def column(stones):
    return (stones & (stones >> 4) & 0xF) != 0


def result(first, second):
    if trapped(first, second):
        return LOSS
    if column(first):
        return WIN
    if column(second):
        return LOSS
    return DRAW


GAME = GameSpec(name="columns", rules=sys.modules[__name__], summary="fill a 2x4 board; hold a column",
                board=lambda: Board(2, 4), perspective=False, symmetries=({symmetries}),)
'''
#: The trap: X on a1, c1, d1 and O on c2, d2 (its mirror, X on a1, b1, d1 and O on a2, b2, is an ordinary position).
TRAPPED = {"first": 0xD, "second": 0xC0}


def columns(tmp_path: Path, symmetries: str = "Symmetry.MIRROR_COLS,") -> str:
    path = tmp_path / "columns.py"
    path.write_text(TEMPLATE.format(symmetries=symmetries, **TRAPPED))
    return str(path)


def minimax_value(game) -> Value:
    """The value for the first player by plain minimax (negamax) over the rules on Python ints, no symmetry used."""
    rules = game.rules

    @cache
    def score(first: int, second: int) -> int:
        moves = rules.legal(first, second)
        if not moves:
            return {WIN: 1, LOSS: -1, DRAW: 0}[rules.result(first, second)]
        return max(-score(*rules.play(first, second, 1 << cell)) for cell in range(8) if moves >> cell & 1)

    return Value.of_score(score(0, 0))


def test_the_trap_is_deep_enough_that_the_self_check_misses_it_and_changes_the_value(tmp_path):
    game = load_game(columns(tmp_path))  # loading runs the rules self-check, symmetry images included
    assert minimax_value(game) is Value.WIN
    assert minimax_value(load_game(columns(tmp_path, ""))) is Value.WIN


def test_solve_refuses_the_answer_a_false_symmetry_gave_naming_it(tmp_path, capsys):
    assert main(["solve", columns(tmp_path), "--quiet", "--engine", "dfpn"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "the declared symmetry mirror-cols" in err and "X-XX--OO O to move" in err


def test_plain_play_uses_no_symmetry_and_finds_the_true_value(tmp_path, capsys):
    assert main(["solve", columns(tmp_path), "--quiet", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["engine"] == "plain" and answer["value"] == "win"


def test_without_the_symmetry_solve_finds_the_true_value(tmp_path, capsys):
    assert main(["solve", columns(tmp_path, ""), "--quiet", "--json"]) == 0
    assert '"value": "win"' in capsys.readouterr().out


def test_a_certificate_proved_through_the_false_symmetry_is_rejected(tmp_path):
    game = load_game(columns(tmp_path))
    state = RulesState(game)
    search = Search(game.kernels, game.tables, game.max_plies, game.max_moves, Options(tt_mb=16), game.max_positions)
    certificate = certify(state, search, source=columns(tmp_path))
    assert certificate.header.value is Value.DRAW  # what df-pn proves when it merges the trap with its mirror
    path = tmp_path / "draw.cert"
    write_certificate(path, certificate.header, certificate.parts)
    report = check_certificate(str(path))
    assert not report.accepted and report.value is None
    assert "the declared symmetry mirror-cols fails here" in report.finding.message


def test_a_symmetry_implied_by_two_declared_ones_is_checked_too(tmp_path):
    """Two declared mirrors compose into the rotation; the checker merges by, and checks, all three."""
    from gameproof.certify.check import Images

    game = load_game(f"{Path(__file__).parents[2] / 'examples' / 'domineering.py'}:4,4")
    images = Images(game)
    assert [symmetry.value for symmetry, _ in images.group] == ["identity", "mirror-cols", "mirror-rows", "rotate-180"]


def test_every_search_of_the_game_refuses_it_the_api_and_a_book_too(tmp_path, capsys):
    from gameproof.framework.declaration import RulesError
    from gameproof.search.solve import solve

    with pytest.raises(RulesError, match="the declared symmetry mirror-cols"):
        solve(RulesState(load_game(columns(tmp_path))), Options(tt_mb=16))
    book = tmp_path / "columns.db"
    assert main(["book", "build", columns(tmp_path), str(book), "--depth", "2", "--quiet"]) == 2
    assert "the declared symmetry mirror-cols" in capsys.readouterr().err and not book.exists()


def test_a_built_in_games_certificate_is_accepted_with_every_image_checked_too(tmp_path, capsys):
    """Built-in games' symmetries are checked by the test suite, so the checker merges by them unchecked unless
    asked; asked, it checks all eight images of each position of a misère 3×3 proof and accepts it."""
    certificate = tmp_path / "m33.cert"
    assert main(["solve", "mnk-misere:3,3,3", "--certificate", str(certificate), "--quiet"]) == 0
    capsys.readouterr()
    assert check_certificate(str(certificate), every_image=True).accepted
    assert main(["certificate", "check", str(certificate), "--every-image", "--quiet"]) == 0
    assert "ACCEPTED: draw" in capsys.readouterr().out


def test_a_book_whose_levels_merge_the_trap_with_its_mirror_is_refused(tmp_path, capsys):
    """Six plies deep the trap lies among the book's own levels, which merge positions by symmetry above the leaves."""
    book = tmp_path / "columns6.db"
    assert main(["book", "build", columns(tmp_path), str(book), "--depth", "6", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the declared symmetry mirror-cols is false at X-XX--OO (O to move)" in err
    assert not book.exists()


def test_a_declaration_that_reuses_built_in_rules_with_other_symmetries_is_not_trusted_as_built_in(tmp_path, capsys):
    """Built in means gameproof's own declaration, not its rules module: Connect Four's rules declared with a
    top-bottom mirror were taken for built in, so neither the self-check nor any confirmation looked at them."""
    from gameproof.framework.registry import is_builtin

    path = tmp_path / "upside_down.py"
    path.write_text("from dataclasses import replace\n\nfrom gameproof.framework.declaration import Symmetry\n"
                    "from gameproof.games import connect4\n\n"
                    "GAME = replace(connect4.GAME, name='upside-down', aliases=(), symmetries=(Symmetry.MIRROR_ROWS,))\n")
    assert is_builtin(load_game("connect4").spec)
    assert main(["solve", f"{path}:5,4", "--value-only", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "breaks the declared symmetry mirror-rows" in err
