"""The Othello mobility curve by enumeration: the most legal moves after exactly P moves, every game played out.

The SAT route (`othello reach --exact`, `othello cubes`) proves a point of the curve with a witness and a DRAT
refutation of one move more; after 11 moves it did not refute 21 in an hour. Here every game of P moves is
played instead, as perft plays them, and the largest legal-move count of the side to move at the end is the
answer (passes are free, as in the SAT route: a side without a move passes and the other's count is taken; a
game over before P moves has no position after P moves).

Positions after the first `P - TAIL_PLIES` moves are kept once each: a transposition, or an image of a
position under a symmetry of the start (the symmetries of the board that map the start to itself, found by
testing all eight), has the same futures. Each kept position is then searched to the end, in parallel. The
witness is followed back through the kept levels, each symmetry undone, and replayed on the rules (Python
ints) before it is reported; a witness that does not replay is a fault, never an answer.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from numba import uint64

from gameproof.atomic import atomic_output
from gameproof.certify.mobility_check import FORMAT
from gameproof.errors import RunFailed
from gameproof.framework.declaration import Symmetry
from gameproof.games.othello import kernels, rules
from gameproof.games.othello.kernels import flips, legal_moves, lowest_bit, popcount
from gameproof.games.othello.notation import PASS, parse_square
from gameproof.games.othello.reach import Replay, replay
from gameproof.interrupts import stoppable, wait_for_signal
from gameproof.jit import cached_kernel

#: Moves searched from each kept position: the kept levels before them are built with duplicates removed.
TAIL_PLIES = 4
#: The longest games played out: after 12 moves about 140 million positions are kept (some 9 GB while the level is
#: built), and each move more keeps about seven times as many and takes eight times as long (P = 16: hours).
MOST_PLIES = 16
#: Kept positions searched by one call of the parallel kernel (between two progress reports).
CHUNK = 4096
_SIDE = 8
_F5 = parse_square("f5")


@dataclass(frozen=True)
class MobilityPeak:
    """The most legal moves after exactly `plies` moves, with a game that reaches them (replayed)."""

    plies: int
    most: int
    witness: Replay
    kept: int  # distinct positions (up to symmetry) after `kept_plies` moves, each searched to the end
    kept_plies: int
    seconds: float

    def to_json(self) -> dict:
        return {"plies": self.plies, "most_legal_moves": self.most, "witness": self.witness.record,
                "kept_positions": self.kept, "kept_plies": self.kept_plies,
                "seconds": round(self.seconds, 3)}


def write_certificate(peak: MobilityPeak, path: str | Path) -> None:
    """Write the certificate of `peak` (its claim and witness, for `certificate check`: the independent checker,
    :mod:`gameproof.certify.mobility_check`, replays the witness and counts every game again)."""
    document = {"format": FORMAT, "game": "othello", "plies": peak.plies, "most_legal_moves": peak.most,
                "witness": peak.witness.record}
    with atomic_output(path) as partial, gzip.open(partial, "wt") as out:
        json.dump(document, out)


def start_symmetries() -> np.ndarray:
    """The square permutations (one row each, identity first) of the board symmetries that map the start
    position to itself, each colour onto itself."""
    found = []
    for symmetry in Symmetry:
        permutation = np.array([_square(*symmetry.apply(square // _SIDE, square % _SIDE, _SIDE, _SIDE))
                                for square in range(_SIDE * _SIDE)], dtype=np.int64)
        if _permuted(rules.START_BLACK, permutation) == rules.START_BLACK and \
                _permuted(rules.START_WHITE, permutation) == rules.START_WHITE:
            found.append(permutation)
    return np.array(found, dtype=np.int64)


def _square(row: int, col: int) -> int:
    return row * _SIDE + col


def _permuted(bits: int, permutation: np.ndarray) -> int:
    """`bits` with each square moved where `permutation` sends it (Python ints)."""
    return sum(1 << int(permutation[square]) for square in range(_SIDE * _SIDE) if bits >> square & 1)


@cached_kernel(depends_on=(rules, kernels))
def _transformed(bits, permutation):
    out = uint64(0)
    while bits != 0:
        bit = lowest_bit(bits)
        bits ^= bit
        out |= uint64(1) << uint64(permutation[popcount(bit - uint64(1))])
    return out


@cached_kernel(depends_on=(rules, kernels))
def _next(player, opponent, move):
    """The position after `move`, seen from the side to move next, a forced pass taken; (0, 0) when that ends
    the game."""
    flipped = flips(player, opponent, move)
    child_player, child_opponent = opponent ^ flipped, player | move | flipped
    if legal_moves(child_player, child_opponent) != 0:
        return child_player, child_opponent
    if legal_moves(child_opponent, child_player) != 0:
        return child_opponent, child_player
    return uint64(0), uint64(0)


@cached_kernel(depends_on=(rules, kernels))
def _children(players, opponents):
    """How many children the positions have together."""
    total = 0
    for i in range(players.size):
        total += popcount(legal_moves(players[i], opponents[i]))
    return total


@cached_kernel(depends_on=(rules, kernels))
def _expand(players, opponents, permutations, out_players, out_opponents, out_parent, out_square, out_symmetry):
    """Every child of every position (a forced pass taken at once; a game over dropped), each as its least image
    under `permutations`; returns how many were written."""
    n = 0
    for parent in range(players.size):
        player, opponent = players[parent], opponents[parent]
        moves = legal_moves(player, opponent)
        while moves != 0:
            move = lowest_bit(moves)
            moves ^= move
            child_player, child_opponent = _next(player, opponent, move)
            if child_player | child_opponent == 0:
                continue
            best_player, best_opponent, best_symmetry = child_player, child_opponent, 0
            for symmetry in range(1, permutations.shape[0]):
                image_player = _transformed(child_player, permutations[symmetry])
                image_opponent = _transformed(child_opponent, permutations[symmetry])
                if image_player < best_player or (image_player == best_player and image_opponent < best_opponent):
                    best_player, best_opponent, best_symmetry = image_player, image_opponent, symmetry
            out_players[n], out_opponents[n] = best_player, best_opponent
            out_parent[n], out_square[n], out_symmetry[n] = parent, popcount(move - uint64(1)), best_symmetry
            n += 1
    return n


@cached_kernel(depends_on=(rules, kernels), vectorise=True)
def _most(player, opponent, depth, stop):
    """The most legal moves of the side to move after exactly `depth` more moves (passes free; 0 where every
    game ends sooner). The side to move has a legal move."""
    moves = legal_moves(player, opponent)
    if depth == 0:
        return popcount(moves)
    most = uint64(0)
    if depth == 1:  # the last move without a call per child: most of the work is here
        while moves != 0:
            move = lowest_bit(moves)
            moves ^= move
            flipped = flips(player, opponent, move)
            replies = legal_moves(opponent ^ flipped, player | move | flipped)
            if replies == 0:
                replies = legal_moves(player | move | flipped, opponent ^ flipped)
            count = popcount(replies)
            if count > most:
                most = count
        return most
    while moves != 0 and stop[0] == 0:
        move = lowest_bit(moves)
        moves ^= move
        child_player, child_opponent = _next(player, opponent, move)
        if child_player | child_opponent == 0:
            continue
        count = _most(child_player, child_opponent, depth - 1, stop)
        if count > most:
            most = count
    return most


@cached_kernel(depends_on=(rules, kernels), parallel=True)
def _most_each(players, opponents, depth, stop, out):
    for i in numba.prange(players.size):
        out[i] = _most(players[i], opponents[i], depth, stop)


@cached_kernel(depends_on=(rules, kernels))
def _path(player, opponent, depth, target, out):
    """Write into `out` the squares of `depth` moves (forced passes not written) after which the side to move
    has at least `target` legal moves; whether there are such moves."""
    moves = legal_moves(player, opponent)
    if depth == 0:
        return popcount(moves) >= target
    while moves != 0:
        move = lowest_bit(moves)
        moves ^= move
        child_player, child_opponent = _next(player, opponent, move)
        if child_player | child_opponent == 0:
            continue
        out[out.size - depth] = popcount(move - uint64(1))
        if _path(child_player, child_opponent, depth - 1, target, out):
            return True
    return False


@dataclass
class _Level:
    """The distinct positions after some moves, each the least image of its symmetry class, with how it was
    reached: its parent's index in the level before, the square played there, the symmetry applied after."""

    players: np.ndarray
    opponents: np.ndarray
    parent: np.ndarray
    square: np.ndarray
    symmetry: np.ndarray


