"""Games by name: ``othello``, ``mnk:3,3,3``, ``mnk-misere:5,5,3``, ``mnk-notakto:3,3,3``.

``start_position(name)`` returns the initial position of a game as a :class:`GameState`, so that
algorithms written against the protocol (perft, df-pn, books, the TUI) can take any game.
"""

from __future__ import annotations

from gameproof.errors import BadInput
from gameproof.games.protocol import GameState

EXAMPLES = ("othello", "mnk:3,3,3", "mnk-misere:4,4,3", "mnk-notakto:3,3,3")


def start_position(name: str) -> GameState:
    """The initial position of the game called `name`."""
    text = name.strip().lower()
    if text == "othello":
        from gameproof.games.othello.position import Position

        return Position.start()
    if text.startswith(("mnk", "notakto")):
        from gameproof.games.mnk.state import MnkGame

        return MnkGame.from_name(text).start()
    raise BadInput(f"unknown game {name!r}; known: othello, mnk:R,C,K, mnk-misere:R,C,K, mnk-notakto:R,C,K")
