"""Othello reach's quick stage: games of at most P moves against exactly P moves, both without a pass.

For each N, the two formulas of `short_plies(N)` moves are solved at once, one per core, by the same
solver (Kissat by default); the table gives each one's solve time. Every instance is satisfiable.

    python bench/bench_reach_stage.py --wanted 33 32 31 30 28 24 20 --solver kissat404
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.table import Table

from gameproof.answers import Status
from gameproof.games.othello.reach import encode, short_plies
from gameproof.logic.solvers import open_solver


def solve_seconds(min_legal: int, plies: int, exact: bool, solver: str) -> tuple[Status, float]:
    """The answer and solve time of the pass-free direct formula (exactly `plies` moves with `exact`)."""
    cnf, _ = encode(min_legal, plies, "strict", "direct", passes=False, exact=exact)
    with open_solver(solver) as backend:
        backend.add(cnf)
        began = time.perf_counter()
        answer = backend.solve()
        return Status.of(answer), time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wanted", type=int, nargs="+", default=[33, 32, 31, 30, 28, 24, 20])
    parser.add_argument("--solver", default="kissat404")
    args = parser.parse_args()
    table = Table(title=f"quick stage of reach, no passes, {args.solver}, solve seconds")
    for column in ("N", "moves", "at most", "exactly", "ratio"):
        table.add_column(column, justify="right")
    with ProcessPoolExecutor(2) as pool:
        for wanted in args.wanted:
            plies = short_plies(wanted)
            at_most, exactly = (pool.submit(solve_seconds, wanted, plies, exact, args.solver)
                                for exact in (False, True))
            (found_at_most, seconds_at_most), (found_exactly, seconds_exactly) = at_most.result(), exactly.result()
            table.add_row(str(wanted), str(plies), f"{seconds_at_most:.1f} {found_at_most}",
                          f"{seconds_exactly:.1f} {found_exactly}", f"{seconds_exactly / seconds_at_most:.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()