def most_legal_moves(plies: int, threads: int = 1,
                     progress: Callable[[int, int], None] | None = None) -> MobilityPeak:
    """The most legal moves of the side to move after exactly `plies` moves from the start, every game
    counted, with a witness replayed on the rules. `progress(done, kept)` is called as the kept positions are
    searched; a signal stops the search (see :mod:`gameproof.interrupts`)."""
    if not 0 <= plies <= MOST_PLIES:
        raise ValueError(f"the mobility curve is played out after 0 to {MOST_PLIES} moves")
    if threads < 1:
        raise ValueError("at least one thread")
    started = time.perf_counter()
    permutations = start_symmetries()
    kept_plies = max(0, plies - TAIL_PLIES)
    try:
        levels = _levels(kept_plies, permutations)
    except MemoryError:
        raise RunFailed(f"the positions after {kept_plies} moves do not fit in this machine's memory") from None
    kept = levels[-1]
    values = np.zeros(kept.players.size, dtype=np.uint64)
    stop = np.zeros(1, dtype=np.int64)
    previous = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        with stoppable(stop, 0):
            for first in range(0, kept.players.size, CHUNK):
                part = slice(first, first + CHUNK)
                _most_each(kept.players[part], kept.opponents[part], np.int64(plies - kept_plies), stop, values[part])
                if stop[0]:
                    break
                if progress is not None:
                    progress(min(first + CHUNK, kept.players.size), kept.players.size)
    finally:
        numba.set_num_threads(previous)
    if stop[0]:
        wait_for_signal()
    if kept.players.size == 0:
        raise ValueError(f"no game lasts {plies} moves")
    best = int(np.argmax(values))
    most = int(values[best])
    witness = _witness(levels, best, plies - kept_plies, most, permutations)
    return MobilityPeak(plies, most, witness, int(kept.players.size), kept_plies, time.perf_counter() - started)


