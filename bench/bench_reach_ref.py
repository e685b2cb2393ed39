"""Othello reach on a tight bound against a plain direct encoding, in one run: whole command lines, wall time.

The reference is a plain direct CNF with no symmetry breaking, solved by PySAT's CaDiCaL, kept outside
this repository (`othello_direct_ref.py N PLIES`). Both sides run as fresh processes, alternately, with
the same solver (one core each); the table gives every run and the median ratio. Ours runs as a user
would run it (a beam search for a witness first), or with `--no-search` the formula alone.

    python bench/bench_reach_ref.py --ref ../shared/tools/othello_direct_ref.py --wanted 18 --plies 20 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table


def wall_seconds(command: list[str]) -> float:
    """Wall time of one command line (which must succeed)."""
    began = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", type=Path, required=True, help="the plain direct encoding's script")
    parser.add_argument("--wanted", type=int, nargs="+", default=[18])
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--solver", default="cadical195")
    parser.add_argument("--no-search", action="store_true", help="ours by the formula alone (no beam search first)")
    args = parser.parse_args()
    how = "the formula alone" if args.no_search else "beam search first"
    table = Table(title=f"reach within {args.plies} plies, {args.solver}, {how}: wall seconds of the whole command")
    for column in ("N", "gameproof s", "reference s", "median ratio"):
        table.add_column(column, justify="right")
    for wanted in args.wanted:
        ours_command = [sys.executable, "-m", "gameproof", "othello", "reach", "--legal-moves", str(wanted),
                        "--plies", str(args.plies), "--solver", args.solver, "--quiet",
                        *(["--no-search"] if args.no_search else [])]
        reference_command = [sys.executable, str(args.ref), str(wanted), str(args.plies), args.solver]
        ours, reference = [], []
        for _ in range(args.repeats):
            ours.append(wall_seconds(ours_command))
            reference.append(wall_seconds(reference_command))
        ratio = statistics.median(ours) / statistics.median(reference)
        table.add_row(str(wanted), " ".join(f"{s:.1f}" for s in ours), " ".join(f"{s:.1f}" for s in reference),
                      f"{ratio:.2f}×")
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
