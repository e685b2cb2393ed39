"""The `direct` route's Python side: boards to kernel arrays and back.

9×9 boards go to the band-bitset solver (:mod:`gameproof.games.sudoku.bands`); 4×4 and 16×16 boards to
the per-cell candidate solver (:mod:`gameproof.games.sudoku.kernels`).
"""

from __future__ import annotations

import functools

import numpy as np

from gameproof.games.sudoku.bands import solve_batch9
from gameproof.games.sudoku.grid import SYMBOLS, box_size, groups
from gameproof.games.sudoku.kernels import solve_batch

BAND_SOLVER_BOX = 3  # the box size the band solver handles
#: The character of each digit (index 0 unused: a blank never comes back in a solution).
CHARACTERS = np.frombuffer(("0" + SYMBOLS).encode("ascii"), dtype=np.uint8)


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


def _solve_digits(puzzles: list[list[int]], limit: int) -> tuple[np.ndarray, np.ndarray]:
    """Each puzzle's first solution as a row of digits (zeros if none) and its count, capped at ``limit``."""
    n = box_size(len(puzzles[0]))
    counts = np.zeros(len(puzzles), dtype=np.int64)
    if n == BAND_SOLVER_BOX:
        given = np.array(puzzles, dtype=np.int8)
        digits = np.zeros_like(given)
        solve_batch9(given, np.int64(limit), digits, counts)
        return digits, counts
    peers, units, popcount, full = _tables(n)
    given = np.array(puzzles, dtype=np.int64)
    masks = np.where(given > 0, np.left_shift(1, np.maximum(given - 1, 0)), full).astype(np.int64)
    solutions = np.zeros_like(masks)
    solve_batch(masks, peers, units, popcount, full, np.int64(limit), solutions, counts)
    digits = np.zeros_like(solutions)
    for d in range(n * n):  # the single bit of each solved cell, back to its digit
        digits[solutions == 1 << d] = d + 1
    return digits, counts


def solve_texts(puzzles: list[list[int]], limit: int) -> tuple[list[str | None], list[int]]:
    """Solve puzzles of one size: each one's first solution as its one-line string (what ``render`` makes; None
    if none) and its count of solutions, capped at ``limit``."""
    if not puzzles:
        return [], []
    digits, counts = _solve_digits(puzzles, limit)
    width = digits.shape[1]
    text = CHARACTERS[digits].tobytes().decode("ascii")
    return ([text[k * width:(k + 1) * width] if count else None for k, count in enumerate(counts.tolist())],
            counts.tolist())
