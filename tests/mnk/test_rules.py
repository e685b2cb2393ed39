"""Conformance of MnkState to the game protocol and differential checks against the reference rules."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.errors import BadInput
from gameproof.games.mnk import reference
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.framework.state import GameState

GAMES = ["mnk:3,3,3", "mnk-misere:4,4,3", "mnk-notakto:3,3,3", "mnk:5,5,4", "mnk:8,8,5", "mnk-misere:7,9,4", "mnk:1,6,2"]


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_follow_the_reference_rules(name):
    game = MnkGame.from_name(name)
    rng = random.Random(name)
    for _ in range(20):
        state = game.start()
        assert isinstance(state, GameState)
        board, keys, ended = "-" * game.cells, [], None
        while not state.is_over():
            move = rng.choice(state.legal_moves())
            keys.append(state.key)
            board, ended = reference.move_result(board, game.rows, game.cols, game.k, game.variant, move)
            mover = state.to_move
            state.play(move)
            assert state.marks() == board.replace("O", "X") if game.variant == "notakto" else state.marks() == board
            assert state.is_over() == (ended is not None)
        sign = 1 if mover == 0 else -1
        assert state.outcome() == ended * sign
        assert eval(repr(state)).marks() == state.marks()
        while state.history:  # play/undo round trip restores keys
            state.undo()
            assert state.key == keys.pop()
        assert state.key == game.start().key and state.outcome() is None


def test_keys_agree_under_symmetry_and_differ_otherwise():
    game = MnkGame.from_name("mnk:5,5,6")  # no line fits: games never end early
    rng = random.Random(5)
    seen = {}
    for _ in range(300):
        moves = rng.sample(range(25), rng.randrange(0, 8))
        for perm in game.permutations:
            state = MnkState(game, " ".join(game.board.cell_name(perm[m]) for m in moves))
            canonical = min("".join(state.marks()[perm2.index(i)] for i in range(25)) for perm2 in game.permutations)
            assert seen.setdefault(state.key, canonical) == canonical


def test_illegal_moves_are_bad_input():
    state = MnkState("mnk:3,3,3", "a1 b1 a2 b2 a3")
    assert state.is_over() and state.outcome() == 1
    with pytest.raises(BadInput):
        state.play(8)
    with pytest.raises(BadInput):
        MnkState("mnk:3,3,3", "a1 a1")
    with pytest.raises(BadInput):
        MnkGame.from_name("chess")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_large_boards_keep_hash_keys_consistent(seed):
    rng = random.Random(seed)
    state = MnkState("mnk:8,8,9")
    for move in rng.sample(range(64), 10):
        state.play(move)
    flipped = MnkState("mnk:8,8,9", " ".join(state.move_name(state.game.permutations[1][m]) for m in state.history))
    assert flipped.key == state.key
