"""`gameproof render …`: SVG boards, checked by their structure."""

import xml.etree.ElementTree as ET

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
