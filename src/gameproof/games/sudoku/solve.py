"""One entry point for every route: ``solve(puzzle, method=...)`` and ``solve_many``."""

from __future__ import annotations

from dataclasses import dataclass

from gameproof.errors import BadInput
from gameproof.games.sudoku.grid import box_size, parse, render

METHODS = ("direct", "sat", "checker")
#: The largest solution limit (the compiled solver counts in 64-bit integers).
MAX_LIMIT = 2**63 - 1


@dataclass
class Answer:
    """What a route found for one puzzle: a solution (or None) and how many exist, up to ``limit``."""

    solution: str | None
    count: int
    limit: int

    @property
    def unique(self) -> bool | None:
        """True when a second solution was searched for and not found (None when the limit was 1)."""
        if self.limit < 2:
            return None
        return self.count == 1


def solve(puzzle: str | list[int], method: str = "direct", limit: int = 2, solver: str | None = None) -> Answer:
    """Solve one puzzle (a string or a list of ints, 0 for blanks), counting solutions up to ``limit``. A string is
    read by :func:`~gameproof.games.sudoku.grid.parse` (BadInput for givens that repeat a digit in a group); a list
    is solved as it is."""
    cells = parse(puzzle) if isinstance(puzzle, str) else list(puzzle)
    return solve_many([cells], method, limit, solver)[0]


def solve_many(puzzles: list[list[int]], method: str = "direct", limit: int = 1,
               solver: str | None = None) -> list[Answer]:
    """Solve puzzles of one size, in order."""
    if method not in METHODS:
        raise BadInput(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if not 1 <= limit <= MAX_LIMIT:
        raise BadInput(f"the solution limit must be between 1 and {MAX_LIMIT}")
    if len({len(p) for p in puzzles}) > 1:
        raise BadInput("puzzles of different sizes cannot be solved in one batch")
    for p in puzzles:
        box_size(len(p))
    extra = {} if solver is None else {"solver": solver}
    if method == "direct":  # the kernel's digits become strings in one pass, not puzzle by puzzle
        from gameproof.games.sudoku.direct import solve_texts

        texts, counts = solve_texts(puzzles, limit)
        return [Answer(text, count, limit) for text, count in zip(texts, counts)]
    if method == "sat":
        from gameproof.games.sudoku.sat import solve_many as sat_many

        solutions, counts = sat_many(puzzles, limit, **extra)
    else:
        from gameproof.games.sudoku.checker import solve as checker_solve

        answers = [checker_solve(p, limit, **extra)[:2] for p in puzzles]
        solutions, counts = [a[0] for a in answers], [a[1] for a in answers]
    return [Answer(render(s) if s else None, c, limit) for s, c in zip(solutions, counts)]
