"""One conformance test over the game registry: every game gets it for free."""

import random

import pytest

from gameproof.errors import BadInput
from gameproof.games.othello.perft import perft as othello_perft
from gameproof.games.othello.position import Position
from gameproof.framework.registry import EXAMPLES, start_position
from gameproof.framework.state import GameState
from gameproof.search.perft import perft


@pytest.mark.parametrize("name", EXAMPLES)
def test_random_playouts_keep_the_protocol(name):
    rng = random.Random(name)
    for _ in range(20):
        state = start_position(name)
        assert isinstance(state, GameState)
        trail = []
        while not state.is_over():
            moves = state.legal_moves()
            assert moves, "a live position has a legal move (or a pass)"
            assert state.outcome() is None
            before = (state.key, state.to_move, repr(state))
            move = rng.choice(moves)
            assert state.parse_move(state.move_name(move)) == move
            state.play(move)
            trail.append((move, before))
        assert state.legal_moves() == [] and state.outcome() in (-1, 0, 1)
        for move, before in reversed(trail):
            state.undo()
            assert (state.key, state.to_move, repr(state)) == before


def test_generic_perft_agrees_with_the_compiled_othello_perft():
    start = Position.start()
    for depth in range(6):
        assert perft(start_position("othello"), depth) == othello_perft(start.player, start.opponent, depth)


def test_generic_perft_counts_tic_tac_toe_games():
    # No line exists before ply 5; 1440 of the 15120 five-ply paths end in a win for X, the rest go on.
    assert perft(start_position("mnk:3,3,3"), 5) == 9 * 8 * 7 * 6 * 5
    assert perft(start_position("mnk:3,3,3"), 6) == (9 * 8 * 7 * 6 * 5 - 1440) * 4


def test_unknown_games_are_reported():
    with pytest.raises(BadInput, match="unknown game"):
        start_position("chess")
