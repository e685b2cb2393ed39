"""The study's Sudoku harness: claim the puzzle has no solution; the counterexample is the solution.

    gameproof check examples/sudoku.py::sudoku

The check is ordinary Python (gameproof.games.sudoku.checker.is_solution): for every row, column and
box, `if not all(digit in cells for digit in digits): return False`, and the same for a digit seen
twice. @natural compiles that control flow into the circuit, so the solver sees one formula instead of
a path per branch.
"""

from gameproof.games.sudoku.checker import is_solution
from gameproof.logic import any_uint, verify
from gameproof.logic.natural import natural

PUZZLE = "000300090040000002100080500008009007020000030400700100003050006500000080090001000"


@natural
def sudoku():
    """Blanks are free 4-bit inputs named r1c1 .. r9c9; givens are plain ints."""
    grid = [int(c) or any_uint(4, f"r{i // 9 + 1}c{i % 9 + 1}") for i, c in enumerate(PUZZLE)]
    verify(not is_solution(grid, 3), "the puzzle has no solution")
