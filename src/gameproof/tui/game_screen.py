"""The game screen (`gameproof tui mnk`, `gameproof tui GAME`): a board coloured by proven values (or exact
scores), solved in a background worker."""

from __future__ import annotations

from collections.abc import Callable

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.markup import escape
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from gameproof.answers import Value
from gameproof.errors import BadInput
from gameproof.framework.declaration import Notation
from gameproof.tui.board import Board
from gameproof.tui.game_model import GameSession
from gameproof.tui.game_view import Position
from gameproof.tui.keys import SquareEntry
from gameproof.tui.oracle import Cancelled, Distance, Oracle, Proven

_HELP = {Notation.CELL: "arrows + enter, a click, or a typed square (b2) plays a move",
         Notation.COLUMN: "arrows + enter, a click, or a typed column (c) plays a move"}
_PARTS_HELP = ("a move is chosen cell by cell ({parts}), each by arrows + enter, a click or a typed square (b2); "
               "escape starts it again")


def signed(score: int) -> str:
    """A score as the screen shows it: ``+4``, ``0``, ``-2``."""
    return f"{score:+d}" if score else "0"


class GameScreen(Screen[None]):
    """Play a game; every legal move's cell shows its proven value (win/draw/loss for the side to move), or with
    scores its exact score for the side to move, coloured by its sign; from a tablebase, a value with its plies to
    the end under perfect play where the cell has room (``win 7``, ``loss 12``)."""

    TITLE = "gameproof tui"
    DEFAULT_CSS = """
    GameScreen .cell { background: $panel; }
    GameScreen .win { background: #1f6f3a; color: white; }
    GameScreen .draw { background: #7a6a1c; color: white; }
    GameScreen .loss { background: #8a2a2a; color: white; }
    GameScreen .pending { color: $text-muted; }
    GameScreen .stone { text-style: bold; }
    GameScreen .last { text-style: bold underline; }
    GameScreen .chosen { background: $accent-darken-1; }
    GameScreen .cursor { tint: white 30%; text-style: bold; }
    """
    BINDINGS = [
        Binding("u", "undo", "undo"),
        Binding("p", "perfect", "perfect move"),
        Binding("space", "pass_turn", "pass"),
        Binding("enter", "choose", "play"),
        Binding("escape", "clear", "clear typing and the parts chosen", show=False),
        Binding("up", "cursor(1, 0)", "cursor", show=False),
        Binding("down", "cursor(-1, 0)", "cursor", show=False),
        Binding("left", "cursor(0, -1)", "cursor", show=False),
        Binding("right", "cursor(0, 1)", "cursor", show=False),
    ]

    def __init__(self, session: GameSession, oracle: Oracle) -> None:
        if session.scores != oracle.scores:
            raise ValueError("the session and the oracle must both show scores, or both values")
        if session.with_distances != oracle.distances:
            raise ValueError("the session takes distances when the oracle answers from a tablebase, and only then")
        super().__init__()
        self.session = session
        self.oracle = oracle
        view = session.view
        self.cell_width = 7 if view.cols <= 8 else 4
        self.entry = SquareEntry(view.rows, columns_only=view.notation is Notation.COLUMN)

    def compose(self) -> ComposeResult:
        view = self.session.view
        with Horizontal(id="main"):
            yield Board(view.rows, view.cols, row_one_on_top=False, cell_width=self.cell_width,
                        cell_height=2, gutter=1 if view.rows <= 8 else 0, id="board")
            with Vertical(id="side"):
                yield Static(id="status")
                yield Static(id="value")
                yield Static(id="line")
                yield Static(id="typed")
                parts = view.codes.parts > 1
                yield Static(_PARTS_HELP.format(parts=", then ".join(self.session.state.game.spec.parts)) if parts
                             else _HELP[view.notation], id="help")
        yield Footer()

    def on_mount(self) -> None:
        self.position_changed()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The pass key only shows (and works) when the side to move must pass."""
        return action != "pass_turn" or self.session.must_pass

    # --- the background search ------------------------------------------------------------------
    def position_changed(self) -> None:
        """Redraw, then (re)start the search for the new position; the previous search is cancelled."""
        self.redraw()
        self.refresh_bindings()
        if not self.session.state.is_over():
            self.analyse(self.session.state.copy())

    @work(thread=True, exclusive=True, group="solve")
    def analyse(self, state: Position) -> None:
        """Prove each move's value, reporting each as it is found, then the principal line. A position the
        tablebase lacks is said on the screen."""
        worker = get_current_worker()
        record = state.record

        def stop() -> bool:
            return worker.is_cancelled

        try:
            for move, value, distance in self.oracle.move_worths(state, stop):
                self.app.call_from_thread(self.proven, record, move, value, distance)
            self.app.call_from_thread(self.line_found, record, self.oracle.principal_line(state, stop))
        except Cancelled:
            return
        except BadInput as error:  # a position the tablebase lacks
            self.app.call_from_thread(self.unanswered, record, str(error))

    def proven(self, record: str, move: int, value: Proven, distance: Distance = None) -> None:
        if self.session.add_value(record, move, value, distance):
            self.redraw()

    def unanswered(self, record: str, problem: str) -> None:
        if self.session.set_problem(record, problem):
            self.redraw()

    def line_found(self, record: str, line: list[int]) -> None:
        if self.session.set_line(record, line):
            self.redraw()

    # --- drawing --------------------------------------------------------------------------------
    def redraw(self) -> None:
        session, state, view = self.session, self.session.state, self.session.view
        board = self.query_one(Board)
        last = state.history[-1] if state.history else None
        last_cell = view.cell_of(last) if last is not None else None
        if view.codes.parts == 1:
            legal = set(state.legal_moves())
            offered = {move: (session.values.get(move), session.distances.get(move))
                       for move in view.cell_moves if move in legal}
        else:  # a move of several parts: the cells its next part may take, each with its best value
            offered = {bit: (session.value_through(bit), session.distance_through(bit)) for bit in session.next_cells()}
        for cell, (mark, bit) in enumerate(zip(state.marks(), view.cell_moves)):
            classes = ["cursor"] if cell == session.cursor else []
            if bit in session.chosen:
                classes.append("chosen")
            if bit in offered:
                value, distance = offered[bit]
                name = state.move_name(bit) if view.codes.parts == 1 else state.game.board.cell_name(bit)
                top = name if mark == "-" else f"{mark} {name}"
                shown = self._shown(value)
                if value is not None and distance is not None and not session.scores \
                        and len(f"{shown} {distance}") <= self.cell_width:
                    shown = f"{shown} {distance}"
                board.paint(cell, f"{top}\n{shown}",
                            [*classes, "pending" if value is None else self._colour(value)])
            elif mark != "-":
                board.paint(cell, mark, [*classes, "stone", *(["last"] if cell == last_cell else [])])
            else:
                board.paint(cell, "", classes)
        self.query_one("#status", Static).update(
            f"[b]{view.name}[/b]  ({view.summary})\n"
            f"{state.described()}\n" + self._turn_text())
        self.query_one("#value", Static).update(self._value_text())
        self.query_one("#line", Static).update(self._line_text())
        self.query_one("#typed", Static).update(f"typed: {self.entry.text}" if self.entry.text else "")

    def _shown(self, value: Proven | None) -> str:
        """A value, or a signed score, in words; ``…`` while it is not known (``?`` when it cannot be)."""
        if value is None:
            return "?" if self.session.problem else "…"
        return signed(value) if self.session.scores else str(value)

    def _colour(self, value: Proven) -> str:
        """The class a value's cell is painted with: win, draw or loss (for a score, by its sign)."""
        return str(Value.of_score(value) if self.session.scores else value)

    def _turn_text(self) -> str:
        session = self.session
        if session.state.is_over():
            return f"game over: {session.result()}"
        if session.must_pass:
            return f"[b]{session.mover}[/b] to move: no move but a pass (space)"
        return f"[b]{session.mover}[/b] to move"

    def _value_text(self) -> str:
        session = self.session
        if session.state.is_over():
            return ""
        what = "score" if session.scores else "value"
        if session.problem:
            return f"{what} for {session.mover}: [b]unknown[/b]: {escape(session.problem)}"
        done, total = len(session.values), len(session.state.legal_moves())
        progress = "" if done == total else f"  (solving: {done} of {total} moves proven)"
        booked = self._moves_from_book()
        source = f"  ({booked} of {done} from the book)" if booked else ""
        if self.oracle.tablebase is not None:
            source = "  (from the tablebase)"
        distance = session.distance
        shown = self._shown(session.value) + ("" if distance is None else f" in {distance}")
        return f"{what} for {session.mover}: [b]{shown}[/b]{progress}{source}"

    def _moves_from_book(self) -> int:
        """How many of the move values shown were read from the book."""
        child, count = self.session.state.copy(), 0
        for move in self.session.values:
            child.play(move)
            count += self.oracle.from_book(child)
            child.undo()
        return count

    def _line_text(self) -> str:
        session = self.session
        if session.state.is_over():
            return ""
        if session.line is None:
            return "" if session.problem else "principal line: …"
        names = " ".join(session.state.move_name(m) for m in session.line)
        return f"principal line: {names}" + (" … repeats" if session.line_repeats else "")

    # --- input ----------------------------------------------------------------------------------
    def action_cursor(self, drow: int, dcol: int) -> None:
        self.session.move_cursor(drow, dcol)
        self.redraw()

    def action_choose(self) -> None:
        """Play the typed square, or the cursor's cell when nothing is typed."""
        if self.entry.text:
            self.play(lambda: self.session.play_named(self.entry.take()))
        else:
            self.play(lambda: self.session.play_cell(self.session.cursor))

    def action_clear(self) -> None:
        """Forget what was typed, and the parts of a move chosen so far."""
        self.entry.take()
        self.session.clear_choice()
        self.redraw()

    def action_undo(self) -> None:
        if self.session.undo():
            self.position_changed()

    def action_pass_turn(self) -> None:
        self.play(self.session.pass_turn)

    def action_perfect(self) -> None:
        """Let the side to move play its first best move (once it is proven)."""
        if self.session.state.is_over():
            return
        move = self.session.best_move()
        if move is None:
            self.notify(self.session.problem or "still solving: no proven best move yet", severity="warning")
            return
        self.play(lambda: self.session.play(move))

    def on_board_clicked(self, message: Board.Clicked) -> None:
        self.play(lambda: self.session.play_cell(message.square))

    def on_key(self, event: Key) -> None:
        """A letter or digit that no command takes goes into a typed name; a whole name is played, or refused in a
        notification (a square the board lacks, a move not legal now)."""
        if not self.entry.takes(event.key, event.character, self.active_bindings):
            return
        event.stop()
        name = self.entry.push(event.character)
        if name is not None:
            self.play(lambda: self.session.play_named(name))
        else:
            self.redraw()

    def play(self, move: Callable[[], None]) -> None:
        """Run a move-making callable; a BadInput becomes a notification instead of a crash. Choosing a part of
        a move leaves the position, and its search, as they are."""
        before = self.session.record
        try:
            move()
        except BadInput as error:
            self.notify(str(error), severity="error")
            self.redraw()
            return
        if self.session.record == before:
            self.redraw()
        else:
            self.position_changed()
