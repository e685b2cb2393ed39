"""Symmetry-distinct positions by ply (the skeleton of an opening book)."""

from __future__ import annotations

from gameproof.games.mnk.state import MnkGame, MnkState


def levels(game: MnkGame, depth: int) -> list[list[MnkState]]:
    """For each ply 0..depth, one representative per canonical key (finished games end their line)."""
    level = {game.start().key: game.start()}
    found = [list(level.values())]
    for _ in range(depth):
        following: dict[int, MnkState] = {}
        for state in level.values():
            for move in state.legal_moves():
                state.play(move)
                if state.key not in following:
                    following[state.key] = state.copy()
                state.undo()
        level = following
        found.append(list(level.values()))
    return found


def distinct_positions(game: MnkGame, depth: int) -> list[MnkState]:
    """One representative per canonical key of the positions after exactly ``depth`` plies."""
    return levels(game, depth)[depth]


def orientation(state: MnkState, representative: MnkState) -> tuple[int, ...]:
    """A symmetry (square permutation) taking ``state``'s stones onto ``representative``'s."""
    marks, target = state.marks(), representative.marks()
    for perm in state.game.permutations:
        if all(marks[sq] == target[perm[sq]] for sq in range(len(marks))):
            return perm
    raise ValueError(f"{representative!r} is not a symmetric image of {state!r}")
