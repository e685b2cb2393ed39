"""Tablebase builds: positions per second of each pass, bytes per position, peak memory; against a plain-Python
retrograde analysis (tests/games/dodgem_reference.py) of the same game in the same command.

Each game is built in a process of its own (`gameproof tablebase build GAME FILE --json`, its peak resident memory
read from the kernel's accounting of the finished child), twice, the first time compiling; the second is reported.
The peer, the reference's plain retrograde of Dodgem n×n (dicts and lists, no numpy), runs in this process.

Run: .venv/bin/python bench/bench_tablebase.py [--games dodgem:4 connect4:5,4] [--peer 4]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "games"))

import dodgem_reference  # noqa: E402


def built(game: str, folder: Path) -> tuple[dict, float, int]:
    """The build's JSON summary, its wall seconds and its peak resident memory in bytes (the second of two runs)."""
    path = folder / f"{game.replace(':', '_').replace(',', '_')}.tb"
    for _ in range(2):
        path.unlink(missing_ok=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "gameproof", "tablebase", "build", game, str(path), "--json"],
                              capture_output=True, text=True, check=True, cwd=ROOT)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return json.loads(done.stdout), seconds, max(peak, before) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["mnk:3,3,3", "othello:4", "dodgem:4", "connect4:5,4"])
    parser.add_argument("--peer", type=int, default=4, help="the Dodgem board the plain retrograde solves (n×n)")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONPATH", str(ROOT / "src"))
    print("| game | positions | forward pos/s | graph pos/s | backward pos/s | wall s | file B/pos | peak B/pos |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        walls = {}
        for game in args.games:
            summary, wall, peak = built(game, Path(folder))
            count, seconds = summary["positions"], summary["seconds"]
            walls[game] = wall
            rates = [f"{count / max(seconds[name], 1e-9):,.0f}" for name in ("forward", "graph", "backward")]
            print(f"| {game} | {count:,} | {' | '.join(rates)} | {wall:.2f} | {summary['bytes'] / count:.0f} | "
                  f"{peak / count:.0f} |")
    started = time.perf_counter()
    positions, _, _ = dodgem_reference.retrograde(args.peer)
    peer = time.perf_counter() - started
    ours = walls.get(f"dodgem:{args.peer}")
    print(f"\npeer: plain-Python retrograde of dodgem:{args.peer}, {len(positions):,} positions in {peer:.2f} s"
          + (f"; gameproof's whole build (a process, start-up included) {ours:.2f} s: {peer / ours:.1f}x" if ours else ""))


if __name__ == "__main__":
    main()
