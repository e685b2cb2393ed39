"""gameproof.borrowed: arrays a kernel uses without numba's reference counting are the same arrays."""

import numpy as np
from numba import njit

from gameproof.borrowed import borrowed


@njit(cache=False)
def _fill_rows(grid, pair, scale):
    """Borrow everything, recurse through views, and write through them."""
    grid, pair, scale = borrowed((grid, pair, scale))
    return _fill_from(grid, pair, scale, 0)


@njit(cache=False)
def _fill_from(grid, pair, scale, row):
    grid, pair = borrowed((grid, pair))
    if row == grid.shape[0]:
        return 0
    line = grid[row]  # a view of a borrowed array
    for column in range(line.size):
        line[column] = scale * (row * line.size + column)
    first, second = pair
    first[row] += 1
    second[row] = line[-1]
    return line[-1] + _fill_from(grid, pair, scale, row + 1)


def test_borrowed_arrays_and_their_views_read_and_write_the_callers_memory():
    grid = np.zeros((3, 4), dtype=np.int64)
    counts = np.zeros(3, dtype=np.int64)
    lasts = np.zeros(3, dtype=np.int64)
    total = _fill_rows(grid, (counts, lasts), 2)
    assert grid.tolist() == [[2 * (4 * row + column) for column in range(4)] for row in range(3)]
    assert counts.tolist() == [1, 1, 1]
    assert lasts.tolist() == [6, 14, 22]
    assert total == 6 + 14 + 22


def test_the_callers_arrays_stay_usable_after_many_borrowing_calls():
    grid = np.zeros((2, 2), dtype=np.int64)
    counts, lasts = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    for _ in range(10_000):
        _fill_rows(grid, (counts, lasts), 1)
    assert counts.tolist() == [10_000, 10_000]
    assert grid.sum() == 0 + 1 + 2 + 3
