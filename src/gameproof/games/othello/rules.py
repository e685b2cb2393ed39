"""Othello rules over 64-bit words, written once.

Every function here uses only the operators ``& | ^ ~ << >> + - *``, comparisons and integer
constants, and masks to 64 bits wherever a Python int would grow. The same source therefore runs
three ways: on plain Python ints (the readable definition), compiled with numba over ``uint64``
(:mod:`gameproof.games.othello.kernels`), and traced into a circuit by :mod:`gameproof.logic`.

A position is a pair of bitboards ``(player, opponent)`` seen from the side to move; bit ``i`` is
square ``a1 + i`` in row-major order (a1 = 0, h1 = 7, a2 = 8, …, h8 = 63). A move is a word with
exactly one bit set.

The constants below are the 8×8 board's; :func:`constants` gives those of an n×n board (n = 4, 6, 8),
whose square (row, col) is bit ``n·row + col``, and the declaration at the end registers the game
``othello:N`` built from these same functions.
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import lowest_bit, popcount  # lowest_bit: for the compiled kernels (kernels.py)
from gameproof.framework.declaration import ALL_SYMMETRIES, DRAW, LOSS, ONGOING, WIN, Board, GameSpec, Parameter
from gameproof.games.othello.board_text import OBF_BOARD

M64 = 0xFFFF_FFFF_FFFF_FFFF
N = 8  # squares along a side
BOARD = M64  # every square
FILE_A = 0x0101_0101_0101_0101  # one bit on each row
INNER_FILES = 0x7E7E_7E7E_7E7E_7E7E  # files b..g

START_BLACK = 0x0000_0008_1000_0000  # e4, d5
START_WHITE = 0x0000_0010_0800_0000  # d4, e5


def constants(n):
    """The module constants for an n×n board (n even, 4..8): the start has the four centre squares."""
    if n % 2 or not 4 <= n <= 8:
        raise BadInput(f"othello:{n} is not playable: the board side must be 4, 6 or 8")
    file_a = sum(1 << (n * row) for row in range(n))
    half = n // 2

    def square(row, col):
        return 1 << (n * row + col)

    return {"N": n, "BOARD": (1 << (n * n)) - 1, "FILE_A": file_a,
            "INNER_FILES": file_a * (((1 << n) - 1) & ~1 & ~(1 << (n - 1))),
            "START_BLACK": square(half - 1, half) | square(half, half - 1),
            "START_WHITE": square(half - 1, half - 1) | square(half, half)}


# Shifts by n squares in each of the eight directions; bits leaving the board (or wrapping
# around a file edge) vanish. "Higher" directions move toward higher bit indices.
def files_from(n):
    """Mask of the files n.. to the last (n = 0..N-1)."""
    row = (1 << N) - 1
    return ((row << n) & row) * FILE_A


def files_up_to(n):
    """Mask of the files a.. to the last but n (n = 0..N-1)."""
    return (((1 << N) - 1) >> n) * FILE_A


def step_east(x, n):
    return (x << n) & files_from(n)


def step_north(x, n):
    return (x << (N * n)) & BOARD


def step_north_east(x, n):
    return (x << ((N + 1) * n)) & files_from(n) & BOARD


def step_north_west(x, n):
    return (x << ((N - 1) * n)) & files_up_to(n) & BOARD


def step_west(x, n):
    return (x >> n) & files_up_to(n)


def step_south(x, n):
    return x >> (N * n)


def step_south_west(x, n):
    return (x >> ((N + 1) * n)) & files_up_to(n)


def step_south_east(x, n):
    return (x >> ((N - 1) * n)) & files_from(n)


def shift_up(x, n):
    """`x` moved n bit positions toward higher squares; bits past the last square vanish (files may wrap)."""
    return (x << n) & BOARD


def shift_down(x, n):
    """`x` moved n bit positions toward lower squares; bits past a1 vanish (files may wrap)."""
    return x >> n


def moves_along(shift, n, player, opponent, empty):
    """Empty squares from which a run of opponent discs, one shift by n apart, reaches a player disc.

    The shifts are not masked at the file edges: for the directions that cross files the caller
    passes only the opponent discs on files b..g, which no run that wraps around an edge can use."""
    # Runs of 1..6 opponent discs that start next to a player disc, by doubling.
    run = shift(player, n) & opponent
    run |= shift(run, n) & opponent
    pairs = shift(opponent, n) & opponent
    run |= shift(run, 2 * n) & pairs
    run |= shift(run, 2 * n) & pairs
    return shift(run, n) & empty


def legal_moves(player, opponent):
    """Bitboard of the legal moves of the side to move (before any pass)."""
    empty = ~(player | opponent) & BOARD
    inner = opponent & INNER_FILES
    # A move at s captures toward direction d when a run from s along d ends on a player disc,
    # i.e. a run from a player disc along the opposite direction reaches s.
    return (
        moves_along(shift_up, 1, player, inner, empty)  # from a player disc eastward
        | moves_along(shift_down, 1, player, inner, empty)  # westward
        | moves_along(shift_up, N, player, opponent, empty)  # northward
        | moves_along(shift_down, N, player, opponent, empty)  # southward
        | moves_along(shift_up, N + 1, player, inner, empty)  # north-east
        | moves_along(shift_down, N + 1, player, inner, empty)  # south-west
        | moves_along(shift_up, N - 1, player, inner, empty)  # north-west
        | moves_along(shift_down, N - 1, player, inner, empty)  # south-east
    )


def flips_along(shift, n, player, opponent, move):
    """Opponent discs flipped along one direction: the run of them next to `move`, when a player disc
    closes it. As in `moves_along`, directions that cross files get only the discs on files b..g."""
    run = shift(move, n) & opponent
    run |= shift(run, n) & opponent
    pairs = shift(opponent, n) & opponent
    run |= shift(run, 2 * n) & pairs
    run |= shift(run, 2 * n) & pairs
    closed = shift(run, n) & player
    # All ones when `closed` is non-zero (its top bit or that of its negation is set), else zero.
    return run & ((0 - ((closed | ((0 - closed) & M64)) >> 63)) & M64)


def flips(player, opponent, move):
    """Bitboard of the opponent discs flipped when the side to move plays the one-bit word `move`."""
    inner = opponent & INNER_FILES
    return (
        flips_along(shift_up, 1, player, inner, move)
        | flips_along(shift_down, 1, player, inner, move)
        | flips_along(shift_up, N, player, opponent, move)
        | flips_along(shift_down, N, player, opponent, move)
        | flips_along(shift_up, N + 1, player, inner, move)
        | flips_along(shift_down, N + 1, player, inner, move)
        | flips_along(shift_up, N - 1, player, inner, move)
        | flips_along(shift_down, N - 1, player, inner, move)
    )


def after_move(player, opponent, move):
    """Position after the side to move plays `move`, seen from the new side to move: (player, opponent)."""
    flipped = flips(player, opponent, move)
    return opponent ^ flipped, player | move | flipped


def is_game_over(player, opponent):
    """True when neither side has a legal move."""
    return (legal_moves(player, opponent) | legal_moves(opponent, player)) == 0


# --- the game protocol (gameproof.framework.declaration) ------------------------------------------------


def start():
    return START_BLACK, START_WHITE


def legal(player, opponent):
    return legal_moves(player, opponent)


def play(player, opponent, move):
    return after_move(player, opponent, move)


def pass_turn(player, opponent):
    return opponent, player


def result(player, opponent):
    """With no legal move: the side to move passes while the other side can move; else the game is over
    and more discs win."""
    if legal_moves(opponent, player) != 0:
        return ONGOING
    mine, theirs = popcount(player), popcount(opponent)
    if mine > theirs:
        return WIN
    if mine < theirs:
        return LOSS
    return DRAW


def score(player, opponent):
    """The final disc difference for the side to move, the empty squares going to the winner (as tournaments
    count a game that ends before the board is full)."""
    mine, theirs = popcount(player), popcount(opponent)
    empty = N * N - mine - theirs
    if mine > theirs:
        return mine - theirs + empty
    if mine < theirs:
        return mine - theirs - empty
    return 0


def estimate(player, opponent):
    """Mobility: the legal moves of each side."""
    return popcount(legal_moves(player, opponent)), popcount(legal_moves(opponent, player))


GAME = GameSpec(
    name="othello",
    rules=sys.modules[__name__],
    summary="Othello (Reversi) on an n×n board, n = 4, 6, 8; black (X) moves first",
    parameters=(Parameter("n", 8, 4, 8, "squares along a side", aliases=("size",)),),
    constants=constants,
    board=lambda n: Board(rows=n, cols=n),
    symmetries=ALL_SYMMETRIES,
    player_names=("black", "white"),
    # Mobility counts run higher than m,n,k's threat counts: at 8 rather than 16, df-pn proves 6x6 in 0.8 G
    # nodes instead of 1.3 G (docs/benchmarks.md, "Othello 6x6: the estimate's weight").
    estimate_weight=8,
    aliases=("reversi",),
    position_format=OBF_BOARD,  # --position as edax's .obf files and the FFO positions write them
)
