"""The `direct` route's Python side: boards to candidate bitmasks and back, tables for the kernel."""

from __future__ import annotations

import functools

import numpy as np

from gameproof.games.sudoku.grid import box_size, groups
from gameproof.games.sudoku.kernels import solve_batch


@functools.cache
def _tables(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.int64]:
    """Peers of each cell, the groups, a popcount table over digit masks, and the all-digits mask."""
    size, cells = n * n, n ** 4
    units = np.array(groups(n), dtype=np.int64)
    peer_sets: list[set[int]] = [set() for _ in range(cells)]
    for group in groups(n):
        for cell in group:
            peer_sets[cell].update(group)
    peers = np.array([sorted(s - {c}) for c, s in enumerate(peer_sets)], dtype=np.int64)
    popcount = np.array([bin(m).count("1") for m in range(1 << size)], dtype=np.int64)
    return peers, units, popcount, np.int64((1 << size) - 1)


def solve_masks(puzzles: list[list[int]], limit: int) -> tuple[list[list[int] | None], list[int]]:
    """Solve puzzles of one size; each one's first solution (None if none) and its count, capped at ``limit``."""
    if not puzzles:
        return [], []
    n = box_size(len(puzzles[0]))
    peers, units, popcount, full = _tables(n)
    given = np.array(puzzles, dtype=np.int64)
    masks = np.where(given > 0, np.left_shift(1, np.maximum(given - 1, 0)), full).astype(np.int64)
    solutions = np.zeros_like(masks)
    counts = np.zeros(len(puzzles), dtype=np.int64)
    solve_batch(masks, peers, units, popcount, full, np.int64(limit), solutions, counts)
    digits = np.zeros_like(solutions)
    for d in range(n * n):  # the single bit of each solved cell, back to its digit
        digits[solutions == 1 << d] = d + 1
    return ([row.tolist() if count else None for row, count in zip(digits, counts)], counts.tolist())
