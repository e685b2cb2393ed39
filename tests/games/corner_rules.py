"""A rules file for tests: a row of COLS cells filled in turn; once it is full, the first player wins if it holds
the last cell. The rules are not left-right symmetric: the first player wins by taking the last cell at once, and
a mirror would merge that move with the losing first cell. The ``# START``, ``# LEGAL``, ``# RESULT``,
``# CONSTANTS`` and ``# DECLARED`` lines are where a test changes it."""

CORNER = '''
import sys

from gameproof.framework.bits import popcount
from gameproof.framework.declaration import LOSS, ONGOING, WIN, Board, GameSpec, Parameter, Symmetry

COLS = 4
CELLS = (1 << COLS) - 1
LAST = 1 << (COLS - 1)


def constants(cols):
    return {"COLS": cols, "CELLS": (1 << cols) - 1, "LAST": 1 << (cols - 1)}  # CONSTANTS


def first_to_move(first, second):
    return (popcount(first | second) & 1) == 0


def start():
    return 0, 0  # START


def legal(first, second):
    return CELLS & ~(first | second)  # LEGAL


def play(first, second, move):
    if first_to_move(first, second):
        return first | move, second
    return first, second | move


def result(first, second):
    if (first & LAST != 0) == first_to_move(first, second):  # RESULT
        return WIN
    return LOSS


GAME = GameSpec(
    name="corner",
    rules=sys.modules[__name__],
    summary="fill a row; the first player wants its last cell",
    parameters=(Parameter("cols", 4, 2, 16),),
    constants=constants,
    board=lambda cols: Board(1, cols),
    perspective=False,  # DECLARED
)
'''
