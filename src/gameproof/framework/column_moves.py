"""A column game's position as the columns played from the start: Connect Four's ``4453``.

Columns are numbered 1..W from the left, as Pascal Pons's solver and its test sets (after Steininger) write Connect
Four positions: one digit a move on a board of at most 9 columns (``4453``), numbers separated by spaces on a
wider one (``10 3 12``). The empty text is the start. Reading replays the moves by the rules; writing finds
the moves again from the position (a game whose pieces stay where they are dropped: each move adds the mover's
piece on the cell it plays), the smallest column first at each move, so that the text of a position is always
the same. Declared as ``position_format=COLUMN_MOVES``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gameproof.errors import BadInput
from gameproof.framework.declaration import PositionFormat, bounded_number

if TYPE_CHECKING:
    from gameproof.framework.game import Game

#: Boards of at most this many columns write a move as one digit, with nothing between moves.
DIGIT_COLUMNS = 9


def parse_columns(game: Game, text: str) -> tuple[tuple[int, ...], int]:
    """The position after the columns `text` names, played from the start: (absolute words, side to move)."""
    from gameproof.framework.state import RulesState

    state = RulesState(game)
    for number, column in enumerate(_columns(game, text), start=1):
        legal = state.legal_moves()
        moves = [move for move in _column_cells(game, column) if move in legal]
        if not moves:
            raise BadInput(f"move {number} (column {column + 1}): the column is full or the game is over")
        state.play(moves[0])
    return game.absolute(state.words, state.to_move), state.to_move


def format_columns(game: Game, absolute: tuple[int, ...], to_move: int) -> str:
    """The columns that reach the position from the start, each move's the smallest column that can still lead to
    it (BadInput when no game of the rules reaches it)."""
    target = game.layer_sets(absolute)
    columns = [sum(1 << cell for cell in _column_cells(game, column)) for column in range(game.board.cols)]
    dead: set[tuple[tuple[int, ...], int]] = set()
    played: list[int] = []

    def search(words: tuple[int, ...], side: int) -> bool:
        if side == to_move and game.absolute(words, side) == tuple(absolute):
            return True
        if (words, side) in dead:
            return False
        legal = game.arguments.mask(game.rules.legal(*game.arguments.of(words, side))) or 0
        for column, cells in enumerate(columns):
            move = legal & cells
            move &= -move  # the column's lowest open cell
            if move and target[side] & move:
                played.append(column)
                after = tuple(game.rules.play(*game.arguments.of(words, side, (move.bit_length() - 1,))))
                if search(after, side ^ 1):
                    return True
                played.pop()
        dead.add((words, side))
        return False

    if not search(tuple(game.rules.start()), 0):
        raise BadInput(f"no game of {game.name} reaches this position")
    separator = "" if game.board.cols <= DIGIT_COLUMNS else " "
    return separator.join(str(column + 1) for column in played)


def _columns(game: Game, text: str) -> list[int]:
    """The columns (0 first) that `text` names."""
    cols = game.board.cols
    tokens = text.replace(",", " ").split()
    if cols <= DIGIT_COLUMNS:
        tokens = [digit for token in tokens for digit in token]
    columns = []
    for number, token in enumerate(tokens, start=1):
        column = bounded_number(token, cols)
        if not column:
            raise BadInput(f"move {number} ({token!r:.20}) is no column 1..{cols}")
        columns.append(column - 1)
    return columns


def _column_cells(game: Game, column: int) -> list[int]:
    """The cells (bits) of a column, bottom first."""
    return [game.board.bit(row, column) for row in range(game.board.rows)]


COLUMN_MOVES = PositionFormat(parse_columns, format_columns,
                              "the columns played from the start, 1 for the leftmost (one digit a move: 4453)")
