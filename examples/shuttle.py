"""Shuttle: the smallest game that may repeat a position. A token on a row of five cells moves one cell left or right
a ply; the side that moves it onto the last cell wins (by 1). Play can shuttle for ever, which is a draw: the game
declares ``repetition`` instead of ``max_plies``, every search that assumes games end refuses it, and its tablebase
solves it (``gameproof tablebase build examples/shuttle.py shuttle.tb``: the start is a draw)."""

import sys

from gameproof.framework.declaration import LOSS, Board, GameSpec, Repetition

CELLS = 0b11111
LAST = 0b10000


def start():
    return (0b10,)


def legal(token):
    if token == LAST:
        return 0
    return ((token << 1) | (token >> 1)) & CELLS


def play(token, move):
    return (move,)


def result(token):
    return LOSS


def score(token):
    return -1


GAME = GameSpec(
    name="shuttle",
    rules=sys.modules[__name__],
    summary="a token shuttles along a row; who moves it to the end wins",
    board=lambda: Board(1, 5),
    perspective=False,
    pieces="T",
    player_names=("first", "second"),
    repetition=Repetition.DRAW,
)
