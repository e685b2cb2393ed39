"""A 3x3 board that two players fill in turn, with one bug: play() changes nothing (tests/test_interrupts.py)."""

import sys

from gameproof.games.bits import popcount
from gameproof.games.declaration import DRAW, ONGOING, Board, GameSpec

FULL = 0x1FF


def start():
    return (0, 0)


def legal(x, o):
    return ~(x | o) & FULL


def play(x, o, move):
    return (x, o)


def result(x, o):
    return DRAW


GAME = GameSpec(name="unchanged", rules=sys.modules[__name__], summary="a broken game: play() changes nothing",
                board=lambda: Board(3, 3), symmetries=(), perspective=False)
