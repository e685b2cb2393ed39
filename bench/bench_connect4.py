"""Connect Four from the empty board: gameproof's solver against Pascal Pons' solver, side by side in one run.

Pons' solver is built by hand outside the repository (github.com/PascalPons/connect4, WIDTH/HEIGHT set in
Position.hpp, its own Makefile: -O3 -DNDEBUG) into a folder holding one binary per size, c4_WxH; it runs in
weak mode (-w) with no opening book. Each solver answers win/draw/loss for the first player; runs alternate.

Run: .venv/bin/python bench/bench_connect4.py --pons /tmp/pons/bin [--sizes 7x5 6x6] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCORE_NAMES = {1: "win", 0: "draw", -1: "loss"}


def ours(size: str) -> tuple[str, float]:
    """Solve in a fresh process (kernels from numba's disk cache), timing the whole command."""
    width, height = size.split("x")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gameproof", "solve", f"connect4:{width},{height}", "--value-only",
                           "--json"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["value"], time.perf_counter() - started


def pons(folder: Path, size: str) -> tuple[str, float]:
    binary = folder / f"c4_{size}"
    with tempfile.TemporaryDirectory() as empty:  # no 7x6.book here: the search starts from nothing
        started = time.perf_counter()
        done = subprocess.run([str(binary), "-w"], input="\n", capture_output=True, text=True, check=True, cwd=empty)
        seconds = time.perf_counter() - started
    return SCORE_NAMES[max(-1, min(1, int(done.stdout.split()[-1])))], seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pons", type=Path, required=True, help="folder of Pons' binaries c4_WxH")
    parser.add_argument("--sizes", nargs="+", default=["7x5", "6x6"])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    for size in args.sizes:
        ours(size)  # compile (or load) the kernels once before timing
    print(f"{'board':<6} {'run':>3} {'gameproof':>10} {'s':>8} {'pons -w':>8} {'s':>8} {'ratio':>6}")
    for size in args.sizes:
        for run in range(args.repeat):
            value, seconds = ours(size)
            peer_value, peer_seconds = pons(args.pons, size)
            flag = "" if value == peer_value else "  DISAGREE"
            print(f"{size:<6} {run + 1:>3} {value:>10} {seconds:>8.2f} {peer_value:>8} {peer_seconds:>8.2f} "
                  f"{seconds / peer_seconds:>6.2f}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
