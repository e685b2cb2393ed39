"""m,n,k games declared from their rules: R rows × C columns, k in a row (``mnk:3,3,3`` is tic-tac-toe).

Three games share these rules:

- ``mnk``: the players place stones in turn; k in a row (across, up or along a diagonal) wins, a full
  board is a draw. The position is two words, the side to move's stones and the other side's.
- ``mnk-misere``: the same, but whoever makes k in a row loses.
- ``mnk-notakto`` (Notakto): both players place the same mark; whoever completes k marks in a row loses.
  The position is one word, the marks.

Cell (r, c) is bit r·C + c (row-major, dense). The functions tell the games apart by how many words
they are given (``len(words)``, which numba knows when it compiles them) and by the constant
``MISERE``. Lines are found with shifts: along a direction of step d (1 across, C up, C + 1 and
C − 1 along the diagonals), ``x & x >> d & … & x >> (k−1)d`` holds the cells that begin k of ``x`` in a
row, and the precomputed ``START_*`` mask keeps only the cells from which such a window stays on the
board, so nothing wraps from one row into the next.
"""

import sys
from functools import partial

from gameproof.answers import Variant
from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import ALL_SYMMETRIES, DRAW, LOSS, WIN, Board, GameSpec, Parameter

#: How many words a Notakto position has (the others have two). Compared with ``len(words)`` as a named
#: constant, not a literal: compile_rules wraps literals in uint64 calls, and numba drops the branch of
#: the other arity (whose return type differs, in `play`) only when both sides of the test are constants.
ONE_WORD = 1

# Tic-tac-toe; `constants` gives them for other parameters.
ROWS, COLS, K = 3, 3, 3
CELLS = (1 << (ROWS * COLS)) - 1
UP, UP_RIGHT, UP_LEFT = COLS, COLS + 1, COLS - 1  # the steps of three directions (across is 1)
START_ACROSS, START_UP, START_UP_RIGHT, START_UP_LEFT = 0o111, 0o007, 0o001, 0o004
MISERE = 0  # 1: k in a row loses (misère and Notakto)
WORDS = 2  # words of a position: 1 for Notakto


def window_starts(rows, cols, k, dr, dc):
    """Mask of the cells from which k cells along (dr, dc) all lie on the board."""
    mask = 0
    for r in range(rows):
        for c in range(cols):
            end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
            if 0 <= end_r < rows and 0 <= end_c < cols:
                mask |= 1 << (r * cols + c)
    return mask


def constants(rows, cols, k, variant):
    """The module constants for an m,n,k game (`variant`: normal, misere or notakto)."""
    if variant not in tuple(Variant):
        raise BadInput(f"unknown m,n,k variant {variant!r}; known: {', '.join(Variant)}")
    if rows < 1 or cols < 1:
        raise BadInput(f"a board needs at least one row and one column, not {rows}x{cols}")
    if rows * cols > 64:
        raise BadInput(f"a {rows}x{cols} board has {rows * cols} cells; at most 64 fit in a word")
    if k < 1:
        raise BadInput(f"k must be at least 1, not {k}")
    across = window_starts(rows, cols, k, 0, 1)
    up = window_starts(rows, cols, k, 1, 0)
    up_right = window_starts(rows, cols, k, 1, 1)
    up_left = window_starts(rows, cols, k, 1, -1)
    if k == 1:  # one cell is a line in every direction: count it once
        up = up_right = up_left = 0
    return {"ROWS": rows, "COLS": cols, "K": k, "CELLS": (1 << (rows * cols)) - 1,
            "UP": cols, "UP_RIGHT": cols + 1, "UP_LEFT": cols - 1,
            "START_ACROSS": across, "START_UP": up, "START_UP_RIGHT": up_right, "START_UP_LEFT": up_left,
            "MISERE": int(variant != Variant.NORMAL), "WORDS": 1 if variant == Variant.NOTAKTO else 2}


# --- k in a row by shifts -----------------------------------------------------------------------------


def runs(x, step):
    """The cells that begin k cells of `x` in a row, each `step` bits above the one before (unmasked)."""
    run = x
    shifted = x
    for _ in range(1, K):
        shifted = shifted >> step
        run = run & shifted
    return run


def line_starts(x):
    """Non-zero when `x` holds k in a row somewhere on the board."""
    return ((runs(x, 1) & START_ACROSS) | (runs(x, UP) & START_UP) | (runs(x, UP_RIGHT) & START_UP_RIGHT)
            | (runs(x, UP_LEFT) & START_UP_LEFT))


def windows(free):
    """Number of k-windows on the board whose cells are all in `free`."""
    return (popcount(runs(free, 1) & START_ACROSS) + popcount(runs(free, UP) & START_UP)
            + popcount(runs(free, UP_RIGHT) & START_UP_RIGHT) + popcount(runs(free, UP_LEFT) & START_UP_LEFT))


