"""Games declared from rules: the derived kernels, RulesState, df-pn and alpha-beta against slow obvious
references written here on grids of characters, golden counts and values, keys and symmetries."""

from __future__ import annotations

import json
import random
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from gameproof.errors import BadInput
from gameproof.framework.declaration import DRAW, LOSS, PASS, WIN, Engine
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import CONTINUE, Options
from gameproof.search.perft import fast_perft, perft
from gameproof.search.solve import solve

# --- slow, obvious rules: a board is a dict {(row, col): "X" | "O"}; X moves first -------------------

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def othello_start(n: int) -> dict[tuple[int, int], str]:
    h = n // 2
    return {(h - 1, h): "X", (h, h - 1): "X", (h - 1, h - 1): "O", (h, h): "O"}


def othello_flips(board: dict, n: int, me: str, cell: tuple[int, int]) -> list[tuple[int, int]]:
    """The discs `me` flips by playing on `cell` (empty list: not a legal move)."""
    if cell in board:
        return []
    other = "O" if me == "X" else "X"
    flipped = []
    for dr, dc in DIRECTIONS:
        run = []
        r, c = cell[0] + dr, cell[1] + dc
        while 0 <= r < n and 0 <= c < n and board.get((r, c)) == other:
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and 0 <= r < n and 0 <= c < n and board.get((r, c)) == me:
            flipped += run
    return flipped


def othello_moves(board: dict, n: int, me: str) -> list[tuple[int, int]]:
    return [(r, c) for r in range(n) for c in range(n) if othello_flips(board, n, me, (r, c))]


def connect4_moves(board: dict, width: int, height: int) -> list[tuple[int, int]]:
    """The lowest empty cell of each open column, or none once somebody has four in a row."""
    if connect4_winner(board, width, height):
        return []
    moves = []
    for c in range(width):
        r = sum(1 for row in range(height) if (row, c) in board)
        if r < height:
            moves.append((r, c))
    return moves


def connect4_winner(board: dict, width: int, height: int) -> str | None:
    for (r, c), mark in board.items():
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if all(board.get((r + i * dr, c + i * dc)) == mark for i in range(4)):
                return mark
    return None


def _cell(state: RulesState, move: int) -> tuple[int, int]:
    return state.game.board.place(move)


def _grid(state: RulesState) -> dict[tuple[int, int], str]:
    board = state.game.board
    marks = state.marks()
    return {(r, c): marks[r * board.cols + c] for r in range(board.rows) for c in range(board.cols)
            if marks[r * board.cols + c] != "-"}


# --- the rules against the references --------------------------------------------------------------


@pytest.mark.parametrize("n", [4, 6, 8])
def test_othello_rules_agree_with_the_grid_reference(n):
    rng = random.Random(n)
    game = load_game(f"othello:{n}")
    for _ in range(30 if n < 8 else 10):
        state = RulesState(game)
        assert _grid(state) == othello_start(n)
        while not state.is_over():
            grid, me = _grid(state), "XO"[state.to_move]
            expected = sorted(othello_moves(grid, n, me))
            moves = state.legal_moves()
            if expected:
                assert sorted(_cell(state, m) for m in moves) == expected
            else:
                assert moves == [PASS] and othello_moves(grid, n, "OX"[state.to_move])
            move = rng.choice(moves)
            if move != PASS:
                cell = _cell(state, move)
                for flipped in othello_flips(grid, n, me, cell):
                    grid[flipped] = me
                grid[cell] = me
            state.play(move)
            assert _grid(state) == grid
        grid = _grid(state)
        assert not othello_moves(grid, n, "X") and not othello_moves(grid, n, "O")
        x, o = list(grid.values()).count("X"), list(grid.values()).count("O")
        assert state.outcome() == (x > o) - (x < o)


@pytest.mark.parametrize("size", [(4, 4), (5, 4), (7, 6), (8, 7)])
def test_connect4_rules_agree_with_the_grid_reference(size):
    width, height = size
    rng = random.Random(width * 10 + height)
    game = load_game(f"connect4:{width},{height}")
    for _ in range(40):
        state = RulesState(game)
        while True:
            grid = _grid(state)
            expected = sorted(connect4_moves(grid, width, height))
            assert sorted(_cell(state, m) for m in state.legal_moves()) == expected
            if not expected:
                break
            state.play(rng.choice(state.legal_moves()))
        winner = connect4_winner(_grid(state), width, height)
        assert state.outcome() == {"X": 1, "O": -1, None: 0}[winner]


# --- perft -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["connect4:7,6", "connect4:4,4", "othello:4", "othello:6", "othello:8"])
def test_the_derived_perft_kernel_counts_what_the_python_rules_count(name):
    state = RulesState(load_game(name))
    for depth in range(5):
        assert fast_perft(state, depth) == perft(state, depth), depth


def test_connect4_perft_matches_the_published_count():
    assert fast_perft(RulesState(load_game("connect4:7,6")), 8) == 5_673_234


def test_othello_8x8_perft_from_the_declared_rules_matches_the_published_counts():
    counts = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]
    state = RulesState(load_game("othello"))
    assert [fast_perft(state, depth) for depth in range(1, 10)] == counts


