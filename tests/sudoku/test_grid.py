import pytest

from gameproof.errors import BadInput
from gameproof.games.sudoku.grid import groups, is_solution_of, parse, pretty, read_puzzles, render

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
    assert not is_solution_of(parse(STUDY_SOLUTION), parse("1" + STUDY[1:]))
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
