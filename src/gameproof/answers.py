"""Answers as types: SAT statuses, reachability, game values and m,n,k variants.

Each is a string enum: JSON and text output keep the strings (``"unsat"``, ``"loss"``), while the
Python API hands out members, so a caller compares with ``Status.UNSAT`` rather than a string that a
typo would silently miss.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TypeVar


class Status(enum.StrEnum):
    """A SAT question's answer: a witness, a refutation, or none in time."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"

    @property
    def exit_code(self) -> int:
        """The CLI's code: 0 sat, 1 unsat (a finding), 3 unknown."""
        return {Status.SAT: 0, Status.UNSAT: 1, Status.UNKNOWN: 3}[self]

    @classmethod
    def of(cls, answer: bool | None) -> Status:
        """The status of a solver's answer (True, False, or None when its budget ran out)."""
        return {True: cls.SAT, False: cls.UNSAT, None: cls.UNKNOWN}[answer]


class Reachability(enum.StrEnum):
    """Whether an exact position is reachable from the start."""

    REACHABLE = "reachable"
    UNREACHABLE = "unreachable"
    UNKNOWN = "unknown"

    @property
    def exit_code(self) -> int:
        """The CLI's code: 0 reachable, 1 unreachable, 3 unknown."""
        return {Reachability.REACHABLE: 0, Reachability.UNREACHABLE: 1, Reachability.UNKNOWN: 3}[self]


class Value(enum.StrEnum):
    """A game's value for the side to move, ordered from worst to best."""

    LOSS = "loss"
    DRAW = "draw"
    WIN = "win"

    @property
    def score(self) -> int:
        """-1, 0 or 1."""
        return _SCORES[self]

    @classmethod
    def of_score(cls, score: int) -> Value:
        """The value of a score's sign: negative a loss, zero a draw, positive a win."""
        return cls.WIN if score > 0 else cls.LOSS if score < 0 else cls.DRAW

    def flipped(self) -> Value:
        """The same result seen by the other side."""
        return Value.of_score(-self.score)

    def __neg__(self) -> Value:
        return self.flipped()

    @classmethod
    def best(cls, values: Iterable[Value]) -> Value:
        """The mover's value given the values of their moves."""
        return max(values, key=lambda value: value.score)


_SCORES = {Value.LOSS: -1, Value.DRAW: 0, Value.WIN: 1}
Result = TypeVar("Result", Value, int)


def to_mover(result: Result, turn_passed: bool) -> Result:
    """A position's value or score for its side to move, given back to the side whose move led there: the
    other side's result negated when the turn passed, the same when the move earned another turn."""
    return -result if turn_passed else result


class Variant(enum.StrEnum):
    """The m,n,k rule sets."""

    NORMAL = "normal"  # k in a row wins
    MISERE = "misere"  # k in a row loses
    NOTAKTO = "notakto"  # one shared mark; k in a row loses
