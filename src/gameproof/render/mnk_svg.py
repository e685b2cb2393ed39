"""SVG drawing of an m,n,k position: the board, X and O stones, and optionally each empty square's value."""

from __future__ import annotations

from gameproof.games.mnk.state import MnkState
from gameproof.render.svg import document, line, rect, text

CELL = 48
MARGIN = 28
CAPTION = 20
VALUE_COLOURS = {"win": "#c8e6c9", "draw": "#fff3c4", "loss": "#f8c9c4"}


def mnk_svg(state: MnkState, values: dict[int, str] | None = None) -> str:
    """A standalone SVG of ``state`` (``a1`` bottom-left); ``values`` (square → win/draw/loss) tints empty squares."""
    g = state.geometry
    caption = CAPTION if values else 0
    width, height = g.cols * CELL + 2 * MARGIN, g.rows * CELL + 2 * MARGIN + caption
    parts = [rect(MARGIN, MARGIN, g.cols * CELL, g.rows * CELL, "#fffdf7")]
    marks = state.marks()
    last = state.history[-1] if state.history else None
    for square, mark in enumerate(marks):
        x, y = _corner(state, square)
        cx, cy = x + CELL / 2, y + CELL / 2
        if mark == "-" and values and square in values:
            parts.append(rect(x, y, CELL, CELL, VALUE_COLOURS[values[square]]))
            parts.append(text(cx, cy, values[square], size=11, fill="#555"))
        elif mark == "X":
            r = CELL * 0.3
            colour = "#1f4e8c"
            parts.append(line(cx - r, cy - r, cx + r, cy + r, colour, 5))
            parts.append(line(cx - r, cy + r, cx + r, cy - r, colour, 5))
        elif mark == "O":
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.3:.1f}" fill="none" stroke="#b3261e" stroke-width="5"/>')
        if square == last:
            parts.append(rect(x + 2, y + 2, CELL - 4, CELL - 4, "none", stroke="#e0a000", stroke_width="2"))
    for i in range(g.cols + 1):
        parts.append(line(MARGIN + i * CELL, MARGIN, MARGIN + i * CELL, MARGIN + g.rows * CELL))
    for i in range(g.rows + 1):
        parts.append(line(MARGIN, MARGIN + i * CELL, MARGIN + g.cols * CELL, MARGIN + i * CELL))
    for col in range(g.cols):
        parts.append(text(MARGIN + col * CELL + CELL / 2, height - caption - MARGIN / 2, chr(ord("a") + col)))
    for row in range(g.rows):
        parts.append(text(MARGIN / 2, MARGIN + (g.rows - 1 - row) * CELL + CELL / 2, str(row + 1)))
    if values:
        mover = "XO"[state.to_move]
        parts.append(text(width / 2, height - caption / 2 - 4, f"values for {mover}, the side to move", size=12))
    return document(width, height, parts)


def _corner(state: MnkState, square: int) -> tuple[int, int]:
    """Top-left corner of a square's cell (row 1 at the bottom)."""
    g = state.geometry
    row, col = divmod(square, g.cols)
    return MARGIN + col * CELL, MARGIN + (g.rows - 1 - row) * CELL
