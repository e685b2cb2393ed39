"""What a df-pn child costs: the derived kernel's play + undo against the game's own rules (play and
legal) on the same moves, in one run; prints ns per child and the ratio.

The gap is the frame the kernel keeps: the next position written out and one key per symmetry updated
from the cells that changed.
Run: .venv/bin/python bench/bench_kernels.py [--reps N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState

POSITIONS = [("mnk-misere:5,5,3", "a1 d2 d3 c3 b4"), ("othello:8", "f5 d6 c3 d3 c4 f4")]


def _bench(game, record: str, reps: int) -> tuple[float, float, int]:
    state = RulesState(game, record)
    kernels, tables, rules = game.kernels, game.tables, game.compiled
    s = state.frames()
    moves = np.zeros(64, dtype=np.int64)
    n = int(kernels.moves(s, tables, moves))
    play, undo, rules_play, rules_legal = kernels.play, kernels.undo, rules.play, rules.legal
    words = tuple(np.uint64(word) for word in state.words)

    @njit
    def through_kernel(s, tables, moves, n, reps):
        total = 0
        for _ in range(reps):
            for i in range(n):
                total += play(s, tables, moves[i])
                undo(s, tables, moves[i])
        return total

    @njit
    def through_rules(words, moves, n, reps):
        total = np.uint64(0)
        for _ in range(reps):
            for i in range(n):
                # total >> 63 is 0, but the compiler cannot know it: each child waits for the one before,
                # as the kernel's do, and nothing is hoisted out of the loop over reps
                child = rules_play(*words, np.uint64(1) << (np.uint64(moves[i]) + (total >> np.uint64(63))))
                total += rules_legal(*child)
        return total

    through_kernel(s, tables, moves, n, 1)
    through_rules(words, moves, n, 1)
    began = time.perf_counter()
    through_kernel(s, tables, moves, n, reps)
    kernel = (time.perf_counter() - began) / (reps * n) * 1e9
    began = time.perf_counter()
    through_rules(words, moves, n, reps)
    plain = (time.perf_counter() - began) / (reps * n) * 1e9
    return kernel, plain, n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200_000, help="times each position's moves are played")
    args = parser.parse_args()
    print(f"{'game':20} {'position':22} {'moves':>5} {'kernel ns':>10} {'rules ns':>9} {'ratio':>6}")
    for name, record in POSITIONS:
        kernel, plain, n = _bench(load_game(name), record, args.reps)
        print(f"{name:20} {record:22} {n:5d} {kernel:10.1f} {plain:9.1f} {kernel / plain:6.1f}")


if __name__ == "__main__":
    main()
