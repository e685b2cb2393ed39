import json

import pytest

from gameproof.cli import main

from .conftest import DEAD_END, DEAD_END_4, STUDY, STUDY_SOLUTION


def run(capsys, *argv):
    code = main(["sudoku", "solve", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("method", ["direct", "sat", "checker"])
def test_one_puzzle_json(capsys, method):
    code, out, _ = run(capsys, STUDY, "--method", method, "--json")
    payload = json.loads(out)
    assert code == 0 and payload["solution"] == STUDY_SOLUTION and payload["unique"] is True
    assert payload["seconds"] >= 0 and "status" not in payload


def test_empty_contradiction_and_count(capsys):
    code, out, _ = run(capsys, "." * 81, "--json")
    assert code == 0 and json.loads(out)["unique"] is False
    code, out, _ = run(capsys, DEAD_END, "--json")
    payload = json.loads(out)
    assert code == 1 and payload["solution"] is None and payload["status"] == "no solution"
    code, out, _ = run(capsys, "." * 16, "--count", "--json")
    assert json.loads(out)["count"] == 288
    code, out, _ = run(capsys, "." * 16, "--count", "--cap", "10", "--json")
    payload = json.loads(out)
    assert payload["count"] == 10 and payload["count_capped"] is True


def test_text_output(capsys):
    code, out, _ = run(capsys, STUDY)
    assert code == 0 and STUDY_SOLUTION in out and "unique" in out


def test_file_json_in_input_order(capsys, data_dir):
    code, out, err = run(capsys, str(data_dir / "sudoku17_sample.txt"), "--skip-malformed", "--json", "--quiet")
    payload = json.loads(out)
    assert code == 0 and payload["puzzles"] == payload["solved"] == 19 and len(payload["solutions"]) == 19
    assert payload["puzzles_per_second"] > 0 and "sudoku17_sample.txt:19" in payload["skipped"][0]
    code, out, _ = run(capsys, str(data_dir / "sudoku_hardest_sample.txt"), "--method", "sat")
    assert code == 0 and "20 of 20 puzzles solved by sat" in out


def test_file_counts_and_no_solution(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"# a comment\n................\n\n{DEAD_END_4}\n")
    code, out, _ = run(capsys, str(path), "--count", "--json", "--method", "checker")
    payload = json.loads(out)
    assert code == 1 and payload["counts"] == [288, 0] and payload["solutions"][1] is None


@pytest.mark.parametrize("argv, message", [
    (["12x" + "." * 78], "character 3 is 'x'"),
    (["." * 80], "16, 81 or 256 cells"),
    (["." * 81, "--method", "magic"], "invalid choice"),
    (["." * 81, "--cap", "1"], "--cap must be at least 2"),
    (["." * 81, "--solver", "nosuch"], "nosuch"),
    (["missing/puzzles.txt"], "no such puzzle file: missing/puzzles.txt"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and message in err


def test_repeated_givens_are_named_one_line_exit_2(capsys, tmp_path):
    code, out, err = run(capsys, "5" + STUDY[1:], "--json")
    assert code == 2 and out == "" and err == "gameproof: error: the givens repeat 5 in column 1 (r1c1 and r8c1)\n"
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{STUDY}\n\n{STUDY[:20]}3{STUDY[21:]}\n")
    code, _, err = run(capsys, str(path), "--quiet")
    assert code == 2 and err.count("\n") == 1
    assert f"{path}:3: the givens repeat 3 in column 3 (r3c3 and r7c3) (--skip-malformed skips such lines)" in err
    code, out, _ = run(capsys, str(path), "--quiet", "--skip-malformed", "--json")
    assert code == 0 and json.loads(out)["skipped"] == [f"{path}:3: the givens repeat 3 in column 3 (r3c3 and r7c3)"]


def test_malformed_line_in_file(capsys, data_dir):
    code, _, err = run(capsys, str(data_dir / "sudoku17_sample.txt"), "--quiet")
    assert code == 2 and "sudoku17_sample.txt:19: 2 stray characters '--'" in err and err.count("\n") == 1
