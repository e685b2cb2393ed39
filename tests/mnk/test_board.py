"""The m,n,k board: square names, k-in-a-row windows, symmetries, bad sizes, symmetry-distinct positions."""

import random

import pytest

from gameproof.errors import BadInput
from gameproof.games.mnk.positions import distinct_positions
from gameproof.games.mnk.state import MnkGame, MnkState

from .conftest import GOLDEN


def test_square_names_round_trip():
    state = MnkState("mnk:4,5,3")
    assert [state.move_name(i) for i in (0, 4, 5, 19)] == ["a1", "e1", "a2", "e4"]
    assert all(state.parse_move(state.move_name(i)) == i for i in range(state.game.cells))


@pytest.mark.parametrize("text", ["f1", "a5", "a0", "11", "", "a"])
def test_bad_square_is_bad_input(text):
    with pytest.raises(BadInput):
        MnkState("mnk:4,5,3").parse_move(text)


@pytest.mark.parametrize(("rows", "cols", "k", "lines"), [(3, 3, 3, 8), (4, 4, 4, 10), (4, 4, 3, 24), (5, 5, 3, 48), (3, 4, 3, 14), (1, 1, 1, 1), (3, 3, 4, 0)])
def test_line_counts(rows, cols, k, lines):
    rules = MnkGame(rows, cols, k).rules
    assert rules.windows(rules.CELLS) == lines  # the k-windows of the empty board


def test_symmetries_are_permutations_that_map_lines_to_lines():
    rng = random.Random(3)
    for rows, cols in ((5, 5), (4, 6), (1, 8)):
        game = MnkGame(rows, cols, 3)
        assert len(game.permutations) == (8 if rows == cols else 4)
        for perm in game.permutations:
            assert sorted(perm) == list(range(game.cells))
            for _ in range(200):  # a set of squares holds k in a row exactly when its image does
                squares = rng.sample(range(game.cells), rng.randrange(game.cells))
                image = sum(1 << perm[sq] for sq in squares)
                assert bool(game.rules.line_starts(sum(1 << sq for sq in squares))) == bool(game.rules.line_starts(image))


@pytest.mark.parametrize(("rows", "cols", "k", "variant"), [(9, 8, 3, "normal"), (0, 3, 3, "normal"), (3, 3, 0, "normal"), (3, 3, 3, "other")])
def test_bad_boards_are_bad_input(rows, cols, k, variant):
    with pytest.raises(BadInput):
        MnkGame(rows, cols, k, variant)


@pytest.mark.parametrize("case", GOLDEN["distinct_positions"], ids=lambda c: c["game"])
def test_symmetry_distinct_position_counts(case):
    game = MnkGame.from_name(case["game"])
    assert [len(distinct_positions(game, d)) for d in range(len(case["counts"]))] == case["counts"]
