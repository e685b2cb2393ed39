"""DRAT checking: dratify checks real refutations on every run, rejects corrupted ones, and the commands
report which checker checked (exit code 4 on a rejection); drat-trim is chosen when it is installed."""

import json
import shutil
import stat
from pathlib import Path

import pytest

from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.logic import any_uint, verify
from gameproof.logic import drat
from gameproof.logic.drat import Checker, ProofCheck, Verdict, check_drat, read_drat
from gameproof.logic.harness import check, trace
from gameproof.logic.solvers import IncrementalSolver

FACTOR = Path(__file__).resolve().parents[2] / "examples" / "factor.py"


def identity():
    x, y = any_uint(8, "x"), any_uint(8, "y")
    verify((x + y) - y == x)
    verify(x * 3 == (x << 1) + x)


@pytest.fixture
def refutation(tmp_path, dratify_only):
    """A harness's formula "some property fails" and the checked DRAT refutation that check() wrote."""
    report = check(identity, proof=tmp_path / "identity.drat")
    assert report.outcome.label == "verified"
    return trace(identity), report.proof


def write_text_drat(steps, path: Path) -> Path:
    path.write_text("".join(("d " if deletion else "") + " ".join(map(str, [*clause, 0])) + "\n"
                            for deletion, clause in steps), encoding="ascii")
    return path


def corrupted(proof: Path, how: str) -> list[tuple[bool, list[int]]]:
    """The proof's steps without its empty clause ("truncated"), or with its first lemma replaced by the
    empty clause, which unit propagation does not derive ("empty first")."""
    steps = list(read_drat(proof))
    if how == "truncated":
        assert steps[-1] == (False, [])
        return steps[:-1]
    first = next(i for i, (deletion, _) in enumerate(steps) if not deletion)
    return [*steps[:first], (False, []), *steps[first + 1:]]


def test_check_writes_a_refutation_dratify_verifies(refutation):
    traced, proof = refutation
    assert isinstance(proof, ProofCheck) and Path(proof.path).stat().st_size == proof.size > 0
    assert proof.checker is Checker.DRATIFY and proof.verdict is Verdict.VERIFIED and proof.accepted is True
    assert proof.describe() == "checked by dratify"
    # the same binary proof written as text checks alike
    text = write_text_drat(read_drat(proof.path), Path(proof.path).with_suffix(".txt"))
    assert check_drat(traced.finding_formula(), text).verdict is Verdict.VERIFIED


@pytest.mark.parametrize("how", ["truncated", "empty first"])
def test_a_corrupted_proof_is_rejected(refutation, tmp_path, how):
    traced, proof = refutation
    bad = write_text_drat(corrupted(Path(proof.path), how), tmp_path / "bad.drat")
    checked = check_drat(traced.finding_formula(), bad)
    assert checked.verdict is Verdict.REJECTED and checked.accepted is False
    assert checked.describe() == "REJECTED by dratify"


def test_a_refutation_of_a_satisfiable_formula_is_rejected(refutation):
    traced, proof = refutation
    assert check_drat(traced.cnf, proof.path).verdict is Verdict.REJECTED  # without "some property fails"


@pytest.mark.parametrize("content", [b"", b"1 2 0 3\n", b"a\x85"])
def test_what_is_not_a_refutation_is_rejected(refutation, tmp_path, content):
    traced, _ = refutation
    (tmp_path / "junk.drat").write_bytes(content)
    assert check_drat(traced.finding_formula(), tmp_path / "junk.drat").verdict is Verdict.REJECTED


def test_a_large_proof_is_not_checked_by_dratify_unless_asked(refutation, monkeypatch, tmp_path):
    traced, proof = refutation
    monkeypatch.setattr(drat, "PURE_PYTHON_LIMIT", proof.size - 1)
    monkeypatch.delenv(drat.CHECKER_VARIABLE)
    monkeypatch.setenv("PATH", str(tmp_path))  # no drat-trim
    skipped = check_drat(traced.finding_formula(), proof.path)
    assert skipped.verdict is Verdict.TOO_LARGE and skipped.accepted is None
    assert "too large for the pure-Python checker" in skipped.describe() and "install drat-trim" in skipped.describe()
    assert skipped.to_json() == {"proof": proof.path, "proof_checked": None, "proof_checker": "dratify",
                                 "proof_verdict": "too_large"}
    monkeypatch.setenv(drat.CHECKER_VARIABLE, "dratify")
    assert check_drat(traced.finding_formula(), proof.path).verdict is Verdict.VERIFIED


