"""Othello perft (move-path enumeration) in numba, in the three published conventions.

- ``edax``: a pass is a ply; games that end before the last ply are not counted (OEIS A124004).
- ``bik``: a pass is a ply; a game that ends early is counted as one leaf.
- ``nopass``: a pass is not a ply; a game that ends early is counted as one leaf (Egaroucid's mode 2).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import uint64

from gameproof.games.othello import kernels, rules
from gameproof.games.othello.kernels import flips, legal_moves, lowest_bit, popcount
from gameproof.games.othello.notation import PASS, square_name
from gameproof.games.othello.position import Position
from gameproof.jit import cached_kernel

# convention -> (a finished game counts as a leaf, a pass is a ply)
CONVENTIONS = {"edax": (False, True), "bik": (True, True), "nopass": (True, False)}


@cached_kernel(depends_on=(rules, kernels))
def _perft(player, opponent, depth, count_finished, pass_is_ply):
    moves = legal_moves(player, opponent)
    if moves == 0:
        if legal_moves(opponent, player) == 0:
            return uint64(1) if count_finished else uint64(0)
        if not pass_is_ply:
            return _perft(opponent, player, depth, count_finished, pass_is_ply)
        if depth == 1:
            return uint64(1)
        return _perft(opponent, player, depth - 1, count_finished, pass_is_ply)
    if depth == 1:
        return popcount(moves)
    total = uint64(0)
    while moves != 0:
        move = lowest_bit(moves)
        moves ^= move
        flipped = flips(player, opponent, move)
        total += _perft(opponent ^ flipped, player | move | flipped, depth - 1, count_finished, pass_is_ply)
    return total


def perft(player: int, opponent: int, depth: int, convention: str = "edax") -> int:
    """Number of move paths of `depth` plies from the position (player to move), per `convention`."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown perft convention {convention!r}; choose from {', '.join(CONVENTIONS)}")
    if depth < 0:
        raise ValueError("perft depth must be >= 0")
    if depth == 0:
        return 1
    count_finished, pass_is_ply = CONVENTIONS[convention]
    return int(_perft(np.uint64(player), np.uint64(opponent), np.int64(depth), count_finished, pass_is_ply))


def perft_divide(
    position: Position, depth: int, convention: str = "edax", on_move: Callable[[str, int], None] | None = None
) -> dict[str, int]:
    """Perft split by the first move: {move name: paths below it}; `on_move` is called after each one."""
    if depth < 1:
        raise ValueError("perft --divide needs depth >= 1")
    counts: dict[str, int] = {}
    for move in position.legal_moves():
        position.play(move)
        remaining = depth if move == PASS and convention == "nopass" else depth - 1
        counts[square_name(move)] = perft(position.player, position.opponent, remaining, convention)
        position.undo()
        if on_move is not None:
            on_move(square_name(move), counts[square_name(move)])
    return counts
