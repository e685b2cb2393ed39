"""Dodgem written the slow, obvious way, apart from gameproof's rules module: a board is a string of N·N
characters, row 1 first (``B`` a blue car, ``R`` a red one, ``.`` empty), and a position is (board, side to move)
with 0 for blue, who moves first. Moves are named ``from-to`` by the cells of gameproof's drawing, where a car
leaving the board goes to the cell just past the far edge: ``c3-d3`` for blue on 3×3, ``b3-b4`` for red.

The rules (Winning Ways, as Wikipedia's Dodgem article states them): blue's N − 1 cars start on column a, rows
2..N, red's N − 1 on row 1, columns b..; blue moves a car right, up or down, red up, left or right, one square,
onto an empty square; a car leaves the board only forward from the far edge (blue from the last column, red from
the top row). The side to move with no legal move wins.

:func:`retrograde` solves a board by backward induction over every position reachable from the start; positions
it never resolves are draws (play can go on for ever).
"""

from __future__ import annotations

from functools import cache


BLUE, RED, EMPTY = "B", "R", "."
CARS = (BLUE, RED)
from plain_retrograde import DRAW, LOSS, WIN, paths, reachable as reached, values  # noqa: E402,F401
# Where each side's cars go: (column step, row step); the first is forward.
STEPS = (((1, 0), (0, 1), (0, -1)), ((0, 1), (-1, 0), (1, 0)))

Position = tuple[str, int]


def cell(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


def start(n: int) -> Position:
    board = [EMPTY] * (n * n)
    for k in range(1, n):
        board[k * n] = BLUE  # column a, row k + 1
        board[k] = RED  # row 1, column k
    return "".join(board), 0


def size(position: Position) -> int:
    return round(len(position[0]) ** 0.5)


def moves(position: Position) -> list[str]:
    """The legal moves of the side to move, by name."""
    board, side = position
    n = size(position)
    found = []
    for index, held in enumerate(board):
        if held != CARS[side]:
            continue
        row, col = divmod(index, n)
        for number, (dc, dr) in enumerate(STEPS[side]):
            c2, r2 = col + dc, row + dr
            if 0 <= c2 < n and 0 <= r2 < n:
                if board[r2 * n + c2] == EMPTY:
                    found.append(f"{cell(col, row)}-{cell(c2, r2)}")
            elif number == 0:  # forward off the far edge: the car leaves
                found.append(f"{cell(col, row)}-{cell(c2, r2)}")
    return found


def play(position: Position, name: str) -> Position:
    """The position after the side to move plays `name` (assumed legal)."""
    board, side = position
    n = size(position)
    frm, to = name.split("-")
    squares = list(board)
    squares[(int(frm[1:]) - 1) * n + ord(frm[0]) - ord("a")] = EMPTY
    col, row = ord(to[0]) - ord("a"), int(to[1:]) - 1
    if col < n and row < n:
        squares[row * n + col] = CARS[side]
    return "".join(squares), 1 - side


def winner(position: Position) -> int | None:
    """The side that has won (the side to move, once it has no legal move), or None while the game goes on."""
    return None if moves(position) else position[1]


def perft(position: Position, depth: int) -> int:
    """The move paths of exactly `depth` plies (a finished game is no path)."""
    return paths(position, depth, moves, play)


def text(position: Position) -> str:
    """gameproof's text of a position: the rows top to bottom separated by /, ``-`` empty, then blue or red."""
    board, side = position
    n = size(position)
    rows = [board[row * n: row * n + n].replace(EMPTY, "-") for row in reversed(range(n))]
    return "/".join(rows) + " " + ("blue", "red")[side]


def reachable(n: int) -> tuple[list[Position], list[list[int]]]:
    """Every position reachable from the start of the n × n board (the start first) and each one's successors,
    by their indices in that list."""
    return reached(start(n), moves, play)


@cache  # one analysis for every test that asks (the lists are only read)
def retrograde(n: int) -> tuple[list[Position], list[int], list[list[int]]]:
    """The reachable positions, each one's value for the side to move (WIN, LOSS or DRAW) and successors: a position
    without a move is won by its side to move (see :func:`plain_retrograde.values`)."""
    positions, successors = reachable(n)
    return positions, values(successors, WIN), successors


def first_moves(n: int) -> tuple[int, int, dict[str, int]]:
    """The number of reachable positions, the start's value for blue and each of blue's first moves' values for
    blue."""
    positions, value, _ = retrograde(n)
    index = {position: at for at, position in enumerate(positions)}
    first = positions[0]
    return len(positions), value[0], {move: -value[index[play(first, move)]] for move in moves(first)}
