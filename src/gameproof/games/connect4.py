"""Connect Four on a W×H board (``connect4:7,6`` is the standard game): drop a piece into a column; four
in a row, across, up or along a diagonal, wins; a full board is a draw.

The position is (the side to move's pieces, the other side's pieces). Columns are stacked in one word,
H + 1 bits each, the top bit of each column always empty: the piece at column c, row r is bit
c·(H+1) + r, so W·(H+1) ≤ 64. The empty top bits keep shifts from wrapping into the next column, and
adding the bottom row to the occupied cells gives each column's lowest empty cell.
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.column_moves import COLUMN_MOVES
from gameproof.framework.declaration import DRAW, LOSS, WIN, Board, Engine, GameSpec, Notation, Parameter, Symmetry

# The standard 7×6 board; `constants` gives them for other sizes.
WIDTH, HEIGHT = 7, 6
STRIDE = HEIGHT + 1
BOTTOM = sum(1 << (column * STRIDE) for column in range(WIDTH))  # bit 0 of each column
CELLS = BOTTOM * ((1 << HEIGHT) - 1)
PAIR_TOPS = BOTTOM * sum(1 << row for row in range(1, HEIGHT, 2))  # rows 2, 4, 6: the upper cell of each pair
M64 = 0xFFFF_FFFF_FFFF_FFFF


def constants(width, height):
    """The module constants for a width × height board."""
    if width * (height + 1) > 64:
        raise BadInput(f"connect4:{width},{height} does not fit: width × (height + 1) must be at most 64")
    stride = height + 1
    bottom = sum(1 << (column * stride) for column in range(width))
    return {"WIDTH": width, "HEIGHT": height, "STRIDE": stride, "BOTTOM": bottom,
            "CELLS": bottom * ((1 << height) - 1), "PAIR_TOPS": bottom * sum(1 << row for row in range(1, height, 2))}


def start():
    return 0, 0


def in_line(pieces, step):
    """The cells that begin four `pieces` in a row, each `step` bits above the one before."""
    pairs = pieces & (pieces >> step)
    return pairs & (pairs >> (2 * step))


def has_four(pieces):
    """Non-zero when `pieces` hold four in a row in some direction."""
    return (in_line(pieces, 1) | in_line(pieces, STRIDE) | in_line(pieces, STRIDE - 1)
            | in_line(pieces, STRIDE + 1))


def playable(occupied):
    """The lowest empty cell of each column not full, given the `occupied` cells."""
    return (occupied + BOTTOM) & CELLS


def legal(player, opponent):
    if has_four(opponent) != 0:
        return 0
    return playable(player | opponent)


def play(player, opponent, move):
    return opponent, player | move


def result(player, opponent):
    """Called when no column is open: the last move made four, or the board is full."""
    if has_four(opponent) != 0:
        return LOSS
    return DRAW


def bound(player, opponent):
    """The best the side to move can reach. At most a draw where the side to move has no four left to make, even
    with every empty cell. On a board of even height, with the first player to move (an even number of pieces, so
    an even number of columns of odd height), the second player can follow claimeven: answer a move in a column of
    even height on top of it, and one in a column of odd height in another such column (there is one: their number
    was even). It then takes every empty cell of rows 2, 4, 6 … but those playable now; if the first player cannot
    make four even with every other cell, the first player reaches at most a draw, and loses if those cells make
    the second player four."""
    occupied = player | opponent
    empty = CELLS & ~occupied
    if has_four(player | empty) == 0:
        return DRAW
    if HEIGHT % 2 == 0 and popcount(occupied) % 2 == 0:
        theirs = opponent | (PAIR_TOPS & empty & ~playable(occupied))
        if has_four(CELLS & ~theirs) == 0:
            return LOSS if has_four(theirs) != 0 else DRAW
    return WIN


def completing(pieces, step):
    """Cells that would complete four `pieces` in a row along `step` (wherever the gap is)."""
    up1, up2, up3 = (pieces << step) & M64, (pieces << (2 * step)) & M64, (pieces << (3 * step)) & M64
    down1, down2, down3 = pieces >> step, pieces >> (2 * step), pieces >> (3 * step)
    return (up1 & up2 & up3) | (down1 & down2 & down3) | (up1 & up2 & down1) | (up1 & down1 & down2)


def threat_cells(pieces, empty):
    """The empty cells where `pieces` would complete four in a row."""
    return (completing(pieces, 1) | completing(pieces, STRIDE) | completing(pieces, STRIDE - 1)
            | completing(pieces, STRIDE + 1)) & empty


def threats(pieces, empty):
    """Number of empty cells where `pieces` would complete four in a row."""
    return popcount(threat_cells(pieces, empty))


def pressure(mine, theirs, moves):
    """How much one side's threat cells `mine` press the other: those not right above a threat of the other side's
    (`theirs`), most of all those one or two cells above a playable cell (`moves`), which the other side cannot
    let the column reach."""
    useful = mine & ~(theirs << 1)
    above = (moves << 1) & CELLS
    return 12 * popcount(useful & above) + 5 * popcount(useful & (above << 1)) + 3 * popcount(useful)


def estimate(player, opponent):
    """The pressure of the side to move's threats and of the other side's."""
    occupied = player | opponent
    empty = CELLS & ~occupied
    moves = playable(occupied)
    mine, theirs = threat_cells(player, empty), threat_cells(opponent, empty)
    return pressure(mine, theirs, moves), pressure(theirs, mine, moves)


def centre_first(width, height):
    """Cells ordered by their column's distance from the centre: the moves df-pn tries first."""
    columns = sorted(range(width), key=lambda c: abs(2 * c - (width - 1)))
    return [c * (height + 1) + r for c in columns for r in range(height)]


GAME = GameSpec(
    name="connect4",
    rules=sys.modules[__name__],
    summary="Connect Four on a W×H board: four in a row wins",
    parameters=(Parameter("width", 7, 4, 16, "columns", aliases=("cols",)),
                Parameter("height", 6, 4, 16, "rows", aliases=("rows",))),
    constants=constants,
    board=lambda width, height: Board(rows=height, cols=width, row_stride=1, col_stride=height + 1),
    symmetries=(Symmetry.MIRROR_COLS,),
    notation=Notation.COLUMN,
    move_order=centre_first,
    lookahead=True,
    engine=Engine.ALPHABETA,
    position_format=COLUMN_MOVES,  # --position as the columns played, 4453 (as Pons's solver writes them)
)
