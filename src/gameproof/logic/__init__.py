"""Symbolic words and bits, circuits, CNF and SAT solving (see issue: logic layer)."""
