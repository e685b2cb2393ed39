"""gameproof: write game and puzzle rules once in Python; run them concretely, symbolically and under search.

The public API (docs/api.md), loaded on first use so that ``import gameproof`` stays cheap::

    >>> import gameproof as gp
    >>> gp.solve(gp.load_game("mnk:3,3,3").start()).value
    <Value.DRAW: 'draw'>
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

#: Each public name and the module that defines it (imported when the name is first used).
_EXPORTS = {
    "load_game": "gameproof.api.positions", "game_names": "gameproof.api.positions", "Game": "gameproof.api.positions",
    "Position": "gameproof.api.positions", "Result": "gameproof.api.positions",
    "solve": "gameproof.api.solving", "perft": "gameproof.api.solving",
    "Solution": "gameproof.api.results", "Progress": "gameproof.api.results", "Source": "gameproof.api.results",
    "reach": "gameproof.api.sat", "check": "gameproof.api.sat", "ReachReport": "gameproof.api.sat",
    "CheckReport": "gameproof.api.sat", "Outcome": "gameproof.logic.harness",
    "write_certificate": "gameproof.api.certificates", "check_certificate": "gameproof.api.certificates",
    "Certificate": "gameproof.api.certificates", "CertificateCheck": "gameproof.api.certificates",
    "Book": "gameproof.api.tables", "BookCheck": "gameproof.api.tables", "Tablebase": "gameproof.api.tables",
    "TablebaseCheck": "gameproof.api.tables",
    "Value": "gameproof.answers", "Status": "gameproof.answers", "Engine": "gameproof.framework.declaration",
    "BadInput": "gameproof.errors", "RulesError": "gameproof.framework.declaration", "RunFailed": "gameproof.errors",
    "Unknown": "gameproof.errors", "Interrupted": "gameproof.errors",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'gameproof' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, the public ones not yet imported included (for completion in shells and notebooks)."""
    return sorted({*globals(), *_EXPORTS})
