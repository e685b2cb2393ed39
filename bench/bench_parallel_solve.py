"""Parallel `solve`: wall time on N workers against one, in one run, with the same values required.

    python bench/bench_parallel_solve.py [--workers 2] [--rounds 2] [GAME[@MOVES] ...]

Each round solves each position once on one worker (this process alone, the plain `solve`) and once on
N workers (`solve --workers N`), alternating; prints the best wall time of each, their ratio, and
the nodes. Each game is solved by its own engine. Defaults: misère 5×5 k3 after c3 (df-pn), Connect Four
6×5 (alpha-beta).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

DEFAULT = ["mnk-misere:5,5,3@c3", "connect4:6,5"]


def run(game: str, moves: str, workers: int, extra: list[str]) -> tuple[float, dict]:
    command = [sys.executable, "-m", "gameproof.cli", "solve", game, "--moves", moves, "--json", *extra] + (["--workers", str(workers)] if workers > 1 else [])
    began = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - began, json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("positions", nargs="*", default=DEFAULT, metavar="GAME[@MOVES]")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tt-mb", default="512")
    args = parser.parse_args()
    extra = ["--tt-mb", args.tt_mb]
    for position in args.positions:
        game, _, moves = position.partition("@")
        best: dict[int, tuple[float, dict]] = {}
        for _ in range(args.rounds):
            for workers in (1, args.workers):
                seconds, answer = run(game, moves, workers, extra)
                if workers not in best or seconds < best[workers][0]:
                    best[workers] = (seconds, answer)
        (one, a), (many, b) = best[1], best[args.workers]
        if (a["value"], a["moves"]) != (b["value"], b["moves"]):
            raise SystemExit(f"{position}: the values differ: {a['value']} {a['moves']} / {b['value']} {b['moves']}")
        print(f"{position:<28} value {a['value']:<5} 1 worker {one:7.2f} s {a['nodes']:>13,} nodes   "
              f"{args.workers} workers {many:7.2f} s {b['nodes']:>13,} nodes   speed-up {one / many:.2f}x", flush=True)


if __name__ == "__main__":
    main()
