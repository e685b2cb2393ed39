"""Checks of a game's rules against a plain reference of them, for games that may repeat (Dodgem, Three Men's
Morris): each reference writes positions as gameproof's text and names moves as gameproof does."""

from __future__ import annotations

from types import ModuleType

from gameproof.framework.game import Game
from gameproof.framework.state import RulesState


def engine_moves(state: RulesState) -> list[str]:
    """The names of the legal moves of `state`, sorted."""
    return sorted(state.move_name(move) for move in state.legal_moves())


def check_every_position(game: Game, reference: ModuleType, positions: list, successors: list[list[int]]) -> None:
    """At each of the reference's `positions` (read into gameproof from its text): the legal moves are the
    reference's, each leads to the reference's position, and there are as many as the reference's successors."""
    for position, following in zip(positions, successors):
        state = RulesState.from_position(game, reference.text(position))
        names = engine_moves(state)
        assert names == sorted(reference.moves(position)), reference.text(position)
        for name in names:
            state.play(state.parse_move(name))
            assert state.position == reference.text(reference.play(position, name))
            state.undo()
        assert len(following) == len(names)
