"""Three Men's Morris written the slow, obvious way, apart from gameproof's rules module: a board is a string of
9 characters, row 1 first (``W`` a white piece, ``B`` a black one, ``.`` vacant), and a position is (board, side
to move) with 0 for white, who moves first. Moves are named ``from-to`` by the points of gameproof's drawing
(a1 bottom left); a placement names its point twice, ``b2-b2``.

The rules (Wikipedia's "Three men's morris", Murray's "smaller merels"): the lines are the 3 rows, 3 columns and 2
diagonals; each side places its 3 pieces on vacant points in turn, white first, then moves one piece a turn to an
adjacent vacant point along a row or column (no diagonal step); a side with three pieces on a line has won, at
once. A side that cannot move loses (gameproof's choice; it never arises in a reachable position).

:func:`retrograde` solves the game by backward induction over every position reachable from the start; positions
it never resolves are draws (play can go on for ever).
"""

from __future__ import annotations

from functools import cache


WHITE, BLACK, EMPTY = "W", "B", "."
MEN = (WHITE, BLACK)
from plain_retrograde import DRAW, LOSS, WIN, paths, reachable as reached, values  # noqa: E402,F401
POINTS = [(row, col) for row in range(3) for col in range(3)]
LINES = ([[(r, c) for c in range(3)] for r in range(3)] + [[(r, c) for r in range(3)] for c in range(3)]
         + [[(k, k) for k in range(3)], [(k, 2 - k) for k in range(3)]])

Position = tuple[str, int]


def name(point: tuple[int, int]) -> str:
    row, col = point
    return f"{'abc'[col]}{row + 1}"


def at(board: str, point: tuple[int, int]) -> str:
    return board[point[0] * 3 + point[1]]


def adjacent(p: tuple[int, int], q: tuple[int, int]) -> bool:
    return abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1


def start() -> Position:
    return EMPTY * 9, 0


def lined(board: str, man: str) -> bool:
    return any(all(at(board, point) == man for point in line) for line in LINES)


def moves(position: Position) -> list[str]:
    """The legal moves of the side to move, by name (none once a side has a line)."""
    board, side = position
    if lined(board, WHITE) or lined(board, BLACK):
        return []
    vacant = [p for p in POINTS if at(board, p) == EMPTY]
    if board.count(MEN[side]) < 3:
        return [f"{name(p)}-{name(p)}" for p in vacant]
    return [f"{name(p)}-{name(q)}" for p in POINTS if at(board, p) == MEN[side] for q in vacant if adjacent(p, q)]


def play(position: Position, move: str) -> Position:
    """The position after the side to move plays `move` (assumed legal)."""
    board, side = position
    squares = list(board)
    frm, to = move.split("-")
    squares[(int(frm[1]) - 1) * 3 + "abc".index(frm[0])] = EMPTY
    squares[(int(to[1]) - 1) * 3 + "abc".index(to[0])] = MEN[side]
    return "".join(squares), 1 - side


def winner(position: Position) -> int | None:
    """The side that has won (the other side, once the side to move has no move), or None while play goes on."""
    return None if moves(position) else 1 - position[1]


def perft(position: Position, depth: int) -> int:
    """The move paths of exactly `depth` plies (a finished game is no path)."""
    return paths(position, depth, moves, play)


def text(position: Position) -> str:
    """gameproof's text of a position: the rows top to bottom separated by /, ``-`` vacant, then white or black."""
    board, side = position
    rows = [board[row * 3: row * 3 + 3].replace(EMPTY, "-") for row in reversed(range(3))]
    return "/".join(rows) + " " + ("white", "black")[side]


def images(board: str) -> set[str]:
    """The board's eight images under the square's rotations and reflections."""
    found = set()
    for swap in (False, True):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                image = []
                for row, col in POINTS:
                    r, c = (col, row) if swap else (row, col)
                    r, c = (2 - r if flip_rows else r), (2 - c if flip_cols else c)
                    image.append(at(board, (r, c)))
                found.add("".join(image))
    return found


def reachable() -> tuple[list[Position], list[list[int]]]:
    """Every position reachable from the start (the start first) and each one's successors by index."""
    return reached(start(), moves, play)


@cache  # one analysis for every test that asks (the lists are only read)
def retrograde() -> tuple[list[Position], list[int], list[list[int]]]:
    """The reachable positions, each one's value for the side to move (WIN, LOSS or DRAW) and successors: a position
    without a move is lost by its side to move (see :func:`plain_retrograde.values`)."""
    positions, successors = reachable()
    return positions, values(successors, LOSS), successors


def classes(positions: list[Position]) -> int:
    """The number of positions up to the board's eight symmetries (the side to move kept)."""
    return len({(min(images(board)), side) for board, side in positions})


def first_moves() -> tuple[int, int, dict[str, int]]:
    """The number of reachable positions, the start's value for white and each first move's value for white."""
    positions, value, _ = retrograde()
    index = {position: here for here, position in enumerate(positions)}
    first = positions[0]
    return len(positions), value[0], {move: -value[index[play(first, move)]] for move in moves(first)}