def most_legal_moves_plainly(plies: int, threads: int = 1) -> int:
    """The same most, a second way: every game followed on with nothing merged (no transposition, no symmetry,
    no kept level); the games after the first few moves are searched in parallel. It shares with
    :func:`most_legal_moves` only the search kernel, which the tests compare with plain play on the rules."""
    if not 0 <= plies <= MOST_PLIES:
        raise ValueError(f"the mobility curve is played out after 0 to {MOST_PLIES} moves")
    split = min(plies, PLAIN_SPLIT_PLIES)
    players, opponents = [], []
    _games(rules.START_BLACK, rules.START_WHITE, split, players, opponents)
    values = np.zeros(len(players), dtype=np.uint64)
    stop = np.zeros(1, dtype=np.int64)
    previous = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        with stoppable(stop, 0):
            _most_each(np.array(players, dtype=np.uint64), np.array(opponents, dtype=np.uint64),
                       np.int64(plies - split), stop, values)
    finally:
        numba.set_num_threads(previous)
    if stop[0]:
        wait_for_signal()
    return int(values.max()) if values.size else 0


#: Moves after which :func:`most_legal_moves_plainly` hands out the games (a few thousand of them).
PLAIN_SPLIT_PLIES = 5


def _games(player: int, opponent: int, plies: int, players: list[int], opponents: list[int]) -> None:
    """Append the position at the end of every game of `plies` more moves (passes free, forced ones taken)."""
    moves = rules.legal_moves(player, opponent)
    if moves == 0:
        if rules.legal_moves(opponent, player) == 0:
            return
        player, opponent, moves = opponent, player, rules.legal_moves(opponent, player)
    if plies == 0:
        players.append(player)
        opponents.append(opponent)
        return
    for square in range(64):
        if moves >> square & 1:
            _games(*rules.after_move(player, opponent, 1 << square), plies - 1, players, opponents)


