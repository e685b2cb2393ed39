"""Symbolic words and bits, circuits, CNF and SAT solving, and Kani-style harnesses.

Write a harness as a plain function::

    from gameproof.logic import any_uint, assume, verify

    def factor():
        a, b = any_uint(32, "a"), any_uint(32, "b")
        assume((1 < a) & (a < 1 << 16) & (1 < b) & (b < 1 << 16))
        verify(a * b != 4_292_870_399, "N is prime")

and run ``gameproof check file.py::factor``.
"""

from gameproof.logic.harness import Outcome, Report, any_bool, any_uint, assume, check, cover, replay, verify
from gameproof.logic.words import (
    Bit,
    SymbolicBoolError,
    Word,
    ashr,
    concat,
    extract,
    ite,
    popcount,
    sext,
    sge,
    sgt,
    sle,
    slt,
    zext,
)

__all__ = [
    "Bit", "Outcome", "Report", "SymbolicBoolError", "Word", "any_bool", "any_uint", "ashr", "assume", "check",
    "concat", "cover", "extract", "ite", "popcount", "replay", "sext", "sge", "sgt", "sle", "slt", "verify",
    "zext",
]
