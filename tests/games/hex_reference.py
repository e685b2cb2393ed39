"""Hex the slow, obvious way, for the tests: a position is the board as rows of characters (``X`` black, ``O``
white, ``.`` empty; row 1 first) and the side to move; a side has won when a search over its stones links its
two edges. Shares no code with gameproof.games.hex.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

BLACK, WHITE, EMPTY = "X", "O", "."
TOUCHING = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, -1), (-1, 1)]


class Position(NamedTuple):
    rows: tuple[str, ...]
    to_move: str


def start(n: int) -> Position:
    return Position(tuple(EMPTY * n for _ in range(n)), BLACK)


def name(cell: tuple[int, int]) -> str:
    return f"{'abcdefghijk'[cell[1]]}{cell[0] + 1}"


def has_won(position: Position, colour: str) -> bool:
    """Whether `colour`'s stones link its edges: black rows 1 and n, white columns a and n."""
    n = len(position.rows)
    stones = {(r, c) for r in range(n) for c in range(n) if position.rows[r][c] == colour}
    frontier = [cell for cell in stones if (cell[0] if colour == BLACK else cell[1]) == 0]
    seen = set(frontier)
    while frontier:
        r, c = frontier.pop()
        if (r if colour == BLACK else c) == n - 1:
            return True
        for dr, dc in TOUCHING:
            if (r + dr, c + dc) in stones and (r + dr, c + dc) not in seen:
                seen.add((r + dr, c + dc))
                frontier.append((r + dr, c + dc))
    return False


def moves(position: Position) -> list[str]:
    """The empty cells by name, or none once a side has won."""
    if has_won(position, BLACK) or has_won(position, WHITE):
        return []
    n = len(position.rows)
    return [name((r, c)) for r in range(n) for c in range(n) if position.rows[r][c] == EMPTY]


def play(position: Position, move: str) -> Position:
    r, c = int(move[1:]) - 1, ord(move[0]) - ord("a")
    rows = list(position.rows)
    rows[r] = rows[r][:c] + position.to_move + rows[r][c + 1:]
    return Position(tuple(rows), WHITE if position.to_move == BLACK else BLACK)


@lru_cache(maxsize=None)
def wins(position: Position) -> bool:
    """Whether the side to move wins (it has lost once the other side has linked its edges)."""
    return any(not wins(play(position, move)) for move in moves(position))


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(play(position, move), depth - 1) for move in moves(position))
