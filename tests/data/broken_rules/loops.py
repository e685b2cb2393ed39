"""A 3x3 board that two players fill in turn, with one bug: compiled, legal() loops forever once a stone is down
(tests/test_interrupts.py). On Python ints the loop climbs past 2**64 and ends, so the rules self-check passes;
on uint64 it wraps and never does: a loop only the kernels' watchdog can stop."""

import sys

from gameproof.games.bits import popcount
from gameproof.games.declaration import DRAW, ONGOING, Board, GameSpec

FULL = 0x1FF
LAST_WORD = 0xFFFF_FFFF_FFFF_FFFF
STEP = 0x1000_0000_0000_0000


def start():
    return (0, 0)


def legal(x, o):
    spin = x
    while spin != 0 and spin <= LAST_WORD:  # on uint64 always <= LAST_WORD
        spin += STEP
    return ~(x | o) & FULL


def play(x, o, move):
    if popcount(x) == popcount(o):
        return (x | move, o)
    return (x, o | move)


def result(x, o):
    return DRAW


GAME = GameSpec(name="loops", rules=sys.modules[__name__], summary="a broken game: legal() loops forever once a stone is down",
                board=lambda: Board(3, 3), symmetries=(), perspective=False)
