"""Clobber written the slow, obvious way, apart from the rules module: a board is a tuple of rows (row 0
first), each a tuple of "X" (the first player's stones), "O" or "."; moves are names such as ``b2-b3``."""

from __future__ import annotations

from grid_games import Grid, minimax, move_name, moved

STONES = ("X", "O")  # by side: 0 moves first


def start(rows: int, cols: int) -> Grid:
    """A full checkerboard, the first player's stones on a1's colour."""
    return tuple(tuple(STONES[(r + c) % 2] for c in range(cols)) for r in range(rows))


def moves(grid: Grid, side: int) -> list[str]:
    """The legal moves of `side`: a stone onto an orthogonally adjacent enemy stone, as names."""
    rows, cols = len(grid), len(grid[0])
    found = []
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != STONES[side]:
                continue
            for r2, c2 in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= r2 < rows and 0 <= c2 < cols and grid[r2][c2] == STONES[1 - side]:
                    found.append(move_name((r, c), (r2, c2)))
    return found


def play(grid: Grid, side: int, name: str) -> Grid:
    """The board after `side` plays the move `name` (assumed legal): the enemy stone is gone."""
    return moved(grid, name, STONES[side])


value = minimax(moves, play)
