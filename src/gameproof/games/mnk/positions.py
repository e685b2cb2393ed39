"""Symmetry-distinct positions reachable in exactly d plies (the leaves of an opening book)."""

from __future__ import annotations

from gameproof.games.mnk.state import MnkGame, MnkState


def distinct_positions(game: MnkGame, depth: int) -> list[MnkState]:
    """One representative per canonical key of the positions after ``depth`` plies (finished games included)."""
    level = {game.start().key: game.start()}
    for _ in range(depth):
        following: dict[int, MnkState] = {}
        for state in level.values():
            for move in state.legal_moves():
                state.play(move)
                if state.key not in following:
                    following[state.key] = state.copy()
                state.undo()
        level = following
    return list(level.values())
