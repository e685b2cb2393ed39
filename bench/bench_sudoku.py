"""Sudoku throughput (puzzles/s, first solution of each) by every route, beside a plain PySAT encoding.

Sets: hard 17-clue puzzles (Royle's list), top1465 and forum_hardest_1106. Each method runs on the first N
puzzles of a set (N in the table; the slow routes get fewer) after a warm-up, on one core; every solution is
checked afterwards. `direct` is the whole `solve_many` call (lists in, strings out); `direct, kernel only`
times the band kernel on arrays made beforehand (as tdoku's benchmark times its solver on puzzles in memory);
`direct, per-cell kernel` is the previous 9×9 solver (:mod:`gameproof.games.sudoku.kernels`, still used for
4×4 and 16×16) through the same Python path as before. A second table compares the natural checker with the
same check hand-flattened, on the study's puzzle.
`plain PySAT` builds the complete exactly-one encoding afresh for each puzzle with the givens as unit
clauses (the set-up of tdoku's "minisat complete" row). Published numbers (tdoku's benchmark, one core)
are printed as context; they come from other hardware.

Run: .venv/bin/python bench/bench_sudoku.py [--data DIR] [--quick] [--repeat N]
     [--methods direct ...] [--sets 17-clue ...] [--no-study]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from pysat.solvers import Solver as PysatSolver

from gameproof.games.sudoku import checker, solve_many
from gameproof.games.sudoku.bands import solve_batch9
from gameproof.games.sudoku.direct import _tables
from gameproof.games.sudoku.grid import is_solution_of, parse, read_puzzles, render
from gameproof.games.sudoku.kernels import solve_batch
from gameproof.games.sudoku.sat import rules, variable

SETS = {"17-clue": "sudoku17-first10000.txt", "top1465": "top1465.txt",
        "forum_hardest_1106": "forum_hardest_1106.txt"}
PUBLISHED = {  # puzzles/s, tdoku's benchmark tables, one core
    "17-clue": [("tdoku", 325_781), ("minisat, complete encoding", 4_991)],
    "top1465": [],
    "forum_hardest_1106": [("tdoku", 13_568), ("sk_bforce2", 6_356), ("Norvig (C++)", 574),
                           ("minisat, complete encoding", 388)],
}
LIMITS = {"direct": 10_000, "direct, kernel only": 10_000, "direct, per-cell kernel": 10_000, "sat": 2_000, "plain PySAT minisat22": 1_000, "plain PySAT cadical195": 1_000,
          "checker": 200, "checker, hand-flattened": 200}
STUDY = "000300090040000002100080500008009007020000030400700100003050006500000080090001000"


def plain_pysat(puzzles: list[list[int]], name: str) -> list[list[int] | None]:
    """Fresh solver per puzzle: the complete encoding plus the givens as unit clauses."""
    base = list(rules(3).clauses())
    out = []
    for puzzle in puzzles:
        with PysatSolver(name=name, bootstrap_with=base) as sat:
            for cell, digit in enumerate(puzzle):
                if digit:
                    sat.add_clause([variable(cell, digit, 9)])
            if not sat.solve():
                out.append(None)
                continue
            model = set(sat.get_model())
            out.append([next(d for d in range(1, 10) if variable(c, d, 9) in model) for c in range(81)])
    return out


def per_cell_kernel(puzzles: list[list[int]]) -> list[str | None]:
    """The previous 9×9 route: candidate masks per cell through `kernels.solve_batch`, rendered one by one."""
    peers, units, popcount, full = _tables(3)
    given = np.array(puzzles, dtype=np.int64)
    masks = np.where(given > 0, np.left_shift(1, np.maximum(given - 1, 0)), full).astype(np.int64)
    solutions = np.zeros_like(masks)
    counts = np.zeros(len(puzzles), dtype=np.int64)
    solve_batch(masks, peers, units, popcount, full, np.int64(1), solutions, counts)
    digits = np.zeros_like(solutions)
    for d in range(9):
        digits[solutions == 1 << d] = d + 1
    return [render(row) if count else None for row, count in zip(digits.tolist(), counts)]


def kernel_only(given: np.ndarray) -> np.ndarray:
    """The band kernel alone on a prepared array of givens: the digits of each first solution."""
    digits = np.zeros_like(given)
    solve_batch9(given, np.int64(1), digits, np.zeros(len(given), dtype=np.int64))
    return digits


def route(method: str):
    """``(prepare, solve)``: untimed preparation of a list of puzzles, and the timed solver; solutions come back
    as strings, lists of digits or rows of an array (None for none)."""
    same = lambda puzzles: puzzles  # noqa: E731
    if method.startswith("plain PySAT"):
        name = method.rsplit(" ", 1)[1]
        return same, lambda puzzles: plain_pysat(puzzles, name)
    if method == "checker, hand-flattened":
        return same, lambda puzzles: [checker.solve(p, 1, check=checker.is_solution_flat)[0] for p in puzzles]
    if method == "direct, kernel only":
        return lambda puzzles: np.array(puzzles, dtype=np.int8), kernel_only
    if method == "direct, per-cell kernel":
        return same, per_cell_kernel
    return same, lambda puzzles: [a.solution for a in solve_many(puzzles, method, 1)]


def as_digits(solution) -> list[int] | None:
    """A solution in any of the routes' forms as a list of digits."""
    if solution is None or isinstance(solution, list):
        return solution
    return parse(solution) if isinstance(solution, str) else solution.tolist()


