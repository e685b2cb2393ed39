"""Dots and Boxes written the slow, obvious way, apart from the rules module.

A line is ("h", row, col), the line along the bottom of box (row, col) (row may be `rows`, the top edge), or
("v", row, col), the line along the left of box (row, col) (col may be `cols`, the right edge). A position
is the set of lines drawn, who owns each box (0, 1 or None) and the side to move. Lines are named as the
engine names them: the cell of the line on the grid of dots, lines and boxes, e.g. ``b1`` for ("h", 0, 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Line = tuple[str, int, int]


@dataclass(frozen=True)
class Position:
    rows: int
    cols: int
    drawn: frozenset[Line]
    owners: tuple[tuple[int | None, ...], ...]  # owners[row][col]
    side: int


def start(rows: int, cols: int) -> Position:
    return Position(rows, cols, frozenset(), tuple((None,) * cols for _ in range(rows)), 0)


def all_lines(rows: int, cols: int) -> list[Line]:
    return ([("h", r, c) for r in range(rows + 1) for c in range(cols)]
            + [("v", r, c) for r in range(rows) for c in range(cols + 1)])


def name(line: Line) -> str:
    """The engine's name of a line: its cell on the (2·rows + 1) × (2·cols + 1) grid."""
    kind, r, c = line
    row, col = (2 * r, 2 * c + 1) if kind == "h" else (2 * r + 1, 2 * c)
    return f"{chr(ord('a') + col)}{row + 1}"


def sides_of(r: int, c: int) -> list[Line]:
    """The four lines around box (r, c)."""
    return [("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)]


def moves(position: Position) -> list[str]:
    """The names of the lines not drawn yet."""
    return [name(line) for line in all_lines(position.rows, position.cols) if line not in position.drawn]


def play(position: Position, move: str) -> Position:
    """The position after the side to move draws the line named `move` (assumed legal)."""
    line = next(line for line in all_lines(position.rows, position.cols) if name(line) == move)
    drawn = position.drawn | {line}
    owners = [list(row) for row in position.owners]
    took = False
    for r in range(position.rows):
        for c in range(position.cols):
            if owners[r][c] is None and all(side in drawn for side in sides_of(r, c)):
                owners[r][c] = position.side
                took = True
    side = position.side if took else 1 - position.side
    return Position(position.rows, position.cols, drawn, tuple(map(tuple, owners)), side)


def is_over(position: Position) -> bool:
    return not moves(position)


def boxes_ahead(position: Position) -> int:
    """The side to move's boxes less the other side's, so far."""
    owned = [owner for row in position.owners for owner in row if owner is not None]
    return sum(1 if owner == position.side else -1 for owner in owned)


def best_score(position: Position) -> int:
    """The final score (boxes less the other side's) for the side to move under perfect play."""
    return boxes_ahead(position) + _still_to_win(position.rows, position.cols, position.drawn)


def completed(rows: int, cols: int, drawn: frozenset[Line]) -> int:
    """How many boxes have all four sides drawn."""
    return sum(all(side in drawn for side in sides_of(r, c)) for r in range(rows) for c in range(cols))


@lru_cache(maxsize=None)
def _still_to_win(rows: int, cols: int, drawn: frozenset[Line]) -> int:
    """The most boxes the side to move can still take beyond the other side (what is left to play depends on
    the lines drawn only): a line that completes boxes takes them and moves again, any other passes the turn."""
    best = None
    for line in all_lines(rows, cols):
        if line in drawn:
            continue
        after = drawn | {line}
        taken = completed(rows, cols, after) - completed(rows, cols, drawn)
        rest = _still_to_win(rows, cols, after)
        value = taken + rest if taken else -rest
        best = value if best is None else max(best, value)
    return 0 if best is None else best


def perft(position: Position, depth: int) -> int:
    """The move paths of exactly `depth` plies (a finished game is no path)."""
    if depth == 0:
        return 1
    return sum(perft(play(position, move), depth - 1) for move in moves(position))
