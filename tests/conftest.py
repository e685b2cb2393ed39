"""Fixtures shared across the test folders."""

import pytest

from gameproof.logic.drat import CHECKER_VARIABLE, Checker


@pytest.fixture
def dratify_only(monkeypatch):
    """DRAT proofs are checked with dratify whatever else is installed, whatever their size."""
    monkeypatch.setenv(CHECKER_VARIABLE, Checker.DRATIFY.value)
