"""Benchmark df-pn on misère m,n,k games: the hand-written m,n,k kernels against the kernels derived from the
declared rules (gameproof.games.mnk.rules), same problems, same options; prints a table and the ratios.

Each problem is solved from the empty board after compilation (a late position of the same game first
compiles or loads every kernel); small problems are timed best of --repeat runs. Misère 5×5 k3 takes
minutes with either and runs once: ask for it with --big.
Run: .venv/bin/python bench/bench_mnk_derived.py [--big] [--moves] [--tt-mb MB]
"""

from __future__ import annotations

import argparse
import sys
import time

from gameproof.games.game import Game
from gameproof.games.mnk import solver as hand
from gameproof.games.mnk.rules import GAMES
from gameproof.games.mnk.state import MnkState
from gameproof.games.state import RulesState
from gameproof.search import solve as derived
from gameproof.search.dfpn import Options

SPECS = {spec.name: spec for spec in GAMES}
SMALL = ["mnk-misere:4,4,3"]
BIG = ["mnk-misere:5,5,3"]


def declared(name: str) -> Game:
    base, _, numbers = name.partition(":")
    rows, cols, k = (int(n) for n in numbers.split(","))
    return Game(SPECS[base], {"rows": rows, "cols": cols, "k": k})


def warm_up(name: str, game: Game, options: Options) -> None:
    """Compile (or load) both implementations' kernels for this game, on a position a few moves from the
    end, with tables of the size timed (the first touches of a big table are slow)."""
    state, ours = MnkState(name), RulesState(game)
    for move in range(game.cells):  # fill cells in order, skipping moves that end the game
        if len(state.history) == game.cells - 6:
            break
        state.play(move)
        ours.play(move)
        if state.is_over():
            state.undo()
            ours.undo()
    hand.solve(state, options, with_moves=False)
    derived.solve(ours, options, with_moves=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--big", action="store_true", help="also misère 5x5 k3 (minutes with each implementation)")
    parser.add_argument("--moves", action="store_true", help="solve every move's value, not only the position's")
    parser.add_argument("--tt-mb", type=float, default=1024.0, help="transposition table size (both)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each small problem (the fastest counts)")
    args = parser.parse_args()
    options = Options(tt_mb=args.tt_mb)
    hand.compile_kernels()
    print(f"{'problem':<20} {'kernels':<8} {'value':>5} {'nodes':>13} {'seconds':>8} {'nodes/s':>11}")
    for name in SMALL + (BIG if args.big else []):
        game = declared(name)
        warm_up(name, game, options)
        rows = {}
        for label, run in (("hand", lambda: hand.solve(MnkState(name), options, with_moves=args.moves)),
                           ("derived", lambda: derived.solve(RulesState(game), options, with_moves=args.moves))):
            seconds = float("inf")
            for _ in range(1 if name in BIG else max(1, args.repeat)):
                start = time.perf_counter()
                solution = run()
                seconds = min(seconds, time.perf_counter() - start)
            rows[label] = (solution.nodes, seconds)
            print(f"{name:<20} {label:<8} {solution.value:>5} {solution.nodes:>13,} {seconds:>8.2f} "
                  f"{solution.nodes / seconds:>11,.0f}", flush=True)
        (hand_nodes, hand_seconds), (our_nodes, our_seconds) = rows["hand"], rows["derived"]
        print(f"{name:<20} derived/hand: nodes {our_nodes / hand_nodes:.3f}, seconds {our_seconds / hand_seconds:.3f}, "
              f"nodes/s {(our_nodes / our_seconds) / (hand_nodes / hand_seconds):.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
