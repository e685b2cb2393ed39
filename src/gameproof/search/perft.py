"""Perft over the game protocol: the number of move paths of a given depth, for any game.

Slow (Python) and general; a game may offer a compiled perft of its own, such as
:mod:`gameproof.games.othello.perft`. A finished game counts as no path (the edax convention).
"""

from __future__ import annotations

from gameproof.errors import BadInput
from gameproof.framework.state import GameState


def perft(state: GameState, depth: int) -> int:
    """Move paths of exactly `depth` plies from `state` (a pass, where a game has one, is a ply)."""
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        state.play(move)
        total += perft(state, depth - 1)
        state.undo()
    return total


def check_depth(game, depth: int) -> None:
    """BadInput unless `depth` is a whole number of plies from 0 to the longest game of `game` (a
    :class:`~gameproof.framework.game.Game`; any depth where a game may repeat a position)."""
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0 or (
            not game.may_repeat and depth > game.max_plies):
        most = "" if game.may_repeat else f" and {game.max_plies} (the longest game of {game.name})"
        raise BadInput(f"perft depth must be between 0{most}, got {depth!r:.40}")


def fast_perft(state, depth: int, count_finished: bool = False) -> int:
    """Perft of a declared game's position (:class:`~gameproof.framework.state.RulesState`) by the numba kernel
    derived from its rules: a pass is a ply; a game that ends sooner counts as a path only with
    `count_finished`. Rules that break the kernel's assumptions raise :class:`~gameproof.interrupts.RulesBroken`."""
    from gameproof.framework.derived import run_perft
    from gameproof.interrupts import RulesBroken

    if depth == 0:
        return 1
    try:
        return run_perft(state.game, state.words, state.to_move, depth, count_finished, True)
    except RulesBroken as broken:
        raise broken.of(state.game.name) from None
