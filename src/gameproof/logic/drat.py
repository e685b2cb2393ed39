"""Independent checking of DRAT refutations with an external checker such as drat-trim.

The checker is not part of gameproof: build drat-trim from its public source
(https://github.com/marijnheule/drat-trim, one C file: ``gcc -O2 -o drat-trim drat-trim.c``) and put
it on PATH, or name it in the ``GAMEPROOF_DRAT_CHECKER`` environment variable.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from gameproof.logic.cnf import Cnf
from gameproof.logic.dimacs import write_dimacs


def find_checker() -> str | None:
    """The DRAT checker to use, or None when none is installed."""
    named = os.environ.get("GAMEPROOF_DRAT_CHECKER")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    return shutil.which("drat-trim")


def check_drat(cnf: Cnf, proof: str | Path, seconds: float = 3600) -> bool | None:
    """True if the checker verifies that `proof` refutes `cnf`, False if it rejects it, None without a checker."""
    checker = find_checker()
    if checker is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        formula = Path(folder) / "formula.cnf"
        write_dimacs(cnf, formula)
        done = subprocess.run(
            [checker, str(formula), str(proof), "-t", str(int(seconds)), "-w"],
            capture_output=True, text=True, check=False,
        )
    verdicts = [line for line in done.stdout.splitlines() if line.startswith("s ")]
    return bool(verdicts) and verdicts[-1].strip() == "s VERIFIED"


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
