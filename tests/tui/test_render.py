"""`gameproof render …`: SVG boards, checked by their structure."""

import errno
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gameproof.cli import main

NS = "{http://www.w3.org/2000/svg}"
RECORD33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def render(tmp_path, *args: str) -> ET.Element:
    out = tmp_path / "board.svg"
    assert main(["render", *args, "--svg", str(out)]) == 0
    return ET.parse(out).getroot()


def test_othello_33_moves(tmp_path):
    root = render(tmp_path, "othello", RECORD33)
    circles = root.iter(f"{NS}circle")
    dots = [c for c in circles if c.get("r") == "4"]
    assert len(dots) == 33 and len(list(root.iter(f"{NS}circle"))) == 64  # 31 discs + 33 legal moves


def test_mnk_stones_and_values(tmp_path):
    root = render(tmp_path, "mnk", "--rows", "3", "--cols", "3", "--k", "3", "--misere", "--moves", "b1", "--values")
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert sorted(t for t in texts if t in ("win", "draw", "loss")) == ["draw"] * 3 + ["loss"] + ["win"] * 4
    assert "values for O, the side to move" in texts
    root = render(tmp_path, "mnk", "--rows", "3", "--cols", "4", "--k", "3", "--moves", "b2 a1")
    assert len(list(root.iter(f"{NS}circle"))) == 1  # one O; X is two strokes
    assert [t.text for t in root.iter(f"{NS}text")] == list("abcd") + list("123")


def test_sudoku_with_and_without_solution(tmp_path):
    givens = sum(c != "." for c in PUZZLE)
    assert len(list(render(tmp_path, "sudoku", PUZZLE).iter(f"{NS}text"))) == givens
    digits = list(render(tmp_path, "sudoku", PUZZLE, "--solution").iter(f"{NS}text"))
    assert len(digits) == 81 and sum(t.get("fill") == "#1f5fbf" for t in digits) == 81 - givens


