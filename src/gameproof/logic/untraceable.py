"""The error raised for Python the tracer cannot follow exactly, named by the user's file and line.

Tracing runs a user's function on symbolic :class:`~gameproof.logic.words.Word` and
:class:`~gameproof.logic.words.Bit` values. An operation whose answer would not depend on the values
they stand for (``w is 0``, ``str(w) == "0"``, ``type(w) == int``, ``w < -1``...) would silently become a
constant, so it raises :class:`Untraceable` instead: one line, "FILE:LINE: construct: why".
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType

from gameproof.errors import BadInput

_LOGIC = str(Path(__file__).resolve().parent)  # frames in this package are the tracer's, not the user's


class Untraceable(BadInput):
    """A construct on a symbolic value that the tracer refuses rather than guess; the message names where."""

    def __init__(self, construct: str, why: str, site: str | None = None) -> None:
        self.construct = construct
        self.site = site if site is not None else user_site()
        super().__init__(f"{self.site}: {construct}: {why}" if self.site else f"{construct}: {why}")


def user_site(frame: FrameType | None = None) -> str:
    """``FILE:LINE`` of the innermost caller outside :mod:`gameproof.logic` ('' when there is none)."""
    frame = frame or sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_LOGIC):
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back
    return ""


def function_site(function: object) -> str:
    """``FILE:LINE`` where ``function`` (or the function a ``functools.partial`` wraps) is defined."""
    while hasattr(function, "func"):
        function = function.func  # type: ignore[attr-defined]
    function = getattr(function, "__wrapped__", function)
    code = getattr(function, "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno}" if code else ""
