"""The error raised for Python the tracer cannot follow exactly, named by the user's file and line.

Tracing runs a user's function on symbolic :class:`~gameproof.logic.words.Word` and
:class:`~gameproof.logic.words.Bit` values. An operation whose answer would not depend on the values
they stand for (``w is 0``, ``str(w) == "0"``, ``type(w) == int``, ``w < -1``...) would silently become a
constant, so it raises :class:`Untraceable` instead: one line, "FILE:LINE: construct: why".

A refusal cannot be swallowed: each one raised inside :func:`voided_by_refusals` (every trace runs inside it) is
recorded there, and the trace fails when the traced function returns, even if its code caught the refusal with
``try``/``except`` and went on down another path (which would be traced instead, and could turn "unknown" into
"verified" or "unsat"), or raised it in a thread of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from gameproof.errors import BadInput

_LOGIC = str(Path(__file__).resolve().parent)  # frames in this package are the tracer's, not the user's
#: The refusals raised so far in each trace being run, innermost last: in this process, whichever thread raised
#: them (a thread the traced code starts sees no context of the trace's).
_recording: list[list[Exception]] = []


class Untraceable(BadInput):
    """A construct on a symbolic value that the tracer refuses rather than guess; the message names where."""

    def __init__(self, construct: str, why: str, site: str | None = None) -> None:
        self.construct = construct
        self.site = site if site is not None else user_site()
        super().__init__(f"{self.site}: {construct}: {why}" if self.site else f"{construct}: {why}")
        record_refusal(self)


def record_refusal(error: Exception) -> None:
    """Note that `error` refused a construct: the trace under way (if any) is void, whatever catches `error`."""
    for recorded in _recording:
        recorded.append(error)


def forget_refusal(error: Exception) -> None:
    """Take back :func:`record_refusal` for an `error` the tracer itself caught and answered otherwise."""
    for recorded in _recording:
        if any(error is refusal for refusal in recorded):
            recorded.remove(error)


@contextmanager
def voided_by_refusals() -> Iterator[None]:
    """Run a trace; if anything in it was refused, fail with that refusal when it ends, even when the traced code
    caught it and went on (an :class:`Untraceable` saying so), or failed later for another reason."""
    recorded: list[Exception] = []
    _recording.append(recorded)
    try:
        yield
    except Exception as error:
        if not recorded or any(error is refusal for refusal in recorded):
            raise
        raise _swallowed(recorded[0]) from None
    finally:
        del _recording[next(index for index, other in enumerate(_recording) if other is recorded)]
    if recorded:
        raise _swallowed(recorded[0])


def _swallowed(refusal: Exception) -> Untraceable:
    return Untraceable(str(refusal), "the traced code caught this refusal and went on, but what was refused cannot "
                       "be traced, so the whole trace is void (take out the try/except around it)", site="")


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
