"""A 3x3 board that two players fill in turn, with one bug: its move order names a cell past the 64 bits of a word (tests/test_interrupts.py)."""

import sys

from gameproof.games.bits import popcount
from gameproof.games.declaration import DRAW, ONGOING, Board, GameSpec

FULL = 0x1FF


def start():
    return (0, 0)


def legal(x, o):
    return ~(x | o) & FULL


def play(x, o, move):
    if popcount(x) == popcount(o):
        return (x | move, o)
    return (x, o | move)


def result(x, o):
    return DRAW


GAME = GameSpec(name="bad-order", rules=sys.modules[__name__], summary="a broken game: its move order names a cell past the 64 bits of a word",
                board=lambda: Board(3, 3), symmetries=(), perspective=False,
                move_order=lambda: [*range(9), 70])
