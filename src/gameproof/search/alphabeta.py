"""Exact win/draw/loss values by alpha-beta (negamax) over a game's df-pn kernels, compiled with numba.

A second engine beside df-pn, over the same :class:`~gameproof.search.dfpn.Kernels`: values are -1, 0, +1
for the side to move; a transposition table keeps bounds (lower, upper); children that end the game are
seen before any is searched, and the rest are tried in the order of the game's ``estimate`` (most
threats for the mover and fewest against it first). Games where both sides must defend for long and
many lines end in draws (Connect Four) suit it better than proof numbers.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gameproof.interrupts import FIRST_FAULT, RulesBroken, stoppable
from gameproof.jit import specialise
from gameproof.search import tt as ttmod
from gameproof.search.dfpn import (CONTINUE, HALT, MOVER_LOSES, MOVER_WINS, ROOM, STATS, TOO_LONG, Kernels, Options,
                                   checked, counted, halt, raise_for_halt)
from gameproof.answers import Value
from gameproof.search.exact import Solution, terminal_value
from gameproof.search.tt import TranspositionTable

ABORTED = 9  # a value outside -1..1: the node budget ran out, or the search halted (see stats[HALT])
_SALT = np.uint64(0x7A11_BE7A_0000_0001)
# stats slots (HALT, HALT_DEPTH, ROOM: 3 to 5, as in df-pn's)
_NODES, _LIMIT, _FILLED = range(3)

K_mover: Callable
K_moves: Callable
K_play: Callable
K_undo: Callable
K_key: Callable
K_estimate: Callable


def _negamax(s, g, words, bits, alpha, beta, depth, bmove, bscore, stats):
    """Value (-1, 0, 1) for the side to move, exact when it lies strictly inside (alpha, beta), else a bound."""
    stats[_NODES] += 1
    if stats[_NODES] > stats[_LIMIT] or stats[HALT] != 0:
        return ABORTED
    if depth >= stats[ROOM]:
        halt(stats, HALT, TOO_LONG, depth + 1)
        return ABORTED
    start = stats[_NODES]
    key = K_key(s, g) ^ _SALT
    found, low, high = ttmod.lookup(words, bits, key)
    if found:
        low, high = low - 1, high - 1
        if low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
    first_alpha = alpha
    me = K_mover(s)
    n = K_moves(s, g, bmove[depth])
    if n < 0:
        halt(stats, HALT, -n, depth)
        return ABORTED
    best = -2
    m = 0
    for i in range(n):
        move = bmove[depth, i]
        result = K_play(s, g, move)
        if result == CONTINUE:
            against_me, against_them = K_estimate(s, g, me)
            bmove[depth, m] = move
            bscore[depth, m] = against_them - against_me
            m += 1
        elif result >= FIRST_FAULT:
            halt(stats, HALT, result, depth + 1)
            return ABORTED
        else:
            value = 1 if result == MOVER_WINS else -1 if result == MOVER_LOSES else 0
            if value > best:
                best = value
        K_undo(s, g, move)
        if best >= beta:
            break
    if best < beta:
        if best > alpha:
            alpha = best
        for i in range(1, m):  # most promising first (insertion sort: a handful of moves)
            move, score = bmove[depth, i], bscore[depth, i]
            j = i - 1
            while j >= 0 and bscore[depth, j] < score:
                bmove[depth, j + 1], bscore[depth, j + 1] = bmove[depth, j], bscore[depth, j]
                j -= 1
            bmove[depth, j + 1], bscore[depth, j + 1] = move, score
        for i in range(m):
            move = bmove[depth, i]
            K_play(s, g, move)
            value = _negamax(s, g, words, bits, -beta, -alpha, depth + 1, bmove, bscore, stats)
            K_undo(s, g, move)
            if value == ABORTED or value == -ABORTED:
                return ABORTED
            value = -value
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
    low, high = -1, 1
    if best <= first_alpha:
        high = best
    elif best >= beta:
        low = best
    else:
        low, high = best, best
    stats[_FILLED] += ttmod.store(words, bits, key, low + 1, high + 1, stats[_NODES] - start + 1)
    return best


@functools.cache
def _compiled(kernels: Kernels):
    games = {inspect.getmodule(function) for function in kernels}
    bindings = {f"K_{name}": function for name, function in zip(Kernels._fields, kernels)}
    return specialise((_negamax,), bindings, depends_on=sorted(games, key=lambda module: module.__name__) + [ttmod])


class AlphaBeta:
    """An alpha-beta searcher for one game, keeping its transposition table between calls."""

    def __init__(self, kernels: Kernels, tables: tuple[Any, ...], max_depth: int, max_moves: int,
                 options: Options = Options()) -> None:
        self.kernels, self.tables, self.max_depth = kernels, tables, max_depth
        self._negamax = _compiled(kernels)._negamax
        self.table = TranspositionTable(options.tt_mb)
        shape = (max_depth + 2, max(1, max_moves))
        self._bmove = np.zeros(shape, dtype=np.int64)
        self._bscore = np.zeros(shape, dtype=np.int64)
        self._stats = np.zeros(STATS, dtype=np.int64)

    @property
    def nodes(self) -> int:
        return int(self._stats[_NODES])

    def value(self, state: np.ndarray, progress: Callable[[int, int, int], None] | None = None,
              chunk: int = 1 << 22) -> int:
        """-1, 0 or 1 for the side to move in the non-terminal `state`. Runs in chunks of `chunk` nodes,
        reporting (nodes, TT entries, TT capacity) to `progress` between them; the table carries the work over."""
        s = state.copy()
        while True:
            self._stats[_LIMIT] = self._stats[_NODES] + chunk
            self._stats[ROOM] = min(self.kernels.room(s), self._bmove.shape[0])
            with stoppable(self._stats, HALT):
                value = self._negamax(s, self.tables, self.table.words, self.table.bits, -1, 1, 0, self._bmove,
                                      self._bscore, self._stats)
            raise_for_halt(self._stats, HALT, self.max_depth)
            if value != ABORTED:
                return int(value)
            s = state.copy()
            if progress is not None:
                progress(self.nodes, int(self._stats[_FILLED]), self.table.capacity)


def _value_below(search: AlphaBeta, child: np.ndarray, progress: Callable[[int, int, int], None] | None) -> int:
    """The value of a child of the position asked about (a fault is found a ply deeper than its search says)."""
    try:
        return search.value(child, progress)
    except RulesBroken as broken:
        raise broken.below(1) from None


def solve(kernels: Kernels, tables: tuple[Any, ...], words: np.ndarray, *, max_depth: int, max_moves: int,
          options: Options = Options(), with_moves: bool = True,
          progress: Callable[[int, int, int], None] | None = None) -> Solution:
    """Solve the non-terminal position `words` exactly, as :func:`gameproof.search.exact.solve` does with df-pn."""
    started = time.perf_counter()
    search = AlphaBeta(kernels, tables, max_depth, max_moves, options)
    moves: dict[int, Value] = {}
    if with_moves:
        buffer = np.zeros(max(1, max_moves), dtype=np.int64)
        n = counted(kernels.moves(words, tables, buffer), max_depth)
        s = words.copy()
        for move in buffer[:n].tolist():
            result = checked(kernels.play(s, tables, move), max_depth)
            if result == CONTINUE:
                moves[move] = Value.of_score(-_value_below(search, s, progress))
            else:
                moves[move] = terminal_value(result)
            kernels.undo(s, tables, move)
        value = Value.best(moves.values())
    else:
        value = Value.of_score(search.value(words, progress))
    return Solution(value, dict(sorted(moves.items())), search.nodes, time.perf_counter() - started,
                    int(search._stats[_FILLED]))
