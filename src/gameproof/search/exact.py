"""Exact three-valued results (win/draw/loss for the player to move) from two binary df-pn questions.

"Can the mover at least draw?" and then, if so, "can the mover win?". The value of every legal move
is found the same way on each child (children equal up to symmetry are solved once).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gameproof.search.dfpn import CONTINUE, DRAW, MOVER_WINS, Kernels, Options, Search

WIN, DRAW_VALUE, LOSS = "win", "draw", "loss"
_ORDER = {LOSS: 0, DRAW_VALUE: 1, WIN: 2}


@dataclass
class Solution:
    """A solved position: value for the player to move, the value of each move, and the effort spent."""

    value: str
    moves: dict[int, str] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0
    tt_entries: int = 0


def best(values: list[str]) -> str:
    """The mover's value given the values of their moves."""
    return max(values, key=_ORDER.__getitem__)


def terminal_value(result: int) -> str:
    """Value for the player who made a game-ending move."""
    return WIN if result == MOVER_WINS else DRAW_VALUE if result == DRAW else LOSS


def solve(kernels: Kernels, tables: tuple[Any, ...], words: np.ndarray, *, max_depth: int, max_moves: int,
          options: Options = Options(), with_moves: bool = True,
          progress: Callable[[int, int], None] | None = None) -> Solution:
    """Solve the non-terminal position ``words`` exactly (optionally with every move's value)."""
    start = time.perf_counter()
    search = Search(kernels, tables, max_depth, max_moves, options)
    me = int(kernels.mover(words))
    entries = 0

    def value_of(position: np.ndarray) -> str:
        nonlocal entries
        at_least_draw = search.prove(position, me, True, progress)
        entries = max(entries, search.tt_entries)
        if not at_least_draw:
            return LOSS
        wins = search.prove(position, me, False, progress)
        entries = max(entries, search.tt_entries)
        return WIN if wins else DRAW_VALUE

    # Both questions for one child before the next would clear the table twice per child: ask the
    # draw question of every child first, then the win question of those that draw.
    move_values: dict[int, str] = {}
    if with_moves:
        buffer = np.zeros(max(1, max_moves), dtype=np.int64)
        n = kernels.moves(words, tables, buffer)
        open_children: dict[int, list[int]] = {}
        positions: dict[int, np.ndarray] = {}
        s = words.copy()
        for move in buffer[:n].tolist():
            result = kernels.play(s, tables, move)
            if result == CONTINUE:
                child_key = int(kernels.key(s, tables))
                open_children.setdefault(child_key, []).append(move)
                positions.setdefault(child_key, s.copy())
            else:
                move_values[move] = terminal_value(result)
            kernels.undo(s, tables, move)
        draws = {key: search.prove(positions[key], me, True, progress) for key in open_children}
        entries = max(entries, search.tt_entries)
        for key, moves in open_children.items():
            value = LOSS
            if draws[key]:
                value = WIN if search.prove(positions[key], me, False, progress) else DRAW_VALUE
                entries = max(entries, search.tt_entries)
            move_values.update(dict.fromkeys(moves, value))
        value = best(list(move_values.values())) if move_values else value_of(words)
        move_values = dict(sorted(move_values.items()))
    else:
        value = value_of(words)
    return Solution(value, move_values, search.nodes, time.perf_counter() - start, entries)
