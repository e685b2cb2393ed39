"""The tiny protocol games expose so that algorithms (perft, df-pn, books, TUI) take any game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class GameState(Protocol):
    """A mutable position of a two-player, deterministic, perfect-information game.

    Moves are small ints (a square index, or the game's pass move); `to_move` is 0 for the first
    player and 1 for the second; `key` is a hash int equal for equal positions.
    """

    @property
    def to_move(self) -> int: ...

    @property
    def key(self) -> int: ...

    def legal_moves(self) -> Sequence[int]: ...

    def play(self, move: int) -> None: ...

    def undo(self) -> None: ...

    def is_over(self) -> bool: ...

    def outcome(self) -> int | None:
        """+1 if the first player won, -1 if the second did, 0 for a draw, None while not over."""
        ...

    def move_name(self, move: int) -> str: ...

    def parse_move(self, text: str) -> int: ...