# --- the df-pn state array and keys --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["connect4:5,4", "othello:6", "othello:8"])
def test_the_kernel_state_after_moves_equals_the_state_built_afresh(name):
    game = load_game(name)
    kernels, tables = game.kernels, game.tables
    rng = random.Random(name)
    buffer = np.zeros(65, dtype=np.int64)
    for _ in range(10):
        state = RulesState(game)
        s = state.frames()
        while not state.is_over():
            n = kernels.moves(s, tables, buffer)
            assert sorted(buffer[:n].tolist()) == state.legal_moves()
            assert int(kernels.key(s, tables)) == state.key
            assert int(kernels.mover(s)) == state.to_move
            move = rng.choice(state.legal_moves())
            result = kernels.play(s, tables, move)
            state.play(move)
            fresh = state.frames()
            base, size = int(s[0]), int(s[1])
            assert list(s[base : base + size]) == list(fresh[3 : 3 + size])
            if result != CONTINUE:
                break


def test_mirror_images_share_a_key():
    game = load_game("connect4:7,6")
    left, right = RulesState(game, "a a b c"), RulesState(game, "g g f e")
    assert left.key == right.key and left.key != RulesState(game, "a a b d").key
    othello = load_game("othello:6")
    one, other = RulesState(othello), RulesState(othello)
    one.play(one.parse_move("c2"))
    other.play(other.parse_move("b3"))  # the reflection of c2 in the main diagonal
    assert one.key == other.key


def test_small_games_get_tables_no_larger_than_their_key_space():
    assert load_game("mnk:3,3,3").max_positions == 3**9
    assert load_game("mnk-notakto:3,3,3").max_positions == 2**9
    assert load_game("mnk:8,8,5").max_positions is None  # keys are hashes
    state = RulesState(load_game("mnk-misere:3,3,3"))
    assert solve(state, Options(tt_mb=64)).value == "draw"
    from gameproof.search.solve import kept_search

    assert kept_search(state.game, Options(tt_mb=64)).table.capacity <= 4 * 3**9


def test_the_side_to_move_is_part_of_the_key():
    game = load_game("othello:4")
    state = RulesState(game)
    assert game.key(state.words, 0) != game.key(state.words, 1)


# --- exact values ----------------------------------------------------------------------------------


def _minimax(game):
    rules = game.rules

    @lru_cache(maxsize=None)
    def value(words):
        legal = rules.legal(*words)
        if legal == 0:
            status = rules.result(*words)
            if status in (WIN, LOSS, DRAW):
                return {WIN: 1, LOSS: -1, DRAW: 0}[status]
            return -value(tuple(rules.pass_turn(*words)))
        best = -1
        while legal:
            move = legal & -legal
            legal ^= move
            best = max(best, -value(tuple(rules.play(*words, move))))
            if best == 1:
                break
        return best

    return value


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("name", ["connect4:4,4", "connect4:5,4", "othello:4"])
def test_both_engines_agree_with_plain_minimax_on_random_positions(name, engine):
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    game = load_game(name)
    value = _minimax(game)
    names = {1: "win", 0: "draw", -1: "loss"}
    rng = random.Random(name)
    for _ in range(6):
        state = RulesState(game)
        for _ in range(rng.randrange(0, 6)):
            if state.is_over():
                break
            state.play(rng.choice(state.legal_moves()))
        if state.is_over():
            continue
        solution = solve(state, Options(tt_mb=8), engine=engine)
        assert solution.value == names[value(state.words)], state
        for move, move_value in solution.moves.items():
            state.play(move)
            expected = names[-value(state.words)] if not state.is_over() else names[_finished(state)]
            state.undo()
            assert move_value == expected, (state, state.move_name(move))


def _finished(state: RulesState) -> int:
    """The value of a finished game for the side that made the last move."""
    outcome = state.outcome()
    return outcome if state.to_move == 1 else -outcome


CONNECT4 = json.loads((Path(__file__).parent / "connect4_values.json").read_text())["values"]
SLOW_BOARDS = {"7x5", "6x6"}  # 10-30 s each here; 7x6 is a bench run (minutes)


def _connect4_cases():
    for size, value in CONNECT4.items():
        if size != "7x6":
            marks = [pytest.mark.slow] if size in SLOW_BOARDS else []
            yield pytest.param(size, value, marks=marks, id=size)


@pytest.mark.parametrize(("size", "value"), list(_connect4_cases()))
def test_connect4_values_match_the_published_table(size, value):
    width, height = size.split("x")
    state = RulesState(load_game(f"connect4:{width},{height}"))
    assert solve(state, Options(tt_mb=512), with_moves=False).value == value


def test_othello_4x4_is_a_second_player_win():
    assert solve(RulesState(load_game("othello:4")), Options(tt_mb=64), with_moves=False).value == "loss"


# --- the registry ------------------------------------------------------------------------------------


def test_unknown_games_and_bad_parameters_are_one_clear_error():
    with pytest.raises(BadInput, match="unknown game"):
        load_game("chess")
    with pytest.raises(BadInput, match="at most 64"):
        load_game("connect4:8,8")
    with pytest.raises(BadInput, match="4, 6 or 8"):
        load_game("othello:5")
    with pytest.raises(BadInput, match="whole-number"):
        load_game("connect4:x")


def test_defaults_and_aliases():
    assert load_game("connect4").name == "connect4:7,6"
    assert load_game("reversi:6").name == "othello:6"


@pytest.mark.parametrize("argv", [["solve", "othello:4", "--epsilon", "nan"], ["solve", "connect4:4,4", "--tt-mb", "inf"],
                                  ["solve", "connect4", "--moves", "z"], ["perft", "othello:6", "-1"],
                                  ["solve", "connect4:9,9"], ["games", "no-such-file.py"]])
def test_bad_input_to_the_generic_commands_is_one_line_and_exit_2(argv, capsys):
    from gameproof.cli import main

    assert main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1
