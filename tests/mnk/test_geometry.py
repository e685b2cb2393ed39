import pytest

from gameproof.errors import BadInput
from gameproof.games.mnk.geometry import Geometry
from gameproof.games.mnk.positions import distinct_positions
from gameproof.games.mnk.state import MnkGame

from .conftest import GOLDEN


def test_square_names_round_trip():
    geo = Geometry(4, 5, 3)
    assert [geo.name(i) for i in (0, 4, 5, 19)] == ["a1", "e1", "a2", "e4"]
    assert all(geo.parse(geo.name(i)) == i for i in range(geo.cells))


@pytest.mark.parametrize("text", ["f1", "a5", "a0", "11", "", "a"])
def test_bad_square_is_bad_input(text):
    with pytest.raises(BadInput):
        Geometry(4, 5, 3).parse(text)


@pytest.mark.parametrize(("rows", "cols", "k", "lines"), [(3, 3, 3, 8), (4, 4, 4, 10), (4, 4, 3, 24), (5, 5, 3, 48), (3, 4, 3, 14), (1, 1, 1, 1), (3, 3, 4, 0)])
def test_line_counts(rows, cols, k, lines):
    assert len(Geometry(rows, cols, k).lines) == lines


def test_symmetries_are_permutations_that_map_lines_to_lines():
    for rows, cols in ((5, 5), (4, 6), (1, 8)):
        geo = Geometry(rows, cols, 3)
        assert len(geo.symmetries) == (8 if rows == cols else 4)
        lines = {frozenset(line) for line in geo.lines}
        for perm in geo.symmetries:
            assert sorted(perm) == list(range(geo.cells))
            assert {frozenset(perm[sq] for sq in line) for line in lines} == lines


@pytest.mark.parametrize(("rows", "cols", "k"), [(9, 8, 3), (0, 3, 3), (3, 3, 0)])
def test_bad_boards_are_bad_input(rows, cols, k):
    with pytest.raises(BadInput):
        Geometry(rows, cols, k)


@pytest.mark.parametrize("case", GOLDEN["distinct_positions"], ids=lambda c: c["game"])
def test_symmetry_distinct_position_counts(case):
    game = MnkGame.from_name(case["game"])
    assert [len(distinct_positions(game, d)) for d in range(len(case["counts"]))] == case["counts"]
