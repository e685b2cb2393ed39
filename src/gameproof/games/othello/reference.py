"""A naive square-by-square Othello reference, deliberately unlike :mod:`.rules`, for tests.

It walks the board one square at a time along each of the eight directions. It is compiled with
numba (over int64, independently of the uint64 rule compiler) so that tests can compare it with
the fast kernels on hundreds of thousands of positions; under ``NUMBA_DISABLE_JIT=1`` it is plain Python.
"""

from __future__ import annotations

import numba


@numba.njit(cache=True)
def flipped_squares(player, opponent, square):
    """Discs flipped by playing `square` (0..63); 0 if the square is occupied or captures nothing."""
    row0, col0 = square // 8, square % 8
    if (player | opponent) >> square & 1:
        return 0
    flipped = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            row, col = row0 + dr, col0 + dc
            run = 0
            while 0 <= row < 8 and 0 <= col < 8 and opponent >> (row * 8 + col) & 1:
                run |= 1 << (row * 8 + col)
                row, col = row + dr, col + dc
            if run != 0 and 0 <= row < 8 and 0 <= col < 8 and player >> (row * 8 + col) & 1:
                flipped |= run
    return flipped


@numba.njit(cache=True)
def legal_squares(player, opponent):
    """Bitboard of squares where the side to move captures at least one disc."""
    legal = 0
    for square in range(64):
        if flipped_squares(player, opponent, square) != 0:
            legal |= 1 << square
    return legal
