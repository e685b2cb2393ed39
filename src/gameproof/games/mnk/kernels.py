"""numba kernels of the m,n,k rules on uint64 bitboards: the kernel protocol df-pn searches.

A position is a uint64 array ``s``: ``s[0]``, ``s[1]`` the first and second player's stones (Notakto
keeps every stone in ``s[0]``), ``s[2]`` the ply, ``s[3:3+syms]`` the position's key under each symmetry,
kept incrementally. ``g`` is :attr:`Geometry.tables`. Move results are ``CONTINUE`` or, from the
mover's view, ``MOVER_WINS``, ``MOVER_LOSES``, ``DRAW``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CONTINUE, MOVER_WINS, MOVER_LOSES, DRAW = 0, 1, 2, 3
NORMAL, MISERE, NOTAKTO = 0, 1, 2
STATE_WORDS = 11  # 3 + at most 8 symmetries
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True)
def new_state(g):
    """The empty board."""
    return np.zeros(STATE_WORDS, dtype=np.uint64)


@njit(cache=True)
def mover(s):
    """0 if the first player is to move, else 1."""
    return np.int64(s[2] % np.uint64(2))


@njit(cache=True)
def remaining(s, g):
    """Number of empty squares."""
    return g[3][4] - np.int64(s[2])


@njit(cache=True)
def moves(s, g, out):
    """Write the legal moves (empty squares) into ``out``; return how many."""
    occupied = s[0] | s[1]
    n = 0
    for sq in range(g[3][4]):
        if (occupied >> np.uint64(sq)) & _ONE == _ZERO:
            out[n] = sq
            n += 1
    return n


@njit(cache=True)
def play(s, g, sq):
    """Place the mover's stone on empty square ``sq``; return the move's result."""
    masks, by_square, weights, info = g
    colour = 0 if info[3] == NOTAKTO else mover(s)
    s[colour] |= _ONE << np.uint64(sq)
    for sym in range(info[5]):
        s[3 + sym] += weights[sym, sq, colour]
    s[2] += _ONE
    stones = s[colour]
    for j in range(by_square.shape[1]):
        line = by_square[sq, j]
        if line < 0:
            break
        if stones & masks[line] == masks[line]:
            return MOVER_WINS if info[3] == NORMAL else MOVER_LOSES
    if np.int64(s[2]) == info[4]:
        return DRAW
    return CONTINUE


@njit(cache=True)
def undo(s, g, sq):
    """Take back the stone on ``sq`` (the last move)."""
    weights, info = g[2], g[3]
    s[2] -= _ONE
    colour = 0 if info[3] == NOTAKTO else mover(s)
    s[colour] &= ~(_ONE << np.uint64(sq))
    for sym in range(info[5]):
        s[3 + sym] -= weights[sym, sq, colour]


@njit(cache=True)
def key(s, g):
    """Canonical key: the least of the position's keys under the board symmetries."""
    best = s[3]
    for sym in range(1, g[3][5]):
        if s[3 + sym] < best:
            best = s[3 + sym]
    return best


@njit(cache=True)
def estimate(s, g, attacker):
    """Threat counts (against the attacker, against the defender) that seed a fresh node's numbers.

    Counts, for each player, the lines that would complete if every empty square took that player's
    stone (lines free of the other player's stones): those lines favour the player in the normal game
    and threaten them in misère. Notakto has one colour and gets (0, 0).
    """
    masks, info = g[0], g[3]
    if info[3] == NOTAKTO:
        return np.int64(0), np.int64(0)
    open0 = 0
    open1 = 0
    for line in masks:
        if s[1] & line == _ZERO:
            open0 += 1
        if s[0] & line == _ZERO:
            open1 += 1
    own, other = (open0, open1) if attacker == 0 else (open1, open0)
    if info[3] == NORMAL:
        return np.int64(other), np.int64(own)
    return np.int64(own), np.int64(other)
