"""Othello rules over 64-bit words, written once.

Every function here uses only the operators ``& | ^ ~ << >> + - *``, comparisons and integer
constants, and masks to 64 bits wherever a Python int would grow. The same source therefore runs
three ways: on plain Python ints (the readable definition), compiled with numba over ``uint64``
(:mod:`gameproof.games.othello.kernels`), and traced into a circuit by :mod:`gameproof.logic`.

A position is a pair of bitboards ``(player, opponent)`` seen from the side to move; bit ``i`` is
square ``a1 + i`` in row-major order (a1 = 0, h1 = 7, a2 = 8, …, h8 = 63). A move is a word with
exactly one bit set.
"""

M64 = 0xFFFF_FFFF_FFFF_FFFF
INNER_FILES = 0x7E7E_7E7E_7E7E_7E7E  # files b..g

START_BLACK = 0x0000_0008_1000_0000  # e4, d5
START_WHITE = 0x0000_0010_0800_0000  # d4, e5


# Shifts by n squares in each of the eight directions; bits leaving the board (or wrapping
# around a file edge) vanish. "Higher" directions move toward higher bit indices.
def files_from(n):
    """Mask of the files n..h (n = 0..7)."""
    return ((0xFF << n) & 0xFF) * 0x0101_0101_0101_0101


def files_up_to(n):
    """Mask of the files a..h-n (n = 0..7)."""
    return (0xFF >> n) * 0x0101_0101_0101_0101


def step_east(x, n):
    return (x << n) & files_from(n)


def step_north(x, n):
    return (x << (8 * n)) & M64


def step_north_east(x, n):
    return (x << (9 * n)) & files_from(n)


def step_north_west(x, n):
    return (x << (7 * n)) & files_up_to(n)


def step_west(x, n):
    return (x >> n) & files_up_to(n)


def step_south(x, n):
    return x >> (8 * n)


def step_south_west(x, n):
    return (x >> (9 * n)) & files_up_to(n)


def step_south_east(x, n):
    return (x >> (7 * n)) & files_from(n)


def shift_up(x, n):
    """`x` moved n bit positions toward higher squares; bits past h8 vanish (files may wrap)."""
    return (x << n) & M64


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
    empty = ~(player | opponent) & M64
    inner = opponent & INNER_FILES
    # A move at s captures toward direction d when a run from s along d ends on a player disc,
    # i.e. a run from a player disc along the opposite direction reaches s.
    return (
        moves_along(shift_up, 1, player, inner, empty)  # from a player disc eastward
        | moves_along(shift_down, 1, player, inner, empty)  # westward
        | moves_along(shift_up, 8, player, opponent, empty)  # northward
        | moves_along(shift_down, 8, player, opponent, empty)  # southward
        | moves_along(shift_up, 9, player, inner, empty)  # north-east
        | moves_along(shift_down, 9, player, inner, empty)  # south-west
        | moves_along(shift_up, 7, player, inner, empty)  # north-west
        | moves_along(shift_down, 7, player, inner, empty)  # south-east
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
        | flips_along(shift_up, 8, player, opponent, move)
        | flips_along(shift_down, 8, player, opponent, move)
        | flips_along(shift_up, 9, player, inner, move)
        | flips_along(shift_down, 9, player, inner, move)
        | flips_along(shift_up, 7, player, inner, move)
        | flips_along(shift_down, 7, player, inner, move)
    )


def popcount(x):
    """Number of set bits of a 64-bit word."""
    x = x - ((x >> 1) & 0x5555_5555_5555_5555)
    x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333)
    x = (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F
    return ((x * 0x0101_0101_0101_0101) & M64) >> 56


def lowest_bit(x):
    """The lowest set bit of `x` as a one-bit word (0 when x == 0)."""
    return x & ((0 - x) & M64)


def after_move(player, opponent, move):
    """Position after the side to move plays `move`, seen from the new side to move: (player, opponent)."""
    flipped = flips(player, opponent, move)
    return opponent ^ flipped, player | move | flipped


def is_game_over(player, opponent):
    """True when neither side has a legal move."""
    return (legal_moves(player, opponent) | legal_moves(opponent, player)) == 0
