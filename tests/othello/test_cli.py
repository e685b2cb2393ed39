"""`gameproof othello …` end to end through cli.main."""

import json

import pytest

from gameproof.cli import main

RECORD_33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_show_the_33_move_record(capsys):
    shown = run_json(capsys, "othello", "show", RECORD_33)
    assert shown["to_move"] == "white"
    assert shown["legal_move_count"] == 33 == len(shown["legal_moves"])
    assert shown["discs"] == {"black": 20, "white": 11}
    assert shown["game_over"] is False
    again = run_json(capsys, "othello", "show", f"--board={shown['board']}", "--to-move", "white")
    assert again == shown
    by_hex = run_json(
        capsys, "othello", "show", "--player", shown["player"], "--opponent", shown["opponent"], "--to-move", "white"
    )
    assert by_hex == shown


def test_perft_json_and_divide(capsys):
    result = run_json(capsys, "othello", "perft", "6", "--divide", "--convention", "bik")
    assert result["nodes"] == 8200 == sum(result["divide"].values())
    assert set(result) >= {"depth", "nodes", "seconds", "leaves_per_second"}


def test_show_writes_svg(tmp_path, capsys):
    target = tmp_path / "board.svg"
    assert main(["othello", "show", "f5d6", "--svg", str(target)]) == 0
    assert target.read_text().startswith("<svg")
    assert "black to move" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["othello", "show", "f5f5"],
        ["othello", "show"],
        ["othello", "show", "f5", "--board", "-" * 64],
        ["othello", "show", "--player", "0x1"],
        ["othello", "show", "--board", "X" * 63],
        ["othello", "perft", "-1"],
        ["othello", "perft", "ten"],
        ["othello", "perft", "3", "--convention", "chess"],
        ["othello", "show", "--board", "-" * 64],
        ["othello", "show", "f5", "--svg", "/nonexistent/dir/x.svg"],
    ],
)
def test_bad_input_exits_2_with_one_line(argv, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("gameproof: error: ") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_reach_flips_finds_and_refutes(capsys):
    found = run_json(capsys, "othello", "reach", "--flips", "4", "--plies", "6", "--solver", "cadical195")
    assert found["status"] == "sat" and found["flipped"] >= 4 and found["move"]
    assert main(["othello", "reach", "--flips", "5", "--plies", "6", "--solver", "cadical195", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "unsat"


def test_reach_flips_checks_its_proof(tmp_path, capsys, dratify_only):
    proof = tmp_path / "flips.drat"
    assert main(["othello", "reach", "--flips", "3", "--plies", "2", "--proof", str(proof), "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "unsat" and (answer["proof_checked"], answer["proof_checker"]) == (True, "dratify")


@pytest.mark.parametrize("extra", [["--legal-moves", "3"], ["--encoding", "generic"], ["--rules", "relaxed"]])
def test_reach_flips_refuses_what_it_does_not_do(capsys, extra):
    assert main(["othello", "reach", "--flips", "5", "--plies", "6", *extra]) == 2
    assert capsys.readouterr().err.count("\n") == 1
