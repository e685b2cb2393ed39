"""A 3x3 board that two players fill in turn, with one bug: legal() offers occupied cells (tests/test_interrupts.py)."""

import sys

from gameproof.games.bits import popcount
from gameproof.games.declaration import DRAW, ONGOING, Board, GameSpec

FULL = 0x1FF


def start():
    return (0, 0)


def legal(x, o):
    return FULL


def play(x, o, move):
    if popcount(x) == popcount(o):
        return (x | move, o)
    return (x, o | move)


def result(x, o):
    return DRAW


GAME = GameSpec(name="occupied", rules=sys.modules[__name__], summary="a broken game: legal() offers occupied cells",
                board=lambda: Board(3, 3), symmetries=(), perspective=False)
