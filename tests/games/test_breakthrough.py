"""Breakthrough (gameproof.games.breakthrough) against the slow reference in breakthrough_reference.py: the
rule functions on random playouts, the longest game, perft and exact values through the engine, a
certificate, and the self-check."""

from __future__ import annotations

import json
import random
import sys
from functools import lru_cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import breakthrough_reference as reference  # noqa: E402
from engine_checks import check_perft, check_playouts  # noqa: E402
from grid_games import perft as reference_perft  # noqa: E402
from move_masks import grid_of, rule_moves  # noqa: E402

from gameproof.cli import main  # noqa: E402
from gameproof.framework.declaration import LOSS, MAX_ESTIMATE, Engine  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.dfpn import Options  # noqa: E402
from gameproof.search.solve import solve  # noqa: E402

VALUE_NAMES = {1: "win", -1: "loss"}


def size_of(size: str) -> tuple[int, int]:
    rows, cols = size.split(",")
    return int(rows), int(cols)


# --- the rule functions, on Python ints ------------------------------------------------------------


def test_the_start_has_two_home_rows_each_from_five_rows_and_one_below():
    assert load_game("breakthrough:5,5").rules.start() == (0b11111_11111, 0b11111_11111 << 15)
    assert load_game("breakthrough:8,8").rules.start() == (0xFFFF, 0xFFFF << 48)
    assert load_game("breakthrough:4,3").rules.start() == (0b111, 0b111 << 9)


@pytest.mark.parametrize("size", ["3,3", "3,4", "4,3", "4,4", "3,5", "5,5", "6,5", "7,4", "8,8"])
def test_the_rules_agree_with_the_reference_on_random_playouts(size):
    rows, cols = size_of(size)
    game = load_game(f"breakthrough:{size}")
    rules, board = game.rules, game.board
    most_moves = game.spec.max_moves(**game.parameters)
    rng = random.Random(size)
    for _ in range(40):
        words, side, grid, plies = rules.start(), 0, reference.start(rows, cols), 0
        while True:
            assert grid_of(board, words, "WB") == grid
            moves = rule_moves(rules, board, (side, *words))
            assert sorted(moves) == sorted(reference.moves(grid, side))
            assert len(moves) <= most_moves
            if not moves:
                assert rules.result(side, *words) == LOSS
                break
            for count in rules.estimate(side, *words):
                assert 0 <= count <= MAX_ESTIMATE
            name = rng.choice(sorted(moves))
            words = rules.play(side, *words, *moves[name])
            grid, side, plies = reference.play(grid, side, name), 1 - side, plies + 1
        assert plies <= game.max_plies


@pytest.mark.parametrize("size", ["3,3", "3,4", "4,3"])
def test_max_plies_is_the_longest_game_and_plies_left_bounds_it_from_every_position(size):
    """Every position reachable on the board, found by the reference, with the rules' words beside it."""
    game = load_game(f"breakthrough:{size}")
    rules, board = game.rules, game.board

    @lru_cache(maxsize=None)
    def longest(grid, side, words):
        lengths = [0]
        for name, (frm, to) in rule_moves(rules, board, (side, *words)).items():
            after = rules.play(side, *words, frm, to)
            lengths.append(1 + longest(reference.play(grid, side, name), 1 - side, after))
        assert max(lengths) <= rules.plies_left(side, *words), grid
        return max(lengths)

    assert longest(reference.start(*size_of(size)), 0, rules.start()) == game.max_plies


def test_the_estimate_counts_each_sides_pieces_near_its_far_row_and_the_movers_breakthroughs():
    rules = load_game("breakthrough:5,5").rules
    white = 1 << 15 | 1 << 16 | 1 << 11  # a4 and b4, one step from row 5, and b3
    black = 1 << 5 | 1 << 24  # a2, one step from row 1, and e5
    assert rules.estimate(0, white, black) == (2 * 16 + 2 * 2 + 1, 2)  # a4 and b4 can break through
    assert rules.estimate(1, white, black) == (16 + 2, 2 * 2 + 1)  # a2 can


