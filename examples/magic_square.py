"""Magic squares: the digits 1..n² in an n×n grid, every row, column and diagonal with the same sum.

    gameproof check examples/magic_square.py::magic3      # satisfied: a 3×3 magic square (sum 15)
    gameproof check examples/magic_square.py::centre      # verified: every 3×3 magic square has 5 in the centre
    gameproof check examples/magic_square.py::magic4      # a 4×4 magic square (sum 34)
"""

from gameproof.logic import any_uint, assume, cover, verify
from gameproof.logic.natural import natural


def lines(n):
    """Cell indices of every row, column and both diagonals."""
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    return rows + cols + [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]


@natural
def is_magic(square, n):
    """True when ``square`` holds 1..n² once each and all its lines sum to n(n²+1)/2."""
    if not all(1 <= v <= n * n for v in square):
        return False
    if any(square[i] == square[j] for i in range(n * n) for j in range(i + 1, n * n)):
        return False
    total = n * (n * n + 1) // 2
    return all(sum(square[k] for k in line) == total for line in lines(n))


def grid(n):
    return [any_uint(8, f"r{i // n + 1}c{i % n + 1}") for i in range(n * n)]


@natural
def magic3():
    cover(is_magic(grid(3), 3), "a 3x3 magic square")


@natural
def centre():
    square = grid(3)
    assume(is_magic(square, 3))
    verify(square[4] == 5, "the centre of a 3x3 magic square is 5")


@natural
def magic4():
    cover(is_magic(grid(4), 4), "a 4x4 magic square")
