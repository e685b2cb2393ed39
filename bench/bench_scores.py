"""Exact Othello endgame scores: the FForum positions of tests/data/othello_fforum.txt, by alpha-beta and by df-pn.

Each position's score (value only) is searched by `gameproof.search.score.exact_score` with each engine in one
process; the table prints, per number of empty squares, the positions, the questions asked, the nodes and the
seconds of each engine, and checks every score against the published one.

Run: .venv/bin/python bench/bench_scores.py [--most-empties 16] [--tt-mb 256]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gameproof.framework.declaration import Engine  # noqa: E402
from gameproof.search.dfpn import Options  # noqa: E402
from gameproof.search.score import exact_score  # noqa: E402
from tests.othello.test_scores import problems  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--most-empties", type=int, default=16, help="solve positions of at most this many empties")
    parser.add_argument("--tt-mb", type=float, default=256.0, help="each search's table, in MiB")
    args = parser.parse_args()
    options = Options(tt_mb=args.tt_mb)
    chosen = [problem for problem in problems() if problem.empties <= args.most_empties]
    exact_score(chosen[0].state(), options, engine=Engine.ALPHABETA, with_moves=False)  # compile before timing
    exact_score(chosen[0].state(), options, engine=Engine.DFPN, with_moves=False)
    totals: dict[tuple[int, Engine], list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    for problem in chosen:
        for engine in (Engine.ALPHABETA, Engine.DFPN):
            started = time.perf_counter()
            solution = exact_score(problem.state(), options, engine=engine, with_moves=False)
            seconds = time.perf_counter() - started
            if solution.score != problem.score:
                raise SystemExit(f"{problem.board}: {engine.value} says {solution.score}, published {problem.score}")
            row = totals[problem.empties, engine]
            row[0] += 1
            row[1] += solution.questions
            row[2] += solution.nodes
            row[3] += seconds
    print("| empties | positions | alpha-beta questions | nodes | s | df-pn questions | nodes | s |")
    print("|---|---|---|---|---|---|---|---|")
    for empties in sorted({empties for empties, _ in totals}):
        ab, pn = totals[empties, Engine.ALPHABETA], totals[empties, Engine.DFPN]
        print(f"| {empties} | {ab[0]} | {ab[1]} | {ab[2]:,} | {ab[3]:.1f} | {pn[1]} | {pn[2]:,} | {pn[3]:.1f} |")


if __name__ == "__main__":
    main()