def natural_versus_flat() -> None:
    """The study's puzzle by the checker route, uniqueness included: the natural check and the flat one."""
    print(f"\n{'study puzzle, checker route':<30} {'gates':>7} {'variables':>10} {'clauses':>8} {'seconds':>8}")
    for name, check in (("natural (@natural)", checker.is_solution), ("hand-flattened", checker.is_solution_flat)):
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            solution, count, size = checker.solve(parse(STUDY), 2, check=check)
            best = min(best, time.perf_counter() - started)
        assert count == 1 and solution is not None
        print(f"{name:<30} {size['gates']:>7,} {size['variables']:>10,} {size['clauses']:>8,} {best:>8.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"),
                        help="folder with the puzzle files (default ../shared/data)")
    parser.add_argument("--quick", action="store_true", help="a tenth of the puzzles")
    parser.add_argument("--methods", nargs="+", choices=list(LIMITS), default=list(LIMITS), metavar="METHOD",
                        help=f"only these routes (of: {', '.join(LIMITS)})")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS), metavar="SET",
                        help=f"only these puzzle sets (of: {', '.join(SETS)})")
    parser.add_argument("--repeat", type=int, default=1, help="time each run this many times, keep the best")
    parser.add_argument("--no-study", action="store_true", help="skip the study-puzzle table")
    args = parser.parse_args()
    print(f"{'set':<20} {'method':<34} {'puzzles':>8} {'seconds':>9} {'puzzles/s':>11}")
    print("-" * 86)
    for label in args.sets:
        puzzles = read_puzzles(Path(args.data) / SETS[label], skip_malformed=True).puzzles
        for method in args.methods:
            limit = LIMITS[method]
            count = min(len(puzzles), limit // 10 if args.quick else limit)
            chosen = puzzles[:count]
            prepare, solver = route(method)
            solver(prepare(puzzles[:2]))  # warm-up: numba compilation, solver start
            prepared = prepare(chosen)
            seconds = float("inf")
            for _ in range(args.repeat):
                started = time.perf_counter()
                solutions = solver(prepared)
                seconds = min(seconds, time.perf_counter() - started)
            assert len(solutions) == count, method
            assert all(is_solution_of(as_digits(s) or [], p) for s, p in zip(solutions, chosen)), method
            print(f"{label:<20} {method:<34} {count:>8,} {seconds:>9.3f} {count / seconds:>11,.0f}")
        for name, rate in PUBLISHED[label]:
            print(f"{label:<20} {'published: ' + name:<34} {'':>8} {'':>9} {rate:>11,}")
    if not args.no_study:
        natural_versus_flat()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
