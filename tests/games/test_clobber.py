"""Clobber (gameproof.games.clobber) against the slow reference in clobber_reference.py: the rule
functions on random playouts, the bound on the plies left, the symmetries, perft and exact values
through the engine, a certificate, and the self-check."""

from __future__ import annotations

import json
import random
import sys
from functools import lru_cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import clobber_reference as reference  # noqa: E402
from engine_checks import check_perft, check_playouts  # noqa: E402
from grid_games import perft as reference_perft  # noqa: E402
from move_masks import grid_of, rule_moves  # noqa: E402

from gameproof.cli import main  # noqa: E402
from gameproof.framework.declaration import LOSS, MAX_ESTIMATE, Engine, Symmetry  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.dfpn import Options  # noqa: E402
from gameproof.search.solve import solve  # noqa: E402

VALUE_NAMES = {1: "win", -1: "loss"}
#: Boards whose value plain minimax finds in about a second or less (wins and losses; each compiles its
#: own kernels, about 10 s on a first run).
SMALL = ["1,6", "1,7", "2,3", "2,4", "2,5", "2,6", "3,3", "3,4"]


def size_of(size: str) -> tuple[int, int]:
    rows, cols = size.split(",")
    return int(rows), int(cols)


def stones(side: int) -> str:
    """The reference's characters of the (side to move's, other side's) layers."""
    return "".join(reference.STONES[s] for s in (side, 1 - side))


# --- the rule functions, on Python ints ------------------------------------------------------------


def test_the_start_is_a_full_checkerboard_with_the_first_players_stones_on_a1s_colour():
    assert load_game("clobber:2,3").rules.start() == (0b010_101, 0b101_010)
    assert load_game("clobber:8,8").rules.start() == (0xAA55_AA55_AA55_AA55, 0x55AA_55AA_55AA_55AA)


@pytest.mark.parametrize("size", ["1,1", "1,5", "2,5", "3,4", "4,4", "5,6", "8,8", "4,16", "1,26", "7,9"])
def test_the_rules_agree_with_the_reference_on_random_playouts(size):
    rows, cols = size_of(size)
    game = load_game(f"clobber:{size}")
    rules, board = game.rules, game.board
    most_moves = game.spec.max_moves(**game.parameters)
    rng = random.Random(size)
    for _ in range(30):
        words, side, grid, plies = rules.start(), 0, reference.start(rows, cols), 0
        while True:
            assert grid_of(board, words, stones(side)) == grid
            moves = rule_moves(rules, board, words)
            assert sorted(moves) == sorted(reference.moves(grid, side))
            assert len(moves) <= most_moves
            assert plies + rules.plies_left(*words) <= game.max_plies
            if not moves:
                assert rules.result(*words) == LOSS
                break
            for count in rules.estimate(*words):
                assert 0 <= count <= MAX_ESTIMATE
            name = rng.choice(sorted(moves))
            words = rules.play(*words, *moves[name])
            grid, side, plies = reference.play(grid, side, name), 1 - side, plies + 1


@pytest.mark.parametrize("size", ["2,3", "3,3", "2,5", "1,7", "3,4"])
def test_plies_left_bounds_the_longest_game_from_every_position(size):
    """Every position reachable on the board, found by the reference, with the rules' words beside it."""
    game = load_game(f"clobber:{size}")
    rules, board = game.rules, game.board

    @lru_cache(maxsize=None)
    def longest(grid, side, words):
        lengths = [0]
        for name, (frm, to) in rule_moves(rules, board, words).items():
            lengths.append(1 + longest(reference.play(grid, side, name), 1 - side, rules.play(*words, frm, to)))
        assert max(lengths) <= rules.plies_left(*words), grid
        return max(lengths)

    assert longest(reference.start(*size_of(size)), 0, rules.start()) <= game.max_plies


@pytest.mark.parametrize(("size", "kept"), [
    ("2,3", {Symmetry.MIRROR_COLS}),  # a1 <-> c1, of one colour; but a1 <-> a2 (2 rows) and a1 <-> c2 are not
    ("3,3", set(Symmetry) - {Symmetry.IDENTITY}),
    ("4,4", {Symmetry.TRANSPOSE, Symmetry.ANTI_TRANSPOSE, Symmetry.ROTATE_180}),
    ("2,4", {Symmetry.ROTATE_180}),
    ("3,5", {Symmetry.MIRROR_ROWS, Symmetry.MIRROR_COLS, Symmetry.ROTATE_180}),
])
def test_the_symmetries_are_those_that_keep_the_colours(size, kept):
    game = load_game(f"clobber:{size}")
    assert set(game.symmetries) - {Symmetry.IDENTITY} == kept
    start = reference.start(*size_of(size))
    rows, cols = size_of(size)
    for symmetry in game.symmetries:
        image = {symmetry.apply(r, c, rows, cols): start[r][c] for r in range(rows) for c in range(cols)}
        assert all(image[r, c] == start[r][c] for r in range(rows) for c in range(cols)), symmetry


# --- through the engine ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["3,4", "5,6", "4,4"])
def test_engine_playouts_name_and_parse_the_reference_moves(size):
    check_playouts(load_game(f"clobber:{size}"), reference.moves, reference.play, reference.start(*size_of(size)), size)


@pytest.mark.parametrize(("size", "depth"), [("3,4", 6), ("5,6", 3), ("8,8", 2)])
def test_perft_through_the_engine_equals_the_reference(size, depth):
    state, grid = RulesState(load_game(f"clobber:{size}")), reference.start(*size_of(size))
    check_perft(state, reference.moves, reference.play, grid, depth, 2)


def test_the_perft_command(capsys):
    assert main(["perft", "clobber:5,6", "2", "--json"]) == 0
    grid = reference.start(5, 6)
    assert json.loads(capsys.readouterr().out)["paths"] == reference_perft(reference.moves, reference.play, grid, 0, 2)


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("size", SMALL)
def test_solved_values_equal_minimax(size, engine):
    state = RulesState(load_game(f"clobber:{size}"))
    solution = solve(state, Options(tt_mb=16), with_moves=False, engine=engine)
    assert solution.value == VALUE_NAMES[reference.value(reference.start(*size_of(size)), 0)]


@pytest.mark.heavy
def test_4x4_solves_to_its_minimax_value():
    state = RulesState(load_game("clobber:4,4"))
    assert solve(state, Options(tt_mb=64), with_moves=False).value == VALUE_NAMES[
        reference.value(reference.start(4, 4), 0)]


def test_every_first_moves_value_on_3x4_equals_minimax():
    state, grid = RulesState(load_game("clobber:3,4")), reference.start(3, 4)
    solution = solve(state, Options(tt_mb=16))
    values = {state.move_name(move): value for move, value in solution.moves.items()}
    assert values == {move: VALUE_NAMES[-reference.value(reference.play(grid, 0, move), 1)]
                      for move in reference.moves(grid, 0)}


def test_a_certificate_of_3x4_is_accepted(tmp_path, capsys):
    path = tmp_path / "clobber.cert"
    assert main(["solve", "clobber:3,4", "--certificate", str(path), "--json"]) == 0
    value = VALUE_NAMES[reference.value(reference.start(3, 4), 0)]
    assert json.loads(capsys.readouterr().out)["value"] == value
    assert main(["certificate", "check", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["accepted"] and checked["value"] == value


def test_the_self_check_passes():
    assert main(["games", "clobber:5,6", "--check", "--games", "100"]) == 0
