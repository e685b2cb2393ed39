"""The passes of a tablebase build over a game's compiled kernels: forward (every position reachable from the
start, by breadth), graph (each position's children among them) and backward (values, distances and scores).

A position is held as its kernel frame (:mod:`gameproof.framework.derived`: its words, the first parts of its
legal moves, the side to move, its key under each symmetry), so that the kernels expand it again as they found it.
Positions are told apart by canonical key, which must be an exact code of the position (:attr:`Game.exact_keys`).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, TypeVar

import numpy as np
from numba import njit

from gameproof.framework import derived
from gameproof.framework.derived import HEADER
from gameproof.framework.game import Game
from gameproof.interrupts import FIRST_FAULT, Halt, RulesBroken
from gameproof.search.dfpn import CONTINUE, DRAW, MOVER_LOSES, MOVER_WINS, bind_kernels

#: ``ends`` of a position whose game goes on.
NOT_OVER = 2
#: A value not found (yet): in the backward pass, a position neither won nor lost so far.
UNKNOWN = 2
#: The most parents one call of the expand kernel takes (its children's frames are held at once).
CHUNK = 1 << 15
#: A move's result for its mover, by the kernels' result code.
_MOVER_VALUE = {MOVER_WINS: 1, MOVER_LOSES: -1, DRAW: 0}

Progress = Callable[[str], None]
T = TypeVar("T")


def expand(frames, first, last, g, s, out, child_frames, child_keys, parents, results):
    """Play every legal move of the positions ``frames[first:last]`` (frame rows); for each child write its frame
    row, its canonical key, its parent's row and the move's result (CONTINUE, or how the game ended for the mover).
    The number of children, or minus a fault (a Halt)."""
    size = np.int64(s[1])
    n = 0
    for i in range(first, last):
        for k in range(size):
            s[HEADER + k] = frames[i, k]
        s[0] = np.uint64(HEADER)
        count = K_moves(s, g, out)  # noqa: F821 (bound by bind_kernels)
        if count < 0:
            return count
        for m in range(count):
            move = out[m]
            result = K_play(s, g, move)  # noqa: F821
            if result >= FIRST_FAULT:
                return -result
            base = np.int64(s[0])
            for k in range(size):
                child_frames[n, k] = s[base + k]
            child_keys[n] = K_key(s, g)  # noqa: F821
            parents[n] = i
            results[n] = result
            n += 1
            K_undo(s, g, move)  # noqa: F821
    return n


@functools.cache
def _kernels(game: Game) -> SimpleNamespace:
    return bind_kernels((expand,), game.kernels, also=(derived,))


def lookahead_free(game: Game) -> tuple[np.ndarray, ...]:
    """The game's kernel tables with lookahead and ``decided`` off: a tablebase values each position by its own moves
    (and counts its plies to the end), and a move after which the other side can win at once, or that reaches a
    position the rules' ``decided`` settles, is an ordinary move here."""
    weights, info, ranks = game.tables
    info = info.copy()
    info[derived.INFO_LOOKAHEAD] = 0
    info[derived.INFO_DECIDED] = info[derived.INFO_BOUND] = 0
    return weights, info, ranks


@dataclass
class Children:
    """The children of some positions: frame rows, canonical keys, their parents' rows, the moves' results."""

    frames: np.ndarray
    keys: np.ndarray
    parents: np.ndarray
    results: np.ndarray


