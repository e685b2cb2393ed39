"""The band-bitset solver (9×9 `direct`) against the slow reference, on random puzzles cut from random grids."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.games.sudoku import solve_many
from gameproof.games.sudoku.bands import COMPLEX, SHRINK, solve_batch9
from gameproof.games.sudoku.grid import is_solution_of, parse
from gameproof.games.sudoku.reference import count_solutions

from .conftest import STUDY, STUDY_SOLUTION, cells_of

GIVENS_MIN, GIVENS_MAX = 22, 60  # fewer givens than 22 make the reference solver slow


@st.composite
def grids(draw) -> list[int]:
    """A random solved 9×9 grid: a fixed one with bands, rows in a band, stacks, columns and digits shuffled."""
    base = [[(3 * (r % 3) + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]
    bands = draw(st.permutations(range(3)))
    rows = [3 * b + r for b in bands for r in draw(st.permutations(range(3)))]
    stacks = draw(st.permutations(range(3)))
    cols = [3 * s + c for s in stacks for c in draw(st.permutations(range(3)))]
    digits = draw(st.permutations(range(1, 10)))
    grid = [[digits[base[r][c] - 1] for c in cols] for r in rows]
    if draw(st.booleans()):
        grid = [list(column) for column in zip(*grid)]
    return [v for row in grid for v in row]


@st.composite
def puzzles(draw) -> list[int]:
    """Givens of a random grid, some kept: few givens make many solutions; a changed given often makes none."""
    grid = draw(grids())
    kept = set(draw(st.permutations(range(81)))[:draw(st.integers(GIVENS_MIN, GIVENS_MAX))])
    puzzle = [v if c in kept else 0 for c, v in enumerate(grid)]
    if draw(st.booleans()):
        cell = draw(st.sampled_from([c for c, v in enumerate(puzzle) if v] or [0]))
        puzzle[cell] = draw(st.integers(1, 9))
    return puzzle


@settings(max_examples=150, deadline=None)
@given(puzzles(), st.sampled_from([1, 2, 3, 7]))
def test_band_solver_agrees_with_the_reference(puzzle, limit):
    first, count = count_solutions(puzzle, limit)
    answer = solve_many([puzzle], "direct", limit)[0]
    assert answer.count == count
    assert (answer.solution is None) == (first is None)
    if answer.solution:
        assert is_solution_of(parse(answer.solution), puzzle)
    if count == 1 and limit > 1:
        assert parse(answer.solution) == first


@pytest.mark.parametrize("puzzle", [
    "1" + "." * 8 + "1" + "." * 71,  # one digit twice in a box, in two rows
    "1" + "." * 26 + "1" + "." * 53,  # twice in a column, in two bands
    "." * 8 + "1" + "." * 71 + "1",  # twice in the last column
    "12345678." + "." * 8 + "9" + "." * 63,  # no conflict among the givens, but no digit left for cell 9
])
def test_conflicts_and_dead_ends_agree_with_the_reference(puzzle):
    cells = cells_of(puzzle)
    assert solve_many([cells], "direct", 2)[0].count == count_solutions(cells, 2)[1]


def test_counts_stop_at_the_limit_and_batches_keep_order():
    answers = solve_many([[0] * 81, parse(STUDY), cells_of("11" + "." * 79), [0] * 81], "direct", 1000)
    assert [a.count for a in answers] == [1000, 1, 0, 1000]
    assert answers[1].solution == STUDY_SOLUTION and answers[2].solution is None
    assert answers[0].solution == answers[3].solution


def test_matching_table():
    """A band whose rows each hold the digit everywhere keeps everything; a box with no place kills the band."""
    everywhere = SHRINK[511] | SHRINK[511] << 3 | SHRINK[511] << 6
    assert COMPLEX[everywhere] == (1 << 27) - 1
    assert COMPLEX[everywhere & ~(1 | 1 << 3 | 1 << 6)] == 0  # box 0 empty in every row
    assert COMPLEX[0b001_001_111] == 0  # rows 1 and 2 both need box 0
    assert COMPLEX[0b110_001_111] == 0b111111000_000000111_111111000  # row 1 takes box 0 from rows 0 and 2


def test_kernel_on_arrays():
    given = np.array([parse(STUDY)], dtype=np.int8)
    digits, counts = np.zeros_like(given), np.zeros(1, dtype=np.int64)
    solve_batch9(given, np.int64(2), digits, counts)
    assert counts[0] == 1 and "".join(map(str, digits[0])) == STUDY_SOLUTION
