"""Sudoku throughput (puzzles/s, first solution of each) by every route, beside a plain PySAT encoding.

Sets: hard 17-clue puzzles (Royle's list) and forum_hardest_1106. Each method runs on the first N
puzzles of a set (N in the table; the slow routes get fewer) after a warm-up, on one core. A second
table compares the natural checker with the same check hand-flattened, on the study's puzzle.
`plain PySAT` builds the complete exactly-one encoding afresh for each puzzle with the givens as unit
clauses (the set-up of tdoku's "minisat complete" row). Published numbers (tdoku's benchmark, one core)
are printed as context; they come from other hardware.

Run: .venv/bin/python bench/bench_sudoku.py [--data DIR] [--quick]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pysat.solvers import Solver as PysatSolver

from gameproof.games.sudoku import checker, solve_many
from gameproof.games.sudoku.grid import is_solution_of, parse, read_puzzles
from gameproof.games.sudoku.sat import rules, variable

SETS = {"17-clue": "sudoku17-first10000.txt", "forum_hardest_1106": "forum_hardest_1106.txt"}
PUBLISHED = {  # puzzles/s, tdoku's benchmark tables, one core
    "17-clue": [("tdoku", 325_781), ("minisat, complete encoding", 4_991)],
    "forum_hardest_1106": [("tdoku", 13_568), ("sk_bforce2", 6_356), ("Norvig (C++)", 574),
                           ("minisat, complete encoding", 388)],
}
LIMITS = {"direct": 10_000, "sat": 2_000, "plain PySAT minisat22": 1_000, "plain PySAT cadical195": 1_000,
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


def route(method: str):
    if method.startswith("plain PySAT"):
        name = method.rsplit(" ", 1)[1]
        return lambda puzzles: plain_pysat(puzzles, name)
    if method == "checker, hand-flattened":
        return lambda puzzles: [checker.solve(p, 1, check=checker.is_solution_flat)[0] for p in puzzles]
    return lambda puzzles: [a.solution and [int(ch) for ch in a.solution] for a in solve_many(puzzles, method, 1)]


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
    args = parser.parse_args()
    print(f"{'set':<20} {'method':<34} {'puzzles':>8} {'seconds':>9} {'puzzles/s':>11}")
    print("-" * 86)
    for label, filename in SETS.items():
        puzzles = read_puzzles(Path(args.data) / filename, skip_malformed=True).puzzles
        for method, limit in LIMITS.items():
            count = min(len(puzzles), limit // 10 if args.quick else limit)
            chosen = puzzles[:count]
            solver = route(method)
            solver(puzzles[:2])  # warm-up: numba compilation, solver start
            started = time.perf_counter()
            solutions = solver(chosen)
            seconds = time.perf_counter() - started
            assert all(s is not None and is_solution_of(s, p) for s, p in zip(solutions, chosen)), method
            print(f"{label:<20} {method:<34} {count:>8,} {seconds:>9.3f} {count / seconds:>11,.0f}")
        for name, rate in PUBLISHED[label]:
            print(f"{label:<20} {'published: ' + name:<34} {'':>8} {'':>9} {rate:>11,}")
    natural_versus_flat()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
