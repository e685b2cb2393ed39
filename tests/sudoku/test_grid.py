import pytest

from gameproof.errors import BadInput
from gameproof.games.sudoku.grid import Grid, groups, is_solution_of, parse, pretty, read_puzzles, render

from .conftest import STUDY, STUDY_SOLUTION


def test_parse_render_round_trip_and_blanks():
    assert render(parse(STUDY)) == STUDY
    assert render(parse(STUDY.replace("0", "."))) == STUDY
    big = "123456789ABCDEFG" + "." * 240
    assert render(parse(big.lower())) == big.replace(".", "0")


@pytest.mark.parametrize("text, message", [
    ("123", "16, 81 or 256 cells"),
    ("5" + "0" * 15, "character 1 is '5'"),
    ("x" * 81, "character 1 is 'x'"),
])
def test_bad_puzzles_say_what_is_wrong(text, message):
    with pytest.raises(BadInput, match=message):
        parse(text)


def test_groups_cover_every_cell_three_times():
    for n in (2, 3, 4):
        size = n * n
        counts = [0] * size ** 2
        for group in groups(n):
            assert len(set(group)) == size
            for cell in group:
                counts[cell] += 1
        assert len(groups(n)) == 3 * size and set(counts) == {3}


def test_is_solution_of_and_pretty():
    assert is_solution_of(parse(STUDY_SOLUTION), parse(STUDY))
    assert not is_solution_of(parse(STUDY_SOLUTION), [1, *parse(STUDY)[1:]])
    assert pretty(parse(STUDY)).splitlines()[0] == ". . . | 3 . . | . 9 ."


def test_puzzle_file_names_the_malformed_line(data_dir):
    path = data_dir / "sudoku17_sample.txt"
    with pytest.raises(BadInput, match=r"sudoku17_sample.txt:19: 2 stray characters '--' after the 81-character"):
        read_puzzles(path)
    batch = read_puzzles(path, skip_malformed=True)
    assert len(batch.puzzles) == 19 and batch.lines[0] == 2 and len(batch.skipped) == 1


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(BadInput, match="cannot read"):
        read_puzzles(tmp_path / "none.txt")
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    with pytest.raises(BadInput, match="no puzzles"):
        read_puzzles(tmp_path / "empty.txt")


@pytest.mark.parametrize("text, message", [
    (STUDY[:20] + "3" + STUDY[21:], r"the givens repeat 3 in column 3 \(r3c3 and r7c3\)"),
    ("5" + STUDY[1:], r"the givens repeat 5 in column 1 \(r1c1 and r8c1\)"),
    ("1.1.3..2...3..2.", r"the givens repeat 1 in row 1 \(r1c1 and r1c3\)"),
    ("1.11" + "." * 12, r"the givens repeat 1 in row 1 \(r1c1, r1c3 and r1c4\)"),
    ("1....1" + "." * 10, r"the givens repeat 1 in box 1 \(r1c1 and r2c2\)"),
    ("." * 10 + "4" + "." * 4 + "4", r"the givens repeat 4 in box 4 \(r3c3 and r4c4\)"),
    ("G" + "." * 16 + "g" + "." * 238, r"the givens repeat G in box 1 \(r1c1 and r2c2\)"),
])
def test_repeated_givens_name_the_group_and_cells(text, message):
    with pytest.raises(BadInput, match=f"^{message}$"):
        parse(text)
    with pytest.raises(BadInput, match=message):
        Grid.parse(text)


def test_a_file_names_the_puzzle_whose_givens_repeat(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("# a comment\n1...3..2...3..2.\n\n1.1.3..2...3..2.\n")
    with pytest.raises(BadInput, match=r"two.txt:4: the givens repeat 1 in row 1 \(r1c1 and r1c3\) \(--skip-malformed"):
        read_puzzles(path)
    batch = read_puzzles(path, skip_malformed=True)
    assert batch.lines == [2] and batch.skipped == [f"{path}:4: the givens repeat 1 in row 1 (r1c1 and r1c3)"]
