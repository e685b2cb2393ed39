"""Benchmark df-pn on m,n,k problems with each enhancement on and off; prints a table.

Each problem is the value of the position (two binary searches at most), timed after its game's kernels
are compiled (or loaded) on a late position of the same game.
Run: .venv/bin/python bench/bench_dfpn.py [--quick] [--max-seconds S]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace

from gameproof.games.mnk.state import MnkState
from gameproof.search.dfpn import Options
from gameproof.search.solve import solve

PROBLEMS = [("mnk-misere:4,4,3", ""), ("mnk:4,4,4", ""), ("mnk-misere:5,4,3", ""), ("mnk-misere:5,5,3", "c3 b2 d4")]
QUICK = PROBLEMS[:2]
BASE = Options(tt_mb=512)
SETTINGS = {
    "all on": BASE,
    "no WPNS": replace(BASE, wpns=False),
    "no 1+eps": replace(BASE, epsilon=0.0),
    "no heuristic": replace(BASE, heuristic=0),
    "no brute force": replace(BASE, brute_force=0),
    "all off": Options(wpns=False, epsilon=0.0, heuristic=0, brute_force=0, tt_mb=512),
}


def warm_up(name: str) -> None:
    """Compile (or load) the kernels of game `name`: solve a position six empty squares from the end."""
    state = MnkState(name)
    for move in range(state.game.cells - 6):
        state.play(move)
        if state.is_over():
            state.undo()
    solve(state, BASE, with_moves=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="only the small problems")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="skip a setting's remaining problems once one took longer")
    args = parser.parse_args()
    solve(MnkState(*PROBLEMS[0]), BASE, with_moves=False)  # warm-up: first touches of a big table are slow
    print(f"{'problem':<32} {'setting':<15} {'value':>5} {'nodes':>12} {'seconds':>8} {'nodes/s':>10}")
    too_slow: set[str] = set()
    for name, moves in QUICK if args.quick else PROBLEMS:
        title = f"{name} {moves}".strip()
        warm_up(name)
        for label, options in SETTINGS.items():
            if label in too_slow:
                print(f"{title:<32} {label:<15} (skipped: over {args.max_seconds:.0f} s on a smaller problem)")
                continue
            start = time.perf_counter()
            solution = solve(MnkState(name, moves), options, with_moves=False)
            seconds = time.perf_counter() - start
            if seconds > args.max_seconds:
                too_slow.add(label)
            print(f"{title:<32} {label:<15} {solution.value:>5} {solution.nodes:>12,} {seconds:>8.2f} {solution.nodes / seconds:>10,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
