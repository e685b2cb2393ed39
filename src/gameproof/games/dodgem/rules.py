"""Dodgem (Colin Vout; *Winning Ways for your Mathematical Plays*) on an N × N board (``dodgem:3``; N = 3..6).

Blue (the first player) has N − 1 cars on the left edge (column a, rows 2..N) and red N − 1 cars on the bottom
edge (row 1, columns b..); the bottom-left square is empty. Blue moves one car one square forward (right) or
sideways (up or down), red one car forward (up) or sideways (left or right), never onto an occupied square. A
car leaves the board only by a forward move from the far edge (blue from the rightmost column, red from the top
row), and is then out of the game. The side to move with no legal move, because its cars are all gone or all
blocked, WINS: a player must leave the opponent a move. Sideways moves let play go on for ever, so the game
declares ``repetition=Repetition.DRAW`` (no longest game): a game that never ends is a draw.

The board of the rules is (N + 1) × (N + 1): the N × N board, an extra column on the right (column N + 1, blue's
exit) and an extra row on top (row N + 1, red's exit), always empty. A car's forward move from the far edge is a
move into the exit beside it (``c3-d3`` for blue, ``b3-b4`` for red on 3 × 3), which removes the car; the top-right
cell of the extended board is never used. Cell (row, col) is bit row · (N + 1) + col, row 0 at the bottom. The
position is (blue's cars, red's cars), absolute: the rules take the side to move first (0: blue, 1: red), and the
sides alternate. Positions are written as the N × N board only (see :func:`parse_text`).
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.declaration import WIN, Board, GameSpec, Parameter, PositionFormat, Repetition
from gameproof.framework.square_text import SquareText


def constants(size):
    """The module constants for an N × N board (N = `size`) on its (N + 1) × (N + 1) grid of bits."""
    width = size + 1
    inner = sum(1 << (row * width + col) for row in range(size) for col in range(size))
    return {
        "WIDTH": width,
        "CELLS": (1 << (width * width)) - 1,
        "INNER": inner,
        "BLUE_EXIT": sum(1 << (row * width + size) for row in range(size)),
        "RED_EXIT": sum(1 << (size * width + col) for col in range(size)),
        "NOT_FIRST_COL": sum(1 << (row * width + col) for row in range(width) for col in range(1, width)),
        "BLUE_START": sum(1 << (row * width) for row in range(1, size)),
        "RED_START": sum(1 << col for col in range(1, size)),
    }


# The constants of the default 3 × 3 board.
_DEFAULT = constants(3)
WIDTH = _DEFAULT["WIDTH"]
CELLS = _DEFAULT["CELLS"]
INNER = _DEFAULT["INNER"]
BLUE_EXIT = _DEFAULT["BLUE_EXIT"]
RED_EXIT = _DEFAULT["RED_EXIT"]
NOT_FIRST_COL = _DEFAULT["NOT_FIRST_COL"]
BLUE_START = _DEFAULT["BLUE_START"]
RED_START = _DEFAULT["RED_START"]


def start():
    return BLUE_START, RED_START


def targets(to_move, blue, red, cars):
    """Where the cars `cars` of the side to move can go, all together: blue right (into its exit from the last
    column), up or down; red up (into its exit from the top row), left or right; onto empty squares only."""
    free = INNER & ~(blue | red)
    if to_move == 0:
        return (((cars << 1) & (free | BLUE_EXIT)) | ((cars << WIDTH) & free) | ((cars >> WIDTH) & free)) & CELLS
    return (((cars << WIDTH) & (free | RED_EXIT)) | (((cars & NOT_FIRST_COL) >> 1) & free)
            | ((cars << 1) & free)) & CELLS


def legal(to_move, blue, red):
    """The cars of the side to move that have a move: a square back, for the other direction, from where each
    may go."""
    free = INNER & ~(blue | red)
    if to_move == 0:
        return blue & INNER & (((free | BLUE_EXIT) >> 1) | (free >> WIDTH) | ((free << WIDTH) & CELLS))
    return red & INNER & (((free | RED_EXIT) >> WIDTH) | ((free << 1) & CELLS & NOT_FIRST_COL) | (free >> 1))


def legal_to(to_move, blue, red, frm):
    """Where the car on `frm` can go."""
    return targets(to_move, blue, red, frm)


def play(to_move, blue, red, frm, to):
    """Move the car on `frm` to `to`; a car moved into its exit leaves the board."""
    if to_move == 0:
        return (blue ^ frm) | (to & INNER), red
    return blue, (red ^ frm) | (to & INNER)


def result(to_move, blue, red):
    """Asked when the side to move has no move (its cars all gone or all blocked): it has won."""
    return WIN


# --- positions as text: the N × N board, without the exits ------------------------------------------------------

PIECES = "BR"
NAMES = ("blue", "red")


def _text(game) -> SquareText:
    size = game.parameters["size"]
    return SquareText(size, size + 1, PIECES, NAMES)


def parse_text(game, text):
    """(blue, red) and the side to move of ``B--/B--/-RR blue``: the N × N board's rows top to bottom separated by
    ``/`` (or spaces), B a blue car, R a red one, ``-`` or ``.`` empty, then the side to move (blue or red, b or r)."""
    cars, to_move = _text(game).read(text)
    most = game.parameters["size"] - 1
    for colour, held in enumerate(cars):
        if bin(held).count("1") > most:
            raise BadInput(f"{bin(held).count('1')} {NAMES[colour]} cars, but each side has {most} at most")
    return cars, to_move


def format_text(game, absolute, to_move):
    """The text :func:`parse_text` reads."""
    return _text(game).write(absolute, to_move)


GAME = GameSpec(
    name="dodgem",
    rules=sys.modules[__name__],
    summary="Dodgem: cars race across the board; who has no move left wins (a position may repeat)",
    parameters=(Parameter("size", 3, 3, 6, "the board is size x size", aliases=("n",)),),
    constants=constants,
    board=lambda size: Board(size + 1, size + 1),  # the exits: a column on the right, a row on top
    max_moves=lambda size: 3 * (size - 1),
    repetition=Repetition.DRAW,
    perspective=False,
    pieces=PIECES,
    player_names=NAMES,
    parts=("from", "to"),
    joiners=("-",),
    turn_argument=True,
    position_format=PositionFormat(parse_text, format_text, "the N x N board's rows top to bottom separated by / "
                                   "(B blue, R red; - empty), a space and the side to move (blue or red)"),
)
