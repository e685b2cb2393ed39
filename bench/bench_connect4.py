"""Connect Four from the empty board: gameproof's solver against native solvers, side by side in one run.

Each peer is built by hand outside the repository into a folder holding one binary per size, c4_WxH:
- Pascal Pons' (github.com/PascalPons/connect4, WIDTH/HEIGHT set in Position.hpp, its own Makefile: -O3 -DNDEBUG),
  run in weak mode (-w) with no opening book;
- Christophe Steininger's (github.com/ChristopheSteininger/c4, BOARD_WIDTH/BOARD_HEIGHT and NUM_THREADS = 1 set
  in src/solver/settings.h, `cmake --preset optimise` and `cmake --build out/optimise --target c4`: its release
  flags, its 1 GB table), which finds the exact score (its c4 program solves strongly).
Each solver answers win/draw/loss for the first player; whole commands are timed, start-up included; runs
alternate.

Run: .venv/bin/python bench/bench_connect4.py [--pons DIR] [--steininger DIR] [--sizes 7x5 6x6] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCORE_NAMES = {1: "win", 0: "draw", -1: "loss"}


def ours(size: str) -> tuple[str, float]:
    """Solve in a fresh process (kernels from numba's disk cache, modules from Python's bytecode cache as an installed
    program has them, even where the environment turns writing it off), timing the whole command."""
    width, height = size.split("x")
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gameproof", "solve", f"connect4:{width},{height}", "--value-only",
                           "--json"], capture_output=True, text=True, check=True, env=environment)
    return json.loads(done.stdout)["value"], time.perf_counter() - started


def pons(folder: Path, size: str) -> tuple[str, float]:
    binary = folder / f"c4_{size}"
    with tempfile.TemporaryDirectory() as empty:  # no 7x6.book here: the search starts from nothing
        started = time.perf_counter()
        done = subprocess.run([str(binary), "-w"], input="\n", capture_output=True, text=True, check=True, cwd=empty)
        seconds = time.perf_counter() - started
    return SCORE_NAMES[max(-1, min(1, int(done.stdout.split()[-1])))], seconds


def steininger(folder: Path, size: str) -> tuple[str, float]:
    binary = folder / f"c4_{size}"
    with tempfile.TemporaryDirectory() as empty:  # no book or table file here
        started = time.perf_counter()
        done = subprocess.run([str(binary)], input="\n", capture_output=True, text=True, check=True, cwd=empty)
        seconds = time.perf_counter() - started
    score = int(re.search(r"Final strong score is (-?\d+)", done.stdout).group(1))
    return SCORE_NAMES[max(-1, min(1, score))], seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pons", type=Path, help="folder of Pons' binaries c4_WxH")
    parser.add_argument("--steininger", type=Path, help="folder of Steininger's binaries c4_WxH")
    parser.add_argument("--sizes", nargs="+", default=["7x5", "6x6"])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    peers = [(name, runner, folder) for name, runner, folder in
             (("pons -w", pons, args.pons), ("steininger", steininger, args.steininger)) if folder is not None]
    if not peers:
        parser.error("name at least one peer: --pons DIR or --steininger DIR")
    for size in args.sizes:
        ours(size)  # compile (or load) the kernels once before timing
    print(f"{'board':<6} {'run':>3} {'gameproof':>10} {'s':>8} {'peer':>11} {'value':>6} {'s':>8} {'ratio':>6}")
    for size in args.sizes:
        for run in range(args.repeat):
            value, seconds = ours(size)
            for name, runner, folder in peers:
                peer_value, peer_seconds = runner(folder, size)
                flag = "" if value == peer_value else "  DISAGREE"
                print(f"{size:<6} {run + 1:>3} {value:>10} {seconds:>8.2f} {name:>11} {peer_value:>6} "
                      f"{peer_seconds:>8.2f} {seconds / peer_seconds:>6.2f}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