# --- through the engine ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["4,4", "5,5", "3,5"])
def test_engine_playouts_name_and_parse_the_reference_moves(size):
    check_playouts(load_game(f"breakthrough:{size}"), reference.moves, reference.play, reference.start(*size_of(size)), size)


@pytest.mark.parametrize(("size", "depth"), [("4,4", 6), ("5,5", 4), ("8,8", 3)])
def test_perft_through_the_engine_equals_the_reference(size, depth):
    state, grid = RulesState(load_game(f"breakthrough:{size}")), reference.start(*size_of(size))
    check_perft(state, reference.moves, reference.play, grid, depth, 3)


def test_the_perft_command(capsys):
    assert main(["perft", "breakthrough:5,5", "3", "--json"]) == 0
    grid = reference.start(5, 5)
    assert json.loads(capsys.readouterr().out)["paths"] == reference_perft(reference.moves, reference.play, grid, 0, 3)


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("size", ["3,3", "3,4", "4,3", "3,5", "4,4"])
def test_solved_values_equal_minimax(size, engine):
    state = RulesState(load_game(f"breakthrough:{size}"))
    solution = solve(state, Options(tt_mb=16), with_moves=False, engine=engine)
    assert solution.value == VALUE_NAMES[reference.value(reference.start(*size_of(size)), 0)]


def test_every_first_moves_value_on_4x4_equals_minimax():
    state, grid = RulesState(load_game("breakthrough:4,4")), reference.start(4, 4)
    solution = solve(state, Options(tt_mb=16))
    values = {state.move_name(move): value for move, value in solution.moves.items()}
    assert values == {move: VALUE_NAMES[-reference.value(reference.play(grid, 0, move), 1)]
                      for move in reference.moves(grid, 0)}


def test_random_positions_solve_to_their_minimax_value():
    game = load_game("breakthrough:4,4")
    rng = random.Random(7)
    for _ in range(8):
        state, grid = RulesState(game), reference.start(4, 4)
        for _ in range(rng.randrange(1, 8)):
            if state.is_over():
                break
            name = rng.choice(reference.moves(grid, state.to_move))
            grid = reference.play(grid, state.to_move, name)
            state.play(state.parse_move(name))
        if not state.is_over():
            assert solve(state, Options(tt_mb=16), with_moves=False).value == VALUE_NAMES[
                reference.value(grid, state.to_move)], state


def test_a_certificate_of_4x3_is_accepted(tmp_path, capsys):
    path = tmp_path / "breakthrough.cert"
    assert main(["solve", "breakthrough:4,3", "--certificate", str(path), "--json"]) == 0
    value = VALUE_NAMES[reference.value(reference.start(4, 3), 0)]
    assert json.loads(capsys.readouterr().out)["value"] == value
    assert main(["certificate", "check", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["accepted"] and checked["value"] == value


def test_the_self_check_passes():
    assert main(["games", "breakthrough:5,5", "--check", "--games", "100"]) == 0


@pytest.mark.heavy
def test_5x5_is_a_second_player_win_with_every_first_move_and_an_accepted_certificate(tmp_path, capsys):
    """The published result (retrograde analysis, 2006): on 5×5 with two home rows each, black wins.
    About 20 minutes on 2 cores: df-pn 158M nodes in 660 s, the certificate (6.2M positions) 100 s, its
    check 370 s."""
    path = tmp_path / "breakthrough-5x5.cert"
    assert main(["solve", "breakthrough:5,5", "--certificate", str(path), "--tt-mb", "4096", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["value"] == "loss" and answer["to_move"] == "white"
    assert sorted(answer["moves"]) == sorted(reference.moves(reference.start(5, 5), 0))
    assert set(answer["moves"].values()) == {"loss"}
    assert main(["certificate", "check", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["accepted"] and checked["value"] == "loss"
