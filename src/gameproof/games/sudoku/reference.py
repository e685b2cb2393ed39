"""A slow, obviously correct Sudoku solver in plain Python: the reference for differential tests."""

from __future__ import annotations

from gameproof.games.sudoku.grid import box_size, groups


def count_solutions(puzzle: list[int], limit: int) -> tuple[list[int] | None, int]:
    """The first solution in digit order (None if none) and the number of solutions, capped at ``limit``."""
    n = box_size(len(puzzle))
    peers = [set() for _ in puzzle]
    for group in groups(n):
        for cell in group:
            peers[cell].update(group)
    board = list(puzzle)
    if any(board[p] == board[c] for c in range(len(board)) if board[c] for p in peers[c] if p != c):
        return None, 0
    first: list[int] | None = None
    count = 0

    def search() -> bool:  # True when the limit is reached
        nonlocal first, count
        blanks = [c for c, v in enumerate(board) if not v]
        if not blanks:
            count += 1
            first = first or list(board)
            return count >= limit
        options = {c: set(range(1, n * n + 1)) - {board[p] for p in peers[c]} for c in blanks}
        cell = min(blanks, key=lambda c: len(options[c]))
        for digit in sorted(options[cell]):
            board[cell] = digit
            if search():
                return True
        board[cell] = 0
        return False

    search()
    return first, count
