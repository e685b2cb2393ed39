"""The Othello record screen (`gameproof tui othello`): step through a record ply by ply, legal moves marked and
counted."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Footer, Static

from gameproof.errors import BadInput
from gameproof.games.othello.notation import PASS, square_name
from gameproof.tui.board import Board
from gameproof.tui.keys import SquareEntry
from gameproof.tui.othello_model import RecordViewer


class RecordScreen(Screen[None]):
    """An Othello record viewer: the board after each ply, its legal moves, and moves entered by hand."""

    TITLE = "gameproof othello"
    DEFAULT_CSS = """
    RecordScreen .cell { background: #2e7d32; }
    RecordScreen .black { color: black; text-style: bold; }
    RecordScreen .white { color: white; text-style: bold; }
    RecordScreen .legal { color: #c8e6c9; }
    RecordScreen .last { background: #43a047; }
    """
    BINDINGS = [
        Binding("left", "step(-1)", "back"),
        Binding("right", "step(1)", "forward"),
        Binding("home", "go_start", "start"),
        Binding("end", "go_end", "end"),
        Binding("m", "most_moves", "most legal moves"),
        Binding("p", "pass_move", "pass"),
    ]

    def __init__(self, viewer: RecordViewer) -> None:
        super().__init__()
        self.viewer = viewer
        self.entry = SquareEntry(8)

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield Board(8, 8, row_one_on_top=True, cell_width=5, cell_height=2, gutter=0, id="board")
            with Vertical(id="side"):
                yield Static(id="status")
                yield Static(id="moves")
                yield Static(id="record")
                yield Static("a click or a typed square (f5) plays a move here; later plies are dropped", id="help")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        viewer, position = self.viewer, self.viewer.position
        board = self.query_one(Board)
        legal = position.legal_move_mask()
        for square in range(64):
            if position.black >> square & 1:
                text, classes = "●", ["black"]
            elif position.white >> square & 1:
                text, classes = "○", ["white"]
            else:
                text, classes = ("·", ["legal"]) if legal >> square & 1 else ("", [])
            board.paint(square, text, [*classes, *(["last"] if square == viewer.last_move else [])])
        black, white = position.disc_counts()
        state = "game over" if position.is_over() else f"[b]{position.color}[/b] to move"
        self.query_one("#status", Static).update(
            f"ply [b]{viewer.ply}[/b] of {len(viewer.moves)}  ·  {state}\nblack ● {black}   white ○ {white}")
        count = viewer.legal_counts[viewer.ply]
        best = viewer.most_moves_ply()
        must_pass = " (must pass: p)" if position.legal_moves() == [PASS] else ""
        self.query_one("#moves", Static).update(
            f"[b]{count} legal moves[/b]{must_pass}\n"
            f"most in this record: {viewer.legal_counts[best]} at ply {best} (m)")
        played = [square_name(m) for m in viewer.moves]
        self.query_one("#record", Static).update(
            "record: " + "".join(played[:viewer.ply]) + "[dim]" + "".join(played[viewer.ply:]) + "[/dim]")

    def action_step(self, plies: int) -> None:
        self.viewer.step(plies)
        self.redraw()

    def action_go_start(self) -> None:
        self.viewer.go(0)
        self.redraw()

    def action_go_end(self) -> None:
        self.viewer.end()
        self.redraw()

    def action_most_moves(self) -> None:
        self.viewer.go(self.viewer.most_moves_ply())
        self.redraw()

    def action_pass_move(self) -> None:
        self.enter(lambda: self.viewer.enter(PASS))

    def on_board_clicked(self, message: Board.Clicked) -> None:
        self.enter(lambda: self.viewer.enter(message.square))

    def on_key(self, event: Key) -> None:
        """A letter or digit that no command takes goes into a typed square; a whole one is played here, or refused
        in a notification."""
        if self.entry.takes(event.key, event.character, self.active_bindings):
            event.stop()
            name = self.entry.push(event.character)
            if name is not None:
                self.enter(lambda: self.viewer.enter_named(name))

    def enter(self, move: Callable[[], None]) -> None:
        """Run a move-entering callable; an illegal move becomes a notification."""
        try:
            move()
        except BadInput as error:
            self.notify(str(error), severity="error")
        self.redraw()
