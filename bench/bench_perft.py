"""Othello perft speed: gameproof's numba kernel side by side with edax in the same run.

edax is not part of this repository (GPL): build it from its public source outside the repo
(https://github.com/abulmo/edax-reversi, `make build ARCH=native` in src/; it needs a data/eval.dat
beside the binary, any file with a valid header works for perft) and pass its binary with --edax.

    python bench/bench_perft.py --depths 9 10 11 12 --edax /path/to/lEdax-native
"""

from __future__ import annotations

import argparse
import re
import subprocess
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from gameproof.games.othello.perft import perft
from gameproof.games.othello.rules import START_BLACK, START_WHITE


def gameproof_seconds(depth: int, repeats: int, threads: int = 1) -> tuple[int, float]:
    """Best time of `repeats` runs of perft(depth) from the start: CPU time for one thread, wall time
    for several."""
    perft(START_BLACK, START_WHITE, 6, threads=threads)  # load the compiled kernels before timing
    clock = time.process_time if threads == 1 else time.perf_counter
    best = float("inf")
    for _ in range(repeats):
        began = clock()
        nodes = perft(START_BLACK, START_WHITE, depth, threads=threads)
        best = min(best, clock() - began)
    return nodes, best


_EDAX_ROW = re.compile(r"^\s*(\d+),\s+(\d+),.*?(\d+):(\d+\.\d+),", re.MULTILINE)


def edax_seconds(binary: Path, depth: int, repeats: int) -> dict[int, tuple[int, float]]:
    """{depth: (paths, best seconds)} from edax's own `perft` command (its per-depth CPU time)."""
    best: dict[int, tuple[int, float]] = {}
    for _ in range(repeats):
        done = subprocess.run(
            [str(binary), "-n", "1"], input=f"perft {depth}\n", capture_output=True, text=True,
            cwd=binary.parent, check=True,
        )
        for row in _EDAX_ROW.finditer(done.stdout):
            ply, paths = int(row.group(1)), int(row.group(2))
            seconds = int(row.group(3)) * 60 + float(row.group(4))
            if ply not in best or seconds < best[ply][1]:
                best[ply] = (paths, seconds)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[9, 10, 11])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--edax", type=Path, help="path to an edax binary built outside the repository")
    parser.add_argument("--threads", type=int, default=2, help="also time gameproof with this many threads")
    args = parser.parse_args()
    edax = edax_seconds(args.edax, max(args.depths), args.repeats) if args.edax else {}
    table = Table(title="Othello perft from the start (edax convention); best CPU time for one thread, wall time "
                        "for several; edax one thread")
    threaded = f"{args.threads} threads"
    for column in ("depth", "paths", "gameproof s", "gameproof Mleaves/s", f"{threaded} s", f"{threaded} Mleaves/s",
                   "edax s", "edax Mleaves/s", "ratio (1 thread)"):
        table.add_column(column, justify="right")
    for depth in args.depths:
        nodes, seconds = gameproof_seconds(depth, args.repeats)
        _, parallel = gameproof_seconds(depth, args.repeats, args.threads)
        row = [str(depth), str(nodes), f"{seconds:.3f}", f"{nodes / seconds / 1e6:.0f}", f"{parallel:.3f}",
               f"{nodes / parallel / 1e6:.0f}"]
        if depth in edax:
            edax_nodes, edax_time = edax[depth]
            assert edax_nodes == nodes, f"edax counts {edax_nodes} paths at depth {depth}, gameproof {nodes}"
            ratio = edax_time / seconds if seconds else float("nan")
            row += [f"{edax_time:.3f}", f"{nodes / edax_time / 1e6:.0f}" if edax_time else "-", f"{ratio:.2f}×"]
        table.add_row(*row)
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
