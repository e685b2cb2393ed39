"""The examples gallery: every natural harness in examples/ solves its puzzle under `gameproof check`."""

import json
from pathlib import Path

import pytest

from gameproof.cli import main
from gameproof.logic import check
from gameproof.logic.harness import load_harness

from .conftest import STUDY_SOLUTION

EXAMPLES = Path(__file__).parent.parent.parent / "examples"


def run(target):
    harness = load_harness(f"{EXAMPLES / target}")
    return harness, check(harness)


def test_sudoku_by_gameproof_check(capsys):
    assert main(["check", f"{EXAMPLES / 'sudoku.py'}::sudoku", "--json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["status"] == "counterexample"
    inputs = payload["inputs"]
    filled = "".join(str(inputs.get(f"r{i // 9 + 1}c{i % 9 + 1}", c)) for i, c in enumerate(
        "000300090040000002100080500008009007020000030400700100003050006500000080090001000"))
    assert filled == STUDY_SOLUTION


@pytest.mark.parametrize("target", ["queens.py::queens", "queens.py::corner_free"])
def test_queens(target):
    _, report = run(target)
    cols = [report.inputs[f"col_{r}"] for r in range(8)]
    assert report.outcome.label == "satisfied" and len(set(cols)) == 8
    assert all(abs(cols[i] - cols[j]) != j - i for i in range(8) for j in range(i + 1, 8))
    assert target.endswith("queens") or cols[0] == 0


@pytest.mark.parametrize("target, n", [("magic_square.py::magic3", 3), ("magic_square.py::magic4", 4)])
def test_magic_squares(target, n):
    _, report = run(target)
    square = [report.inputs[f"r{i // n + 1}c{i % n + 1}"] for i in range(n * n)]
    assert sorted(square) == list(range(1, n * n + 1))
    total = n * (n * n + 1) // 2
    assert all(sum(square[r * n:(r + 1) * n]) == total for r in range(n))
    assert all(sum(square[c::n]) == total for c in range(n))


def test_magic_centre_and_futoshiki():
    assert run("magic_square.py::centre")[1].outcome.label == "verified"
    harness, report = run("futoshiki.py::futoshiki")
    module_solution = harness.__globals__["SOLUTION"]
    assert [report.inputs[f"r{i // 5 + 1}c{i % 5 + 1}"] for i in range(25)] == module_solution
    assert run("futoshiki.py::unique")[1].outcome.label == "verified"
