"""Clobber on a rows × cols board (``clobber:5,6``; at most 64 cells).

The board starts full, in a checkerboard: the first player's stones on the cells of a1's colour, the
second player's on the others. A move takes one of your stones onto an orthogonally adjacent enemy
stone, which is removed ("clobbered"). A player who cannot move loses.

The position is (the side to move's stones, the other side's): cell (row, col) is bit row * cols + col.
Moves are ``from-to`` (``b2-b3``).
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import ALL_SYMMETRIES, LOSS, Board, GameSpec, Parameter


def constants(rows, cols):
    """The module constants for a rows × cols board."""
    if rows * cols > 64:
        raise BadInput(f"clobber:{rows},{cols} has more than 64 cells")
    column = sum(1 << (row * cols) for row in range(rows))  # the cells of column a
    return {
        "COLS": cols,
        "CELLS": (1 << (rows * cols)) - 1,
        "NOT_FIRST_COL": column * (((1 << cols) - 1) ^ 1),
        "NOT_LAST_COL": column * ((1 << (cols - 1)) - 1),
        "FIRST_COLOUR": sum(1 << (row * cols + col) for row in range(rows) for col in range(cols)
                            if (row + col) % 2 == 0),
    }


# The constants of the default 5×6 board.
_DEFAULT = constants(5, 6)
COLS = _DEFAULT["COLS"]
CELLS = _DEFAULT["CELLS"]
NOT_FIRST_COL = _DEFAULT["NOT_FIRST_COL"]
NOT_LAST_COL = _DEFAULT["NOT_LAST_COL"]
FIRST_COLOUR = _DEFAULT["FIRST_COLOUR"]


def neighbours(cells):
    """The cells orthogonally adjacent to some cell of `cells`."""
    return (((cells << COLS) & CELLS) | (cells >> COLS)
            | ((cells & NOT_LAST_COL) << 1) | ((cells & NOT_FIRST_COL) >> 1))


def start():
    return FIRST_COLOUR, CELLS & ~FIRST_COLOUR


def legal(mine, theirs):
    """The stones of the side to move next to an enemy stone."""
    return mine & neighbours(theirs)


def legal_to(mine, theirs, frm):
    """The enemy stones next to `frm`."""
    return theirs & neighbours(frm)


def play(mine, theirs, frm, to):
    """Move the stone on `frm` onto the enemy stone on `to`, which leaves the board; the other side is to
    move next."""
    return theirs ^ to, (mine ^ frm) | to


def result(mine, theirs):
    """Asked when the side to move has no move: it has lost."""
    return LOSS


def estimate(mine, theirs):
    """Each side's stones that can move (the side to move's count first)."""
    return popcount(legal(mine, theirs)), popcount(legal(theirs, mine))


def plies_left(mine, theirs):
    """Every move removes a stone of the side not moving: the side to move makes at most as many moves
    as the other has stones, the other at most as many as the side to move has, and the last stone is
    never taken."""
    ours, others = popcount(mine), popcount(theirs)
    bound = ours + others - 1
    if 2 * others < bound:
        bound = 2 * others
    if 2 * ours + 1 < bound:
        bound = 2 * ours + 1
    return bound


def colour_keeping(rows, cols):
    """The symmetries of the board that map every cell onto a cell of its own colour (so the start maps
    onto itself)."""
    square = rows == cols
    return tuple(symmetry for symmetry in ALL_SYMMETRIES if square or not symmetry.needs_square
                 if all(sum(symmetry.apply(row, col, rows, cols)) % 2 == (row + col) % 2
                        for row in range(rows) for col in range(cols)))


def remarks(rows, cols):
    """What is degenerate about a board of one or two cells: the game is over before or after its one move."""
    if rows * cols == 1:
        return ["a 1x1 board holds one stone and no move: the first player cannot move and loses at once"]
    if rows * cols == 2:
        return [f"a {rows}x{cols} board holds one stone a side: the first player takes the other with the one move "
                "there is, and wins"]
    return []


GAME = GameSpec(
    name="clobber",
    rules=sys.modules[__name__],
    summary="Clobber: a stone takes an orthogonally adjacent enemy stone; who cannot move loses",
    parameters=(Parameter("rows", 5, 1, 26), Parameter("cols", 6, 1, 26)),
    constants=constants,
    board=lambda rows, cols: Board(rows, cols),
    symmetries=colour_keeping,
    max_plies=lambda rows, cols: max(rows * cols - 1, 1),
    max_moves=lambda rows, cols: max(rows * (cols - 1) + (rows - 1) * cols, 1),
    parts=("from", "to"),
    joiners=("-",),
    remarks=remarks,
    draws=False,
)
