"""Domineering on a rows × cols board, written once for gameproof (the tutorial's game: docs/new_game.md).

Two players take turns covering two empty neighbouring cells with a domino: the first player places
them vertically, the second horizontally. A player who cannot place a domino loses.

    gameproof solve examples/domineering.py:4,4
    gameproof perft examples/domineering.py:5,5 6
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import LOSS, Board, GameSpec, Parameter, Symmetry

# The constants of the default 5×5 board; `constants` gives them for any size.
ROWS, COLS = 5, 5
CELLS = (1 << (ROWS * COLS)) - 1
NOT_LAST_COL = sum(1 << (r * COLS + c) for r in range(ROWS) for c in range(COLS - 1))


def constants(rows, cols):
    """The module constants for a rows × cols board (cell (row, col) is bit row * cols + col)."""
    if rows * cols > 64:
        raise BadInput(f"domineering:{rows},{cols} has more than 64 cells")
    return {"ROWS": rows, "COLS": cols, "CELLS": (1 << (rows * cols)) - 1,
            "NOT_LAST_COL": sum(1 << (r * cols + c) for r in range(rows) for c in range(cols - 1))}


# The position is one word: the covered cells. Each move covers two, so the number of covered cells
# tells whose turn it is: the vertical player's when it is a multiple of four.

def vertical_to_move(covered):
    return (popcount(covered) & 2) == 0


def vertical_spots(covered):
    """Empty cells whose upper neighbour is empty too: where a vertical domino can start."""
    empty = ~covered & CELLS
    return empty & (empty >> COLS)


def horizontal_spots(covered):
    """Empty cells whose right neighbour is empty too."""
    empty = ~covered & CELLS
    return empty & (empty >> 1) & NOT_LAST_COL


def start():
    return (0,)


def legal(covered):
    if vertical_to_move(covered):
        return vertical_spots(covered)
    return horizontal_spots(covered)


def play(covered, move):
    """Cover `move` (a one-bit word) and the cell above it or to its right."""
    if vertical_to_move(covered):
        return (covered | move | (move << COLS),)
    return (covered | move | (move << 1),)


def result(covered):
    """Called when the side to move has no legal move: it has lost."""
    return LOSS


def estimate(covered):
    """Room to play for the side to move and for the other side."""
    if vertical_to_move(covered):
        return popcount(vertical_spots(covered)), popcount(horizontal_spots(covered))
    return popcount(horizontal_spots(covered)), popcount(vertical_spots(covered))


GAME = GameSpec(
    name="domineering",
    rules=sys.modules[__name__],
    summary="Domineering: vertical against horizontal dominoes; who cannot move loses",
    parameters=(Parameter("rows", 5, 1, 8), Parameter("cols", 5, 1, 8)),
    constants=constants,
    board=lambda rows, cols: Board(rows, cols),
    symmetries=(Symmetry.MIRROR_COLS, Symmetry.MIRROR_ROWS, Symmetry.ROTATE_180),  # a transpose swaps the players
    perspective=False,
    pieces="#",
    player_names=("vertical", "horizontal"),
)
