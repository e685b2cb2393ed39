"""Othello positions as the test suites write them: the squares a1, b1, … h8 (X black, O white, - empty), a space,
and X or O to move.

This is the position of edax's ``.obf`` problem files and of the FFO / FForum endgame positions
(``--XXXXX--OOOXX-O-…-XXXXX X``); an n×n board has n·n squares. ``.`` is read as an empty square and ``*`` as a
black disc too, and the side to move may also be named ``black`` or ``white``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gameproof.errors import BadInput
from gameproof.framework.declaration import PositionFormat
from gameproof.games.othello.notation import BLACK_CHARS, COLOR_NAMES, EMPTY_CHARS, WHITE_CHARS

if TYPE_CHECKING:
    from gameproof.framework.game import Game

#: How each side's discs, and the side to move, are written.
SIDES = "XO"


def parse_board_text(game: Game, text: str) -> tuple[tuple[int, int], int]:
    """(black, white) discs and the side to move of an ``.obf``-style board (BadInput naming what is wrong)."""
    squares = game.board.rows * game.board.cols
    tokens = text.split()
    if len(tokens) < 2:
        raise BadInput(f"no side to move: write the {squares} squares, a space, and X or O to move")
    cells, side = "".join(tokens[:-1]), tokens[-1].casefold()
    if len(cells) != squares:
        raise BadInput(f"{len(cells)} squares, but {game.name} has {squares} (a1, b1, … row by row: X black, "
                       "O white, - empty)")
    black = white = 0
    for bit, cell in enumerate(cells):
        if cell in BLACK_CHARS:
            black |= 1 << bit
        elif cell in WHITE_CHARS:
            white |= 1 << bit
        elif cell not in EMPTY_CHARS:
            raise BadInput(f"{cell!r} on {game.board.cell_name(bit)} is no disc (X black, O white, - empty)")
    sides = {"x": 0, "o": 1, COLOR_NAMES[0]: 0, COLOR_NAMES[1]: 1}
    if side not in sides:
        raise BadInput(f"unknown side to move {tokens[-1]!r:.30} (X or O)")
    return (black, white), sides[side]


def format_board_text(game: Game, absolute: tuple[int, int], to_move: int) -> str:
    """The ``.obf``-style text of the position whose discs are (black, white)."""
    black, white = absolute
    squares = game.board.rows * game.board.cols
    cells = "".join(SIDES[0] if black >> bit & 1 else SIDES[1] if white >> bit & 1 else EMPTY_CHARS[0]
                    for bit in range(squares))
    return f"{cells} {SIDES[to_move]}"


OBF_BOARD = PositionFormat(parse_board_text, format_board_text,
                           "the squares a1, b1, … row by row (X black, O white, - empty), a space and X or O to move, "
                           "as edax's .obf files write them")
