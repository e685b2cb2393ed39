import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.errors import BadInput
from gameproof.games.sudoku import solve, solve_many
from gameproof.games.sudoku.grid import is_solution_of, parse, read_puzzles
from gameproof.games.sudoku.reference import count_solutions

from .conftest import DEAD_END, DEAD_END_4, STUDY, STUDY_SOLUTION, tdoku_cases

SOLVED_16 = "".join("123456789ABCDEFG"[(4 * (r % 4) + r // 4 + c) % 16] for r in range(16) for c in range(16))


@pytest.mark.parametrize("method", ["direct", "sat", "checker"])
def test_study_puzzle_empty_grid_and_contradiction(method):
    answer = solve(STUDY, method)
    assert answer.solution == STUDY_SOLUTION and answer.unique
    empty = solve("0" * 81, method)
    assert empty.unique is False and is_solution_of(parse(empty.solution), [0] * 81)
    contradiction = solve(DEAD_END, method)
    assert contradiction.solution is None and contradiction.count == 0
    assert solve("0" * 16, method, limit=300).count == 288  # every 4x4 sudoku


@pytest.mark.parametrize("method", ["direct", "sat"])
def test_tdoku_suite_counts(method):
    cases = tdoku_cases()
    answers = solve_many([parse(p) for p, _, _ in cases], method, limit=1000)
    for (puzzle, count, solution), answer in zip(cases, answers):
        assert answer.count == count, puzzle
        if solution:
            assert answer.solution == solution
        if answer.solution:
            assert is_solution_of(parse(answer.solution), parse(puzzle))


def test_tdoku_suite_checker_with_at_most_one_solution():
    for puzzle, count, solution in tdoku_cases():
        if count <= 1:
            answer = solve(puzzle, "checker")
            assert (answer.count, answer.solution) == (count, solution), puzzle


@pytest.mark.parametrize("method", ["direct", "sat"])
def test_hard_and_seventeen_clue_samples(method, data_dir):
    for name in ("sudoku_hardest_sample.txt", "sudoku17_sample.txt"):
        puzzles = read_puzzles(data_dir / name, skip_malformed=True).puzzles
        for puzzle, answer in zip(puzzles, solve_many(puzzles, method, limit=2)):
            assert answer.count == 1 and is_solution_of(parse(answer.solution), puzzle)


@pytest.mark.parametrize("method", ["direct", "sat", "checker"])
def test_sixteen_by_sixteen(method):
    puzzle = "".join("." if (i * 7) % 5 == 0 else ch for i, ch in enumerate(SOLVED_16))
    answer = solve(puzzle, method)
    assert answer.solution is not None and is_solution_of(parse(answer.solution), parse(puzzle))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16))
def test_direct_agrees_with_the_reference_on_random_4x4(cells):
    first, count = count_solutions(cells, 3)
    answer = solve(cells, "direct", limit=3)
    assert answer.count == count
    assert (answer.solution is None) == (first is None)
    if answer.solution:
        assert is_solution_of(parse(answer.solution), cells)


def test_kernel_without_jit_agrees():
    script = ("from gameproof.games.sudoku import solve;"
              f"print(solve({STUDY!r}).solution, solve('0' * 16, limit=300).count, solve({DEAD_END_4!r}).count)")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [STUDY_SOLUTION, "288", "0"]


def test_bad_arguments():
    with pytest.raises(BadInput, match="unknown method"):
        solve(STUDY, "magic")
    with pytest.raises(BadInput, match=r"^the givens repeat 1 in row 1 \(r1c1 and r1c2\)$"):
        solve("11" + "." * 79)
    with pytest.raises(BadInput, match="different sizes"):
        solve_many([[0] * 16, [0] * 81])


def test_natural_checker_costs_at_most_twice_the_hand_flattened_one():
    from gameproof.games.sudoku import checker

    puzzle = parse(STUDY)
    natural_answer = checker.solve(puzzle, check=checker.is_solution)
    flat_answer = checker.solve(puzzle, check=checker.is_solution_flat)
    assert natural_answer[:2] == flat_answer[:2]
    for key in ("gates", "variables", "clauses"):
        assert natural_answer[2][key] <= 2 * flat_answer[2][key]
