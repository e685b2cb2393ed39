"""What the long calls return and tell their progress callback: frozen dataclasses with ``to_json()``."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from gameproof.answers import Value
from gameproof.framework.declaration import Engine


class JsonResult:
    """A result whose fields :meth:`to_json` gives as plain JSON data (enums as their strings)."""

    def to_json(self) -> dict[str, Any]:
        """The fields as a dict of JSON data (``json.dumps`` takes it as it is)."""
        return {each.name: _plain(getattr(self, each.name)) for each in fields(self)}  # type: ignore[arg-type]


def _plain(value: Any) -> Any:
    """`value` as JSON data: an enum as its value, a mapping's keys as text, a tuple as a list."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


@dataclass(frozen=True)
class Progress(JsonResult):
    """How far a long call has got, as its ``progress=`` callback is told now and then; raising in the callback
    stops the call."""

    done: int | None
    """Work done so far: nodes searched, positions written or checked, jobs finished (see `note`); None where the
    call says only what it is doing (a tablebase's passes)."""
    total: int | None
    """The whole of that work where it is known beforehand (a certificate's positions, a book's jobs), else None."""
    seconds: float
    """Seconds since the call began."""
    note: str
    """What is being counted or done, for people: ``"df-pn nodes"``, ``"forward: 5 plies, 1,234 positions"``."""


ProgressCallback = Callable[[Progress], None]


class Source(enum.StrEnum):
    """What answered a question about a position."""

    DFPN = "dfpn"
    ALPHABETA = "alphabeta"
    BOOK = "book"
    TABLEBASE = "tablebase"

    @classmethod
    def of(cls, engine: Engine) -> Source:
        """The source for a search by `engine`."""
        return cls(engine.value)


@dataclass(frozen=True)
class Solution(JsonResult):
    """A position's value for the side to move and each legal move's (by move name), with what was asked besides:
    exact scores, distances to the end."""

    game: str
    """The game's name, e.g. ``connect4:5,4``."""
    position: str
    """The position as text (:attr:`Position.text`)."""
    to_move: str
    """The name of the side to move."""
    value: Value
    """The value for the side to move under perfect play: win, draw or loss."""
    moves: dict[str, Value] = field(default_factory=dict)
    """Each legal move's value for the side to move (empty with ``value_only``)."""
    score: int | None = None
    """The exact final score for the side to move under perfect play (asked with ``score=True``)."""
    move_scores: dict[str, int] = field(default_factory=dict)
    """Each legal move's score for the side to move (with ``score=True``)."""
    distance: int | None = None
    """Plies to the end under perfect play, the winner hurrying and the loser delaying (asked with
    ``distance=True``; None for a draw, or when not asked)."""
    move_distances: dict[str, int | None] = field(default_factory=dict)
    """Each legal move's distance, the move included (with ``distance=True``)."""
    source: Source = Source.DFPN
    """What answered: df-pn, alpha-beta, a book or a tablebase."""
    nodes: int = 0
    """Positions the searches visited."""
    seconds: float = 0.0
    """Seconds of work, compiling not counted."""
    compile_seconds: float | None = None
    """Seconds numba spent compiling the kernels (a game's first run) or loading them from its cache."""
