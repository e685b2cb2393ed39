"""A 3x3 board that two players fill in turn, with one bug: the game lasts longer than the board has cells (tests/test_interrupts.py)."""

import sys

from gameproof.games.bits import popcount
from gameproof.games.declaration import DRAW, ONGOING, Board, GameSpec

FULL = 0x1FF


def start():
    return (0, 0)


def legal(x, o):
    return 1 if x < 30 else 0


def play(x, o, move):
    return (x + 1, o)


def result(x, o):
    return DRAW


GAME = GameSpec(name="too-long", rules=sys.modules[__name__], summary="a broken game: the game lasts longer than the board has cells",
                board=lambda: Board(3, 3), symmetries=(), perspective=False)