class Expander:
    """Expands positions (frame rows) of one game with its compiled kernels, a chunk of parents at a time, on
    `workers` threads (the kernels release the GIL), each with scratch arrays of its own, or on the long-lived Ray
    workers of `pool` (:func:`gameproof.search.jobs.ray_workers` running :func:`expand_chunk` for the game that
    `loading` loads)."""

    def __init__(self, game: Game, workers: int = 1, pool: Any = None, loading: str = "") -> None:
        self.game, self.workers, self.pool, self.loading = game, workers, pool, loading
        self.tables = lookahead_free(game)
        self.kernel = _kernels(game).expand
        self.size = int(game.frames(game.rules.start(), 0, plies=1)[1])
        self.turn_column = game.words + game.layer_words
        self._scratch = threading.local()

    @property
    def state(self) -> np.ndarray:
        """This thread's kernel state array (room for a position and one move)."""
        if not hasattr(self._scratch, "state"):
            self._scratch.state = self.game.frames(self.game.rules.start(), 0, plies=1)
            self._scratch.out = np.zeros(max(1, self.game.max_moves), dtype=np.int64)
        return self._scratch.state

    def each_chunk(self, frames: np.ndarray, then: Callable[[int, Children], T]) -> list[T]:
        """``then(first, children)`` for the children of each chunk of rows of `frames` from row `first` on (their
        parents by row number in `frames`), in order: expanded on the workers, `then` on the thread that
        expanded the chunk, or here for the chunks Ray's workers expanded."""
        firsts = range(0, len(frames), CHUNK)
        if self.pool is not None and len(firsts):
            found = self._on_ray(frames, firsts)
            return [then(first, found[first]) for first in firsts]

        def expanded(first: int) -> T:
            return then(first, self.children(frames, first, min(first + CHUNK, len(frames))))

        if self.workers == 1 or len(firsts) < 2:
            return [expanded(first) for first in firsts]
        with ThreadPoolExecutor(self.workers) as pool:
            return list(pool.map(expanded, firsts))

    def _on_ray(self, frames: np.ndarray, firsts: range) -> dict[int, Children]:
        """The children of each chunk, expanded by the Ray workers (parents by row number in `frames`)."""
        from gameproof.search.jobs import Job

        self.pool.add(Job(str(first), {"game": self.loading, "frames": np.ascontiguousarray(frames[first:first + CHUNK])})
                      for first in firsts)
        found = {}
        while self.pool.busy():
            job, (children, _) = self.pool.next()
            first = int(job.key)
            found[first] = Children(children.frames, children.keys, children.parents + first, children.results)
        return found

    def root(self, words: tuple[int, ...], to_move: int) -> np.ndarray:
        """The frame row of a position."""
        s = self.game.frames(words, to_move, plies=1)
        return s[HEADER:HEADER + self.size].copy()

    def key(self, row: np.ndarray) -> int:
        s = self.state.copy()
        s[0] = HEADER
        s[HEADER:HEADER + self.size] = row
        return int(self.game.kernels.key(s, self.tables))

    def children(self, frames: np.ndarray, first: int = 0, last: int | None = None) -> Children:
        """Every child of the rows ``frames[first:last]`` in the rows' order, their parents by row number in
        `frames` (RulesBroken for a fault of the rules)."""
        last = len(frames) if last is None else last
        state = self.state
        out = self._scratch.out
        room = (last - first) * out.size
        found = Children(np.zeros((room, self.size), dtype=np.uint64), np.zeros(room, dtype=np.uint64),
                         np.zeros(room, dtype=np.int64), np.zeros(room, dtype=np.int64))
        n = self.kernel(frames, first, last, self.tables, state, out, found.frames, found.keys,
                        found.parents, found.results)
        if n < 0:
            raise RulesBroken(Halt(-n), 1).of(self.game.name)
        return Children(found.frames[:n], found.keys[:n], found.parents[:n], found.results[:n])

    def to_move(self, frames: np.ndarray) -> np.ndarray:
        return frames[:, self.turn_column].astype(np.int8)


@dataclass
class Positions:
    """Every position reachable from a start: canonical keys (sorted), a frame row of one position of each class,
    and ``ends``: a finished game's value for its side to move (-1, 0, 1), :data:`NOT_OVER` for the others."""

    keys: np.ndarray
    frames: np.ndarray
    ends: np.ndarray


def forward(expander: Expander, words: tuple[int, ...], to_move: int, most: int,
            progress: Progress | None = None) -> Positions:
    """Every position reachable from (`words`, `to_move`), by breadth; BadInput past `most` positions."""
    from gameproof.errors import BadInput

    root = expander.root(words, to_move)
    level = Positions(np.array([expander.key(root)], dtype=np.uint64), root[None, :],
                      np.array([_end(expander.game, words, to_move)], np.int8))
    found = [level]
    seen = level.keys.copy()
    plies = 0
    while len(level.keys):
        parents = level.frames[level.ends == NOT_OVER]
        fresh = expander.each_chunk(parents, lambda first, children: _fresh(expander, children, parents, seen))
        level = _distinct(fresh) if fresh else Positions(seen[:0], parents[:0], level.ends[:0])
        found.append(level)
        seen = np.insert(seen, np.searchsorted(seen, level.keys), level.keys)  # both sorted, none shared
        plies += 1
        if len(seen) > most:
            raise BadInput(f"{expander.game.name} has more than {most:,} positions reachable from the position "
                           "(--max-positions): too many for a tablebase on this machine")
        if progress is not None:
            progress(f"forward: {plies} plies, {len(seen):,} positions")
    keys = np.concatenate([level.keys for level in found])
    order = np.argsort(keys, kind="stable")
    return Positions(keys[order], np.concatenate([level.frames for level in found])[order],
                     np.concatenate([level.ends for level in found])[order])


