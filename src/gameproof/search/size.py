"""How large a search from a position may be, estimated in a blink before starting one that cannot finish.

Knuth's estimator (1975): along a random line of play, the product of the numbers of legal moves met so far,
summed over the line's plies, is an unbiased estimate of the number of nodes of the game tree (every line of
play, transpositions counted apart). A few lines give its order of magnitude, which is all that is asked: a
search with a transposition table visits far fewer positions, so the thresholds below were set from what the
searches here finish (the logarithms of the estimates: Connect Four 7×6 27, Othello 6×6 23 and Breakthrough 5×5
28 solve in minutes; Hex 6×6 at 41 takes hours; Othello 8×8 at 55 and Hex 7×7 at 62 do not finish).
"""

from __future__ import annotations

import enum
import math
import random

from gameproof.framework.state import RulesState

#: Random lines of play the estimate follows, and the seed that makes it the same from run to run.
LINES, SEED = 16, 2026
#: Above this estimate (as a power of ten) a search takes hours; above the second it does not finish at all.
HOURS, NEVER = 33.0, 44.0
#: A line whose product of move counts passes this power of ten is followed no further: the answer is known.
ENOUGH = NEVER + 6.0


class Size(enum.Enum):
    """What an estimate says of a search from a position."""

    FEASIBLE = "feasible"
    HOURS = "hours"
    NEVER = "never"


def tree_size_log10(state: RulesState, lines: int = LINES, seed: int = SEED) -> float:
    """The base-10 logarithm of Knuth's estimate of the game tree below `state` (lines cut short at
    :data:`ENOUGH`, where it stands for "at least that"), from `lines` random lines of play; `state` is left as
    it was. A game that may repeat has no finite tree: infinity."""
    if state.game.may_repeat:
        return math.inf
    rng = random.Random(seed)
    estimates = [_line_log10(state, rng) for _ in range(lines)]
    return _log10_mean(estimates)


def _line_log10(state: RulesState, rng: random.Random) -> float:
    """log10 of one line's estimate: the sum over its plies of the product of the move counts before them."""
    terms, product, played = [0.0], 0.0, 0
    while not state.is_over() and product < ENOUGH:
        moves = state.legal_moves()
        product += math.log10(len(moves))
        terms.append(product)
        state.play(rng.choice(moves))
        played += 1
    for _ in range(played):
        state.undo()
    return _log10_sum(terms)


def _log10_sum(logs: list[float]) -> float:
    top = max(logs)
    return top + math.log10(sum(10 ** (each - top) for each in logs))


def _log10_mean(logs: list[float]) -> float:
    return _log10_sum(logs) - math.log10(len(logs))


def size_of(state: RulesState) -> tuple[Size, float]:
    """Whether a search from `state` can finish, and the estimate (a power of ten) that says so."""
    estimate = tree_size_log10(state)
    return (Size.NEVER if estimate > NEVER else Size.HOURS if estimate > HOURS else Size.FEASIBLE), estimate
