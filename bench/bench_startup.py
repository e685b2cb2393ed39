"""Start-up: wall time of short command lines, each in a fresh interpreter (median of 5, after one warm-up
run that also fills numba's cache).

`--help` and an argument error import neither numba, PySAT nor Textual; a small solve pays for numba and
for loading its cached kernels. The interpreter alone is measured too, as the floor.

Run: .venv/bin/python bench/bench_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass (the floor)": ["-c", "pass"],
    "gameproof --help": ["-m", "gameproof", "--help"],
    "gameproof othello perft x (an argument error)": ["-m", "gameproof", "othello", "perft", "x"],
    "gameproof mnk solve --rows 3 --cols 3 --k 3 (cached kernels)":
        ["-m", "gameproof", "mnk", "solve", "--rows", "3", "--cols", "3", "--k", "3", "--quiet"],
}


def wall_seconds(argv: list[str]) -> float:
    """Seconds from starting `python argv` to its exit."""
    began = time.perf_counter()
    subprocess.run([sys.executable, *argv], capture_output=True, check=False)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per command (default 5)")
    args = parser.parse_args()
    print("| command | median s | min s | max s |")
    print("|---|---|---|---|")
    for name, argv in COMMANDS.items():
        wall_seconds(argv)
        times = [wall_seconds(argv) for _ in range(args.runs)]
        print(f"| `{name}` | {statistics.median(times):.3f} | {min(times):.3f} | {max(times):.3f} |")


if __name__ == "__main__":
    main()
