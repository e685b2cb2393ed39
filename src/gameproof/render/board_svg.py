"""SVG drawing of a rectangular board, row 1 at the bottom: the grid, coordinates, pieces, the last move and
optionally the value of each move's cell."""

from __future__ import annotations

from collections.abc import Callable

from gameproof.render.svg import arrow, document, line, rect, text
from gameproof.answers import Value

CELL = 48
MARGIN = 28
CAPTION = 20
VALUE_COLOURS = {Value.WIN: "#c8e6c9", Value.DRAW: "#fff3c4", Value.LOSS: "#f8c9c4"}

#: Draws the piece ``mark`` centred on (cx, cy): SVG elements.
PieceDrawer = Callable[[str, float, float], list[str]]


def values_caption(mover: str) -> str:
    return f"values for {mover}, the side to move"


def board_svg(rows: int, cols: int, marks: str, draw_piece: PieceDrawer, *, last: int | None = None,
              values: dict[int, str] | None = None, caption: str | None = None,
              arrows: list[tuple[int, int]] = ()) -> str:
    """A standalone SVG of a ``rows`` × ``cols`` board.

    Cells are numbered row by row from ``a1`` (bottom left); ``marks`` has one character per cell, ``-`` for
    an empty one. The cell ``last`` is outlined; ``values`` (cell → win/draw/loss) tint their cells (and are
    written on empty ones); ``arrows`` (from cell, to cell) are drawn over the pieces, such as the parts of the
    last move; ``caption`` is a line of text under the board.
    """
    bottom = CAPTION if caption else 0
    width, height = cols * CELL + 2 * MARGIN, rows * CELL + 2 * MARGIN + bottom
    parts = [rect(MARGIN, MARGIN, cols * CELL, rows * CELL, "#fffdf7")]
    for cell, mark in enumerate(marks):
        row, col = divmod(cell, cols)
        x, y = MARGIN + col * CELL, MARGIN + (rows - 1 - row) * CELL
        if values and cell in values:
            parts.append(rect(x, y, CELL, CELL, VALUE_COLOURS[values[cell]]))
            if mark == "-":
                parts.append(text(x + CELL / 2, y + CELL / 2, values[cell], size=11, fill="#555"))
        if mark != "-":
            parts.extend(draw_piece(mark, x + CELL / 2, y + CELL / 2))
        if cell == last:
            parts.append(rect(x + 2, y + 2, CELL - 4, CELL - 4, "none", stroke="#e0a000", stroke_width="2"))
    for i in range(cols + 1):
        parts.append(line(MARGIN + i * CELL, MARGIN, MARGIN + i * CELL, MARGIN + rows * CELL))
    for i in range(rows + 1):
        parts.append(line(MARGIN, MARGIN + i * CELL, MARGIN + cols * CELL, MARGIN + i * CELL))
    for col in range(cols):
        parts.append(text(MARGIN + col * CELL + CELL / 2, height - bottom - MARGIN / 2, chr(ord("a") + col)))
    for row in range(rows):
        parts.append(text(MARGIN / 2, MARGIN + (rows - 1 - row) * CELL + CELL / 2, str(row + 1)))
    for start, end in arrows:
        parts.append(arrow(*_centre(start, rows, cols), *_centre(end, rows, cols)))
    if caption:
        parts.append(text(width / 2, height - bottom / 2 - 4, caption, size=12))
    return document(width, height, parts)


def _centre(cell: int, rows: int, cols: int) -> tuple[float, float]:
    row, col = divmod(cell, cols)
    return MARGIN + col * CELL + CELL / 2, MARGIN + (rows - 1 - row) * CELL + CELL / 2
