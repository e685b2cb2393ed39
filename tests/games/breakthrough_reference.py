"""Breakthrough written the slow, obvious way, apart from the rules module: a board is a tuple of rows
(row 0 first, white's side), each a tuple of "W", "B" or "."; moves are names such as ``b2-c3``."""

from __future__ import annotations

from grid_games import Grid, minimax, move_name, moved

WHITE, BLACK, EMPTY = "W", "B", "."
PIECES = (WHITE, BLACK)  # by side: 0 moves first, up the board


def start(rows: int, cols: int) -> Grid:
    """Two home rows each on boards of 5 rows or more, else one."""
    home = 2 if rows >= 5 else 1
    return tuple(tuple(WHITE if r < home else BLACK if r >= rows - home else EMPTY for _ in range(cols))
                 for r in range(rows))


def is_over(grid: Grid, side: int) -> bool:
    """Whether the game is over with `side` to move: the other side stands on its far row, or `side`
    has no piece left."""
    other_goal = 0 if side == 0 else len(grid) - 1
    if PIECES[1 - side] in grid[other_goal]:
        return True
    return not any(PIECES[side] in row for row in grid)


def moves(grid: Grid, side: int) -> list[str]:
    """The legal moves of `side` (none once the game is over), as names."""
    if is_over(grid, side):
        return []
    rows, cols = len(grid), len(grid[0])
    me, enemy = PIECES[side], PIECES[1 - side]
    forward = 1 if side == 0 else -1
    found = []
    for r in range(rows):
        for c in range(cols):
            r2 = r + forward
            if grid[r][c] != me or not 0 <= r2 < rows:
                continue
            for c2 in (c - 1, c, c + 1):
                if 0 <= c2 < cols and (grid[r2][c2] == EMPTY or (c2 != c and grid[r2][c2] == enemy)):
                    found.append(move_name((r, c), (r2, c2)))
    return found


def play(grid: Grid, side: int, name: str) -> Grid:
    """The board after `side` plays the move `name` (assumed legal)."""
    return moved(grid, name, PIECES[side])


value = minimax(moves, play)
