"""Amazons the slow, obvious way, for the tests: a position is the board as rows of characters and the side to
move; moves are found by walking each queen line cell by cell and named ``b1-b3/d3``.

Shares no code with gameproof.games.amazons.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

WHITE, BLACK, ARROW, EMPTY = "W", "B", "x", "."
LINES = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


class Position(NamedTuple):
    rows: tuple[str, ...]  # rows[0] is row 1
    to_move: str  # WHITE or BLACK

    @property
    def size(self) -> tuple[int, int]:
        return len(self.rows[0]), len(self.rows)

    def at(self, cell: tuple[int, int]) -> str:
        return self.rows[cell[0]][cell[1]]

    def put(self, changes: dict[tuple[int, int], str]) -> tuple[str, ...]:
        return tuple("".join(changes.get((r, c), square) for c, square in enumerate(row))
                     for r, row in enumerate(self.rows))


def name(cell: tuple[int, int]) -> str:
    return f"{'abcdefghijklmnopqrstuvwxyz'[cell[1]]}{cell[0] + 1}"


def cell_of(text: str) -> tuple[int, int]:
    return int(text[1:]) - 1, ord(text[0]) - ord("a")


def start(cols: int, rows: int) -> Position:
    """White on a2, b1 and the mirror images of those in the last two columns; black the same on the top two
    rows (Müller's 6×5 diagram: white a2 b1 e1 f2, black a4 b5 e5 f4)."""
    last_col, last_row = cols - 1, rows - 1
    white = [(1, 0), (0, 1), (0, last_col - 1), (1, last_col)]
    black = [(last_row - 1, 0), (last_row, 1), (last_row, last_col - 1), (last_row - 1, last_col)]
    empty = Position(tuple(EMPTY * cols for _ in range(rows)), WHITE)
    return Position(empty.put({**{c: WHITE for c in white}, **{c: BLACK for c in black}}), WHITE)


def line_ends(position: Position, origin: tuple[int, int], vacated: tuple[int, int] | None = None):
    """The cells a queen on `origin` reaches, walking each line until the edge or a non-empty cell
    (`vacated` counts as empty)."""
    cols, rows = position.size
    for dr, dc in LINES:
        r, c = origin[0] + dr, origin[1] + dc
        while 0 <= r < rows and 0 <= c < cols and (position.at((r, c)) == EMPTY or (r, c) == vacated):
            yield r, c
            r, c = r + dr, c + dc


def moves(position: Position) -> list[str]:
    """Every legal move of the side to move, by name."""
    cols, rows = position.size
    found = []
    for r in range(rows):
        for c in range(cols):
            if position.at((r, c)) != position.to_move:
                continue
            for to in line_ends(position, (r, c)):
                for arrow in line_ends(position, to, vacated=(r, c)):
                    found.append(f"{name((r, c))}-{name(to)}/{name(arrow)}")
    return found


def play(position: Position, move: str) -> Position:
    """The position after `move` (taken to be legal)."""
    frm, rest = move.split("-")
    to, arrow = rest.split("/")
    rows = position.put({cell_of(frm): EMPTY, cell_of(to): position.to_move})
    rows = Position(rows, position.to_move).put({cell_of(arrow): ARROW})
    return Position(rows, BLACK if position.to_move == WHITE else WHITE)


@lru_cache(maxsize=None)
def wins(position: Position) -> bool:
    """Whether the side to move wins (who cannot move loses)."""
    return any(not wins(play(position, move)) for move in moves(position))


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(play(position, move), depth - 1) for move in moves(position))
