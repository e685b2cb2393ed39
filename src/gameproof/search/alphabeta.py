"""Exact win/draw/loss values by alpha-beta (negamax) over a game's df-pn kernels, compiled with numba.

A second engine beside df-pn, over the same :class:`~gameproof.search.dfpn.Kernels`: values are -1, 0, +1
for the side to move; a transposition table keeps bounds (lower, upper); children that end the game are
seen before any is searched, and the rest are tried in the order of the game's ``estimate`` (most
threats for the mover and fewest against it first). Games where both sides must defend for long and
many lines end in draws (Connect Four) suit it better than proof numbers.

Where many plies are left, a node looks up every child in the table before it searches any (an enhanced
transposition cutoff: a child already shown to lose ends the node without a search); where few are, it neither
looks itself up nor stores itself, since a search that small costs less than a table miss. Where the rules declare
a ``bound`` on the value of a position (Connect Four: the cells the other side is sure to take), each child's is
read as it is played: the least the other side's bound there leaves this side is a value this side has.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gameproof import borrowed as borrowing
from gameproof.borrowed import borrowed
from gameproof.interrupts import FIRST_FAULT, RulesBroken, stoppable
from gameproof.jit import inlined, specialise
from gameproof.search import tt as ttmod
from gameproof.search.dfpn import (CONTINUE, HALT, MOVER_LOSES, MOVER_WINS, ROOM, STATS, TOO_LONG, Abandoned, Kernels,
                                   Options, busy, checked, counted, halt, partnered, raise_for_halt)
from gameproof.answers import Value
from gameproof.search.exact import Solution, terminal_value
from gameproof.search.tt import ANSWERED, LANE_DEPTH, LANE_QUESTION, TranspositionTable, line_aligned

ABORTED = 9  # a value outside -1..1: the node budget ran out, or the search halted (see stats[HALT])
_SALT = np.uint64(0x7A11_BE7A_0000_0001)
# stats slots (HALT, HALT_DEPTH, ROOM: 3 to 5, as in df-pn's); then the lane of a search sharing its table with
# other threads (_LANE), how many search it (_LANES, 1 = nobody else), and the control word of its question
_NODES, _LIMIT, _FILLED = range(3)
_LANE, _LANES, _ANSWERED = range(STATS, STATS + 3)
_STATS = STATS + 3
_DEFERRED = -(1 << 62)  # a child's score once it is left for later (another thread is searching it)
_AGAIN = 1 << 62  # added to a child's move in bmove where the same side moves again there (an extra turn)
#: Positions with more plies left than this (by the kernels' ``remaining``) look up all their children first.
CHILDREN_LOOKED_UP_ABOVE = 12
#: Positions with at most this many plies left are searched without the table.
UNTABLED_AT_MOST = 3
#: The null windows of the two questions that value a position: does the side to move win? does it draw?
WINS, DRAWS = (0, 1), (-1, 0)

K_mover: Callable
K_remaining: Callable
K_moves: Callable
K_play: Callable
K_undo: Callable
K_key: Callable
K_estimate: Callable
K_bound: Callable
K_turns: bool


def _negamax(s, g, words, bits, lanes, alpha, beta, depth, bmove, bscore, bkey, stats):
    """Value (-1, 0, 1) for the side to move, exact when it lies strictly inside (alpha, beta), else a bound.
    A child where the same side moves again (an extra turn: its move carries :data:`_AGAIN` in ``bmove``) is worth
    to the mover what it is worth there; any other, its value negated.

    Threads sharing the table (``stats[_LANES]`` > 1) write their path into ``lanes``, leave for last the
    children (but the first) that another on the same question is searching, and stop once another has
    answered the question."""
    s, g, words, lanes, bmove, bscore, bkey, stats = borrowed((s, g, words, lanes, bmove, bscore, bkey, stats))
    stats[_NODES] += 1
    if stats[_NODES] > stats[_LIMIT] or stats[HALT] != 0:
        return ABORTED
    if depth >= stats[ROOM]:
        halt(stats, HALT, TOO_LONG, depth + 1)
        return ABORTED
    lane = stats[_LANE]
    shared = stats[_LANES] > 1
    if shared and lanes[0, stats[_ANSWERED]] == lanes[lane, LANE_QUESTION]:
        return ABORTED  # another thread has answered the question
    start = stats[_NODES]
    key = K_key(s, g) ^ _SALT
    left = K_remaining(s, g)
    tabled = left > UNTABLED_AT_MOST
    found, low, high = False, 0, 0
    if tabled:
        found, low, high = ttmod.lookup(words, bits, key)
    if found:
        low, high = low - 1, high - 1
        if low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
    tracked = shared and depth < LANE_DEPTH
    if tracked:
        lanes[lane, depth] = key
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
            child = K_key(s, g) ^ _SALT
            if left - 1 > UNTABLED_AT_MOST:
                ttmod.prefetch(words, bits, child)
            against_me, against_them = K_estimate(s, g, me)
            again = K_turns and K_mover(s) == me
            if not again:
                floor = -K_bound(s, g)  # the most the other side reaches there is the least this side does
                if floor > best:
                    best = floor
            bkey[depth, m] = child
            bmove[depth, m] = move | _AGAIN if again else move
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
    if best < beta and left > CHILDREN_LOOKED_UP_ABOVE:
        for i in range(m):
            known, child_low, child_high = ttmod.lookup(words, bits, bkey[depth, i])
            bound = child_low - 1 if bmove[depth, i] & _AGAIN else 1 - child_high  # stored plus 1
            if known and bound >= beta:
                best = bound
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
        deferring = tracked and depth + 1 < LANE_DEPTH and partnered(lanes, lane, stats[_LANES])
        deferred = 0
        for sweep in range(2):  # the children, then those left for later
            if sweep == 1 and (deferred == 0 or alpha >= beta):
                break
            for i in range(m):
                if sweep == 1 and bscore[depth, i] != _DEFERRED:
                    continue
                move = bmove[depth, i] & ~_AGAIN
                K_play(s, g, move)
                if sweep == 0 and deferring and i > 0 and busy(lanes, lane, stats[_LANES], depth + 1,
                                                                K_key(s, g) ^ _SALT):
                    K_undo(s, g, move)
                    bscore[depth, i] = _DEFERRED
                    deferred += 1
                    continue
                if bmove[depth, i] & _AGAIN:  # an extra turn
                    value = _negamax(s, g, words, bits, lanes, alpha, beta, depth + 1, bmove, bscore, bkey, stats)
                else:
                    value = -_negamax(s, g, words, bits, lanes, -beta, -alpha, depth + 1, bmove, bscore, bkey, stats)
                K_undo(s, g, move)
                if value == ABORTED or value == -ABORTED:
                    return ABORTED
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
    if tracked:
        lanes[lane, depth] = 0
    low, high = -1, 1
    if best <= first_alpha:
        high = best
    elif best >= beta:
        low = best
    else:
        low, high = best, best
    if tabled:
        stats[_FILLED] += ttmod.store(words, bits, key, low + 1, high + 1, stats[_NODES] - start + 1)
    return best


@functools.cache
def _compiled(kernels: Kernels):
    """The search for `kernels`, with the game's kernels compiled into it (:func:`~gameproof.jit.inlined`: Connect
    Four 7×5 16% faster, its first compilation 2 s longer)."""
    games = {inspect.getmodule(function) for function in kernels if callable(function)}
    bindings = {f"K_{name}": inlined(function) if callable(function) else function
                for name, function in zip(Kernels._fields, kernels)}
    return specialise((_negamax,), bindings, depends_on=sorted(games, key=lambda module: module.__name__) + [ttmod, borrowing])


class AlphaBeta:
    """An alpha-beta searcher for one game, keeping its transposition table between calls.

    Given a ``table`` that other threads search too (with lanes for them), it searches as lane
    ``options.lane`` of ``options.lanes``; a position that several of them value at once is valued by
    whichever finishes first."""

    def __init__(self, kernels: Kernels, tables: tuple[Any, ...], max_depth: int, max_moves: int,
                 options: Options = Options(), *, table: TranspositionTable | None = None) -> None:
        self.kernels, self.tables, self.max_depth, self.options = kernels, tables, max_depth, options
        self._negamax = _compiled(kernels)._negamax
        self.table = TranspositionTable(options.tt_mb) if table is None else table
        if not 1 <= options.lane <= options.lanes < self.table.lanes.shape[0]:
            raise ValueError(f"lane {options.lane} of {options.lanes} searchers, on a table with lanes for "
                             f"{self.table.lanes.shape[0] - 1}")
        shape = (max_depth + 2, max(1, max_moves))
        self._bmove = line_aligned(shape)
        self._bscore = line_aligned(shape)
        self._bkey = line_aligned(shape, np.uint64)
        self._stats = line_aligned(_STATS)
        self._abandoned = False

    @property
    def nodes(self) -> int:
        return int(self._stats[_NODES])

    def abandon(self) -> None:
        """From another thread: end the search under way; :meth:`value` raises :class:`Abandoned`."""
        self._abandoned = True
        self._stats[_LIMIT] = 0

    def value(self, state: np.ndarray, progress: Callable[[int, int, int], None] | None = None,
              chunk: int = 1 << 22) -> int:
        """-1, 0 or 1 for the side to move in the non-terminal `state`, by two questions with null windows: does it
        win? and, where it does not, does it draw? (fewer nodes than one search of the whole window: Connect Four
        7×6 189 M against 232 M). Runs in chunks of `chunk` nodes, reporting (nodes, TT entries, TT capacity) to
        `progress` between them; the table carries the work over."""
        s = state.copy()
        o, stats, lanes = self.options, self._stats, self.table.lanes
        root_key = np.uint64(self.kernels.key(s, self.tables)) ^ _SALT
        answered = int(root_key % np.uint64(ANSWERED))
        stats[_LANE], stats[_LANES], stats[_ANSWERED] = o.lane, o.lanes, answered
        lanes[o.lane, LANE_QUESTION] = root_key
        alpha, beta = WINS
        while True:
            stats[_LIMIT] = stats[_NODES] + chunk
            if self._abandoned:
                raise Abandoned
            stats[ROOM] = min(self.kernels.room(s), self._bmove.shape[0])
            with stoppable(stats, HALT):
                value = self._negamax(s, self.tables, self.table.words, self.table.bits, lanes, alpha, beta, 0,
                                      self._bmove, self._bscore, self._bkey, stats)
            raise_for_halt(stats, HALT, self.max_depth)
            lanes[o.lane, :LANE_DEPTH] = 0
            s = state.copy()
            if value != ABORTED and (alpha, beta) == WINS and value < 1:
                alpha, beta = DRAWS  # no win: a draw?
                continue
            if value != ABORTED:
                lanes[0, answered] = root_key  # for the other threads (read by nobody when alone)
                return 1 if (alpha, beta) == WINS else 0 if value >= 0 else -1
            if stats[_LANES] > 1:
                found, low, high = ttmod.lookup(self.table.words, self.table.bits, root_key)
                if found and low == high:  # another thread's value
                    return int(low) - 1
                if lanes[0, answered] == root_key:  # valued, but its entry was lost: value it alone
                    stats[_LANES] = 1
            if progress is not None:
                progress(self.nodes, int(stats[_FILLED]), self.table.capacity)


def _value_below(search: AlphaBeta, child: np.ndarray, progress: Callable[[int, int, int], None] | None) -> int:
    """The value of a child of the position asked about (a fault is found a ply deeper than its search says)."""
    try:
        return search.value(child, progress)
    except RulesBroken as broken:
        raise broken.below(1) from None


def solve(kernels: Kernels, tables: tuple[Any, ...], words: np.ndarray, *, max_depth: int, max_moves: int,
          options: Options = Options(), with_moves: bool = True,
          progress: Callable[[int, int, int], None] | None = None, table: TranspositionTable | None = None) -> Solution:
    """Solve the non-terminal position `words` exactly, as :func:`gameproof.search.exact.solve` does with df-pn (on
    `table` when given, else on a table of its own)."""
    started = time.perf_counter()
    search = AlphaBeta(kernels, tables, max_depth, max_moves, options, table=table)
    moves: dict[int, Value] = {}
    if with_moves:
        buffer = np.zeros(max(1, max_moves), dtype=np.int64)
        n = counted(kernels.moves(words, tables, buffer), max_depth)
        s = words.copy()
        me = kernels.mover(s)
        for move in buffer[:n].tolist():
            result = checked(kernels.play(s, tables, move), max_depth)
            if result == CONTINUE:
                below = _value_below(search, s, progress)
                moves[move] = Value.of_score(below if kernels.mover(s) == me else -below)  # an extra turn: not negated
            else:
                moves[move] = terminal_value(result)
            kernels.undo(s, tables, move)
        value = Value.best(moves.values())
    else:
        value = Value.of_score(search.value(words, progress))
    return Solution(value, dict(sorted(moves.items())), search.nodes, time.perf_counter() - started,
                    int(search._stats[_FILLED]))
