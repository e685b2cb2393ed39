"""The `sat` route: the direct exactly-one CNF (one variable per cell and digit), solved incrementally.

One solver holds the rules of a board size; each puzzle's givens are assumptions, so solving a file of
puzzles never rebuilds the formula. Blocking clauses for counting carry an activation literal that is
switched off afterwards.
"""

from __future__ import annotations

import functools
from itertools import combinations

from gameproof.games.sudoku.grid import box_size, groups
from gameproof.logic.cnf import Cnf
from gameproof.logic.solvers import DEFAULT_SOLVER, Solver, open_solver


def variable(cell: int, digit: int, size: int) -> int:
    """The DIMACS variable "``cell`` holds ``digit``" (digits 1..size)."""
    return cell * size + digit


@functools.cache
def rules(n: int) -> Cnf:
    """Every cell holds exactly one digit; every group holds every digit exactly once (pairwise at-most-one)."""
    size = n * n
    cnf = Cnf(size ** 3)
    sets = [[variable(c, d, size) for d in range(1, size + 1)] for c in range(size * size)]
    sets += [[variable(c, d, size) for c in group] for group in groups(n) for d in range(1, size + 1)]
    for lits in sets:
        cnf.add_clause(lits)
        for a, b in combinations(lits, 2):
            cnf.add_clause([-a, -b])
    return cnf


class SatSudoku:
    """A solver for puzzles of one box size, reused across puzzles."""

    def __init__(self, n: int, solver: str = DEFAULT_SOLVER) -> None:
        self.n, self.size = n, n * n
        self.sat: Solver = open_solver(solver)
        self.sat.add(rules(n))
        self.top = rules(n).num_vars

    def solve(self, puzzle: list[int], limit: int) -> tuple[list[int] | None, int]:
        """The first solution (None if none) and the number of solutions, capped at ``limit``."""
        size = self.size
        self.top += 1
        switch = self.top
        givens = [variable(c, d, size) for c, d in enumerate(puzzle) if d]
        blanks = [c for c, d in enumerate(puzzle) if not d]
        first, count = None, 0
        while count < limit and self.sat.solve(givens + [switch]):
            model = self.sat.model()
            solution = [next(d for d in range(1, size + 1) if variable(c, d, size) in model) if not given else given
                        for c, given in enumerate(puzzle)]
            first = first or solution
            count += 1
            block = Cnf(self.top)
            block.add_clause([-switch] + [-variable(c, solution[c], size) for c in blanks])
            self.sat.add(block)
        retire = Cnf(self.top)
        retire.add_clause([-switch])
        self.sat.add(retire)
        return first, count

    def close(self) -> None:
        """Release the solver."""
        self.sat.close()


def solve_many(puzzles: list[list[int]], limit: int, solver: str = DEFAULT_SOLVER
               ) -> tuple[list[list[int] | None], list[int]]:
    """Solve puzzles of one size with one incremental solver."""
    if not puzzles:
        return [], []
    sudoku = SatSudoku(box_size(len(puzzles[0])), solver)
    try:
        answers = [sudoku.solve(p, limit) for p in puzzles]
    finally:
        sudoku.close()
    return [a[0] for a in answers], [a[1] for a in answers]
