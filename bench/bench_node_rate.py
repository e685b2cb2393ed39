"""Node rates of the derived kernels against another checkout of gameproof, in one run: each problem is solved
(or counted) by both trees in turn, alternating, and the CPU seconds of the search alone are compared: the
fastest of a few searches per process (the first also pays for touching its table's pages) and of a few processes.

Run: .venv/bin/python bench/bench_node_rate.py BASELINE_SRC [--rounds 3] [--repeats 3]
where BASELINE_SRC is the ``src`` folder of the checkout to compare with (``git worktree add /tmp/base
<commit>`` gives one). Node counts must agree: the two trees search the same tree.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

#: (label, game, moves, engine or "perft:DEPTH")
PROBLEMS = [
    ("connect4 6x5 alpha-beta", "connect4:6,5", "", "alphabeta"),
    ("connect4 6x4 df-pn", "connect4:6,4", "", "dfpn"),
    ("misere 4x5 k3 df-pn", "mnk-misere:5,4,3", "", "dfpn"),
    ("misere 5x5 k3 after c3 b2 d4", "mnk-misere:5,5,3", "c3 b2 d4", "dfpn"),
    ("othello 6x6 after 14 moves", "othello:6", "e4 e5 d5 e3 f5 f6 d2 c5 b3 a2 a3 b2 d6 e2", "dfpn"),
    ("perft connect4 11", "connect4:7,6", "", "perft:11"),
]

PROGRAM = r"""
import json, sys, time
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.framework.declaration import Engine
from gameproof.search.solve import solve
from gameproof.search.perft import fast_perft

game, moves, engine, REPEATS = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
state = RulesState(load_game(game), moves)
if engine.startswith("perft:"):
    depth = int(engine.split(":")[1])
    fast_perft(state, 3)
    run = lambda: fast_perft(state, depth)
else:
    warm = state.copy()
    while not warm.is_over() and len(warm.legal_moves()) and warm.game.cells - len(warm.history) > 8:
        warm.play(warm.legal_moves()[0])
    if not warm.is_over():
        solve(warm, with_moves=False, engine=Engine(engine))
    run = lambda: solve(state, with_moves=False, engine=Engine(engine)).nodes
times = []
for _ in range(REPEATS):  # the first search also pays for touching its table's pages
    started = time.process_time()
    nodes = run()
    times.append(time.process_time() - started)
print(json.dumps({"seconds": min(times), "nodes": nodes}))
"""


def run(src: Path, game: str, moves: str, engine: str, repeats: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", PROGRAM, game, moves, engine, str(repeats)], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path, help="the src folder of the checkout to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="processes per tree, alternating")
    parser.add_argument("--repeats", type=int, default=3, help="searches per process (the fastest counts)")
    parser.add_argument("--only", help="run only the problems whose label contains this")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1] / "src"
    print(f"{'problem':32} {'nodes':>12} {'base s':>8} {'this s':>8} {'this/base':>9}")
    for label, game, moves, engine in PROBLEMS:
        if args.only and args.only not in label:
            continue
        base, this = [], []
        for _ in range(args.rounds):
            base.append(run(args.baseline, game, moves, engine, args.repeats))
            this.append(run(here, game, moves, engine, args.repeats))
        if {r["nodes"] for r in base} != {r["nodes"] for r in this}:
            print(f"{label}: node counts differ: {base} against {this}")
            return 1
        b, t = min(r["seconds"] for r in base), min(r["seconds"] for r in this)  # the least disturbed run
        print(f"{label:32} {this[0]['nodes']:>12,} {b:>8.3f} {t:>8.3f} {t / b:>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
