"""Small positions answered by plain play on the rules' Python functions: nothing to compile.

Compiling a game's kernels takes seconds (numba, for each rules file and board size); a position whose whole game
tree, transpositions merged, takes fewer than :data:`PLAIN_NODES` visits is answered sooner by negamax over
:class:`~gameproof.framework.state.RulesState` with a table of values: Domineering 4×4 in 1,836 visits, 4×5 in
15,275 (0.2 s). A position whose game tree Knuth's estimate puts well above those is not tried; the search gives up,
having spent at most its budget, on any other that is larger, and the compiled engines answer.
It is the obvious reference (no proof numbers, no bounds, no symmetry), exact for win, draw and loss, with extra
turns where the rules say the same side moves again; games that may repeat a position are not for it.
"""

from __future__ import annotations

import sys
import time

from gameproof.answers import Value
from gameproof.framework.state import RulesState
from gameproof.search.exact import Solution, final_value
from gameproof.search.size import tree_size_log10

#: Positions visited before plain play gives up (about a quarter of a second of it).
PLAIN_NODES = 20_000
#: Knuth's estimate of the game tree (a power of ten, :mod:`gameproof.search.size`) above which plain play is not
#: tried: the trees it answered within its budget were at most 10^6.7 (Domineering 4×5), those it gave up on at
#: least 10^8.2 (Connect Four 4×4), so a tree too large costs milliseconds of estimate, not a futile search.
PLAIN_TREE_LOG10 = 7.5
#: Python frames the caller may already be using (a ply of plain play takes three).
_FRAMES_IN_USE = 200


class _TooLarge(Exception):
    """The position's tree is larger than the budget, or a line outlasts the game's most plies."""


def solve_plainly(state: RulesState, with_moves: bool = True, budget: int = PLAIN_NODES) -> Solution | None:
    """The value of `state` for the side to move (and of each move, keyed by move code), or None when the search
    would visit more than `budget` positions. `state` is left as it was."""
    if state.game.may_repeat or 3 * state.game.max_plies > sys.getrecursionlimit() - _FRAMES_IN_USE:
        return None
    if tree_size_log10(state) > PLAIN_TREE_LOG10:
        return None
    state.game.tables  # what the game declares for its kernels is checked as for them: a bad declaration is refused
    started = time.perf_counter()
    search = _Negamax(budget, state.game.max_plies)
    moves: dict[int, Value] = {}
    try:
        if state.is_over():
            return Solution(final_value(state))
        if with_moves:
            for move in state.legal_moves():
                moves[move] = search.after(state, move)
            value = max(moves.values(), key=lambda value: value.score)
        else:
            value = search.value(state)
    except _TooLarge:
        return None
    return Solution(value, moves, search.nodes, time.perf_counter() - started, len(search.values))


class _Negamax:
    """Values of positions for the side to move, each computed once (a win cuts the moves short)."""

    def __init__(self, budget: int, max_plies: int) -> None:
        self.budget = budget
        self.max_plies = max_plies  # deeper, the rules are broken (a cycle, say): the compiled search says how
        self.depth = 0
        self.nodes = 0
        self.values: dict[tuple[tuple[int, ...], int], Value] = {}

    def value(self, state: RulesState) -> Value:
        key = (state.words, state.to_move)
        known = self.values.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise _TooLarge
        if state.is_over():
            best = final_value(state)
        else:
            best = Value.LOSS
            for move in state.legal_moves():
                reply = self.after(state, move)
                if reply.score > best.score:
                    best = reply
                    if best is Value.WIN:
                        break
        self.values[key] = best
        return best

    def after(self, state: RulesState, move: int) -> Value:
        """The value of `move` for the side playing it."""
        mover = state.to_move
        self.depth += 1
        if self.depth > self.max_plies:
            raise _TooLarge
        state.play(move)
        try:
            value = self.value(state)
            return value if state.to_move == mover else _OPPOSITE[value]
        finally:
            state.undo()
            self.depth -= 1


_OPPOSITE = {Value.WIN: Value.LOSS, Value.DRAW: Value.DRAW, Value.LOSS: Value.WIN}