def _end(game: Game, words: tuple[int, ...], to_move: int) -> int:
    """A position's ``ends`` as the rules give it (the kernels are asked only of positions whose game goes on)."""
    from gameproof.framework.state import RulesState
    from gameproof.search.exact import final_value

    state = RulesState.at(game, words, to_move)
    return final_value(state).score if state.is_over() else NOT_OVER


def _fresh(expander: Expander, children: Children, parents: np.ndarray, seen: np.ndarray) -> Positions:
    """The `children` (of rows of `parents`) not in `seen`, one of each key."""
    keys, at = np.unique(children.keys, return_index=True)
    fresh = ~_member(keys, seen)
    keys, at = keys[fresh], at[fresh]
    ends = _ends(children.results[at], expander.to_move(children.frames[at]),
                 expander.to_move(parents[children.parents[at]]))
    return Positions(keys, children.frames[at], ends)


def _distinct(parts: list[Positions]) -> Positions:
    """The positions of `parts`, one of each key (the first part's where several have it)."""
    keys = np.concatenate([part.keys for part in parts])
    keys, at = np.unique(keys, return_index=True)
    return Positions(keys, np.concatenate([part.frames for part in parts])[at],
                     np.concatenate([part.ends for part in parts])[at])


def _member(keys: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """Which of `keys` are in `sorted_keys`."""
    at = np.searchsorted(sorted_keys, keys)
    inside = at < len(sorted_keys)
    found = np.zeros(len(keys), dtype=bool)
    found[inside] = sorted_keys[at[inside]] == keys[inside]
    return found


def _ends(results: np.ndarray, sides: np.ndarray, movers: np.ndarray) -> np.ndarray:
    """For each child, its finished game's value for the side to move there (NOT_OVER where it goes on)."""
    ends = np.full(len(results), NOT_OVER, dtype=np.int8)
    for code, value in _MOVER_VALUE.items():
        ended = results == code
        ends[ended] = np.where(sides[ended] == movers[ended], value, -value)
    unknown = (results != CONTINUE) & ~np.isin(results, list(_MOVER_VALUE))
    if unknown.any():
        raise RuntimeError(f"a move's result code {int(results[unknown][0])} is none the kernels give")
    return ends


@dataclass
class Graph:
    """Each position's children as rows of the sorted keys: ``children[offsets[i]:offsets[i + 1]]``, and whether
    the turn passed with each move (else the move earned another)."""

    offsets: np.ndarray
    children: np.ndarray
    passed: np.ndarray


def graph(expander: Expander, positions: Positions, progress: Progress | None = None) -> Graph:
    """The moves between `positions` (every child of one is one of them: they are closed under moves)."""
    count = len(positions.keys)
    offsets = np.zeros(count + 1, dtype=np.int64)
    going = np.flatnonzero(positions.ends == NOT_OVER)
    frames = positions.frames[going]

    def moves_of(first: int, found: Children) -> tuple[np.ndarray, np.ndarray]:
        rows = going[first:first + CHUNK]
        if not _member(found.keys, positions.keys).all():
            raise RuntimeError("a child is missing from the positions the forward pass found")
        at = np.searchsorted(positions.keys, found.keys)
        offsets[rows + 1] = np.bincount(found.parents - first, minlength=len(rows))
        if progress is not None:
            progress(f"graph: {min(first + CHUNK, len(going)):,} of {len(going):,} positions")
        return at, expander.to_move(found.frames) != expander.to_move(frames[found.parents])

    found = expander.each_chunk(frames, moves_of)
    children, passed = [at for at, _ in found], [turned for _, turned in found]
    np.cumsum(offsets, out=offsets)
    empty = np.zeros(0, dtype=np.int64)
    return Graph(offsets, np.concatenate(children) if children else empty,
                 np.concatenate(passed) if passed else empty.astype(bool))


def expand_chunk(game: str, frames: np.ndarray) -> Children:
    """A job of a build on Ray: the children of the rows of `frames` (by row number there) in the game that `game`
    loads, as a tablebase tells its positions apart (:func:`~gameproof.search.score.searched_game`)."""
    return _worker_expander(game).children(frames)


@functools.cache
def _worker_expander(game: str) -> Expander:
    from gameproof.framework.registry import load_game
    from gameproof.search.score import searched_game

    return Expander(searched_game(load_game(game)))


@njit(cache=True)
def predecessors(offsets, children, passed):
    """The moves into each position: ``moves[starts[c]:starts[c + 1]]``, each ``parent * 2 + passed``."""
    count = offsets.size - 1
    starts = np.zeros(count + 1, dtype=np.int64)
    for e in range(children.size):
        starts[children[e] + 1] += 1
    for c in range(count):
        starts[c + 1] += starts[c]
    cursor = starts[:-1].copy()
    moves = np.empty(children.size, dtype=np.int64)
    for p in range(count):
        for e in range(offsets[p], offsets[p + 1]):
            c = children[e]
            moves[cursor[c]] = p * 2 + (1 if passed[e] else 0)
            cursor[c] += 1
    return starts, moves


@njit(cache=True)
def _finished(ends, draws):
    """A queue (room for every position) holding the finished ones, drawn games among them only with `draws`, and
    how many it holds."""
    queue = np.empty(ends.size, dtype=np.int64)
    tail = 0
    for i in range(ends.size):
        if ends[i] != NOT_OVER and (draws or ends[i] != 0):
            queue[tail] = i
            tail += 1
    return queue, tail


@njit(cache=True)
def retrograde(offsets, starts, moves, ends, value, distance):
    """Values (-1, 0, 1 for the side to move) and distances (plies to the end under perfect play, the winner
    hurrying and the loser delaying; -1 for a draw that goes on) from the finished games back, a queue in order
    of distance: a position is won when a move leads to a loss for the other side (or, earning another turn, to
    a win), lost when every move leads to a win for the other side; what is never won or lost is a draw."""
    left = offsets[1:] - offsets[:-1]
    queue, tail = _finished(ends, False)
    head = 0
    for i in range(ends.size):
        value[i] = UNKNOWN if ends[i] == NOT_OVER else ends[i]
        distance[i] = -1 if ends[i] == NOT_OVER else 0
    while head < tail:
        c = queue[head]
        head += 1
        for k in range(starts[c], starts[c + 1]):
            p = moves[k] >> 1
            if value[p] != UNKNOWN:
                continue
            worth = -value[c] if moves[k] & 1 else value[c]
            if worth == 1:
                value[p] = 1
            else:
                left[p] -= 1
                if left[p] > 0:
                    continue
                value[p] = -1
            distance[p] = distance[c] + 1
            queue[tail] = p
            tail += 1
    for i in range(ends.size):
        if value[i] == UNKNOWN:
            value[i] = 0


@njit(cache=True)
def backed_up_scores(offsets, children, passed, starts, moves, ends, end_scores, score):
    """Exact scores of a game whose positions never repeat, children before parents (a position once all its
    children are scored: the best of its moves for the side to move); how many positions were scored (fewer than
    all when the positions hold a cycle)."""
    left = offsets[1:] - offsets[:-1]
    queue, tail = _finished(ends, True)
    head = 0
    for i in range(ends.size):
        if ends[i] != NOT_OVER:
            score[i] = end_scores[i]
    while head < tail:
        c = queue[head]
        head += 1
        for k in range(starts[c], starts[c + 1]):
            p = moves[k] >> 1
            left[p] -= 1
            if left[p] == 0:
                best = np.int64(-(1 << 62))
                for e in range(offsets[p], offsets[p + 1]):
                    worth = -score[children[e]] if passed[e] else score[children[e]]
                    if worth > best:
                        best = worth
                score[p] = best
                queue[tail] = p
                tail += 1
    return tail
