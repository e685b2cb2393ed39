"""A plain pure-Python minimax of m,n,k games, written independently of the kernels, for cross-checks.

Boards are strings (``X``, ``O``, ``-`` per square, square ``r * cols + c``, as in :mod:`rules`); values are
for the player to move: +1 win, 0 draw, -1 loss. Exponential: use on small boards or late positions.
"""

from __future__ import annotations

from functools import lru_cache

from gameproof.answers import Variant


def _completes(board: str, rows: int, cols: int, k: int, square: int) -> bool:
    """Whether the stone on ``square`` is part of k equal marks in a row."""
    r, c, mark = divmod(square, cols) + (board[square],)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == mark:
                run += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if run >= k:
            return True
    return False


def move_result(board: str, rows: int, cols: int, k: int, variant: str, square: int) -> tuple[str, int | None]:
    """Play the mover's mark on ``square``: the new board and, if the game ended, the value for the mover."""
    placed = board.count("-")
    mark = "X" if variant == Variant.NOTAKTO or (len(board) - placed) % 2 == 0 else "O"
    after = board[:square] + mark + board[square + 1 :]
    if _completes(after, rows, cols, k, square):
        return after, (1 if variant == Variant.NORMAL else -1)
    return after, (0 if placed == 1 else None)


def value(board: str, rows: int, cols: int, k: int, variant: str) -> int:
    """Minimax value for the player to move of a board where the game is not over."""

    @lru_cache(maxsize=None)
    def search(b: str) -> int:
        best = -2
        for square, cell in enumerate(b):
            if cell == "-":
                after, ended = move_result(b, rows, cols, k, variant, square)
                score = ended if ended is not None else -search(after)
                if score > best:
                    best = score
                    if best == 1:
                        break
        return best

    return search(board)


def move_values(board: str, rows: int, cols: int, k: int, variant: str) -> dict[int, int]:
    """Value for the mover of each legal move."""
    values = {}
    for square, cell in enumerate(board):
        if cell == "-":
            after, ended = move_result(board, rows, cols, k, variant, square)
            values[square] = ended if ended is not None else -value(after, rows, cols, k, variant)
    return values
