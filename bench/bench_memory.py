"""Memory latency on this machine: nanoseconds per dependent random read from arrays of growing size.

Each read's index depends on the value the previous read returned, so the reads cannot overlap; past
the caches every read is a miss, and past the TLB's reach a walk of the page tables too (in a virtual
machine, of two sets of tables). This is the cost that a transposition table's lookups pay, and the
reason a larger table is not always faster (docs/benchmarks.md).

Run: .venv/bin/python bench/bench_memory.py [--sizes 8 64 256 1024 3072] [--reads 2000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

_LINE_WORDS = 8  # uint64 words in a 64-byte cache line


@njit(cache=True)
def dependent_reads(words, lines, reads):
    """Sum of `reads` words read one after another at pseudo-random cache lines, each chosen by the last."""
    state = np.uint64(12345)
    total = np.uint64(0)
    for _ in range(reads):
        state = state * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        line = np.int64((state ^ total) >> np.uint64(20)) % lines
        total += words[line * _LINE_WORDS]
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 256, 1024, 3072], metavar="MIB")
    parser.add_argument("--reads", type=int, default=2_000_000)
    args = parser.parse_args()
    print(f"{'MiB':>6} {'ns a read':>10}")
    for mebibytes in args.sizes:
        lines = mebibytes * 2**20 // 64
        words = np.zeros(lines * _LINE_WORDS, dtype=np.uint64)
        words[::512] = 1  # touch every page (4 KiB) before timing
        dependent_reads(words, lines, 1000)
        began = time.perf_counter()
        dependent_reads(words, lines, args.reads)
        print(f"{mebibytes:>6} {(time.perf_counter() - began) / args.reads * 1e9:>10.1f}")
        del words


if __name__ == "__main__":
    main()
