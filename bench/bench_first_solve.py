"""A new rules file's first solve: where numba's compile time goes.

Copies a rules file (by default examples/domineering.py) under a fresh name with a fresh first line, so that
none of its kernels is in numba's disk cache, solves it in this process and prints the wall time and each
compiled function's own compile time (numba's ``numba:compile`` events, the time of the functions it
compiled on the way taken out), largest first.

Run: .venv/bin/python bench/bench_first_solve.py [--file examples/domineering.py] [--parameters 4,4]
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from numba.core import event

ROOT = Path(__file__).resolve().parent.parent


class _CompileTimes(event.Listener):
    """Each compiled function's own compile time, by name (nested compiles are charged to themselves)."""

    def __init__(self) -> None:
        self.open: dict[int, list[tuple[str, float, list[float]]]] = defaultdict(list)
        self.own: dict[str, float] = defaultdict(float)
        self.count = 0

    def on_start(self, started: event.Event) -> None:
        name = started.data["dispatcher"].py_func.__qualname__.rsplit("_", 1)[0]
        self.open[threading.get_ident()].append((name, time.perf_counter(), [0.0]))

    def on_end(self, ended: event.Event) -> None:
        stack = self.open[threading.get_ident()]
        name, began, nested = stack.pop()
        seconds = time.perf_counter() - began
        if stack:
            stack[-1][2][0] += seconds
        self.own[name] += seconds - nested[0]
        self.count += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, default=ROOT / "examples" / "domineering.py")
    parser.add_argument("--parameters", default="4,4")
    args = parser.parse_args()
    listener = _CompileTimes()
    event.register("numba:compile", listener)
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / f"fresh_{secrets.token_hex(4)}.py"
        copy.write_text(f"# {secrets.token_hex(8)}\n" + args.file.read_text())
        from gameproof.cli import main as gameproof

        began = time.perf_counter()
        gameproof(["solve", f"{copy}:{args.parameters}", "--value-only", "--quiet"])
        wall = time.perf_counter() - began
    print(f"first solve {wall:.2f} s, {listener.count} compilations, {sum(listener.own.values()):.2f} s of compiling")
    for name, seconds in sorted(listener.own.items(), key=lambda item: -item[1])[:12]:
        print(f"  {name:<32} {seconds:6.2f} s")


if __name__ == "__main__":
    main()
