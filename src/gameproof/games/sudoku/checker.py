"""The `checker` route: the study's Kani-style harness, written as natural Python and solved by SAT.

The harness claims that no filling of the blanks passes :func:`is_solution`; the solver's counterexample
is a solution, replayed on plain ints before it is believed. A second query, with that solution
blocked, decides uniqueness.
"""

from __future__ import annotations

from functools import reduce

from gameproof.games.sudoku.grid import box_size, groups
from gameproof.logic import any_uint, verify
from gameproof.logic.harness import Harness, replay, trace
from gameproof.logic.natural import natural
from gameproof.logic.cnf import Cnf
from gameproof.logic.harness import Traced
from gameproof.logic.solvers import DEFAULT_SOLVER, open_solver


@natural
def is_solution(grid: list, n: int) -> bool:
    """True when every row, column and box of ``grid`` holds each digit 1..n*n exactly once.

    The first test alone is the study's check (with n*n cells, every digit present means none twice);
    the second says the same again in the form a SAT solver propagates well, which makes solving
    about 30 times faster on 17-clue puzzles.
    """
    digits = range(1, n * n + 1)
    for group in groups(n):
        cells = [grid[i] for i in group]
        if not all(digit in cells for digit in digits):
            return False
        if any(a == b for k, a in enumerate(cells) for b in cells[k + 1:]):
            return False
    return True


def is_solution_flat(grid: list, n: int):
    """The same check hand-flattened into ``&`` and ``|`` (what the study had to write for speed)."""
    parts = []
    for group in groups(n):
        parts += [reduce(lambda a, b: a | b, [grid[i] == digit for i in group]) for digit in range(1, n * n + 1)]
        parts += [grid[a] != grid[b] for k, a in enumerate(group) for b in group[k + 1:]]
    return reduce(lambda a, b: a & b, parts)


def harness(puzzle: list[int], check=is_solution) -> Harness:
    """A harness whose counterexample fills the blanks of ``puzzle`` so that ``check`` passes."""
    n = box_size(len(puzzle))
    width = (n * n).bit_length()

    @natural
    def sudoku() -> None:
        grid = [given or any_uint(width, f"cell{index}") for index, given in enumerate(puzzle)]
        verify(not check(grid, n), "the puzzle has no solution")

    return sudoku


def solve(puzzle: list[int], limit: int = 2, solver: str = DEFAULT_SOLVER, check=is_solution
          ) -> tuple[list[int] | None, int, dict[str, int]]:
    """The first solution (None if none), the count of solutions capped at ``limit``, and the formula's size."""
    sudoku = harness(puzzle, check)
    traced = trace(sudoku)
    blanks = [i for i, given in enumerate(puzzle) if not given]
    first: list[int] | None = None
    count = 0
    size = {"gates": traced.encoding.circuit.num_gates, "variables": traced.cnf.num_vars,
            "clauses": traced.cnf.num_clauses}
    with open_solver(solver) as sat:
        sat.add(traced.cnf)
        goal = [traced.encoding.lit(traced.findings[0])]
        while count < limit and sat.solve(goal):
            model = sat.model()
            values = traced.decode(model)
            if not replay(sudoku, values)[0].is_finding:
                raise AssertionError("the solver's solution does not replay on plain ints")
            count += 1
            if first is None:
                first = [values.get(f"cell{i}", given) for i, given in enumerate(puzzle)]
            block = Cnf(traced.cnf.num_vars)
            block.add_clause(_blocking(traced, model, [f"cell{i}" for i in blanks]) or [-goal[0]])
            sat.add(block)
    return first, count, size


def _blocking(traced: Traced, model: set[int], names: list[str]) -> list[int]:
    """A clause that some bit of the named inputs differs from ``model`` (empty when all are constant)."""
    lits = [traced.encoding.lit(lit) for name in names for lit in traced.inputs[name] if lit > 1]
    return [-lit if lit in model else lit for lit in lits]
