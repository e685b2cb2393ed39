"""Futoshiki: fill a 5×5 grid with 1..5, each once per row and column, obeying the < signs.

    gameproof check examples/futoshiki.py::futoshiki     # the solution
    gameproof check examples/futoshiki.py::unique        # verified: it is the only one

The puzzle (< > between cells of a row; ^ v between cells of a column point at the smaller one)::

    .   .   .   .   .
            ^       ^
    .   .   .   .   .

    . > .   .   . < .

    .   .   .   . > .
    v               v
    . > .   .   . < .

In CLUES, cells are numbered 0..24 row-major and a pair (a, b) means cell a < cell b.
"""

from gameproof.logic import any_uint, assume, cover, verify
from gameproof.logic.natural import natural

N = 5
CLUES = [(2, 7), (4, 9), (11, 10), (13, 14), (19, 18), (20, 15), (21, 20), (23, 24), (24, 19)]
SOLUTION = [3, 4, 2, 5, 1, 1, 5, 3, 2, 4, 2, 1, 4, 3, 5, 5, 2, 1, 4, 3, 4, 3, 5, 1, 2]


@natural
def solved(grid):
    """True when ``grid`` is a Latin square of 1..N that obeys every clue."""
    for r in range(N):
        row = [grid[r * N + c] for c in range(N)]
        col = [grid[c * N + r] for c in range(N)]
        if not all(v in row and v in col for v in range(1, N + 1)):
            return False
    return all(grid[a] < grid[b] for a, b in CLUES)


def cells():
    return [any_uint(3, f"r{i // N + 1}c{i % N + 1}") for i in range(N * N)]


@natural
def futoshiki():
    cover(solved(cells()), "a solution")


@natural
def unique():
    grid = cells()
    assume(solved(grid))
    verify(all(v == s for v, s in zip(grid, SOLUTION)), "every solution is the known one")
