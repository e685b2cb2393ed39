"""Cram on a rows × cols board, written once for gameproof (in the style of examples/domineering.py).

Two players take turns covering two empty neighbouring cells with a domino, each in either orientation
(Cram is Domineering's impartial twin: both players have the same moves). Normal play: a player who cannot
place a domino loses.

A move has two parts, the domino's lower or left cell and its other cell: `a1-b1` lies along row 1, `a1-a2`
stands in column a. Each domino has exactly one name (the second cell is always to the right of or above the
first).

    gameproof solve examples/cram.py:3,4
    gameproof perft examples/cram.py:4,4 4
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import LOSS, Board, GameSpec, Parameter, Symmetry

# The constants of the default 4×4 board; `constants` gives them for any size.
ROWS, COLS = 4, 4
CELLS = (1 << (ROWS * COLS)) - 1
NOT_LAST_COL = sum(1 << (r * COLS + c) for r in range(ROWS) for c in range(COLS - 1))


def constants(rows, cols):
    """The module constants for a rows × cols board (cell (row, col) is bit row * cols + col)."""
    if rows * cols > 64:
        raise BadInput(f"cram:{rows},{cols} has more than 64 cells")
    return {"ROWS": rows, "COLS": cols, "CELLS": (1 << (rows * cols)) - 1,
            "NOT_LAST_COL": sum(1 << (r * cols + c) for r in range(rows) for c in range(cols - 1))}


# The position is one word: the covered cells. Both players have the same moves, so the rules need not
# know whose turn it is.

def vertical_spots(covered):
    """Empty cells whose upper neighbour is empty too: where a standing domino can start."""
    empty = ~covered & CELLS
    return empty & (empty >> COLS)


def horizontal_spots(covered):
    """Empty cells whose right neighbour is empty too: where a lying domino can start."""
    empty = ~covered & CELLS
    return empty & (empty >> 1) & NOT_LAST_COL


def start():
    return (0,)


def legal(covered):
    """The cells where a domino can start (its lower or left cell)."""
    return vertical_spots(covered) | horizontal_spots(covered)


def legal_to(covered, frm):
    """The domino's other cell: the one above `frm` or the one to its right, where empty."""
    empty = ~covered & CELLS
    return ((frm << COLS) | ((frm & NOT_LAST_COL) << 1)) & empty


def play(covered, frm, to):
    """Cover `frm` and `to` (one-bit words)."""
    return (covered | frm | to,)


def result(covered):
    """Called when the side to move has no legal move: it has lost (normal play)."""
    return LOSS


def estimate(covered):
    """Room to play: the same for both sides (an impartial game)."""
    room = popcount(vertical_spots(covered)) + popcount(horizontal_spots(covered))
    return room, room


def max_plies(rows, cols):
    """Each move covers two cells (at least one ply declared, even where no domino fits)."""
    return max(1, rows * cols // 2)


def max_moves(rows, cols):
    """A domino in each of the board's places: (rows - 1) × cols standing and rows × (cols - 1) lying."""
    return max(1, (rows - 1) * cols + rows * (cols - 1))


def symmetries(rows, cols):
    """Every symmetry of the rectangle; on a square board the quarter turns and the transposes too."""
    plain = (Symmetry.MIRROR_COLS, Symmetry.MIRROR_ROWS, Symmetry.ROTATE_180)
    if rows != cols:
        return plain
    return (*plain, Symmetry.TRANSPOSE, Symmetry.ROTATE_90, Symmetry.ROTATE_270, Symmetry.ANTI_TRANSPOSE)


GAME = GameSpec(
    name="cram",
    rules=sys.modules[__name__],
    summary="Cram: both players place dominoes in either orientation; who cannot move loses",
    parameters=(Parameter("rows", 4, 1, 8), Parameter("cols", 4, 1, 8)),
    constants=constants,
    board=lambda rows, cols: Board(rows, cols),
    symmetries=symmetries,
    max_plies=max_plies,
    max_moves=max_moves,
    perspective=False,
    pieces="#",
    player_names=("first", "second"),
    parts=("from", "to"),
    joiners=("-",),
)
