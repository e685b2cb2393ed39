"""Symmetry-distinct positions of m,n,k games by ply (the skeleton of an opening book)."""

from __future__ import annotations

from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.search import book_build


def levels(game: MnkGame, depth: int) -> list[list[MnkState]]:
    """For each ply 0..depth, one representative per canonical key (finished games end their line)."""
    return book_build.levels(game.start(), depth)


def distinct_positions(game: MnkGame, depth: int) -> list[MnkState]:
    """One representative per canonical key of the positions after exactly ``depth`` plies."""
    return levels(game, depth)[depth]
