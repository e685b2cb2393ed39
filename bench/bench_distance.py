"""How long perfect play lasts on Connect Four boards from the empty board (`gameproof solve connect4:W,H --distance`),
against published values.

The published plies are those of the "Last Move" table of Christophe Steininger's solver (github.com/
ChristopheSteininger/c4, README: "the move on which the game will end if both players are perfect"), whose outcomes
agree with John Tromp's table of Connect Four results by board size. A drawn board ends when it is full, so its
published value is the number of cells; `--distance` says "draw" and no plies for it.

Run: .venv/bin/python bench/bench_distance.py [--boards 4x4 5x4 6x4 7x4 4x5 5x5 6x5 7x5] [--value-only] [--tt-mb MB]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from gameproof.answers import Value
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.distance import distances

#: (width, height) -> (value for the first player, plies to the end; None for a draw), from the table cited above.
PUBLISHED = {
    (4, 4): (Value.DRAW, None), (5, 4): (Value.DRAW, None), (6, 4): (Value.LOSS, 24), (7, 4): (Value.DRAW, None),
    (4, 5): (Value.DRAW, None), (5, 5): (Value.DRAW, None), (6, 5): (Value.DRAW, None), (7, 5): (Value.DRAW, None),
    (4, 6): (Value.DRAW, None), (5, 6): (Value.DRAW, None), (6, 6): (Value.LOSS, 36), (7, 6): (Value.WIN, 41),
}
DEFAULT_BOARDS = ["4x4", "5x4", "6x4", "7x4", "4x5", "5x5", "6x5", "7x5"]


def warmed(name: str, options: Options) -> RulesState:
    """The empty board of `name`, its search compiled (or loaded from numba's cache) on a nearly full board first."""
    game = load_game(name)
    late = RulesState(game)
    rng = random.Random(0)
    while len(late.history) < game.max_plies - 6 and not late.is_over():
        late.play(rng.choice(late.legal_moves()))
    distances(late, options)
    return RulesState(game)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", nargs="+", default=DEFAULT_BOARDS, metavar="WxH")
    parser.add_argument("--value-only", action="store_true", help="the empty board only, not each first move")
    parser.add_argument("--tt-mb", type=float, default=256.0)
    args = parser.parse_args()
    options = Options(tt_mb=args.tt_mb)
    print(f"{'board':<6} {'value':>5} {'plies':>5} {'published':>10} {'nodes':>14} {'s':>8}  first moves")
    for board in args.boards:
        width, height = map(int, board.split("x"))
        state = warmed(f"connect4:{width},{height}", options)
        started = time.perf_counter()
        solution = distances(state, options, with_moves=not args.value_only)
        seconds = time.perf_counter() - started
        published = PUBLISHED.get((width, height))
        said = "?" if published is None else f"{published[0]} {published[1] or ''}".strip()
        flag = "" if published is None or published == (solution.value, solution.plies) else "  DISAGREE"
        moves = " ".join(f"{state.move_name(move)}:{outcome.value.value[0]}{outcome.plies or ''}"
                         for move, outcome in solution.moves.items())
        print(f"{board:<6} {solution.value:>5} {solution.plies or '-':>5} {said:>10} {solution.nodes:>14,} "
              f"{seconds:>8.2f}  {moves}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
