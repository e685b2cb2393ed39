"""Issue 50's first-answer target: a rules file never compiled before, its 4×4 board, then its 4×5 board.

Copies a rules file (by default examples/domineering.py) under a fresh name, gives each command a fresh numba cache
folder, and times whole `gameproof solve` processes (wall, start-up included): the default (plain play where the
tree is small, :mod:`gameproof.search.plain`), and `--engine dfpn` (the compiled search, as every solve ran before),
cold, then again with its kernels cached. Rounds alternate the two, so that a busy machine slows both alike.

Run: .venv/bin/python bench/bench_new_rules_file.py [--file examples/domineering.py] [--boards 4,4 4,5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _timed(command: list[str], cache: Path) -> float:
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    began = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, default=ROOT / "examples" / "domineering.py")
    parser.add_argument("--boards", nargs="+", default=["4,4", "4,5"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    ways = {"default": [], "--engine dfpn": ["--engine", "dfpn"]}
    times: dict[tuple[str, str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            for way, extra in ways.items():
                copy = Path(folder) / f"fresh_{secrets.token_hex(4)}.py"
                copy.write_text(args.file.read_text())
                cache = Path(folder) / f"cache_{secrets.token_hex(4)}"
                for board in args.boards:
                    command = [sys.executable, "-m", "gameproof.cli", "solve", f"{copy}:{board}", "--json", *extra]
                    for warmth in ("cold", "warm"):
                        times.setdefault((way, board, warmth), []).append(_timed(command, cache))
    print(f"| command | board | cache | wall s (median of {args.rounds}) | min | max |")
    print("|---|---|---|---|---|---|")
    for (way, board, warmth), seconds in times.items():
        label = " ".join(["solve", f"COPY:{board}", *ways[way]])
        print(f"| `{label}` | {board} | {warmth} | {statistics.median(seconds):.2f} | {min(seconds):.2f} | "
              f"{max(seconds):.2f} |")

if __name__ == "__main__":
    main()
