"""Shared output helpers for subcommands: JSON for scripts, rich text for people."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from rich.console import Console

if TYPE_CHECKING:
    from gameproof.logic.drat import ProofCheck

#: The exit code of a command whose DRAT proof the checker rejected.
PROOF_REJECTED = 4


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


def print_proof(out: Console, proof: ProofCheck | None) -> None:
    """Where a DRAT proof was written and what its checker said (a rejection in bold red)."""
    if proof is not None:
        style = "bold red" if proof.accepted is False else None
        out.print(f"DRAT proof: {proof.path} ({proof.describe()})", style=style, markup=False)


def proof_exit_code(code: int, proof: ProofCheck | None) -> int:
    """`code`, or :data:`PROOF_REJECTED` with a line on stderr when the checker rejected the proof."""
    if proof is None or proof.accepted is not False:
        return code
    print(f"gameproof: the DRAT proof {proof.path} was REJECTED by {proof.checker.value}: the refutation is not "
          "confirmed; do not trust this answer", file=sys.stderr)
    return PROOF_REJECTED
