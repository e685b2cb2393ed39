"""Ray against local workers: one book built by two local worker processes, then on a Ray cluster of two
nodes of one CPU each started here (`ray start --head`, `ray start --address`, token authentication) and
joined by `--address`; alternately, a few times. Prints each run's wall time (the command's, start-up
included) and the ratio of the medians; the cluster is stopped at the end.

Run: .venv/bin/python bench/bench_ray.py [--runs N] [--rows R --cols C --k K]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "search"))
from ray_cluster import two_nodes  # noqa: E402


def build(arguments: list[str], env: dict[str, str] | None = None) -> tuple[float, dict]:
    """Seconds of one `gameproof mnk book build` (a fresh interpreter) and its JSON summary."""
    began = time.perf_counter()
    ran = subprocess.run([sys.executable, "-m", "gameproof", "mnk", "book", "build", *arguments, "--json", "--quiet"],
                         env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - began, json.loads(ran.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--rows", default="4")
    parser.add_argument("--cols", default="5")
    parser.add_argument("--k", default="3")
    args = parser.parse_args()
    book = ["--rows", args.rows, "--cols", args.cols, "--k", args.k, "--misere", "--depth", "3"]
    times: dict[str, list[float]] = {"local": [], "ray": []}
    print(f"gameproof mnk book build {' '.join(book)} --db X.db, then --workers 2 (local) or "
          "--backend ray --address (two nodes of one CPU)")
    with two_nodes() as cluster, tempfile.TemporaryDirectory(prefix="bench_ray") as books:
        ways = {"local": (["--workers", "2"], None), "ray": (["--backend", "ray", "--address", cluster.address], cluster.env)}
        for run in range(args.runs):
            for way, (extra, env) in ways.items():
                seconds, summary = build([*book, "--db", str(Path(books) / f"{way}-{run}.db"), *extra], env)
                times[way].append(seconds)
                print(f"run {run + 1} {way}: {seconds:.1f} s (wall_seconds {summary['wall_seconds']}, "
                      f"nodes {summary['nodes']:,}, solved {summary['solved']})", flush=True)
    local, ray = (statistics.median(found) for found in times.values())
    print(f"median: local {local:.1f} s, ray {ray:.1f} s, ray/local {ray / local:.2f}")


if __name__ == "__main__":
    main()