def completing_along(x, free, step, starts):
    """The cells of `free` where a stone would complete k of `x` in a row along `step` (windows beginning at
    `starts`): for each place of the hole in a window, the windows whose other k − 1 cells are `x`'s."""
    cells = 0
    for hole in range(K):
        run = starts
        shifted_x, shifted_free = x, free
        for place in range(K):
            if place == hole:
                run = run & shifted_free
            else:
                run = run & shifted_x
            shifted_x, shifted_free = shifted_x >> step, shifted_free >> step
        for _ in range(hole):  # back from the window's first cell to its hole
            run = run << step
        cells = cells | run
    return cells


def completing(x, free):
    """The cells of `free` where a stone would complete k of `x` in a row."""
    return (completing_along(x, free, 1, START_ACROSS) | completing_along(x, free, UP, START_UP)
            | completing_along(x, free, UP_RIGHT, START_UP_RIGHT) | completing_along(x, free, UP_LEFT, START_UP_LEFT))


# --- the game protocol (gameproof.framework.declaration) --------------------------------------------------


def start():
    if WORDS == ONE_WORD:
        return (0,)
    return 0, 0


def legal(*words):
    """The empty cells; none once the last mover has k in a row (in Notakto every mark is his too)."""
    if len(words) == ONE_WORD:
        marks = words[0]
        if line_starts(marks) != 0:
            return 0
        return CELLS & ~marks
    mine, theirs = words[0], words[1]
    if line_starts(theirs) != 0:
        return 0
    return CELLS & ~(mine | theirs)


def play(mine, *rest):
    """``play(mine, theirs, move)`` -> (theirs, mine + move); Notakto: ``play(marks, move)`` -> (marks + move,)."""
    if len(rest) == ONE_WORD:
        return (mine | rest[0],)
    return rest[0], mine | rest[1]


def result(*words):
    """Called when no cell is playable: the last mover made k in a row, or the board is full (a draw)."""
    if len(words) == ONE_WORD:
        if line_starts(words[0]) != 0:
            return WIN  # the other player completed a line of marks
        return DRAW
    if line_starts(words[1]) != 0:
        if MISERE != 0:
            return WIN
        return LOSS
    return DRAW


def estimate(*words):
    """Open lines (k-windows free of the opponent's stones) of each side: they favour their owner in the
    normal game and threaten him in misère, where each empty cell that would complete a line of a side's
    (a cell that side can no longer play) threatens him too: whoever runs out of other cells loses.
    Notakto: none."""
    if len(words) == ONE_WORD:
        return 0, 0
    mine, theirs = words[0], words[1]
    own = windows(CELLS & ~theirs)
    other = windows(CELLS & ~mine)
    if MISERE != 0:
        free = CELLS & ~(mine | theirs)
        return other + popcount(completing(theirs, free)), own + popcount(completing(mine, free))
    return own, other


# --- declarations -------------------------------------------------------------------------------------


def board(rows, cols, k):
    return Board(rows, cols)


def remarks(rows, cols, k, variant):
    """What is degenerate about an m,n,k game: a k of 1, or a k longer than any line of the board."""
    if k == 1:
        outcome = "wins" if variant == Variant.NORMAL else "loses"
        return [f"k = 1: the first move makes k in a row, so the first player {outcome} at once, whatever it plays"]
    if k > max(rows, cols):
        return [f"k = {k} is longer than any line of the {rows}x{cols} board: nobody can make k in a row, so every "
                "game fills the board and is a draw"]
    return []


def _declare(name, variant, summary, **more):
    """One of the three games these rules play."""
    parameters = (Parameter("rows", 3, 1, 26, "rows of the board"), Parameter("cols", 3, 1, 26, "columns of the board"),
                  Parameter("k", 3, 1, 26, "stones in a row that end the game"))
    return GameSpec(name=name, rules=sys.modules[__name__], summary=summary, parameters=parameters,
                    constants=partial(constants, variant=variant), board=board, symmetries=ALL_SYMMETRIES,
                    remarks=partial(remarks, variant=variant), **more)


GAMES = (
    _declare("mnk", Variant.NORMAL, "m,n,k game on an R×C board: k in a row wins (mnk:3,3,3 is tic-tac-toe)"),
    # the 1+ε trick's ε: misère 5x5 k3 in 38.0 s with 0.25, 43.8 s without the trick (docs/benchmarks.md)
    _declare("mnk-misere", Variant.MISERE, "misère m,n,k game on an R×C board: k in a row loses", epsilon=0.25),
    _declare("mnk-notakto", Variant.NOTAKTO, "Notakto on an R×C board: both players place X; whoever completes k in a row loses",
             perspective=False, pieces="X", player_names=("first", "second"), aliases=("notakto",)),
)
