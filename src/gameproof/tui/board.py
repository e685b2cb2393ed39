"""A board of clickable cells with coordinate labels, shared by the m,n,k and Othello screens."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.events import Click
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static


class Cell(Static):
    """One square; a click posts :class:`Board.Clicked`."""

    def __init__(self, square: int) -> None:
        super().__init__("", id=f"sq-{square}", classes="cell")
        self.square = square

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(Board.Clicked(self.square))


class Board(Widget):
    """``rows`` × ``cols`` cells named ``a1``… (square = row * cols + col), row 1 at the top or the bottom."""

    DEFAULT_CSS = """
    Board { layout: grid; }
    Board .label { color: $text-muted; content-align: center middle; }
    Board .cell { width: 1fr; height: 1fr; content-align: center middle; text-align: center; }
    """

    class Clicked(Message):
        """A cell was clicked."""

        def __init__(self, square: int) -> None:
            super().__init__()
            self.square = square

    def __init__(self, rows: int, cols: int, *, row_one_on_top: bool, cell_width: int, cell_height: int,
                 gutter: int = 1, id: str | None = None) -> None:
        """``gutter`` columns and rows of the board's background separate the cells."""
        super().__init__(id=id)
        self.rows, self.cols = rows, cols
        self.row_one_on_top = row_one_on_top
        self.styles.grid_size_columns = cols + 1
        self.styles.grid_size_rows = rows + 1
        self.styles.grid_columns = " ".join(["3"] + [str(cell_width)] * cols)
        rows_css = [str(cell_height)] * rows
        self.styles.grid_rows = " ".join(["1", *rows_css] if row_one_on_top else [*rows_css, "1"])
        self.styles.grid_gutter_horizontal = gutter
        self.styles.grid_gutter_vertical = gutter
        self.styles.width = 3 + cols * (cell_width + gutter)
        self.styles.height = 1 + rows * (cell_height + gutter)

    def compose(self) -> ComposeResult:
        """Letters on the side of row 1 (top or bottom), numbers on the left."""
        if self.row_one_on_top:
            yield from self._letters()
        for row in range(self.rows) if self.row_one_on_top else reversed(range(self.rows)):
            yield Static(str(row + 1), classes="label")
            for col in range(self.cols):
                yield Cell(row * self.cols + col)
        if not self.row_one_on_top:
            yield from self._letters()

    def _letters(self) -> ComposeResult:
        yield Static("", classes="label")
        for col in range(self.cols):
            yield Static(chr(ord("a") + col), classes="label")

    def paint(self, square: int, text: str, classes: Iterable[str] = ()) -> None:
        """Show ``text`` in a cell, styled by CSS ``classes`` (replacing the ones it had)."""
        cell = self.query_one(f"#sq-{square}", Cell)
        cell.update(text)
        cell.set_classes({"cell", *classes})
