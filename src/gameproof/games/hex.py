"""Hex on an n×n rhombus (``hex:N``, 2..11; 11×11 by default): black, who moves first, places a stone on an
empty cell to join rows 1 and n; white joins columns a and n. Cell (r, c) touches (r, c ± 1), (r ± 1, c),
(r + 1, c - 1) and (r - 1, c + 1). The board cannot fill up without one side joined, so there are no draws.

The position is four words: black's stones as a layer of two words, then white's (the colours' goals differ,
so the words are absolute and the rules are told who is to move). Cell (r, c) is bit ``r * STRIDE + c`` of a
layer, bit ``b`` being bit ``b % 64`` of the layer's word ``b // 64``. A 9×9 or larger board needs the two
words; a smaller one is spread over them too (a row every STRIDE bits, ``STRIDE`` above n), so that one set of
rule functions, of one arity, serves every size.
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import lowest_bit, popcount
from gameproof.framework.declaration import LOSS, ONGOING, WIN, Board, GameSpec, Parameter, Symmetry

M64 = 0xFFFF_FFFF_FFFF_FFFF


def stride(n):
    """Bits from one row to the next: n, or more on a small board so that its last cell is bit 64 or above."""
    return max(n, -(-64 // (n - 1)) - 1)


def layer_mask(n, cells):
    """The (row, col) `cells` of an n×n board as the two words of a layer."""
    value = sum(1 << (row * stride(n) + col) for row, col in cells)
    return value & M64, value >> 64


def constants(n):
    """The module constants for an n×n board."""
    if not 2 <= n <= 11:
        raise BadInput(f"hex:{n}: the board side must be 2..11")
    every = [(row, col) for row in range(n) for col in range(n)]
    names = {"CELLS": every,
             "NOT_FIRST_COL": [(row, col) for row, col in every if col > 0],
             "NOT_LAST_COL": [(row, col) for row, col in every if col < n - 1],
             "FIRST_ROW": [(0, col) for col in range(n)], "LAST_ROW": [(n - 1, col) for col in range(n)],
             "FIRST_COL": [(row, 0) for row in range(n)], "LAST_COL": [(row, n - 1) for row in range(n)]}
    found = {"N": n, "STRIDE": stride(n), "FILL_STEPS": (n * n + 1) // 2}
    for name, cells in names.items():
        found[f"{name}_LO"], found[f"{name}_HI"] = layer_mask(n, cells)
    return found


# What `connection` found: no connection, one joined by pairs, one that a key cell more joins.
NONE, JOINED, ONE_MOVE = 0, 1, 2

# The default 11×11 board's constants (STRIDE 11); `constants` gives them for every size.
N, STRIDE, FILL_STEPS = 11, 11, 61
CELLS_LO, CELLS_HI = M64, (1 << 57) - 1
NOT_FIRST_COL_LO, NOT_FIRST_COL_HI = 0xFF7F_EFFD_FFBF_F7FE, 0x1FF_BFF7_FEFF_DFFB
NOT_LAST_COL_LO, NOT_LAST_COL_HI = 0xFFBF_F7FE_FFDF_FBFF, 0xFF_DFFB_FF7F_EFFD
FIRST_ROW_LO, FIRST_ROW_HI = 0x7FF, 0
LAST_ROW_LO, LAST_ROW_HI = 0, 0x1FF_C000_0000_0000
FIRST_COL_LO, FIRST_COL_HI = 0x80_1002_0040_0801, 0x4008_0100_2004
LAST_COL_LO, LAST_COL_HI = 0x40_0801_0020_0400, 0x100_2004_0080_1002


# --- a layer of two words, shifted by k bits (1..63) toward higher or lower cells -------------------------


def up(lo, hi, k):
    return (lo << k) & M64, ((hi << k) | (lo >> (64 - k))) & M64


def down(lo, hi, k):
    return (lo >> k) | ((hi << (64 - k)) & M64), hi >> k


def neighbours(lo, hi):
    """The cells touching those of the layer (lo, hi)."""
    east_lo, east_hi = up(lo, hi, 1)
    west_lo, west_hi = down(lo, hi, 1)
    north_lo, north_hi = up(lo, hi, STRIDE)
    south_lo, south_hi = down(lo, hi, STRIDE)
    north_west_lo, north_west_hi = up(lo, hi, STRIDE - 1)  # (r + 1, c - 1)
    south_east_lo, south_east_hi = down(lo, hi, STRIDE - 1)  # (r - 1, c + 1)
    return (((east_lo | south_east_lo) & NOT_FIRST_COL_LO) | ((west_lo | north_west_lo) & NOT_LAST_COL_LO)
            | ((north_lo | south_lo) & CELLS_LO),
            ((east_hi | south_east_hi) & NOT_FIRST_COL_HI) | ((west_hi | north_west_hi) & NOT_LAST_COL_HI)
            | ((north_hi | south_hi) & CELLS_HI))


def joined(lo, hi, from_lo, from_hi, to_lo, to_hi):
    """Whether the stones (lo, hi) join the edge cells (from_lo, from_hi) to (to_lo, to_hi): a flood fill
    from the first edge, one step per round (a chain of stones is never longer than one side's stones). A fixed
    number of rounds, not :func:`group`'s until nothing changes: traced symbolically (`gameproof reach`), a loop
    that stops on what the stones are would branch at every round."""
    reach_lo, reach_hi = lo & from_lo, hi & from_hi
    for _ in range(FILL_STEPS):
        next_lo, next_hi = neighbours(reach_lo, reach_hi)
        reach_lo, reach_hi = (reach_lo | next_lo) & lo, (reach_hi | next_hi) & hi
    return ((reach_lo & to_lo) | (reach_hi & to_hi)) != 0


def black_joined(black_lo, black_hi):
    return joined(black_lo, black_hi, FIRST_ROW_LO, FIRST_ROW_HI, LAST_ROW_LO, LAST_ROW_HI)


def white_joined(white_lo, white_hi):
    return joined(white_lo, white_hi, FIRST_COL_LO, FIRST_COL_HI, LAST_COL_LO, LAST_COL_HI)


def distance(own_lo, own_hi, other_lo, other_hi, from_lo, from_hi, to_lo, to_hi):
    """The fewest empty cells a side must still fill to join the edge cells (from_lo, from_hi) to (to_lo, to_hi)
    with its stones (own_lo, own_hi), the other side's blocking, or N if that is N or more: its stones
    joined to the first edge are flooded, then one empty cell is added to the front, and so on."""
    empty_lo, empty_hi = CELLS_LO & ~(own_lo | other_lo), CELLS_HI & ~(own_hi | other_hi)
    reach_lo, reach_hi = own_lo & from_lo, own_hi & from_hi
    for filled in range(N):
        reach_lo, reach_hi = group(reach_lo, reach_hi, own_lo, own_hi)
        if (reach_lo & to_lo) | (reach_hi & to_hi) != 0:
            return filled
        next_lo, next_hi = neighbours(reach_lo, reach_hi)
        reach_lo, reach_hi = reach_lo | ((next_lo | from_lo) & empty_lo), reach_hi | ((next_hi | from_hi) & empty_hi)
    return N


def group(seed_lo, seed_hi, own_lo, own_hi):
    """The cells (seed_lo, seed_hi) and the stones of (own_lo, own_hi) joined to them."""
    reach_lo, reach_hi = seed_lo, seed_hi
    while True:
        next_lo, next_hi = neighbours(reach_lo, reach_hi)
        next_lo, next_hi = reach_lo | (next_lo & own_lo), reach_hi | (next_hi & own_hi)
        if next_lo == reach_lo and next_hi == reach_hi:
            return reach_lo, reach_hi
        reach_lo, reach_hi = next_lo, next_hi


def count(lo, hi):
    """The cells of the layer (lo, hi)."""
    return popcount(lo) + popcount(hi)


def first_cell(lo, hi):
    """The lowest cell of the layer (lo, hi), as a layer."""
    one_lo = lowest_bit(lo)
    if one_lo != 0:
        return one_lo, 0
    return 0, lowest_bit(hi)


def first_two(lo, hi):
    """The two lowest cells of the layer (lo, hi), which holds two or more."""
    one_lo, one_hi = first_cell(lo, hi)
    two_lo, two_hi = first_cell(lo & ~one_lo, hi & ~one_hi)
    return one_lo | two_lo, one_hi | two_hi


def connection(own_lo, own_hi, other_lo, other_hi, from_lo, from_hi, to_lo, to_hi, keys):
    """Whether a side joins the edge cells (from_lo, from_hi) to (to_lo, to_hi) however the other side plays, once
    it has taken up to `keys` (0 or 1) more cells, by pairs of empty cells: where the other side takes one cell of a
    pair, the side takes the other. (NONE, JOINED or ONE_MOVE: joined with a key cell still to take; the carrier:
    the pairs' cells and the key).

    The reach starts as the side's stones joined to the first edge; a group of its stones joins the reach by a
    pair of free empty cells each touching both (a bridge; an edge cell counts as touching the first edge), the pair
    then kept for that bridge alone, or, where no group joins so, by a single free cell touching both, the key; the
    side is joined once the reach touches the second edge, or two free empty cells of it (or one, as the key). Each
    link uses cells no earlier link kept, so the answer is never wrong, though another choice of pairs may find what
    this one misses."""
    free_lo, free_hi = CELLS_LO & ~(own_lo | other_lo), CELLS_HI & ~(own_hi | other_hi)
    kept_lo, kept_hi, keyed = 0, 0, 0
    reach_lo, reach_hi = group(own_lo & from_lo, own_hi & from_hi, own_lo, own_hi)
    rest_lo, rest_hi = own_lo & ~reach_lo, own_hi & ~reach_hi
    while True:
        found = ONE_MOVE if keyed != 0 else JOINED
        if (reach_lo & to_lo) | (reach_hi & to_hi) != 0:
            return found, kept_lo, kept_hi
        touch_lo, touch_hi = neighbours(reach_lo, reach_hi)
        touch_lo, touch_hi = (touch_lo | from_lo) & free_lo, (touch_hi | from_hi) & free_hi
        ends = count(touch_lo & to_lo, touch_hi & to_hi)
        if ends >= 2:
            pair_lo, pair_hi = first_two(touch_lo & to_lo, touch_hi & to_hi)
            return found, kept_lo | pair_lo, kept_hi | pair_hi
        link_lo, link_hi, joined_lo, joined_hi = 0, 0, 0, 0
        key_lo, key_hi, keyed_lo, keyed_hi = 0, 0, 0, 0  # the first group a single cell links
        left_lo, left_hi = neighbours(touch_lo, touch_hi)  # only a group with a stone next to a free cell links
        left_lo, left_hi = left_lo & rest_lo, left_hi & rest_hi
        while left_lo | left_hi != 0:
            seed_lo, seed_hi = first_cell(left_lo, left_hi)
            stones_lo, stones_hi = group(seed_lo, seed_hi, own_lo, own_hi)
            left_lo, left_hi = left_lo & ~stones_lo, left_hi & ~stones_hi
            near_lo, near_hi = neighbours(stones_lo, stones_hi)
            near_lo, near_hi = near_lo & touch_lo, near_hi & touch_hi
            near = count(near_lo, near_hi)
            if near >= 2:
                link_lo, link_hi = first_two(near_lo, near_hi)
                joined_lo, joined_hi = stones_lo, stones_hi
                break
            if near == 1 and keyed_lo | keyed_hi == 0:
                key_lo, key_hi, keyed_lo, keyed_hi = near_lo, near_hi, stones_lo, stones_hi
        if joined_lo | joined_hi == 0:
            if keys == 0 or keyed != 0:
                return NONE, kept_lo, kept_hi
            keyed = 1
            if ends == 1:
                key_lo, key_hi = touch_lo & to_lo, touch_hi & to_hi
                return ONE_MOVE, kept_lo | key_lo, kept_hi | key_hi
            if keyed_lo | keyed_hi == 0:
                return NONE, kept_lo, kept_hi
            link_lo, link_hi, joined_lo, joined_hi = key_lo, key_hi, keyed_lo, keyed_hi
        free_lo, free_hi = free_lo & ~link_lo, free_hi & ~link_hi
        kept_lo, kept_hi = kept_lo | link_lo, kept_hi | link_hi
        reach_lo, reach_hi = reach_lo | joined_lo, reach_hi | joined_hi
        rest_lo, rest_hi = rest_lo & ~joined_lo, rest_hi & ~joined_hi


# --- the game protocol (gameproof.framework.declaration), each function told who is to move (0: black) ---


def start():
    return 0, 0, 0, 0


def legal(to_move, black_lo, black_hi, white_lo, white_hi):
    """The empty cells, unless the side that moved last has joined its edges."""
    if to_move == 0:
        if white_joined(white_lo, white_hi):
            return 0, 0
    elif black_joined(black_lo, black_hi):
        return 0, 0
    return CELLS_LO & ~(black_lo | white_lo), CELLS_HI & ~(black_hi | white_hi)


def play(to_move, black_lo, black_hi, white_lo, white_hi, cell_lo, cell_hi):
    if to_move == 0:
        return black_lo | cell_lo, black_hi | cell_hi, white_lo, white_hi
    return black_lo, black_hi, white_lo | cell_lo, white_hi | cell_hi


def result(to_move, black_lo, black_hi, white_lo, white_hi):
    """Asked only once the side that moved last has joined its edges: the side to move has lost."""
    return LOSS


def estimate(to_move, black_lo, black_hi, white_lo, white_hi):
    """Each side's count is the other side's distance from joining its edges (0..N), the side to move's first:
    df-pn then starts a node's proof number at its attacker's distance, its disproof number at its defender's."""
    black = distance(black_lo, black_hi, white_lo, white_hi, FIRST_ROW_LO, FIRST_ROW_HI, LAST_ROW_LO, LAST_ROW_HI)
    white = distance(white_lo, white_hi, black_lo, black_hi, FIRST_COL_LO, FIRST_COL_HI, LAST_COL_LO, LAST_COL_HI)
    if to_move == 0:
        return white, black
    return black, white


def sides(to_move, black_lo, black_hi, white_lo, white_hi):
    """The side to move's stones and edges (first, second), then the other side's: each four words, a pair of layers."""
    if to_move == 0:
        return (black_lo, black_hi, white_lo, white_hi, FIRST_ROW_LO, FIRST_ROW_HI, LAST_ROW_LO, LAST_ROW_HI,
                white_lo, white_hi, black_lo, black_hi, FIRST_COL_LO, FIRST_COL_HI, LAST_COL_LO, LAST_COL_HI)
    return (white_lo, white_hi, black_lo, black_hi, FIRST_COL_LO, FIRST_COL_HI, LAST_COL_LO, LAST_COL_HI,
            black_lo, black_hi, white_lo, white_hi, FIRST_ROW_LO, FIRST_ROW_HI, LAST_ROW_LO, LAST_ROW_HI)


def decided(to_move, black_lo, black_hi, white_lo, white_hi):
    """WIN or LOSS where a :func:`connection` settles the game: the other side's (it has joined however the side to
    move plays; or it has two, each a key cell away, whose carriers share no cell: the side to move can break one
    at most), or the side to move's own, a key cell away at most. Else ONGOING."""
    (own_lo, own_hi, other_lo, other_hi, own_from_lo, own_from_hi, own_to_lo, own_to_hi,
     _, _, _, _, other_from_lo, other_from_hi, other_to_lo, other_to_hi) = sides(to_move, black_lo, black_hi,
                                                                                 white_lo, white_hi)
    threat, carrier_lo, carrier_hi = connection(other_lo, other_hi, own_lo, own_hi, other_from_lo, other_from_hi,
                                                other_to_lo, other_to_hi, 1)
    if threat == JOINED:
        return LOSS
    mine, _, _ = connection(own_lo, own_hi, other_lo, other_hi, own_from_lo, own_from_hi, own_to_lo, own_to_hi, 1)
    if mine != NONE:
        return WIN
    if threat == ONE_MOVE:
        second, _, _ = connection(other_lo, other_hi, own_lo | carrier_lo, own_hi | carrier_hi, other_from_lo,
                                  other_from_hi, other_to_lo, other_to_hi, 1)
        if second != NONE:
            return LOSS
    return ONGOING


def won(to_move, black_lo, black_hi, white_lo, white_hi):
    """WIN or LOSS where a side is joined by pairs (a :func:`connection` with no key cell): it wins whoever moves. The
    part of :func:`decided` that the certificate checker verifies with its own code (:mod:`gameproof.certify.won`),
    so that a certificate ends there. Else ONGOING."""
    (own_lo, own_hi, other_lo, other_hi, own_from_lo, own_from_hi, own_to_lo, own_to_hi,
     _, _, _, _, other_from_lo, other_from_hi, other_to_lo, other_to_hi) = sides(to_move, black_lo, black_hi,
                                                                                 white_lo, white_hi)
    theirs, _, _ = connection(other_lo, other_hi, own_lo, own_hi, other_from_lo, other_from_hi, other_to_lo,
                              other_to_hi, 0)
    if theirs == JOINED:
        return LOSS
    mine, _, _ = connection(own_lo, own_hi, other_lo, other_hi, own_from_lo, own_from_hi, own_to_lo, own_to_hi, 0)
    if mine == JOINED:
        return WIN
    return ONGOING


def centre_first(n):
    """The cells by their distance from the centre (hex steps, doubled): the moves df-pn tries first."""
    def distance(row, col):
        dr, dc = 2 * row - (n - 1), 2 * col - (n - 1)
        return max(abs(dr), abs(dc), abs(dr + dc))

    cells = sorted(((row, col) for row in range(n) for col in range(n)), key=lambda cell: distance(*cell))
    return [row * stride(n) + col for row, col in cells]


GAME = GameSpec(
    name="hex",
    rules=sys.modules[__name__],
    summary="Hex on an n×n rhombus: black joins top and bottom, white left and right",
    parameters=(Parameter("n", 11, 2, 11, "cells along a side", aliases=("size",)),),
    constants=constants,
    board=lambda n: Board(n, n, row_stride=stride(n)),
    symmetries=(Symmetry.ROTATE_180,),  # a transpose would swap the colours' goals
    turn_argument=True,
    perspective=False,
    move_order=centre_first,
    pieces="XO",
    player_names=("black", "white"),
    draws=False,
)
