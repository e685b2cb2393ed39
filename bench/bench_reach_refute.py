"""Othello reach's refutation of N = 34: the strict formula against the loose one, by solver option set.

Each (formula, solver) pair is solved to "unsat" at the complete bound (60 - N moves), two at a time,
one per core. CaDiCaL is deterministic, so its conflict count is the steady measure; seconds move
with the load on the other core.

    python bench/bench_reach_refute.py --wanted 34 --solvers cadical195 cadical195/unsat
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.table import Table

from gameproof.answers import Status
from gameproof.games.othello.reach import default_plies, encode
from gameproof.logic.solvers import open_solver

FORMULAS = ("strict", "loose")


def solve(min_legal: int, formula: str, solver: str) -> tuple[int, int, Status, int, float]:
    """Variables, clauses, answer, conflicts (-1 where the backend does not count them), solve seconds."""
    cnf, _ = encode(min_legal, default_plies(min_legal), "strict", "direct", loose=formula == "loose")
    with open_solver(solver) as backend:
        backend.add(cnf)
        began = time.perf_counter()
        answer = backend.solve()
        seconds = time.perf_counter() - began
        conflicts = backend.statistics().get("conflicts", -1)
    return cnf.num_vars, cnf.num_clauses, Status.of(answer), conflicts, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wanted", type=int, default=34)
    parser.add_argument("--formulas", nargs="+", choices=FORMULAS, default=list(FORMULAS))
    parser.add_argument("--solvers", nargs="+", default=["cadical195", "cadical195/unsat"])
    args = parser.parse_args()
    table = Table(title=f"N = {args.wanted} within {default_plies(args.wanted)} moves, two solves at a time")
    for column in ("formula", "solver", "variables", "clauses", "answer", "conflicts", "solve s"):
        table.add_column(column, justify="right")
    runs = list(itertools.product(args.formulas, args.solvers))
    with ProcessPoolExecutor(2) as pool:
        futures = [pool.submit(solve, args.wanted, formula, solver) for formula, solver in runs]
        for (formula, solver), future in zip(runs, futures):
            variables, clauses, answer, conflicts, seconds = future.result()
            table.add_row(formula, solver, f"{variables:,}", f"{clauses:,}", answer, f"{conflicts:,}", f"{seconds:.1f}")
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
