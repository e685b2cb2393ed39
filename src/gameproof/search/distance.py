"""How long perfect play lasts: the plies to the end of a won or lost position, by a compiled search over a game's
kernels.

The winner hurries (the fewest plies to a win) and the loser delays (the most plies before losing). A position is
scored for its side to move: a win in d plies is worth ``BIG - d``, a loss in d plies ``-(BIG - d)``, a draw 0, so
that the best score is the fastest win and, among losses, the slowest. Scores count the plies from the position
itself, so a position's score does not depend on the path to it and a transposition table may keep it: the score
of a move is its child's, negated where the other side moves there (a move may leave the same side to move: an
extra turn), and one ply further from the end (:func:`_farther`).

The search is a fail-soft alpha-beta (negamax) over those scores, with a transposition table of bounds (lower,
upper), children that end the game seen before any is searched and the rest tried in the order of the game's
``estimate``. A position's exact score comes from probes (:meth:`DistanceSearch.score`): the first, with the window
(-1, 1), settles win, draw or loss as a plain alpha-beta would and bounds the plies (a fail-soft bound, which is
most often exact); the next, with null windows, ask whether that bound is exact, and if not bisect the plies that
remain open, each narrowing the bounds by what it returns.

A game's lookahead (a move after which the other side wins at once is lost without a search) stays on: such a move
is played again with the lookahead off (tables of their own), which tells a loss at once (the move ends the game)
from a loss at the next ply (the game goes on, and the other side, to move there, wins at once). A game from a
user's file that declares symmetries is searched without them, each position keyed as it is (its answer then rests
on no declared symmetry). A game's ``decided`` (a position's value known without search, such as Breakthrough's
unstoppable runner) is off: it says who wins, not in how many plies, so every game is played to its real end.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from gameproof.answers import Value
from gameproof.borrowed import borrowed
from gameproof.framework.derived import HEADER, INFO_LOOKAHEAD, without_decided
from gameproof.framework.state import RulesState
from gameproof.interrupts import FIRST_FAULT, RulesBroken, stoppable
from gameproof.search import tt as ttmod
from gameproof.search.dfpn import (CONTINUE, HALT, MOVER_LOSES, MOVER_WINS, ROOM, STATS, TOO_LONG, Kernels, Options,
                                   bind_kernels, checked, counted, halt, raise_for_halt)
from gameproof.search.tt import TranspositionTable, line_aligned

#: A win in d plies scores BIG - d for the side to move, a loss in d plies -(BIG - d); games last far fewer plies.
BIG = 1 << 20
#: The best and the worst score of a position that is not over: a win or a loss takes a ply at least.
BEST, WORST = BIG - 1, -(BIG - 1)
_STORED = BIG + 1  # a score as the table keeps it (its fields hold 0 .. 2**28 - 2): plus this
ABORTED = 1 << 40  # a score outside every bound: the node budget ran out, or the search halted (see stats[HALT])
_SALT = np.uint64(0x0D15_7A9C_E000_0001)
_LOSES_NEXT = -1  # what a move leads to (beside dfpn's CONTINUE, MOVER_WINS, …): the other side wins at the next ply
# stats slots: HALT, HALT_DEPTH and ROOM sit where df-pn's and alpha-beta's do (3 to 5)
_NODES, _LIMIT, _FILLED = range(3)
#: Positions with more plies left than this (by the kernels' ``remaining``) look up all their children first.
CHILDREN_LOOKED_UP_ABOVE = 12
#: Positions with at most this many plies left are searched without the table.
UNTABLED_AT_MOST = 3

K_mover: Callable
K_remaining: Callable
K_moves: Callable
K_play: Callable
K_undo: Callable
K_key: Callable
K_estimate: Callable


def _farther(score):
    """A child's score (for the parent's side to move) seen from the parent: one ply farther from the end."""
    if score > 0:
        return score - 1
    if score < 0:
        return score + 1
    return score


def _nearer(bound):
    """The inverse of :func:`_farther`: the child's bound that a parent's bound `bound` stands for."""
    if bound > 0:
        return bound + 1
    if bound < 0:
        return bound - 1
    return bound


def _negamax(s, g, plain, words, bits, alpha, beta, depth, bmove, bscore, bkey, bsame, stats):
    """The score of the position for its side to move: exact when it lies strictly inside (alpha, beta), else a
    bound (at most alpha, or at least beta). A child where the same side moves again (``bsame``) is worth to the
    mover what it is worth there; any other, its score negated. `plain`: the tables `g` with the lookahead off."""
    s, g, plain, words, bmove, bscore, bkey, bsame, stats = borrowed((s, g, plain, words, bmove, bscore, bkey, bsame,
                                                                     stats))
    stats[_NODES] += 1
    if stats[_NODES] > stats[_LIMIT] or stats[HALT] != 0:
        return ABORTED
    if depth >= stats[ROOM]:
        halt(stats, HALT, TOO_LONG, depth + 1)
        return ABORTED
    if alpha >= BEST:
        return BEST  # no position that goes on is worth more
    if beta <= WORST:
        return WORST
    start = stats[_NODES]
    key = K_key(s, g) ^ _SALT
    left = K_remaining(s, g)
    tabled = left > UNTABLED_AT_MOST
    known_low, known_high = WORST, BEST
    if tabled:
        found, low, high = ttmod.lookup(words, bits, key)
        if found:
            known_low, known_high = low - _STORED, high - _STORED
            if known_low >= beta or known_low == known_high:
                return known_low
            if known_high <= alpha:
                return known_high
            alpha, beta = max(alpha, known_low), min(beta, known_high)
    first_alpha = alpha
    me = K_mover(s)
    n = K_moves(s, g, bmove[depth])
    if n < 0:
        halt(stats, HALT, -n, depth)
        return ABORTED
    best = -BIG  # below every score: a position with no move at all (which the kernels never give) is lost
    m = 0
    for i in range(n):
        move = bmove[depth, i]
        result = K_play(s, g, move)
        if result == MOVER_LOSES and g[1][INFO_LOOKAHEAD] != 0:  # at once, or at the next ply?
            K_undo(s, g, move)
            if K_play(s, plain, move) == CONTINUE:
                result = _LOSES_NEXT
        if result == CONTINUE:
            child = K_key(s, g) ^ _SALT
            if left - 1 > UNTABLED_AT_MOST:
                ttmod.prefetch(words, bits, child)
            against_me, against_them = K_estimate(s, g, me)
            bkey[depth, m] = child
            bmove[depth, m] = move
            bsame[depth, m] = K_mover(s) == me
            bscore[depth, m] = against_them - against_me
            m += 1
        elif result >= FIRST_FAULT:
            halt(stats, HALT, result, depth + 1)
            return ABORTED
        else:
            score = BEST if result == MOVER_WINS else WORST if result == MOVER_LOSES else 0
            if result == _LOSES_NEXT:
                score = WORST + 1
            if score > best:
                best = score
        K_undo(s, g, move)
        if best >= beta:
            break
    if best < beta and left > CHILDREN_LOOKED_UP_ABOVE:
        for i in range(m):
            known, child_low, child_high = ttmod.lookup(words, bits, bkey[depth, i])
            if known:
                at_least = _farther(child_low - _STORED if bsame[depth, i] else _STORED - child_high)
                if at_least >= beta:
                    best = at_least
                    break
    if best < beta:
        if best > alpha:
            alpha = best
        for i in range(1, m):  # most promising first (insertion sort: a handful of moves)
            move, score, same = bmove[depth, i], bscore[depth, i], bsame[depth, i]
            j = i - 1
            while j >= 0 and bscore[depth, j] < score:
                bmove[depth, j + 1], bscore[depth, j + 1], bsame[depth, j + 1] = (bmove[depth, j], bscore[depth, j],
                                                                                  bsame[depth, j])
                j -= 1
            bmove[depth, j + 1], bscore[depth, j + 1], bsame[depth, j + 1] = move, score, same
        for i in range(m):
            move = bmove[depth, i]
            K_play(s, g, move)
            if bsame[depth, i]:  # an extra turn
                score = _negamax(s, g, plain, words, bits, _nearer(alpha), _nearer(beta), depth + 1, bmove, bscore,
                                 bkey, bsame, stats)
            else:
                score = -_negamax(s, g, plain, words, bits, -_nearer(beta), -_nearer(alpha), depth + 1, bmove, bscore,
                                  bkey, bsame, stats)
            K_undo(s, g, move)
            if score == ABORTED or score == -ABORTED:
                return ABORTED
            score = _farther(score)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
    if tabled:
        low, high = known_low, known_high  # what the table knew stays known
        if best <= first_alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low, high = best, best
        stats[_FILLED] += ttmod.store(words, bits, key, low + _STORED, high + _STORED, stats[_NODES] - start + 1)
    return best


@functools.cache
def _compiled(kernels: Kernels):
    return bind_kernels((_farther, _nearer, _negamax), kernels)


class Outcome(NamedTuple):
    """A position's or a move's value for the side to move before it, and the plies to the end under perfect play
    (None for a draw)."""

    value: Value
    plies: int | None

    @classmethod
    def of_score(cls, score: int) -> Outcome:
        """The outcome a score stands for."""
        if score == 0:
            return cls(Value.DRAW, None)
        return cls(Value.of_score(score), BIG - abs(score))


@dataclass
class DistanceSolution:
    """A position's value and plies to the end for its side to move, each move's (by move code: the plies from
    the position, the move included), and the effort spent."""

    value: Value
    plies: int | None
    moves: dict[int, Outcome] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0
    tt_entries: int = 0


class DistanceSearch:
    """A search of plies to the end for one game's kernels and tables, keeping its transposition table between
    positions. :attr:`plain`: the tables with the lookahead off, for the moves played from Python."""

    def __init__(self, kernels: Kernels, tables: tuple[Any, ...], max_depth: int, max_moves: int,
                 options: Options = Options(), max_positions: int | None = None) -> None:
        self.kernels, self.tables, self.max_depth = kernels, tables, max_depth
        weights, info, ranks = tables
        self.plain = (weights, info.copy(), ranks)
        self.plain[1][INFO_LOOKAHEAD] = 0
        self._negamax = _compiled(kernels)._negamax
        self.table = TranspositionTable(options.tt_mb, max_positions)
        shape = (max_depth + 2, max(1, max_moves))
        self._bmove = line_aligned(shape)
        self._bscore = line_aligned(shape)
        self._bkey = line_aligned(shape, np.uint64)
        self._bsame = line_aligned(shape)
        self._stats = line_aligned(STATS)

    @property
    def nodes(self) -> int:
        return int(self._stats[_NODES])

    @property
    def tt_entries(self) -> int:
        return int(self._stats[_FILLED])

    def score(self, state: np.ndarray, progress: Callable[[int, int, int], None] | None = None) -> int:
        """The exact score of the non-terminal position `state` for its side to move (see the module's notes)."""
        first = self._probe(state, -1, 1, progress)
        if first == 0:
            return 0
        low, high = (first, BEST) if first > 0 else (WORST, first)
        gamma = low + 1 if first > 0 else high  # is the score at least gamma? First: is the bound found exact?
        while low < high:
            found = self._probe(state, gamma - 1, gamma, progress)
            if found >= gamma:
                low = found
            else:
                high = found
            gamma = (low + high + 1) // 2
        return low

    def _probe(self, state: np.ndarray, alpha: int, beta: int, progress: Callable[[int, int, int], None] | None,
               chunk: int = 1 << 22) -> int:
        """The search of `state` with the window (alpha, beta), in chunks of `chunk` nodes with `progress` told
        (nodes, TT entries, TT capacity) between them; the table carries the work over."""
        stats = self._stats
        while True:
            s = state.copy()
            stats[_LIMIT] = stats[_NODES] + chunk
            stats[ROOM] = min(self.kernels.room(s), self._bmove.shape[0])
            with stoppable(stats, HALT):
                score = self._negamax(s, self.tables, self.plain, self.table.words, self.table.bits, alpha, beta, 0,
                                      self._bmove, self._bscore, self._bkey, self._bsame, stats)
            raise_for_halt(stats, HALT, self.max_depth)
            if score != ABORTED:
                return int(score)
            if progress is not None:
                progress(self.nodes, self.tt_entries, self.table.capacity)


def search_tables(state: RulesState) -> tuple[tuple[Any, ...], np.ndarray]:
    """The kernels' tables and the state array the search of `state` runs on: the game's own, but with each position
    keyed as it is (no symmetry merging positions) where the game's symmetries come from a user's file
    (:func:`~gameproof.search.confirm.relies_on_declared_symmetries`), and the game's ``decided`` off (it knows who
    wins, not in how many plies)."""
    from gameproof.search.confirm import relies_on_declared_symmetries

    game = state.game
    frames = state.frames()
    if not relies_on_declared_symmetries(state):
        return without_decided(game.tables), frames
    weights, info, ranks = without_decided(game.tables)
    weights = np.broadcast_to(weights[:1], weights.shape).copy()  # every key slot the identity's
    first_key = HEADER + game.words + game.layer_words + 1
    frames[first_key : HEADER + int(frames[1])] = frames[first_key]
    return (weights, info, ranks), frames


def distances(state: RulesState, options: Options = Options(), progress: Callable[[int, int, int], None] | None = None,
              *, with_moves: bool = True) -> DistanceSolution:
    """The value of `state` for its side to move and the plies to the end under perfect play (the winner
    hurrying, the loser delaying; None for a draw), and the same for each legal move (counted from `state`, the
    move included). A finished game is 0 plies from its end. Rules that break the kernels' assumptions raise
    :class:`~gameproof.interrupts.RulesBroken`, naming the game."""
    if state.is_over():
        from gameproof.search.exact import final_value

        value = final_value(state)
        return DistanceSolution(value, None if value is Value.DRAW else 0)
    started = time.perf_counter()
    game = state.game
    tables, frames = search_tables(state)
    try:
        search = DistanceSearch(game.kernels, tables, game.max_plies, game.max_moves, options, game.max_positions)
        if with_moves:
            moves = _move_outcomes(search, frames, game.max_moves, progress)
            score = max(_score_of(outcome) for outcome in moves.values())
        else:
            moves = {}
            score = search.score(frames, progress)
    except RulesBroken as broken:
        raise broken.of(game.name) from None
    value, plies = Outcome.of_score(score)
    return DistanceSolution(value, plies, moves, search.nodes, time.perf_counter() - started, search.tt_entries)


def _score_of(outcome: Outcome) -> int:
    return 0 if outcome.plies is None else outcome.value.score * (BIG - outcome.plies)


def _move_outcomes(search: DistanceSearch, frames: np.ndarray, max_moves: int,
                   progress: Callable[[int, int, int], None] | None) -> dict[int, Outcome]:
    """Each legal move's outcome for the side to move at `frames` (children equal up to the keys searched once)."""
    kernels, tables, limit = search.kernels, search.plain, search.max_depth
    buffer = np.zeros(max(1, max_moves), dtype=np.int64)
    n = counted(kernels.moves(frames, tables, buffer), limit)
    me = int(kernels.mover(frames))
    scores: dict[int, int] = {}
    known: dict[int, int] = {}  # a child's key (which says who moves there) -> its score for the mover
    s = frames.copy()
    for move in buffer[:n].tolist():
        result = checked(kernels.play(s, tables, move), limit)
        if result == CONTINUE:
            same = int(kernels.mover(s)) == me
            twin = int(kernels.key(s, tables))
            if twin not in known:
                try:
                    below = search.score(s.copy(), progress)
                except RulesBroken as broken:
                    raise broken.below(1) from None
                known[twin] = _farther(below if same else -below)
            scores[move] = known[twin]
        else:
            scores[move] = BEST if result == MOVER_WINS else WORST if result == MOVER_LOSES else 0
        kernels.undo(s, tables, move)
    return {move: Outcome.of_score(score) for move, score in sorted(scores.items())}
