"""A 3x3 board that two players fill in turn, with one bug: result() returns an unknown code (tests/test_interrupts.py)."""

import sys

from gameproof.games.bits import popcount
from gameproof.games.declaration import DRAW, ONGOING, Board, GameSpec

FULL = 0x1FF


def start():
    return (0, 0)


def legal(x, o):
    if popcount(x) >= 2:
        return 0
    return ~(x | o) & FULL


def play(x, o, move):
    if popcount(x) == popcount(o):
        return (x | move, o)
    return (x, o | move)


def result(x, o):
    return 7


GAME = GameSpec(name="bad-result", rules=sys.modules[__name__], summary="a broken game: result() returns an unknown code",
                board=lambda: Board(3, 3), symmetries=(), perspective=False)
