"""Verify, from the board's geometry alone, that a side has already won whatever is played: the positions where
a certificate may stop short of the game's end (where the game's ``won`` says so, see
:func:`gameproof.framework.derived.won_only`), for the built-in games whose claim this module knows how to verify.

**Hex: joined by pairs.** A side is joined by pairs when its stones and a set of pairs of empty cells, no two pairs
sharing a cell, join its two edges however each pair is split: whenever the other side takes a cell of a pair, the
side takes the other, so it ends with a cell of every pair and has joined its edges (in Hex nobody else can have
joined first: two joined sides would cross). The pairs are found here as the rules module finds them, though not by
its code: the *reach* starts as the side's stones joined to its first edge; while the reach does not touch the
second edge, the empty cells not yet in a pair that touch the reach (or lie on the first edge) are its *front*; two
cells of the front on the second edge join it (a pair); else the first group of the side's stones, in the order of
its lowest cell next to the front, that touches two cells of the front joins the reach by the lowest two (a pair),
and the search goes on; with no such group, no answer (a pair of cells that each touch both the reach and the group
joins them whichever the side gets, so each pair only ever makes the claim safer to rely on).

This module imports the game's declaration (:class:`~gameproof.framework.game.Game`, for its board and its words as
layers) and :func:`~gameproof.framework.registry.is_builtin`, and nothing from the search or the rules module: a
user's game named ``hex`` is not this Hex, and gets no verifier.
"""

from __future__ import annotations

from collections.abc import Callable

from gameproof.framework.game import Game
from gameproof.framework.registry import is_builtin

Cell = tuple[int, int]
#: The six cells around (row, col) on the Hex rhombus, as steps.
_HEX_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, -1), (-1, 1))


class _HexBoard:
    """An n×n Hex board's cells, each with its neighbours and its bit in a layer, and the edges of each side."""

    def __init__(self, game: Game) -> None:
        n, board = game.board.rows, game.board
        self.game = game
        self.cells = sorted(((row, col) for row in range(n) for col in range(n)), key=lambda cell: board.bit(*cell))
        self.bit = {cell: board.bit(*cell) for cell in self.cells}
        self.around = {(row, col): [(row + dr, col + dc) for dr, dc in _HEX_STEPS
                                    if 0 <= row + dr < n and 0 <= col + dc < n] for row, col in self.cells}
        # black (0) joins the first and last rows, white (1) the first and last columns
        self.edges = [({cell for cell in self.cells if cell[axis] == 0},
                       {cell for cell in self.cells if cell[axis] == n - 1}) for axis in (0, 1)]

    def stones(self, layer: int) -> set[Cell]:
        return {cell for cell in self.cells if layer >> self.bit[cell] & 1}

    def group(self, seeds: set[Cell], stones: set[Cell]) -> set[Cell]:
        """The cells `seeds` and every stone of `stones` joined to them by stones."""
        found, frontier = set(seeds), list(seeds)
        while frontier:
            for near in self.around[frontier.pop()]:
                if near in stones and near not in found:
                    found.add(near)
                    frontier.append(near)
        return found

    def joined_by_pairs(self, words: tuple[int, ...], side: int) -> bool:
        """Whether `side` (0 black, 1 white) is joined by pairs in the position `words` (see the module's text)."""
        layers = self.game.layer_sets(words)
        stones, theirs = self.stones(layers[side]), self.stones(layers[1 - side])
        free = {cell for cell in self.cells if cell not in stones and cell not in theirs}
        first, last = self.edges[side]
        reach = self.group(stones & first, stones)
        while not reach & last:
            front = [cell for cell in self.cells if cell in free and (cell in first or any(
                near in reach for near in self.around[cell]))]
            if sum(cell in last for cell in front) >= 2:
                return True
            linked = self._first_linked(front, reach, stones)
            if linked is None:
                return False
            group, pair = linked
            free -= pair
            reach |= group
        return True

    def _first_linked(self, front: list[Cell], reach: set[Cell], stones: set[Cell]) -> tuple[set[Cell], set[Cell]] | None:
        """The first group of `stones` outside `reach` (by its lowest cell next to the `front`) that touches two cells of
        the front, with the lowest two; None if no group does."""
        on_front = set(front)
        seen: set[Cell] = set()
        for stone in self.cells:
            if stone not in stones or stone in reach or stone in seen:
                continue
            if not any(near in on_front for near in self.around[stone]):
                continue
            group = self.group({stone}, stones)
            seen |= group
            touching = [cell for cell in front if any(near in group for near in self.around[cell])]
            if len(touching) >= 2:
                return group, set(touching[:2])
        return None


def won_verifier(game: Game) -> Callable[[tuple[int, ...], int], bool] | None:
    """For a game whose ``won`` claims this module verifies, a function telling whether a side (0 or 1) has won in a
    position (its words) whatever is played; None for every other game (a certificate of it ends at real ends)."""
    if game.spec.name == "hex" and is_builtin(game.spec):
        return _HexBoard(game).joined_by_pairs
    return None
