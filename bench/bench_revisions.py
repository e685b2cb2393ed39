"""Before and after: one gameproof command run from an earlier commit and from the working tree, alternately.

The earlier commit is checked out in a temporary git worktree and run with its own sources first on the
path (the same interpreter and packages). Each run is a fresh process; the command's own `--json` report
gives the value, the nodes and the seconds of its solve. The first run of each tree compiles its kernels
and is left out of the table.

Run: .venv/bin/python bench/bench_revisions.py 352725c solve mnk-misere:5,4,4 --value-only [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(tree: Path, command: list[str]) -> dict:
    """The `--json` report of `gameproof command` run from the sources of `tree`."""
    environment = {**os.environ, "PYTHONPATH": str(tree / "src")}
    finished = subprocess.run([sys.executable, "-m", "gameproof", *command, "--json", "--quiet"], cwd=tree,
                              env=environment, capture_output=True, text=True, check=True)
    return json.loads(finished.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revision", help="the earlier commit")
    parser.add_argument("--runs", type=int, default=3, help="measured runs of each tree (default 3)")
    args, command = parser.parse_known_args()
    with tempfile.TemporaryDirectory() as folder:
        earlier = Path(folder) / "earlier"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(earlier), args.revision],
                       check=True)
        try:
            trees = {args.revision: earlier, "working tree": ROOT}
            for tree in trees.values():
                run(tree, command)  # compiles
            print("| tree | value | nodes | seconds |")
            print("|---|---|---|---|")
            for _ in range(args.runs):
                for name, tree in trees.items():
                    report = run(tree, command)
                    print(f"| {name} | {report['value']} | {report['nodes']:,} | {report['seconds']:.2f} |", flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(earlier)], check=True)


if __name__ == "__main__":
    main()