def _levels(plies: int, permutations: np.ndarray) -> list[_Level]:
    """The kept positions after 0, 1, … `plies` moves."""
    none = np.zeros(1, dtype=np.int32)
    levels = [_Level(np.array([rules.START_BLACK], dtype=np.uint64), np.array([rules.START_WHITE], dtype=np.uint64),
                     none, none.astype(np.int8), none.astype(np.int8))]
    for _ in range(plies):
        last = levels[-1]
        room = int(_children(last.players, last.opponents))
        players, opponents = np.empty(room, np.uint64), np.empty(room, np.uint64)
        parent, square, symmetry = np.empty(room, np.int32), np.empty(room, np.int8), np.empty(room, np.int8)
        n = _expand(last.players, last.opponents, permutations, players, opponents, parent, square, symmetry)
        order = np.lexsort((opponents[:n], players[:n]))
        sorted_players, sorted_opponents = players[order], opponents[order]
        first = np.ones(n, dtype=bool)
        first[1:] = (sorted_players[1:] != sorted_players[:-1]) | (sorted_opponents[1:] != sorted_opponents[:-1])
        chosen = order[first]
        levels.append(_Level(players[chosen], opponents[chosen], parent[chosen], square[chosen], symmetry[chosen]))
    return levels


def _witness(levels: list[_Level], index: int, tail: int, most: int, permutations: np.ndarray) -> Replay:
    """The game to the kept position `index` of the last level and on through `tail` moves to `most` legal
    moves, in the squares of the real board, replayed on the rules."""
    kept = levels[-1]
    tail_squares = np.zeros(tail, dtype=np.int64)
    if not _path(kept.players[index], kept.opponents[index], np.int64(tail), np.uint64(most), tail_squares):
        raise RunFailed("the enumeration's best position has no path to its count (a fault of the search)")
    steps = []
    for level in reversed(levels[1:]):
        steps.append((int(level.square[index]), int(level.symmetry[index])))
        index = int(level.parent[index])
    steps.reverse()
    # `seen` maps a square of the real board to its square on the kept (least) image the steps were played on
    seen = np.arange(_SIDE * _SIDE)
    squares = []
    for square, symmetry in steps:
        squares.append(int(np.flatnonzero(seen == square)[0]))
        seen = permutations[symmetry][seen]
    squares += [int(np.flatnonzero(seen == square)[0]) for square in tail_squares]
    if squares:  # told as the records of the field are, from f5: the four openings are images of each other
        turned = next(permutation for permutation in permutations if permutation[squares[0]] == _F5)
        squares = [int(turned[square]) for square in squares]
    game = replay(_with_passes(squares))
    counted = rules.popcount(rules.legal_moves(game.player, game.opponent))
    if not game.strict or counted != most or len(squares) != len(steps) + tail:
        raise RunFailed(f"the witness {game.record} does not replay to {most} legal moves (a fault of the search)")
    return game


def _with_passes(squares: list[int]) -> list[int]:
    """The moves of a game of these squares, with a pass wherever the side to move had no legal move."""
    player, opponent, moves = rules.START_BLACK, rules.START_WHITE, []
    for square in squares:
        player, opponent = rules.after_move(player, opponent, 1 << square)
        moves.append(square)
        if rules.legal_moves(player, opponent) == 0 and rules.legal_moves(opponent, player) != 0:
            player, opponent = opponent, player
            moves.append(PASS)
    return moves
