"""`gameproof tui …`: one Textual app for every game, in one of two modes (screens): the game screen, where
every legal move shows its proven value, or the Othello record viewer."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from gameproof.tui.game_model import GameSession
from gameproof.tui.game_screen import GameScreen
from gameproof.tui.oracle import Oracle
from gameproof.tui.othello_model import RecordViewer
from gameproof.tui.record_screen import RecordScreen


class GameproofApp(App[None]):
    """The terminal UI: the screen it opens on (:meth:`game` or :meth:`record`) and what every screen shares:
    the layout beside the board, the footer of keys, and `q` or `ctrl+c` to quit (exit code 0). The ctrl+c binding
    comes first on every screen: Textual's own copies a selection, or only says which key quits."""

    TITLE = "gameproof tui"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    #board { margin: 1 2; }
    #side { width: 1fr; margin: 1 2; }
    #side Static { margin-bottom: 1; }
    """
    BINDINGS = [Binding("q", "quit", "quit"), Binding("ctrl+c", "quit", "quit", show=False, priority=True)]

    def __init__(self, first: GameScreen | RecordScreen) -> None:
        super().__init__()
        self.first = first

    @classmethod
    def game(cls, session: GameSession, oracle: Oracle) -> GameproofApp:
        """The game screen on `session`, its values from `oracle`."""
        return cls(GameScreen(session, oracle))

    @classmethod
    def record(cls, viewer: RecordViewer) -> GameproofApp:
        """The Othello record viewer on `viewer`."""
        return cls(RecordScreen(viewer))

    def get_default_screen(self) -> Screen:
        return self.first
