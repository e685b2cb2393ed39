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

from gameproof.answers import Value
from gameproof.framework.derived import threshold_of
from gameproof.framework.state import GameState
from gameproof.interrupts import RulesBroken
from gameproof.search.dfpn import CONTINUE, DRAW, MOVER_WINS, Kernels, Options, Search, checked, counted


@dataclass
class Solution:
    """A solved position: value for the player to move, the value of each move, and the effort spent."""

    value: Value
    moves: dict[int, Value] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0
    tt_entries: int = 0


def final_value(state: GameState) -> Value:
    """The value of a finished game for the side that would be to move."""
    outcome = state.outcome()
    if outcome == 0:
        return Value.DRAW
    return Value.WIN if (outcome == 1) == (state.to_move == 0) else Value.LOSS


def terminal_value(result: int) -> Value:
    """Value for the player who made a game-ending move."""
    return Value.WIN if result == MOVER_WINS else Value.DRAW if result == DRAW else Value.LOSS


def asks_draws(draws: bool, tables: tuple[Any, ...]) -> bool:
    """Whether a solve over the kernel `tables` of a game that may (`draws`, :attr:`GameSpec.draws`) or may not end
    in a draw asks "can the side to move at least draw?" and "can it win?" apart: always, but for the game's own
    value in a game without draws (a score question draws where the score meets its threshold). Where not, the
    first answers both: the kernels stop at a draw of such a game as a fault, so no draw is ever counted as a win."""
    return draws or threshold_of(tables) is not None


def solve(kernels: Kernels, tables: tuple[Any, ...], words: np.ndarray, *, max_depth: int, max_moves: int,
          options: Options = Options(), with_moves: bool = True, max_positions: int | None = None,
          progress: Callable[[int, int, int], None] | None = None, search: Search | None = None,
          expect: Value | None = None, draws: bool = True) -> Solution:
    """Solve the non-terminal position ``words`` exactly (optionally with every move's value).

    ``max_positions`` (a bound on the game's positions, if small) keeps the table from outgrowing it.
    ``search`` continues an earlier search of the same game, whose table still holds what it proved.
    Without the moves' values, ``expect`` = WIN (a sibling's value, say) asks "can the mover win?" first,
    which settles a win with one search instead of two; otherwise "can the mover at least draw?" comes
    first, which settles a loss with one. A game that declares no draws (``draws`` False) asks only the latter.
    """
    start = time.perf_counter()
    if search is None:
        search = Search(kernels, tables, max_depth, max_moves, options, max_positions)
    nodes_before = search.nodes
    me = int(kernels.mover(words))
    drawn = asks_draws(draws, tables)
    if with_moves:
        move_values = _move_values(search, kernels, tables, words, max_moves, me, progress, max_depth, drawn)
        value = Value.best(move_values.values())
    else:
        move_values = {}
        if not drawn:
            value = Value.WIN if search.prove(words, me, True, progress) else Value.LOSS
        elif expect is Value.WIN and search.prove(words, me, False, progress):
            value = Value.WIN
        elif not search.prove(words, me, True, progress):
            value = Value.LOSS
        elif expect is Value.WIN:
            value = Value.DRAW  # the win question was answered no above
        else:
            value = Value.WIN if search.prove(words, me, False, progress) else Value.DRAW
    return Solution(value, move_values, search.nodes - nodes_before, time.perf_counter() - start, search.tt_entries)


def _move_values(search: Search, kernels: Kernels, tables: tuple[Any, ...], words: np.ndarray, max_moves: int,
                 me: int, progress: Callable[[int, int, int], None] | None, max_depth: int,
                 drawn: bool) -> dict[int, Value]:
    """Value for ``me`` of each legal move: the draw question on every child, then, where draws are asked about
    (`drawn`, see :func:`asks_draws`), the win question on those that draw."""
    buffer = np.zeros(max(1, max_moves), dtype=np.int64)
    n = counted(kernels.moves(words, tables, buffer), max_depth)
    values: dict[int, Value] = {}
    twins: dict[int, list[int]] = {}  # canonical key -> moves leading there
    positions: dict[int, np.ndarray] = {}
    s = words.copy()
    for move in buffer[:n].tolist():
        result = checked(kernels.play(s, tables, move), max_depth)
        if result == CONTINUE:
            child_key = int(kernels.key(s, tables))
            twins.setdefault(child_key, []).append(move)
            positions.setdefault(child_key, s.copy())
        else:
            values[move] = terminal_value(result)
        kernels.undo(s, tables, move)
    try:
        draws = {key: search.prove(position, me, True, progress) for key, position in positions.items()}
        for key, moves in twins.items():
            value = Value.LOSS
            if draws[key]:
                value = Value.WIN if not drawn or search.prove(positions[key], me, False, progress) else Value.DRAW
            values.update(dict.fromkeys(moves, value))
    except RulesBroken as broken:
        raise broken.below(1) from None
    return dict(sorted(values.items()))
