"""Shared output helpers for subcommands: JSON for scripts, rich text for people."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from gameproof.errors import BadInput


def print_json(payload: dict[str, Any]) -> None:
    """Print one JSON document on stdout."""
    json.dump(payload, sys.stdout, indent=2)
    sys.stdout.write("\n")


def console() -> Console:
    """A console for human-readable output on stdout."""
    return Console(highlight=False)


def progress_console() -> Console:
    """A console on stderr, for progress that must not mix with machine-readable stdout."""
    return Console(stderr=True, highlight=False)


def formula_size(result: Any) -> str:
    """``N variables, M clauses; encoded in X s, solved in Y s`` for a SAT answer's sizes and times."""
    return (f"{result.variables:,} variables, {result.clauses:,} clauses; encoded in {result.encode_seconds:.2f} s, "
            f"solved in {result.solve_seconds:.2f} s")


def print_proof(out: Console, proof: str | None, checked: bool | None) -> None:
    """Where a DRAT proof was written and whether the checker accepted it."""
    if proof is not None:
        verdict = {True: "checked by drat-trim", False: "REJECTED by the checker", None: "not checked: no checker"}
        out.print(f"DRAT proof: {proof} ({verdict[checked]})")


def writable_path(path: str) -> Path:
    """The output path, once it is clear that a file can be written there (before anything is solved)."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise BadInput(f"cannot write {path}: it is a folder")
    if not folder.is_dir():
        raise BadInput(f"cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise BadInput(f"cannot write {path}: permission denied")
    return target
