"""Hexapawn on an R x C board (``hexapawn.py:ROWS,COLS``), written from docs/new_game.md alone by someone
who had not seen gameproof's source (a held-out check of the tutorial: docs/new_game.md, part 2).

White pawns fill row 1, black pawns the last row; white moves first. A pawn steps one square
straight forward onto an empty square, or captures an enemy pawn one square diagonally forward.
A player wins by getting a pawn to the far row, by capturing every enemy pawn, or when the
opponent, to move, has no legal move. No draws.

Words: (white, black), absolute (perspective=False); bit row * COLS + col, row 0 = rank 1.
The side to move comes first in every rule function (turn_argument=True): 0 white, 1 black.
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.declaration import LOSS, Board, GameSpec, Notation, Parameter, Symmetry

ROWS, COLS = 3, 3


def constants(rows, cols):
    if rows * cols > 64:
        raise BadInput(f"hexapawn:{rows},{cols} has more than 64 cells")
    cells = (1 << (rows * cols)) - 1
    row0 = (1 << cols) - 1
    col0 = 0
    for r in range(rows):
        col0 |= 1 << (r * cols)
    col_last = col0 << (cols - 1)
    return {
        "ROWS": rows,
        "COLS": cols,
        "CELLS": cells,
        "FIRST_ROW": row0,
        "LAST_ROW": row0 << ((rows - 1) * cols),
        "NOT_COL0": cells & ~col0,
        "NOT_COL_LAST": cells & ~col_last,
    }


_defaults = constants(ROWS, COLS)
CELLS = _defaults["CELLS"]
FIRST_ROW = _defaults["FIRST_ROW"]
LAST_ROW = _defaults["LAST_ROW"]
NOT_COL0 = _defaults["NOT_COL0"]
NOT_COL_LAST = _defaults["NOT_COL_LAST"]


def start():
    return (FIRST_ROW, LAST_ROW)


def game_over(white, black):
    """A pawn already on its far row: the player who just moved has won."""
    return ((white & LAST_ROW) != 0) | ((black & FIRST_ROW) != 0)


def legal(to_move, white, black):
    """The pawns of the side to move that have a move; 0 once the game is over."""
    if game_over(white, black):
        return 0
    empty = CELLS & ~(white | black)
    if to_move == 0:
        steps = white & (empty >> COLS)
        left = white & NOT_COL0 & (black >> (COLS - 1))
        right = white & NOT_COL_LAST & (black >> (COLS + 1))
        return steps | left | right
    steps = black & ((empty << COLS) & CELLS)
    right = black & NOT_COL_LAST & ((white << (COLS - 1)) & CELLS)
    left = black & NOT_COL0 & ((white << (COLS + 1)) & CELLS)
    return steps | left | right


def legal_to(to_move, white, black, frm):
    """Where the pawn on `frm` may go: straight ahead if empty, diagonally ahead onto an enemy pawn."""
    empty = CELLS & ~(white | black)
    if to_move == 0:
        ahead = (frm << COLS) & CELLS & empty
        diag = (((frm & NOT_COL0) << (COLS - 1)) | ((frm & NOT_COL_LAST) << (COLS + 1))) & CELLS & black
        return ahead | diag
    ahead = (frm >> COLS) & empty
    diag = (((frm & NOT_COL_LAST) >> (COLS - 1)) | ((frm & NOT_COL0) >> (COLS + 1))) & white
    return ahead | diag


def play(to_move, white, black, frm, to):
    if to_move == 0:
        return ((white ^ frm) | to, black & (CELLS & ~to))
    return (white & (CELLS & ~to), (black ^ frm) | to)


def result(to_move, white, black):
    # Asked only when legal() is 0: the opponent reached the far row, took every pawn,
    # or left the side to move blocked. In every case the side to move has lost.
    return LOSS


GAME = GameSpec(
    name="hexapawn",
    rules=sys.modules[__name__],
    summary="Hexapawn: pawns step forward, capture diagonally; far row, all captures or a blocked opponent wins",
    parameters=(Parameter("rows", 3, 3, 8), Parameter("cols", 3, 2, 8)),
    constants=constants,
    board=lambda rows, cols: Board(rows, cols),
    symmetries=(Symmetry.MIRROR_COLS,),
    max_plies=lambda rows, cols: 2 * cols * (rows - 2) + 1,
    max_moves=lambda rows, cols: 3 * cols,
    parts=("from", "to"),
    joiners=("-",),
    turn_argument=True,
    perspective=False,
    notation=Notation.CELL,
    pieces="WB",
    player_names=("white", "black"),
)
