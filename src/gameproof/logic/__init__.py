"""Symbolic words and bits, circuits, CNF and SAT solving, and Kani-style harnesses.

Write a harness as a plain function::

    from gameproof.logic import any_uint, assume, verify

    def factor():
        a, b = any_uint(32, "a"), any_uint(32, "b")
        assume((1 < a) & (a < 1 << 16) & (1 < b) & (b < 1 << 16))
        verify(a * b != 4_292_870_399, "N is prime")

and run ``gameproof check file.py::factor``.
"""

import importlib

_HARNESS = ("Outcome", "Report", "any_bool", "any_uint", "assume", "check", "cover", "replay", "verify")
_WORDS = ("Bit", "SymbolicBoolError", "Word", "ashr", "concat", "extract", "ite", "popcount", "sext", "sge", "sgt",
          "sle", "slt", "zext")
_HOMES = {name: "gameproof.logic.harness" for name in _HARNESS} | {name: "gameproof.logic.words" for name in _WORDS}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    """The harness API and symbolic words, loaded on first use: importing a submodule alone (``cnf``,
    ``solvers``) does not load the tracer and numba."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
