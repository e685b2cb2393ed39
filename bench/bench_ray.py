"""Ray against local workers: one book built by two local workers (`--workers 2`, threads), or one position
solved by `solve --workers 2` (two threads), then the same on a Ray cluster of two nodes of one CPU each started here
(`ray start --head`, `ray start --address`, token authentication) and joined by `--address`; alternately,
a few times. Prints the load average, each run's wall time (the command's, start-up included) and the ratio
of the medians; the cluster is stopped at the end.

Run: .venv/bin/python bench/bench_ray.py [--runs N] [--rows R --cols C --k K] [--depth D] [--values-only]
     [--solve GAME@MOVES [--value-only]] [--tt-mb MB]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "search"))
from ray_cluster import two_nodes  # noqa: E402


def timed(arguments: list[str], env: dict[str, str] | None = None) -> tuple[float, dict]:
    """Seconds of one `gameproof ARGUMENTS --json --quiet` (a fresh interpreter) and its JSON output."""
    began = time.perf_counter()
    ran = subprocess.run([sys.executable, "-m", "gameproof", *arguments, "--json", "--quiet"], env=env,
                         capture_output=True, text=True, check=True)
    return time.perf_counter() - began, json.loads(ran.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--rows", default="4")
    parser.add_argument("--cols", default="5")
    parser.add_argument("--k", default="3")
    parser.add_argument("--depth", default="3", help="the book's depth (default 3)")
    parser.add_argument("--values-only", action="store_true", help="the book's leaves keep their values only")
    parser.add_argument("--solve", metavar="GAME@MOVES", help="solve this position instead of building a book")
    parser.add_argument("--value-only", action="store_true", help="the solve's value only")
    parser.add_argument("--tt-mb", default="128", help="the table (default 128 MiB)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a kill stops the cluster too, as Ctrl-C does
    if args.solve:
        game, _, moves = args.solve.partition("@")
        command = ["solve", game, "--moves", moves, "--workers", "2", "--tt-mb", args.tt_mb,
                   *["--value-only"] * args.value_only]
    else:
        command = ["mnk", "book", "build", "--rows", args.rows, "--cols", args.cols, "--k", args.k, "--misere",
                   "--depth", args.depth, "--tt-mb", args.tt_mb, *["--values-only"] * args.values_only]
    times: dict[str, list[float]] = {"local": [], "ray": []}
    answers: dict[str, set[str]] = {"local": set(), "ray": set()}
    # Ray starts its workers at niceness 15 (RAY_worker_niceness), local workers run at 0: beside other work on
    # the machine, Ray's would get less of it. Both run at 0 here, as on machines they have to themselves.
    os.environ.setdefault("RAY_worker_niceness", "0")
    print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())} on {os.cpu_count()} CPUs")
    local = "two threads" if args.solve else "--workers 2"
    print(f"gameproof {' '.join(command)}{' --db X.db' * (not args.solve)}, then {local} (local) or --backend ray "
          "--address (two nodes of one CPU)")
    with two_nodes() as cluster, tempfile.TemporaryDirectory(prefix="bench_ray") as books:
        ways = {"local": ([] if args.solve else ["--workers", "2"], None),
                "ray": (["--backend", "ray", "--address", cluster.address], cluster.env)}
        for run in range(args.runs):
            for way, (extra, env) in ways.items():
                book = [] if args.solve else ["--db", str(Path(books) / f"{way}-{run}.db")]
                seconds, summary = timed([*command, *book, *extra], env)
                times[way].append(seconds)
                if args.solve:
                    answers[way].add(json.dumps([summary["value"], summary["moves"]]))
                    said = f"seconds {summary['seconds']:.1f}, nodes {summary['nodes']:,}, value {summary['value']}"
                else:
                    said = (f"wall_seconds {summary['wall_seconds']}, nodes {summary['nodes']:,}, "
                            f"solved {summary['solved']}")
                print(f"run {run + 1} {way}: {seconds:.1f} s ({said})", flush=True)
    if args.solve and len(answers["local"] | answers["ray"]) != 1:
        raise SystemExit(f"the values differ: {answers}")
    local, ray = (statistics.median(found) for found in times.values())
    print(f"median: local {local:.1f} s, ray {ray:.1f} s, ray/local {ray / local:.2f}; "
          f"load average now {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
