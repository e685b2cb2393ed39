from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data"
STUDY = "000300090040000002100080500008009007020000030400700100003050006500000080090001000"
STUDY_SOLUTION = "852347691346195872179682543618439257927516438435728169283954716561273984794861325"
#: Puzzles whose givens repeat no digit, yet have no solution: r1c9 needs the 9 that column 9 holds; r1c1 can take
#: none of 1-4.
DEAD_END = "12345678." + "." * 8 + "9" + "." * 63
DEAD_END_4 = ".23..1..4......."


def cells_of(puzzle: str) -> list[int]:
    """The cells of a 9x9 puzzle string as they are, repeated givens included (parse refuses those)."""
    return [0 if char in "0." else int(char) for char in puzzle]


def tdoku_cases() -> list[tuple[str, int, str | None]]:
    """(puzzle, number of solutions, the solution when given) from the vendored tdoku test file."""
    cases = []
    for line in (DATA / "sudoku_tdoku_tests.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, count, *solution = line.split(":")
            cases.append((puzzle, int(count), solution[0] if solution else None))
    return cases


@pytest.fixture
def data_dir() -> Path:
    return DATA
