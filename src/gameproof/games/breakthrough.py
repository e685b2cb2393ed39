"""Breakthrough on a rows × cols board (``breakthrough:5,5``; at most 64 cells, up to 8×8).

White (the first player) starts on the bottom rows and moves up, black on the top rows and moves down:
two home rows each on boards of 5 rows or more, one row each on smaller ones. A move takes one of your
pieces one step forward, straight or diagonally, to an empty cell, or diagonally forward onto an enemy
piece, which is captured (a straight step never captures). Moving a piece onto the far row wins, and so
does capturing every enemy piece; a side left without a legal move (every piece blocked) loses. There
are no draws.

The position is (white's pieces, black's pieces): cell (row, col) is bit row * cols + col, row 0 at
white's side. Moves are ``from-to`` (``b2-c3``); the rules take the side to move as their first
argument (0: white, 1: black).
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import LOSS, Board, GameSpec, Parameter, Symmetry


def home_rows(rows):
    """The rows each side starts on: two where the board has 5 rows or more, one on smaller boards."""
    return 2 if rows >= 5 else 1


def row_mask(row, cols):
    return ((1 << cols) - 1) << (row * cols)


def constants(rows, cols):
    """The module constants for a rows × cols board."""
    if rows * cols > 64:
        raise BadInput(f"breakthrough:{rows},{cols} has more than 64 cells")
    home = home_rows(rows)
    column = sum(1 << (row * cols) for row in range(rows))  # the cells of column a
    return {
        "ROWS": rows,
        "COLS": cols,
        "CELLS": (1 << (rows * cols)) - 1,
        "NOT_FIRST_COL": column * (((1 << cols) - 1) ^ 1),
        "NOT_LAST_COL": column * ((1 << (cols - 1)) - 1),
        "FIRST_ROW": row_mask(0, cols),
        "LAST_ROW": row_mask(rows - 1, cols),
        "WHITE_START": sum(row_mask(row, cols) for row in range(home)),
        "BLACK_START": sum(row_mask(rows - 1 - row, cols) for row in range(home)),
        "WHITE_ONE_TO_GO": row_mask(rows - 2, cols),
        "WHITE_TWO_TO_GO": row_mask(max(rows - 3, 0), cols),
        "BLACK_ONE_TO_GO": row_mask(1, cols),
        "BLACK_TWO_TO_GO": row_mask(min(2, rows - 1), cols),
    }


# The constants of the default 5×5 board.
_DEFAULT = constants(5, 5)
ROWS = _DEFAULT["ROWS"]
COLS = _DEFAULT["COLS"]
CELLS = _DEFAULT["CELLS"]
NOT_FIRST_COL = _DEFAULT["NOT_FIRST_COL"]
NOT_LAST_COL = _DEFAULT["NOT_LAST_COL"]
FIRST_ROW = _DEFAULT["FIRST_ROW"]
LAST_ROW = _DEFAULT["LAST_ROW"]
WHITE_START = _DEFAULT["WHITE_START"]
BLACK_START = _DEFAULT["BLACK_START"]
WHITE_ONE_TO_GO = _DEFAULT["WHITE_ONE_TO_GO"]
WHITE_TWO_TO_GO = _DEFAULT["WHITE_TWO_TO_GO"]
BLACK_ONE_TO_GO = _DEFAULT["BLACK_ONE_TO_GO"]
BLACK_TWO_TO_GO = _DEFAULT["BLACK_TWO_TO_GO"]


# --- steps forward for the side `side` (0: white, up; 1: black, down), of a set of cells -------------

def straight(side, cells):
    """The cells one step straight ahead of `cells`."""
    if side == 0:
        return (cells << COLS) & CELLS
    return cells >> COLS


def ahead_west(side, cells):
    """The cells one step diagonally ahead of `cells`, towards column a."""
    if side == 0:
        return ((cells & NOT_FIRST_COL) << (COLS - 1)) & CELLS
    return (cells & NOT_FIRST_COL) >> (COLS + 1)


def ahead_east(side, cells):
    """The cells one step diagonally ahead of `cells`, away from column a."""
    if side == 0:
        return ((cells & NOT_LAST_COL) << (COLS + 1)) & CELLS
    return (cells & NOT_LAST_COL) >> (COLS - 1)


def own(to_move, white, black):
    if to_move == 0:
        return white
    return black


def broken_through(to_move, white, black):
    """The pieces of the side that just moved that stand on its far row (the side to move has lost)."""
    if to_move == 0:
        return black & FIRST_ROW
    return white & LAST_ROW


# --- the rules --------------------------------------------------------------------------------------

def start():
    return WHITE_START, BLACK_START


def legal(to_move, white, black):
    """The pieces of the side to move that have a move (none once the game is over): a step backwards,
    for the other side, from an empty cell (straight) or from a cell not its own (diagonal)."""
    if broken_through(to_move, white, black) != 0:
        return 0
    mine = own(to_move, white, black)
    empty = CELLS & ~(white | black)
    not_mine = CELLS & ~mine
    back = to_move ^ 1
    return mine & (straight(back, empty) | ahead_west(back, not_mine) | ahead_east(back, not_mine))


def legal_to(to_move, white, black, frm):
    """Where the piece on `frm` can go: straight ahead if empty, diagonally ahead unless it is our own."""
    empty = CELLS & ~(white | black)
    not_mine = CELLS & ~own(to_move, white, black)
    return (straight(to_move, frm) & empty) | ((ahead_west(to_move, frm) | ahead_east(to_move, frm)) & not_mine)


def play(to_move, white, black, frm, to):
    """Move the piece on `frm` to `to`, capturing whatever enemy piece stands there."""
    if to_move == 0:
        return (white ^ frm) | to, black & ~to
    return white & ~to, (black ^ frm) | to


def result(to_move, white, black):
    """Asked when the side to move has no move: its enemy broke through, took its last piece, or it is
    blocked; each is a loss."""
    return LOSS


def estimate(to_move, white, black):
    """How close each side is to breaking through: twice its pieces one row from its far row plus those
    two rows away, and for the side to move (its count first) 16 more for each piece that can break
    through at once."""
    white_near = 2 * popcount(white & WHITE_ONE_TO_GO) + popcount(white & WHITE_TWO_TO_GO)
    black_near = 2 * popcount(black & BLACK_ONE_TO_GO) + popcount(black & BLACK_TWO_TO_GO)
    if to_move == 0:
        return 16 * popcount(legal(to_move, white, black) & WHITE_ONE_TO_GO) + white_near, black_near
    return 16 * popcount(legal(to_move, white, black) & BLACK_ONE_TO_GO) + black_near, white_near


def steps_to_go(side, pieces, goal):
    """The steps `side`'s pieces can still take short of the far row `goal`: each piece's distance to
    it, less one."""
    total = 0
    ahead = pieces
    for _ in range(ROWS):
        ahead = straight(side, ahead)
        total = total + popcount(ahead & (CELLS ^ goal))
    return total


def plies_left(to_move, white, black):
    """Every move but the last is one of those steps."""
    return steps_to_go(0, white, LAST_ROW) + steps_to_go(1, black, FIRST_ROW) + 1


def max_plies(rows, cols):
    """`plies_left` at the start: a piece that starts on row r (counted from its own side) has rows - 2 - r
    steps to take short of the far row."""
    steps = cols * sum(rows - 2 - row for row in range(home_rows(rows)))
    return 2 * steps + 1


def max_moves(rows, cols):
    """A piece has at most three moves, and a side never has more pieces than it starts with."""
    return 3 * home_rows(rows) * cols


GAME = GameSpec(
    name="breakthrough",
    rules=sys.modules[__name__],
    summary="Breakthrough: pieces step forward and capture diagonally; reaching the far row wins",
    parameters=(Parameter("rows", 5, 3, 8), Parameter("cols", 5, 2, 8)),
    constants=constants,
    board=lambda rows, cols: Board(rows, cols),
    symmetries=(Symmetry.MIRROR_COLS,),
    max_plies=max_plies,
    max_moves=max_moves,
    perspective=False,
    pieces="WB",
    player_names=("white", "black"),
    parts=("from", "to"),
    joiners=("-",),
    turn_argument=True,
)
