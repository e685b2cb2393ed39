"""Checking DRAT refutations: with drat-trim when it is installed, else with the pure-Python dratify.

drat-trim (https://github.com/marijnheule/drat-trim, one C file: ``gcc -O2 -o drat-trim drat-trim.c``)
checks backwards and is fast on proofs of hundreds of megabytes; it is used when it is on PATH, or when
``GAMEPROOF_DRAT_CHECKER`` names it. dratify, a dependency of gameproof, checks every step forwards in
Python: fine for small proofs, so a proof larger than :data:`PURE_PYTHON_LIMIT` is reported as not
checked instead, unless ``GAMEPROOF_DRAT_CHECKER=dratify`` asks for it whatever the size.
"""

from __future__ import annotations

import enum
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dratify
from dratify.lits import from_dimacs

from gameproof.errors import BadInput
from gameproof.logic.cnf import Cnf

CHECKER_VARIABLE = "GAMEPROOF_DRAT_CHECKER"

#: The largest proof, in bytes, that dratify checks unasked: on binary CaDiCaL proofs it took 5 to 25 s
#: of CPU per MB here (drat-trim: 0.1 to 4 s for proofs up to 11 MB), so about half a minute at most
#: (docs/benchmarks.md, "DRAT proof checking").
PURE_PYTHON_LIMIT = 1_000_000


class Checker(enum.Enum):
    """The program that checks a proof."""

    DRAT_TRIM = "drat-trim"
    DRATIFY = "dratify"


class Verdict(enum.Enum):
    """What became of a proof's check."""

    VERIFIED = "verified"
    REJECTED = "rejected"
    TOO_LARGE = "too_large"  # not checked: too large for dratify
    TIMED_OUT = "timed_out"  # not checked: drat-trim ran out of time


@dataclass(frozen=True)
class ProofCheck:
    """A DRAT proof written to `path`, and how its check went."""

    path: str
    size: int  # bytes
    checker: Checker
    verdict: Verdict

    @property
    def accepted(self) -> bool | None:
        """True if the checker verified the proof, False if it rejected it, None if it was not checked."""
        return {Verdict.VERIFIED: True, Verdict.REJECTED: False}.get(self.verdict)

    def describe(self) -> str:
        """The verdict in a few words, naming the checker."""
        if self.verdict is Verdict.VERIFIED:
            return f"checked by {self.checker.value}"
        if self.verdict is Verdict.REJECTED:
            return f"REJECTED by {self.checker.value}"
        if self.verdict is Verdict.TIMED_OUT:
            return f"not checked: {self.checker.value} ran out of time"
        return (f"not checked: {self.size / 1e6:.1f} MB is too large for the pure-Python checker (limit "
                f"{PURE_PYTHON_LIMIT / 1e6:.1f} MB); install drat-trim, or set {CHECKER_VARIABLE}=dratify "
                "to check it anyway")

    def to_json(self) -> dict[str, Any]:
        """``proof``, ``proof_checked`` (true, false, or null when not checked), ``proof_checker`` and
        ``proof_verdict``."""
        return {"proof": self.path, "proof_checked": self.accepted, "proof_checker": self.checker.value,
                "proof_verdict": self.verdict.value}


def proof_json(check: ProofCheck | None) -> dict[str, Any]:
    """The JSON keys of :meth:`ProofCheck.to_json`, null when no proof was written."""
    if check is None:
        return {"proof": None, "proof_checked": None, "proof_checker": None, "proof_verdict": None}
    return check.to_json()


def find_drat_trim() -> str | None:
    """The drat-trim to run: the one ``GAMEPROOF_DRAT_CHECKER`` names, else one on PATH; None means dratify.

    Raises :class:`BadInput` when the variable names neither ``dratify`` nor an existing program.
    """
    named = os.environ.get(CHECKER_VARIABLE)
    if named == Checker.DRATIFY.value:
        return None
    if named:
        found = shutil.which(named) or (named if Path(named).is_file() else None)
        if found is None:
            raise BadInput(f"{CHECKER_VARIABLE}={named}: no such program (name a drat-trim, or 'dratify')")
        return found
    return shutil.which("drat-trim")


def check_drat(cnf: Cnf, proof: str | Path, seconds: float = 3600) -> ProofCheck:
    """Check that `proof` refutes `cnf`: with drat-trim when found (given `seconds`), else with dratify."""
    size = Path(proof).stat().st_size
    drat_trim = find_drat_trim()
    if drat_trim is not None:
        return ProofCheck(str(proof), size, Checker.DRAT_TRIM, _run_drat_trim(drat_trim, cnf, proof, seconds))
    forced = os.environ.get(CHECKER_VARIABLE) == Checker.DRATIFY.value
    verdict = Verdict.TOO_LARGE if size > PURE_PYTHON_LIMIT and not forced else _run_dratify(cnf, proof)
    return ProofCheck(str(proof), size, Checker.DRATIFY, verdict)


def _run_drat_trim(drat_trim: str, cnf: Cnf, proof: str | Path, seconds: float) -> Verdict:
    from gameproof.logic.dimacs import write_dimacs  # numba: loaded only to write a formula

    with tempfile.TemporaryDirectory() as folder:
        formula = Path(folder) / "formula.cnf"
        write_dimacs(cnf, formula)
        done = subprocess.run(
            [drat_trim, str(formula), str(proof), "-t", str(int(seconds)), "-w"],
            capture_output=True, text=True, check=False,
        )
    verdicts = [line.strip() for line in done.stdout.splitlines() if line.startswith("s ")]
    last = verdicts[-1] if verdicts else ""
    return {"s VERIFIED": Verdict.VERIFIED, "s TIMEOUT": Verdict.TIMED_OUT}.get(last, Verdict.REJECTED)


def _run_dratify(cnf: Cnf, proof: str | Path) -> Verdict:
    formula = dratify.CNF(cnf.num_vars)
    for clause in cnf.clauses():
        formula.add_dimacs(clause)
    try:
        steps = [("d" if deletion else "a", tuple(map(from_dimacs, clause)))
                 for deletion, clause in read_drat(proof)]
        result = dratify.check_proof(formula, steps)
    except (ValueError, IndexError):  # not a DRAT proof: a bad token, a literal 0, a truncated binary clause
        return Verdict.REJECTED
    return Verdict.VERIFIED if result.ok and result.reached_empty else Verdict.REJECTED


def read_drat(path: str | Path) -> Iterator[tuple[bool, list[int]]]:
    """The steps of a DRAT proof, text or binary: (is a deletion, clause) each."""
    data = Path(path).read_bytes()
    if _is_binary(data):
        yield from _read_binary_drat(data)
        return
    for line in data.decode("ascii").splitlines():
        tokens = line.split()
        if not tokens or tokens[0] == "c":
            continue
        deletion = tokens[0] == "d"
        yield deletion, [int(token) for token in tokens[deletion:-1]]


def _is_binary(data: bytes) -> bool:
    text = set(b"0123456789-d \n\r\tc")
    return any(byte not in text for byte in data[:256])


def _read_binary_drat(data: bytes) -> Iterator[tuple[bool, list[int]]]:
    """Binary DRAT: 'a' or 'd', then each literal as a variable-length number 2*|lit| + (lit < 0), then 0."""
    position, size = 0, len(data)
    while position < size:
        deletion = data[position] == ord("d")
        position += 1
        clause: list[int] = []
        while True:
            number, shift = 0, 0
            while True:
                byte = data[position]
                position += 1
                number |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    break
            if number == 0:
                break
            clause.append(-(number >> 1) if number & 1 else number >> 1)
        yield deletion, clause
