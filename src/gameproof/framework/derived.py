"""Kernels derived from a game's rules: df-pn's kernel protocol and perft, compiled once per game.

The templates below are written against global names ``R_legal``, ``R_play``, … that
:func:`derive` binds to one game's compiled rules (see :func:`gameproof.jit.specialise`). Rule
functions take the position as separate words, so the templates hold it as a tuple and call them
with ``R_play(*words, move)``.

A df-pn state is one uint64 array: ``s[0]`` the offset of the current frame, ``s[1]`` the frame size,
``s[2]`` the number of words; then one frame per ply, each ``[words…, legal moves, side to move, key
under each symmetry…]``. The kernels know the numbers of words and keys as constants of the game
(``WORDS``, ``KEYS``), so that their loops unroll. Playing a move writes the next frame (its keys
updated from the cells that changed), taking one back steps back a frame.

The kernels guard what rules with a bug could break: ``room`` tells the searches how many frames the
state array holds past the current one (a game longer than that is a fault, never a write past the end);
``moves`` returns a fault for a move order outside the board, ``play`` for a move that changes nothing,
an unknown result code, or a position where no side can move but ``result`` says the game goes on; perft
stops with the same faults. See :class:`gameproof.interrupts.Halt`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import numba
import numpy as np
from numba import njit

from gameproof.framework.declaration import DRAW, LOSS, ONGOING, PASS, WIN
from gameproof.interrupts import Halt, stoppable
from gameproof.jit import specialise
from gameproof.search.dfpn import CONTINUE, DRAW as RESULT_DRAW, MOVER_LOSES, MOVER_WINS, Kernels, halt, raise_for_halt

HEADER = 3  # s[0] frame offset, s[1] frame size, s[2] words
UNKNOWN_RESULT, NO_MOVE, UNCHANGED, BAD_MOVE = (int(fault) for fault in (
    Halt.UNKNOWN_RESULT, Halt.NO_MOVE, Halt.UNCHANGED, Halt.BAD_MOVE))
# slots of the info table g[1]
INFO_CELLS, INFO_MASK, INFO_PERSPECTIVE, INFO_TO_MOVE_TERM, INFO_LOOKAHEAD = range(5)

if numba.config.DISABLE_JIT:  # numba's intrinsic only compiles: the kernels as plain Python (differential tests)

    def trailing_zeros(x):
        """Index of the lowest set bit of a non-zero word."""
        return np.int64((int(x) & -int(x)).bit_length() - 1)
else:
    from numba.cpython.unsafe.numbers import trailing_zeros


R_legal: Callable
R_play: Callable
R_result: Callable
R_pass: Callable
R_estimate: Callable
R_load: Callable
WORDS: int  # words of a position
KEYS: int  # keys of a frame: one per symmetry
HAS_PASS: bool  # whether the game has a pass_turn rule


@njit(cache=True)
def popcount(x):
    """Number of set bits of a uint64."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555_5555_5555_5555))
    x = (x & np.uint64(0x3333_3333_3333_3333)) + ((x >> np.uint64(2)) & np.uint64(0x3333_3333_3333_3333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F_0F0F_0F0F_0F0F)
    return np.int64((x * np.uint64(0x0101_0101_0101_0101)) >> np.uint64(56))


@njit(cache=True)
def load1(s, base):
    return (s[base],)


@njit(cache=True)
def load2(s, base):
    return (s[base], s[base + 1])


@njit(cache=True)
def load3(s, base):
    return (s[base], s[base + 1], s[base + 2])


@njit(cache=True)
def load4(s, base):
    return (s[base], s[base + 1], s[base + 2], s[base + 3])


LOADERS = (load1, load2, load3, load4)


@njit(cache=True)
def no_pass(*words):
    """The rules of a game without passes: never called by a game that keeps to its protocol."""
    return words


@njit(cache=True)
def no_estimate(*words):
    return np.int64(0), np.int64(0)


# --- the df-pn kernel protocol (see gameproof.search.dfpn.Kernels) ------------------------------------


def mover(s):
    return np.int64(s[np.int64(s[0]) + WORDS + 1])


def remaining(s, g):
    base = np.int64(s[0])
    occupied = np.uint64(0)
    for i in range(WORDS):
        occupied |= s[base + i]
    return np.int64(g[1][INFO_CELLS]) - popcount(occupied & g[1][INFO_MASK])


def room(s):
    return (np.int64(s.size) - np.int64(s[0])) // np.int64(s[1]) - 1


def moves(s, g, out):
    legal = s[np.int64(s[0]) + WORDS]
    if legal == np.uint64(0):
        out[0] = PASS
        return 1
    order = g[2]
    n = 0
    if order.size > 0:
        for i in range(min(order.size, out.size)):
            if np.uint64(order[i]) >= np.uint64(64):
                return -BAD_MOVE
            if (legal >> np.uint64(order[i])) & np.uint64(1):
                out[n] = order[i]
                n += 1
    else:
        while legal != np.uint64(0):
            out[n] = trailing_zeros(legal)
            legal &= legal - np.uint64(1)
            n += 1
    return n


def play(s, g, move):
    base, size = np.int64(s[0]), np.int64(s[1])
    following = base + size
    words = R_load(s, base)
    to_move = np.int64(s[base + WORDS + 1])
    if move == PASS:
        child = R_pass(*words)
    else:
        child = R_play(*words, np.uint64(1) << np.uint64(move))
    for i in range(WORDS):
        s[following + i] = child[i]
    legal = R_legal(*child)
    s[following + WORDS] = legal
    s[following + WORDS + 1] = np.uint64(1 - to_move)
    s[0] = np.uint64(following)
    weights, info = g[0], g[1]
    keys = WORDS + 2
    for k in range(KEYS):
        s[following + keys + k] = s[base + keys + k]
    perspective = info[INFO_PERSPECTIVE] != np.uint64(0)
    for a in range(WORDS):  # the words read back from the frames: a tuple indexed at run time is slow
        before, after = s[base + a], s[following + a]
        if perspective and a < 2:
            before, after = s[base + (a ^ to_move)], s[following + (a ^ (1 - to_move))]
        added, removed = after & ~before, before & ~after
        while added != np.uint64(0):
            bit = trailing_zeros(added)
            added &= added - np.uint64(1)
            for k in range(KEYS):
                s[following + keys + k] += weights[k, a, bit]
        while removed != np.uint64(0):
            bit = trailing_zeros(removed)
            removed &= removed - np.uint64(1)
            for k in range(KEYS):
                s[following + keys + k] -= weights[k, a, bit]
    if legal != np.uint64(0):  # the guards at the end: a return before the frame is written costs 20% of the speed
        if child == words and move != PASS:
            return UNCHANGED
        if info[INFO_LOOKAHEAD] != np.uint64(0) and wins_at_once(child, legal):
            return MOVER_LOSES
        return CONTINUE
    outcome = R_result(*child)  # for the side to move next
    if outcome == WIN:
        return MOVER_LOSES
    if outcome == LOSS:
        return MOVER_WINS
    if outcome == DRAW:
        return RESULT_DRAW
    if outcome != ONGOING:
        return UNKNOWN_RESULT
    if not HAS_PASS or move == PASS:
        return NO_MOVE  # the side to move can neither move nor pass, or both sides pass
    return CONTINUE


def wins_at_once(words, legal):
    """Whether the side to move has a move that ends the game in its favour."""
    while legal != np.uint64(0):
        move = legal & (np.uint64(0) - legal)
        legal ^= move
        after = R_play(*words, move)
        if R_legal(*after) == np.uint64(0) and R_result(*after) == LOSS:
            return True
    return False


def undo(s, g, move):
    s[0] -= s[1]


def key(s, g):
    first = np.int64(s[0]) + WORDS + 2
    best = s[first]
    for k in range(1, KEYS):
        if s[first + k] < best:
            best = s[first + k]
    return best + s[first - 1] * g[1][INFO_TO_MOVE_TERM]


def estimate(s, g, attacker):
    base = np.int64(s[0])
    for_mover, for_other = R_estimate(*R_load(s, base))
    if np.int64(s[base + WORDS + 1]) == attacker:
        return np.int64(for_other), np.int64(for_mover)
    return np.int64(for_mover), np.int64(for_other)


def position(s: np.ndarray) -> tuple[tuple[int, ...], int]:
    """The words and the side to move of a df-pn state's current frame, as Python ints."""
    base, count = int(s[0]), int(s[2])
    frame = s[base : base + count + 2].tolist()
    return tuple(frame[:count]), frame[count + 1]


# --- perft ---------------------------------------------------------------------------------------------


def perft(words, depth, count_finished, pass_is_ply, status):
    """Move paths of `depth` plies (see :mod:`gameproof.games.othello.perft` for the conventions); 0 once
    ``status[0]`` holds a reason to stop (a signal, or a fault this writes with the depth left)."""
    legal = R_legal(*words)
    if legal == np.uint64(0):
        outcome = R_result(*words)
        if outcome != ONGOING:
            if np.uint64(outcome) > np.uint64(DRAW):
                halt(status, 0, UNKNOWN_RESULT, depth)
            return np.uint64(1) if count_finished else np.uint64(0)
        passed = R_pass(*words)
        if not HAS_PASS or (R_legal(*passed) == np.uint64(0) and R_result(*passed) == ONGOING):
            halt(status, 0, NO_MOVE, depth)
            return np.uint64(0)
        if not pass_is_ply:
            return perft(passed, depth, count_finished, pass_is_ply, status)
        if depth == 1:
            return np.uint64(1)
        return perft(passed, depth - 1, count_finished, pass_is_ply, status)
    if depth == 1:
        return np.uint64(popcount(legal))
    total = np.uint64(0)
    while legal != np.uint64(0) and status[0] == 0:
        move = legal & (np.uint64(0) - legal)
        legal ^= move
        child = R_play(*words, move)
        if child == words:
            halt(status, 0, UNCHANGED, depth - 1)
        replies = R_legal(*child)
        if depth == 2 and replies != np.uint64(0):  # the last ply counted here, without a call: most of the work
            total += np.uint64(popcount(replies))
        else:
            total += perft(child, depth - 1, count_finished, pass_is_ply, status)
    return total


def run_perft(kernel: Callable, words: tuple[int, ...], depth: int, count_finished: bool, pass_is_ply: bool) -> int:
    """`kernel` (a game's :func:`perft`) from the position `words`, stoppable by a signal; a fault raises
    :class:`~gameproof.interrupts.RulesBroken` at the depth (plies from the position) it was found."""
    status = np.zeros(2, dtype=np.int64)
    with stoppable(status, 0):
        paths = int(kernel(tuple(np.uint64(word) for word in words), np.int64(depth), count_finished, pass_is_ply,
                           status))
    status[1] = depth - status[1]  # plies from the position, where the kernel wrote the plies left
    raise_for_halt(status, 0, depth)
    return paths


def derive(compiled: SimpleNamespace, words: int, symmetries: int, fingerprint: str) -> tuple[Kernels, Callable]:
    """df-pn kernels and a perft kernel for one game's compiled rules (`words` state words, a key for
    each of `symmetries` symmetries in a frame)."""
    from gameproof.search import dfpn

    bindings = {
        "R_legal": compiled.legal, "R_play": compiled.play, "R_result": compiled.result,
        "R_pass": getattr(compiled, "pass_turn", no_pass), "R_estimate": getattr(compiled, "estimate", no_estimate),
        "R_load": LOADERS[words - 1], "WORDS": words, "KEYS": symmetries, "HAS_PASS": hasattr(compiled, "pass_turn"),
    }
    made = specialise((mover, remaining, moves, play, wins_at_once, undo, key, estimate, room, perft), bindings,
                      depends_on=[dfpn], fingerprint=fingerprint)
    for function in vars(made).values():
        function.gameproof_fingerprint = fingerprint
    kernels = Kernels(made.mover, made.remaining, made.moves, made.play, made.undo, made.key, made.estimate, made.room)
    return kernels, made.perft
