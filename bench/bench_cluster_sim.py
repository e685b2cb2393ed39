"""What a cluster of N machines gains on a book: the book's jobs as `book build` makes them for N workers, run
one after another in this process, each on the table of the simulated machine that a greedy schedule gives it
(the first machine to be free takes the next job, as Ray's workers take them), every machine with a table of
its own that it keeps across its jobs, as machines that share no memory do. Prints, for each N: the jobs, the
nodes of all machines together against one machine's (the work that N tables apart duplicate), the nodes a second
a machine, and the makespan of the schedule (the simulated wall time: each job's measured seconds, no network and
no start-up) with its speed-up over one machine. One core does the work of all N, so N can exceed the cores.

Run: .venv/bin/python bench/bench_cluster_sim.py [--rows 5 --cols 5 --k 3] [--depth 2] [--tt-mb 512]
     [--machines 1 2 4 8 16]
"""

from __future__ import annotations

import argparse
import heapq
import time

from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.book_build import levels, solve_leaves, subtree_jobs
from gameproof.search.dfpn import Options
from gameproof.search.tt import TranspositionTable


def simulate(game_name: str, depth: int, tt_mb: int, machines: int) -> dict[str, float]:
    """The book's jobs for `machines` workers, run on their simulated machines' tables (see the module)."""
    game = load_game(game_name)
    options = Options(tt_mb=tt_mb)
    leaves = [leaf for leaf in levels(RulesState(game), depth)[depth] if not leaf.is_over()]
    jobs = subtree_jobs(leaves, depth, game, options, False, machines)
    tables: dict[int, TranspositionTable] = {}
    free_at = [(0.0, machine) for machine in range(machines)]  # (simulated time it is free, machine)
    nodes = 0
    began = time.perf_counter()
    for job in jobs:
        clock, machine = heapq.heappop(free_at)
        table = tables.setdefault(machine, TranspositionTable(tt_mb))
        entries = solve_leaves(game_name, job.arguments["records"], options, False, table=table)
        seconds = sum(entry["seconds"] for entry in entries)
        nodes += sum(entry["nodes"] for entry in entries)
        heapq.heappush(free_at, (clock + seconds, machine))
    searched = time.perf_counter() - began
    return {"jobs": len(jobs), "leaves": len(leaves), "nodes": nodes, "cpu_seconds": searched,
            "makespan": max(clock for clock, _ in free_at)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--cols", type=int, default=5)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--tt-mb", type=int, default=512, help="each machine's table (default 512 MiB)")
    parser.add_argument("--machines", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    args = parser.parse_args()
    game = f"mnk-misere:{args.rows},{args.cols},{args.k}"
    deepest = levels(RulesState(load_game(game)), args.depth + 2)[args.depth + 2]
    solve_leaves(game, [deepest[-1].record], Options(tt_mb=16), False)  # the kernels compiled before any timing
    print(f"{game}, a values book to depth {args.depth}, {args.tt_mb} MiB a machine")
    print("| machines | jobs | nodes | nodes / one machine's | nodes a second a machine | makespan s | speed-up |")
    print("|---|---|---|---|---|---|---|")
    alone = None
    for machines in args.machines:
        found = simulate(game, args.depth, args.tt_mb, machines)
        alone = alone or found
        print(f"| {machines} | {found['jobs']} | {found['nodes']:,} | {found['nodes'] / alone['nodes']:.2f} | "
              f"{found['nodes'] / found['cpu_seconds']:,.0f} | {found['makespan']:.1f} | "
              f"{alone['makespan'] / found['makespan']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
