"""The old home of the m,n,k screen's oracle, now the game screen's (:mod:`gameproof.tui.oracle`); kept for
the examples in ``docs/tui.md`` that import it from here."""

from gameproof.tui.oracle import Oracle

__all__ = ["Oracle"]
