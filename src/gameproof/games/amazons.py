"""The Game of the Amazons on a small board (``amazons:COLS,ROWS``, 4..8 each; 5×5 by default).

Each side has four amazons (queens). A move is an amazon's queen move (any number of empty cells across,
up or along a diagonal, never jumping) followed by an arrow shot from where it lands, again as a queen
move; the cell it left counts as empty for the arrow. The arrow's cell is burnt for the rest of the game.
Who cannot move loses, so there are no draws, and every move burns one cell.

A move has three parts, named like ``b1-b3/d3`` (from, to, arrow). The position is three layers (one
word each, cell (row, col) is bit ``row * cols + col``): the side to move's amazons, the other side's,
and the arrows. White moves first.

The setup (white on rows 1-2, black mirrored on the two top rows: for 6×5, white a2 b1 e1 f2 and black
a4 b5 e5 f4) is the one of the 6×5 board in M. Müller's "Amazons 6x5 Solution Attempt" (University of
Alberta, webdocs.cs.ualberta.ca/~mmueller/amazons/6x5-solution.html), placed the same way on every
size. docs/games.md says, for each size with a published value, what the sources confirm of it.
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import LOSS, Board, GameSpec, Parameter, Symmetry


def constants(cols, rows):
    """The module constants for a cols × rows board."""
    if cols * rows > 64:
        raise BadInput(f"amazons:{cols},{rows} has more than 64 cells")

    def cell(row, col):
        return 1 << (row * cols + col)

    first_col = sum(cell(row, 0) for row in range(rows))
    cells = (1 << (cols * rows)) - 1
    return {"COLS": cols, "ROWS": rows, "CELLS": cells,
            "NOT_FIRST_COL": cells & ~first_col, "NOT_LAST_COL": cells & ~(first_col << (cols - 1)),
            "SPAN": max(cols, rows) - 1,
            "START_WHITE": cell(1, 0) | cell(0, 1) | cell(0, cols - 2) | cell(1, cols - 1),
            "START_BLACK": (cell(rows - 2, 0) | cell(rows - 1, 1) | cell(rows - 1, cols - 2)
                            | cell(rows - 2, cols - 1))}


# The default 5×5 board's constants; `constants` gives them for every size.
COLS, ROWS = 5, 5
CELLS = (1 << 25) - 1
NOT_FIRST_COL = 0x1EF7BDE  # columns b..e
NOT_LAST_COL = 0x0F7BDEF  # columns a..d
SPAN = 4  # the longest queen move
START_WHITE = 0x000022A  # b1 d1 a2 e2
START_BLACK = 0x0A88000  # a4 e4 b5 d5


# --- one step in each of the eight directions; cells that leave the board (or wrap a row) vanish ---------


def east(x):
    return (x << 1) & NOT_FIRST_COL


def west(x):
    return (x >> 1) & NOT_LAST_COL


def north(x):
    return (x << COLS) & CELLS


def south(x):
    return x >> COLS


def north_east(x):
    return (x << (COLS + 1)) & NOT_FIRST_COL


def north_west(x):
    return (x << (COLS - 1)) & NOT_LAST_COL


def south_east(x):
    return (x >> (COLS - 1)) & NOT_FIRST_COL


def south_west(x):
    return (x >> (COLS + 1)) & NOT_LAST_COL


def neighbours(x):
    """The cells next to those of `x` (a king's step away)."""
    return (east(x) | west(x) | north(x) | south(x)
            | north_east(x) | north_west(x) | south_east(x) | south_west(x))


def queen_reach(origin, empty):
    """The cells a queen on the one-bit word `origin` reaches over the `empty` cells."""
    e = w = n = s = ne = nw = se = sw = origin
    reach = 0
    for _ in range(SPAN):
        e = east(e) & empty
        w = west(w) & empty
        n = north(n) & empty
        s = south(s) & empty
        ne = north_east(ne) & empty
        nw = north_west(nw) & empty
        se = south_east(se) & empty
        sw = south_west(sw) & empty
        reach = reach | e | w | n | s | ne | nw | se | sw
    return reach


# --- the game protocol (gameproof.framework.declaration) -------------------------------------------------


def start():
    return START_WHITE, START_BLACK, 0


def legal(mine, theirs, arrows):
    """The amazons that can move: those next to an empty cell (the arrow can always go back to where an
    amazon came from)."""
    empty = CELLS & ~(mine | theirs | arrows)
    return mine & neighbours(empty)


def legal_to(mine, theirs, arrows, frm):
    return queen_reach(frm, CELLS & ~(mine | theirs | arrows))


def legal_arrow(mine, theirs, arrows, frm, to):
    return queen_reach(to, CELLS & ~((mine ^ frm) | to | theirs | arrows))


def play(mine, theirs, arrows, frm, to, arrow):
    return theirs, (mine ^ frm) | to, arrows | arrow


def result(mine, theirs, arrows):
    """Asked only when no amazon of the side to move can move: it has lost."""
    return LOSS


def plies_left(mine, theirs, arrows):
    """Each move burns an empty cell: at most as many plies as empty cells."""
    return popcount(CELLS & ~(mine | theirs | arrows))


def estimate(mine, theirs, arrows):
    """The empty cells next to the side to move's amazons, and next to the other side's."""
    empty = CELLS & ~(mine | theirs | arrows)
    return popcount(neighbours(mine) & empty), popcount(neighbours(theirs) & empty)


def most_moves(cols, rows):
    """A bound on the legal moves of a position: four amazons, each reaching at most the cells of its row,
    column and two diagonals, and its arrow as many from there."""
    reach = (cols - 1) + (rows - 1) + 2 * (min(cols, rows) - 1)
    return 4 * reach * reach


GAME = GameSpec(
    name="amazons",
    rules=sys.modules[__name__],
    summary="The Game of the Amazons on a small board: move a queen, shoot an arrow; who cannot move loses",
    parameters=(Parameter("cols", 5, 4, 8, "columns"), Parameter("rows", 5, 4, 8, "rows")),
    constants=constants,
    board=lambda cols, rows: Board(rows, cols),
    symmetries=(Symmetry.MIRROR_COLS,),  # the setup's; the others put white's amazons on black's cells
    max_plies=lambda cols, rows: cols * rows - 8,
    parts=("from", "to", "arrow"),
    joiners=("-", "/"),
    max_moves=most_moves,
    pieces="WBx",
    player_names=("white", "black"),
    draws=False,
)
