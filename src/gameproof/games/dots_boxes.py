"""Dots and Boxes on a rows × cols grid of boxes (``dots-boxes:2,2``; up to 3×4 or 4×3, or 1×10).

Players take turns drawing a line between two neighbouring dots. A line that completes the fourth side of
one box, or of two, gives the mover those boxes and another move (it must then draw another line); any
other line passes the turn. The game ends when every line is drawn, and the player with more boxes wins
(equal counts are a draw, possible only with an even number of boxes). The final score is the side to
move's boxes less the other side's.

The board is the (2·rows + 1) × (2·cols + 1) grid of dots, lines and boxes: dots where the row and column
are both even, boxes where both are odd, and lines elsewhere (cell (row, col) is bit row · (2·cols + 1) + col,
so the grid must fit 64 cells). A move is the cell of the line it draws. The position is three words, the
same cells each: the lines drawn, the first player's boxes, the second player's boxes. While the second
player is to move, the four corner dots are set in the lines' word too (a mark that every symmetry of the
grid keeps), so the words say who moves next.
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import ALL_SYMMETRIES, DRAW, LOSS, WIN, Board, GameSpec, Parameter


def grid_cells(rows, cols, kind):
    """The bits of the grid cells whose (row % 2, col % 2) is in `kind`, on the grid of rows × cols boxes."""
    width = 2 * cols + 1
    return sum(1 << (row * width + col) for row in range(2 * rows + 1) for col in range(width)
               if (row % 2, col % 2) in kind)


def constants(rows, cols):
    """The module constants for a rows × cols grid of boxes."""
    height, width = 2 * rows + 1, 2 * cols + 1
    if height * width > 64:
        raise BadInput(f"dots-boxes:{rows},{cols} needs a grid of {height}x{width} = {height * width} cells, "
                       "more than 64")
    last = height * width - 1
    return {
        "WIDTH": width,
        "CELLS": (1 << (height * width)) - 1,
        "LINES": grid_cells(rows, cols, {(0, 1), (1, 0)}),
        "BOXES": grid_cells(rows, cols, {(1, 1)}),
        "CORNERS": 1 | 1 << (width - 1) | 1 << (last - width + 1) | 1 << last,
    }


# The constants of the default 2×2 board.
_DEFAULT = constants(2, 2)
WIDTH = _DEFAULT["WIDTH"]
CELLS = _DEFAULT["CELLS"]
LINES = _DEFAULT["LINES"]
BOXES = _DEFAULT["BOXES"]
CORNERS = _DEFAULT["CORNERS"]


def to_move(lines, first, second):
    """The side to move: 1 while the corner dots are marked, else 0."""
    if (lines & CORNERS) != 0:
        return 1
    return 0


def completed(lines):
    """The boxes whose four sides are among `lines`."""
    return (BOXES & (lines >> 1) & ((lines << 1) & CELLS) & (lines >> WIDTH)
            & ((lines << WIDTH) & CELLS))


def start():
    return 0, 0, 0


def legal(lines, first, second):
    """The lines not drawn yet (none once the game is over)."""
    return LINES & ~lines


def play(lines, first, second, move):
    """Draw the line `move`: the boxes it completes go to the mover, who then moves again; if it completes
    none, the other side is to move."""
    side = to_move(lines, first, second)
    drawn = (lines | move) & LINES
    taken = completed(drawn) & ~(first | second)
    if taken == 0:
        side = 1 - side
    elif side == 0:
        first = first | taken
    else:
        second = second | taken
    if side == 1:
        return drawn | CORNERS, first, second
    return drawn, first, second


def boxes(lines, first, second):
    """The boxes of the side to move and of the other side."""
    if to_move(lines, first, second) == 0:
        return popcount(first), popcount(second)
    return popcount(second), popcount(first)


def result(lines, first, second):
    """Asked once every line is drawn: more boxes wins."""
    mine, theirs = boxes(lines, first, second)
    if mine > theirs:
        return WIN
    if mine < theirs:
        return LOSS
    return DRAW


def score(lines, first, second):
    """The side to move's boxes less the other side's, at the end."""
    mine, theirs = boxes(lines, first, second)
    return mine - theirs


def plies_left(lines, first, second):
    """Every line not drawn yet will be, one a ply."""
    return popcount(LINES & ~lines)


def line_count(rows, cols):
    """The lines of the grid: rows + 1 rows of cols across, and cols + 1 columns of rows up."""
    return (rows + 1) * cols + (cols + 1) * rows


def remarks(rows, cols):
    """What is degenerate about one box: its fourth line, the box, always falls to the second player."""
    if rows * cols == 1:
        return ["one box: no line before the fourth completes it, and the second player draws the fourth, so the "
                "second player wins 1-0 whatever is played"]
    return []


GAME = GameSpec(
    name="dots-boxes",
    rules=sys.modules[__name__],
    summary="Dots and Boxes: a line that completes a box takes it and moves again; most boxes wins",
    parameters=(Parameter("rows", 2, 1, 10, "rows of boxes"), Parameter("cols", 2, 1, 10, "columns of boxes")),
    constants=constants,
    board=lambda rows, cols: Board(2 * rows + 1, 2 * cols + 1),
    symmetries=ALL_SYMMETRIES,
    max_plies=line_count,
    max_moves=line_count,
    perspective=False,
    pieces="#XO",
    player_names=("first", "second"),
    aliases=("dots-and-boxes",),
    remarks=remarks,
)
