"""A 3x3 board that two players fill in turn, with one bug: legal() loops forever once a stone is down (tests/test_interrupts.py)."""

import sys

from gameproof.games.bits import popcount
from gameproof.games.declaration import DRAW, ONGOING, Board, GameSpec

FULL = 0x1FF


def start():
    return (0, 0)


def legal(x, o):
    spin = x
    while spin != 0:  # odd forever once a stone is down: never 0
        spin = spin * 3 | 1
    return ~(x | o) & FULL


def play(x, o, move):
    if popcount(x) == popcount(o):
        return (x | move, o)
    return (x, o | move)


def result(x, o):
    return DRAW


GAME = GameSpec(name="loops", rules=sys.modules[__name__], summary="a broken game: legal() loops forever once a stone is down",
                board=lambda: Board(3, 3), symmetries=(), perspective=False)
