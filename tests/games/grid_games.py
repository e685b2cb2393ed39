"""What the slow references of the two-part games share: a board is a tuple of rows (row 0 first), each
a tuple of one-character strings; cells are named ``b3``, moves ``from-to``; values by plain minimax."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

Grid = tuple[tuple[str, ...], ...]
Moves = Callable[[Grid, int], list[str]]
Play = Callable[[Grid, int, str], Grid]


def cell_name(row: int, col: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


def move_name(frm: tuple[int, int], to: tuple[int, int]) -> str:
    return f"{cell_name(*frm)}-{cell_name(*to)}"


def parse_move(name: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (row, col) of each part of a ``from-to`` name."""
    frm, to = ((int(part[1:]) - 1, ord(part[0]) - ord("a")) for part in name.split("-"))
    return frm, to


def moved(grid: Grid, name: str, piece: str, left: str = ".") -> Grid:
    """The board after the piece on the move's first cell goes to its second, as `piece`."""
    (r1, c1), (r2, c2) = parse_move(name)
    board = [list(row) for row in grid]
    board[r1][c1] = left
    board[r2][c2] = piece
    return tuple(tuple(row) for row in board)


def minimax(moves: Moves, play: Play) -> Callable[[Grid, int], int]:
    """The memoised value of a board for `side` to move: +1 a win, -1 a loss; a side without moves loses."""

    @lru_cache(maxsize=None)
    def value(grid: Grid, side: int) -> int:
        return max((-value(play(grid, side, move), 1 - side) for move in moves(grid, side)), default=-1)

    return value


def perft(moves: Moves, play: Play, grid: Grid, side: int, depth: int) -> int:
    """The move paths of exactly `depth` plies (a finished game is no path)."""
    if depth == 0:
        return 1
    return sum(perft(moves, play, play(grid, side, move), 1 - side, depth - 1) for move in moves(grid, side))
