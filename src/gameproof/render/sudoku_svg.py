"""SVG drawing of a Sudoku (4×4, 9×9 or 16×16): givens in black, an optional solution's digits in blue."""

from __future__ import annotations

from gameproof.games.sudoku.grid import SYMBOLS, box_size
from gameproof.render.svg import document, line, rect, text

CELL = 36
MARGIN = 12


def sudoku_svg(puzzle: list[int], solution: list[int] | None = None) -> str:
    """A standalone SVG of ``puzzle`` (0 for blanks), with the blanks filled from ``solution`` when given."""
    n = box_size(len(puzzle))
    size = n * n
    side = size * CELL
    parts = [rect(MARGIN, MARGIN, side, side, "#fffdf7")]
    for cell, given in enumerate(puzzle):
        digit = given or (solution[cell] if solution else 0)
        if digit:
            row, col = divmod(cell, size)
            parts.append(text(MARGIN + col * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2, SYMBOLS[digit - 1],
                              size=20, fill="#111" if given else "#1f5fbf",
                              **({"font_weight": "bold"} if given else {})))
    for i in range(size + 1):
        width = 2.5 if i % n == 0 else 0.8
        offset = MARGIN + i * CELL
        parts.append(line(offset, MARGIN, offset, MARGIN + side, "#222", width))
        parts.append(line(MARGIN, offset, MARGIN + side, offset, "#222", width))
    return document(side + 2 * MARGIN, side + 2 * MARGIN, parts)