@pytest.mark.parametrize("args", [
    ["othello", "f5f5"],
    ["mnk", "--rows", "3", "--cols", "3", "--k", "3", "--moves", "b2 b2"],
    ["mnk", "--rows", "9", "--cols", "9", "--k", "3"],
    ["sudoku", "123"],
    ["sudoku", "11" + "." * 14, "--solution"],
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args):
    assert main(["render", *args, "--svg", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gameproof: error: ") and err.count("\n") == 1
    assert not (tmp_path / "x.svg").exists()


def test_unwritable_file_is_bad_input(tmp_path, capsys):
    assert main(["render", "othello", "f5", "--svg", str(tmp_path / "missing" / "x.svg")]) == 2
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["mnk", "--rows", "3", "--cols", "3", "--k", "3", "--book", "no-such.db"], "no book"),
    (["mnk", "--rows", "9", "--cols", "9", "--k", "3"], "at most 64"),
    (["mnk", "--rows", "3", "--cols", "3", "--k", "3", "--moves", "z9"], "not a cell"),
    (["othello", "f5f5"], "move 2"),
])
def test_tui_bad_input_before_the_screen_opens(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    assert main(["tui", *args]) == 2
    assert message in capsys.readouterr().err


def test_tui_refuses_a_book_for_another_game(tmp_path, capsys):
    from gameproof.games.mnk import book
    from gameproof.games.mnk.state import MnkGame

    path = tmp_path / "m3.db"
    book.build(MnkGame(3, 3, 3, "misere"), 1, path)
    assert main(["tui", "mnk", "--rows", "3", "--cols", "3", "--k", "3", "--book", str(path)]) == 2
    assert "mnk-misere:3,3,3" in capsys.readouterr().err


# --- PNG ----------------------------------------------------------------------------------------------------------

AMAZONS_MOVE = ["amazons:4,4", "--moves", "b1-b3/d1"]  # the last move drawn as two arrows (line, polygon, round caps)


def png(path):
    from PIL import Image

    with Image.open(path) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


@pytest.mark.parametrize("args", [
    ["othello", RECORD33], ["sudoku", PUZZLE, "--solution"], ["mnk:3,3,3", "--moves", "b2 a1", "--values"],
    AMAZONS_MOVE,
], ids=["othello", "sudoku", "mnk", "amazons"])
def test_a_png_is_the_svg_rasterised_at_twice_its_size(tmp_path, capsys, args):
    root = render(tmp_path, *args)
    capsys.readouterr()
    out = tmp_path / "board.png"
    assert main(["render", *args, "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    image = png(out)
    assert image.size == (2 * int(root.get("width")), 2 * int(root.get("height")))
    assert len(image.getcolors(maxcolors=1 << 20)) > 10  # not blank: background, board, pieces, text, smoothed edges
    assert not list(tmp_path.glob(".*.partial"))


def test_a_png_has_the_text_of_its_svg(tmp_path):
    """The row labels (1, 2, 3 in the left margin) and the caption are drawn: dark pixels where they stand, none in
    a stretch of the same margin with no text."""
    out = tmp_path / "mnk.png"
    assert main(["render", "mnk", "--rows", "3", "--cols", "3", "--k", "3", "--moves", "b2", "--out", str(out)]) == 0
    image = png(out)

    def dark(box):  # in SVG units: the PNG has two pixels a unit
        crop = image.crop(tuple(2 * v for v in box))
        return sum(count for count, pixel in crop.getcolors(maxcolors=1 << 16) if sum(pixel) < 300)

    for row in range(3):  # the label of row 3 - row, centred at (14, 28 + 48 * row + 24)
        assert dark((4, 40 + 48 * row, 24, 64 + 48 * row)) > 10
    assert dark((4, 2, 24, 26)) == 0  # the margin above the labels


def test_the_format_by_suffix_or_format_option(tmp_path, capsysbinary):
    odd = tmp_path / "board.TXT"
    assert main(["render", "othello", "f5", "-o", str(odd), "--format", "png"]) == 0
    assert png(odd).size == (736, 736)
    assert main(["render", "othello", "f5", "--svg", str(tmp_path / "b.PNG")]) == 0  # any case; --svg: --out's old name
    assert png(tmp_path / "b.PNG").size == (736, 736)
    capsysbinary.readouterr()
    assert main(["render", "othello", "f5", "-o", "-", "--format", "png"]) == 0
    assert capsysbinary.readouterr().out.startswith(b"\x89PNG\r\n\x1a\n")
    assert main(["render", "othello", "f5", "-o", "-"]) == 0
    assert capsysbinary.readouterr().out.startswith(b"<svg")


@pytest.mark.parametrize("name", ["board.gif", "board"])
def test_an_unknown_suffix_is_bad_input_before_any_solving(tmp_path, capsys, monkeypatch, name):
    def no_solving(*_args, **_kwargs):
        raise AssertionError("solved before the output's format was checked")

    monkeypatch.setattr("gameproof.search.solve.solve", no_solving)
    assert main(["render", "mnk:3,3,3", "--values", "-o", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gameproof: error: cannot tell the format of ") and err.count("\n") == 1
    assert ".svg or .png" in err and "--format" in err and not list(tmp_path.iterdir())


def test_an_element_the_rasteriser_does_not_draw_is_refused():
    from gameproof.render.png import svg_to_png

    with pytest.raises(ValueError, match="<ellipse>"):
        svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><ellipse/></svg>')


@pytest.mark.parametrize("suffix", ["svg", "png"])
def test_a_drawing_is_written_whole_or_not_at_all(tmp_path, monkeypatch, capsys, suffix):
    out = tmp_path / f"board.{suffix}"
    assert main(["render", "othello", "f5", "-o", str(out)]) == 0
    before = out.read_bytes()

    def full_disk(self, data, *args, **kwargs):
        with open(self, "wb") as file:
            file.write(data[: len(data) // 2].encode() if isinstance(data, str) else data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full_disk)
    monkeypatch.setattr(Path, "write_text", full_disk)
    capsys.readouterr()
    assert main(["render", "othello", "f5d6", "-o", str(out)]) == 2
    assert out.read_bytes() == before and list(tmp_path.iterdir()) == [out]
    err = capsys.readouterr().err
    assert "No space left on device" in err and err.count("\n") == 1
