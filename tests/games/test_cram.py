"""Cram from examples/cram.py: its solve and perft against plain minimax over sets of covered cells, written
here from the rules alone (both players place a domino in either orientation; who cannot move loses)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.perft import fast_perft
from gameproof.search.solve import solve

FILE = Path(__file__).parents[2] / "examples" / "cram.py"


def name(row: int, col: int) -> str:
    return f"{'abcdefgh'[col]}{row + 1}"


def moves(covered: frozenset, rows: int, cols: int) -> dict[str, frozenset]:
    """Every domino that fits on the empty cells, by name (lower or left cell first), with the cells covered
    after it."""
    found = {}
    for r in range(rows):
        for c in range(cols):
            for r2, c2 in ((r + 1, c), (r, c + 1)):
                if r2 < rows and c2 < cols and (r, c) not in covered and (r2, c2) not in covered:
                    found[f"{name(r, c)}-{name(r2, c2)}"] = covered | {(r, c), (r2, c2)}
    return found


@lru_cache(maxsize=None)
def wins(covered: frozenset, rows: int, cols: int) -> bool:
    """Whether the side to move wins (normal play: who cannot move loses)."""
    return any(not wins(after, rows, cols) for after in moves(covered, rows, cols).values())


def perft(covered: frozenset, rows: int, cols: int, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(after, rows, cols, depth - 1) for after in moves(covered, rows, cols).values())


def named(value: bool) -> str:
    return "win" if value else "loss"


@pytest.mark.parametrize("size", ["1,1", "1,3", "2,2", "2,3", "3,3", "3,4"])
def test_every_first_moves_value_and_perft_equal_minimax(size):
    rows, cols = map(int, size.split(","))
    state, empty = RulesState(load_game(f"{FILE}:{size}")), frozenset()
    solution = solve(state, Options(tt_mb=16))
    assert solution.value == named(wins(empty, rows, cols))
    assert {state.move_name(m): v for m, v in solution.moves.items()} == {
        move: named(not wins(after, rows, cols)) for move, after in moves(empty, rows, cols).items()}
    assert [fast_perft(state, d) for d in range(1, 5)] == [perft(empty, rows, cols, d) for d in range(1, 5)]


@pytest.mark.parametrize(("size", "value"), [("2,2", "loss"), ("2,4", "loss"), ("4,4", "loss"),
                                             ("2,3", "win"), ("3,4", "win"), ("2,5", "win")])
def test_the_symmetry_strategies_hold(size, value):
    """Even × even: the second player answers every move by its point reflection; even × odd: the first player
    takes the two central cells, then does the same (Gardner, docs/games.md)."""
    state = RulesState(load_game(f"{FILE}:{size}"))
    assert solve(state, Options(tt_mb=16), with_moves=False).value == value
