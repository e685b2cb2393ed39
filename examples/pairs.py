"""Pairs: a worked example of a game with a score and extra turns (docs/new_game.md, part 3).

A row of COLS cells (COLS even) is filled one cell a move. A move that completes a pair (cells 2i and 2i + 1) takes
both its cells and earns another move; when the row is full, each side scores the cells it holds, less the other
side's. The cell after the row marks "the second player to move" (a layer of its own), so that the words say whose
turn it is: ``to_move`` reads it.

    gameproof solve examples/pairs.py:6 --score
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import DRAW, LOSS, WIN, Board, GameSpec, Parameter

COLS = 6
ROW = (1 << COLS) - 1
MARK = 1 << COLS
PAIRS_LOW = 0x15  # the first cell of each pair, for COLS = 6


def constants(cols):
    if cols % 2:
        raise BadInput(f"pairs:{cols}: the row must hold whole pairs (an even number of cells)")
    return {"COLS": cols, "ROW": (1 << cols) - 1, "MARK": 1 << cols,
            "PAIRS_LOW": sum(1 << (2 * pair) for pair in range(cols // 2))}


def start():
    return 0, 0, 0


def to_move(first, second, mark):
    return 1 if mark != 0 else 0


def legal(first, second, mark):
    return ROW & ~(first | second)


def completes_pair(filled, move):
    pair = pair_of(move)
    return (filled & pair) == pair


def pair_of(move):
    return ((move | (move >> 1)) & PAIRS_LOW) * 3


def play(first, second, mark, move):
    if mark == 0:
        first |= move
    else:
        second |= move
    if not completes_pair(first | second, move):
        return first, second, mark ^ MARK
    pair = pair_of(move)  # the side that completes a pair takes both its cells
    if mark == 0:
        return first | pair, second & ~pair, mark
    return first & ~pair, second | pair, mark


def score(first, second, mark):
    mine, theirs = popcount(first), popcount(second)
    if mark != 0:
        mine, theirs = theirs, mine
    return mine - theirs


def result(first, second, mark):
    mine, theirs = popcount(first), popcount(second)  # counts compared, not subtracted: compiled, they are unsigned
    if mark != 0:
        mine, theirs = theirs, mine
    if mine > theirs:
        return WIN
    if mine < theirs:
        return LOSS
    return DRAW


GAME = GameSpec(
    name="pairs",
    rules=sys.modules[__name__],
    summary="fill a row; completing a pair takes it and moves again; score: cells held",
    parameters=(Parameter("cols", 6, 2, 12, "cells in the row (even)"),),
    constants=constants,
    board=lambda cols: Board(rows=1, cols=cols + 1),
    perspective=False,
    pieces="XOm",
)
