"""`gameproof check` end to end: exit codes, JSON, playback, DIMACS, proofs and bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gameproof.cli import main
from gameproof.logic.dimacs import read_dimacs
from gameproof.logic.drat import read_drat
from gameproof.logic.solvers import open_solver

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FACTOR = EXAMPLES / "factor.py"


def run_json(capsys, *args):
    code = main(["check", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_factor_json_and_playback(tmp_path, capsys):
    test_file = tmp_path / "test_factor_witness.py"
    code, out = run_json(capsys, f"{FACTOR}::factor", "--playback", str(test_file))
    assert code == 1 and out["status"] == "counterexample"
    assert out["inputs"]["a"] * out["inputs"]["b"] == 65519 * 65521
    assert {"message", "variables", "clauses", "encode_seconds", "solve_seconds"} <= set(out)
    assert out["variables"] > 0 and out["clauses"] > 0
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    # the generated test fails when the witness is wrong
    test_file.write_text(test_file.read_text().replace(str(out["inputs"]["a"]), "3", 1))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 1


def test_verified_vacuous_and_cover_exit_codes(capsys):
    assert run_json(capsys, f"{FACTOR}::identities")[0] == 0
    code, out = run_json(capsys, f"{FACTOR}::impossible")
    assert code == 1 and out["status"] == "vacuous"
    code, out = run_json(capsys, f"{FACTOR}::lowest_bit")
    x = out["inputs"]["x"]
    assert code == 0 and out["status"] == "satisfied" and x & -x == 1 << 40
    assert out["properties"] == [{"kind": "cover", "message": "lowest set bit is 40", "status": "satisfied",
                                  "inputs": {"x": x}}]


def test_a_satisfied_cover_is_a_success(capsys):
    assert main(["check", f"{EXAMPLES / 'magic_square.py'}::magic4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("satisfied: cover 'a 4x4 magic square': witness found\n") and "counterexample" not in out


def test_an_unsatisfiable_cover_is_a_finding_with_a_checked_proof(tmp_path, capsys):
    harness = tmp_path / "odd.py"
    harness.write_text("from gameproof.logic import any_uint, cover, verify\n"
                       "def square():\n"
                       "    x = any_uint(8, 'x')\n"
                       "    verify(x * x != 2, 'no square is 2')\n"
                       "    cover((x * x) & 3 == 2, 'a square that is 2 mod 4')\n")
    playback = tmp_path / "test_square.py"
    code, out = run_json(capsys, f"{harness}::square", "--proof", str(tmp_path / "square.drat"),
                         "--playback", str(playback))
    assert code == 1 and out["status"] == "unsatisfiable" and out["inputs"] is None
    assert [p["status"] for p in out["properties"]] == ["verified", "unsatisfiable"]
    assert out["proof_checked"] is True and not playback.exists()
    assert main(["check", f"{harness}::square"]) == 1
    assert capsys.readouterr().out.startswith("unsatisfiable: cover 'a square that is 2 mod 4': no input")


def test_a_cover_witness_plays_back(tmp_path, capsys):
    playback = tmp_path / "test_lowest_bit.py"
    code = main(["check", f"{FACTOR}::lowest_bit", "--playback", str(playback), "--proof", str(tmp_path / "x.drat"),
                 "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["playback"] == str(playback) and "no proof written" in err
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(playback)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_dimacs_export_reads_back_and_agrees(tmp_path, capsys):
    cnf_path = tmp_path / "identities.cnf"
    code, out = run_json(capsys, f"{FACTOR}::identities", "--dimacs", str(cnf_path), "--proof",
                         str(tmp_path / "identities.drat"))
    assert code == 0 and out["proof_checked"] is True and out["proof_checker"] in ("dratify", "drat-trim")
    cnf = read_dimacs(cnf_path)
    assert cnf.num_clauses == out["clauses"] + 1  # plus the unit "some property fails"
    with open_solver() as sat:
        sat.add(cnf)
        assert sat.solve() is False
    proof = list(read_drat(tmp_path / "identities.drat"))
    assert proof and proof[-1] == (False, [])  # ends with the empty clause
    code, _ = run_json(capsys, f"{FACTOR}::factor", "--dimacs", str(cnf_path))
    with open_solver() as sat:
        sat.add(read_dimacs(cnf_path))
        assert sat.solve() is True


def test_human_output_and_timeout(tmp_path, capsys):
    assert main(["check", f"{FACTOR}::factor"]) == 1
    assert "65521" in capsys.readouterr().out
    hard = tmp_path / "hard.py"
    hard.write_text("from gameproof.logic import any_uint, verify\n"
                    "def commutes():\n"
                    "    x, y = any_uint(24, 'x'), any_uint(24, 'y')\n"
                    "    verify(x * y == y * x)\n")
    code, out = run_json(capsys, f"{hard}::commutes", "--timeout", "0.3")
    assert code == 3 and out["status"] == "unknown"


@pytest.mark.parametrize("args, problem", [
    (["no/such/file.py::f"], "no such file"),
    ([f"{FACTOR}::missing"], "no function 'missing'"),
    ([f"{FACTOR}"], "FILE.py::FUNCTION"),
    ([f"{FACTOR}::factor", "--solver", "zchaff"], "known: "),
    ([f"{FACTOR}::factor", "--timeout", "-1"], "--timeout"),
    ([f"{FACTOR}::factor", "--solver", "kissat", "--proof", "x.drat"], "DRAT"),
])
def test_bad_input_is_one_line_exit_2(args, problem, capsys):
    assert main(["check", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and problem in err and "Traceback" not in err


def test_import_error_via_subprocess(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    done = subprocess.run([sys.executable, "-m", "gameproof", "check", f"{broken}::f"], capture_output=True,
                          text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "SyntaxError" in done.stderr
