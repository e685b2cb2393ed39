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
