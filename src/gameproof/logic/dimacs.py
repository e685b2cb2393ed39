"""Streaming DIMACS CNF writer (a numba kernel formats a million literals at a time) and reader."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from pathlib import Path
from typing import IO

import numba
import numpy as np

from gameproof.atomic import atomic_output
from gameproof.logic.cnf import Cnf

_CHUNK = 1 << 20  # literals formatted per write


@numba.njit(numba.uint8[:](numba.int32[::1]), cache=True)
def _format_clauses(flat):  # pragma: no cover - compiled
    """DIMACS text for 0-terminated clauses, as ASCII bytes: literals separated by spaces, one clause a line."""
    out = np.empty(12 * flat.shape[0], np.uint8)
    digits = np.empty(12, np.uint8)
    size = 0
    for lit in flat:
        if lit == 0:
            out[size] = 48  # "0"
            out[size + 1] = 10  # newline
            size += 2
            continue
        value = np.int64(lit)
        if value < 0:
            out[size] = 45  # "-"
            size += 1
            value = -value
        count = 0
        while value:
            digits[count] = 48 + value % 10
            value //= 10
            count += 1
        for i in range(count - 1, -1, -1):
            out[size] = digits[i]
            size += 1
        out[size] = 32  # space
        size += 1
    return out[:size]


class DimacsError(ValueError):
    """A DIMACS file that cannot be read."""


def write_dimacs(cnf: Cnf, out: IO[str] | str | Path, comments: Iterable[str] = (),
                 extra_units: Iterable[int] = ()) -> None:
    """Write ``cnf`` (plus optional unit clauses) in DIMACS, formatting about a million literals at a time.
    A file named by its path appears whole or not at all (:func:`~gameproof.atomic.atomic_output`)."""
    if isinstance(out, (str, Path)):
        with atomic_output(out) as partial, open(partial, "w", encoding="ascii") as handle:
            write_dimacs(cnf, handle, comments, extra_units)
        return
    units = list(extra_units)
    for line in comments:  # DIMACS is ASCII: other characters (a harness named ƒ, say) are escaped
        out.write("c " + " ".join(line.splitlines()).encode("ascii", "backslashreplace").decode("ascii") + "\n")
    out.write(f"p cnf {cnf.num_vars} {cnf.num_clauses + len(units)}\n")
    flat = cnf.literals
    start = 0
    while start < len(flat):
        end = min(start + _CHUNK, len(flat))
        while flat[end - 1] != 0:  # end each chunk on a clause boundary
            end += 1
        chunk = np.frombuffer(flat, np.int32, end - start, start * flat.itemsize)
        out.write(_format_clauses(chunk).tobytes().decode("ascii"))
        start = end
    for unit in units:
        out.write(f"{unit} 0\n")


def read_dimacs(source: IO[str] | str | Path) -> Cnf:
    """Read a DIMACS CNF; the header must match the clauses that follow."""
    if isinstance(source, (str, Path)):
        with open(source, encoding="ascii") as handle:
            return read_dimacs(handle)
    header = None
    body = []
    for line in source:
        stripped = line.strip()
        if not stripped or stripped[0] in "c%":
            continue
        if stripped.startswith("p"):
            parts = stripped.split()
            if len(parts) != 4 or parts[1] != "cnf" or header is not None:
                raise DimacsError(f"bad DIMACS header: {stripped!r}")
            header = (int(parts[2]), int(parts[3]))
            continue
        body.append(stripped)
    if header is None:
        raise DimacsError("no 'p cnf' header")
    try:
        flat = array("i", map(int, " ".join(body).split()))
    except ValueError as error:
        raise DimacsError(f"bad literal in DIMACS body: {error}") from None
    if flat and flat[-1] != 0:
        raise DimacsError("last clause is not terminated by 0")
    cnf = Cnf(header[0])
    cnf.literals = flat
    cnf.num_clauses = flat.count(0)
    if cnf.num_clauses != header[1]:
        raise DimacsError(f"header says {header[1]} clauses, found {cnf.num_clauses}")
    if flat and max(max(flat), -min(flat)) > header[0]:
        raise DimacsError(f"a literal exceeds the {header[0]} variables in the header")
    return cnf