@pytest.mark.parametrize("says, verdict", [("s VERIFIED", Verdict.VERIFIED), ("s NOT VERIFIED", Verdict.REJECTED),
                                           ("s TIMEOUT", Verdict.TIMED_OUT), ("", Verdict.REJECTED)])
def test_drat_trim_on_path_is_preferred_and_its_verdict_read(refutation, monkeypatch, tmp_path, says, verdict):
    traced, proof = refutation
    fake = tmp_path / "drat-trim"
    fake.write_text(f"#!/bin/sh\necho 'c a stand-in'\necho '{says}'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.delenv(drat.CHECKER_VARIABLE)
    monkeypatch.setenv("PATH", str(tmp_path))
    checked = check_drat(traced.finding_formula(), proof.path)
    assert checked.checker is Checker.DRAT_TRIM and checked.verdict is verdict


def test_a_named_checker_that_does_not_exist_is_bad_input(monkeypatch, tmp_path):
    monkeypatch.setenv(drat.CHECKER_VARIABLE, str(tmp_path / "missing"))
    with pytest.raises(BadInput, match="GAMEPROOF_DRAT_CHECKER"):
        check(identity, proof=tmp_path / "p.drat")
    assert not (tmp_path / "p.drat").exists()  # refused before solving
    assert main(["check", f"{FACTOR}::identities", "--proof", str(tmp_path / "p.drat")]) == 2


@pytest.mark.skipif(shutil.which("drat-trim") is None, reason="drat-trim is not on PATH (dratify is tested above)")
def test_drat_trim_and_dratify_agree(refutation, monkeypatch, tmp_path):
    traced, proof = refutation
    monkeypatch.delenv(drat.CHECKER_VARIABLE)
    assert check_drat(traced.finding_formula(), proof.path) == ProofCheck(proof.path, proof.size, Checker.DRAT_TRIM,
                                                                          Verdict.VERIFIED)
    bad = write_text_drat(corrupted(Path(proof.path), "empty first"), tmp_path / "bad.drat")
    assert check_drat(traced.finding_formula(), bad).verdict is Verdict.REJECTED


def test_check_cli_reports_the_checker(tmp_path, capsys, dratify_only):
    proof = tmp_path / "identities.drat"
    assert main(["check", f"{FACTOR}::identities", "--proof", str(proof), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["proof"], out["proof_checked"], out["proof_checker"]) == (str(proof), True, "dratify")
    assert main(["check", f"{FACTOR}::identities", "--proof", str(proof)]) == 0
    assert f"DRAT proof: {proof} (checked by dratify)" in " ".join(capsys.readouterr().out.split())  # unwrapped


@pytest.fixture
def corrupting_solver(monkeypatch):
    """Every proof a PySAT solver writes has its first lemma replaced by the empty clause."""
    write_proof = IncrementalSolver.write_proof

    def write_corrupted(self, path):
        write_proof(self, path)
        write_text_drat(corrupted(Path(path), "empty first"), Path(path))

    monkeypatch.setattr(IncrementalSolver, "write_proof", write_corrupted)


@pytest.mark.parametrize("argv", [["check", f"{FACTOR}::identities"],
                                  ["othello", "reach", "--legal-moves", "14", "--plies", "5"]])
def test_a_rejected_proof_is_loud_and_exits_4(argv, tmp_path, capsys, dratify_only, corrupting_solver):
    proof = tmp_path / "bad.drat"
    assert main([*argv, "--proof", str(proof)]) == 4
    captured = capsys.readouterr()
    assert f"DRAT proof: {proof} (REJECTED by dratify)" in " ".join(captured.out.split())
    assert "REJECTED by dratify" in captured.err and captured.err.count("\n") == 1
    assert main([*argv, "--proof", str(proof), "--json"]) == 4
    assert json.loads(capsys.readouterr().out)["proof_checked"] is False
