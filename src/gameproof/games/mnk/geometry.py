"""Board geometry of an m,n,k-game: square names, k-in-a-row lines, symmetries, key weights.

Square ``i`` is row ``i // cols``, column ``i % cols`` (row-major from ``a1``, as in Othello);
it is named by its column letter and row number: ``a1``, ``b1``, …, ``a2``, …
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from gameproof.errors import BadInput

VARIANTS = ("normal", "misere", "notakto")
MAX_CELLS = 64
#: Largest board whose normal/misère keys are exact ternary codes (3**40 < 2**64).
EXACT_TERNARY_CELLS = 40


@dataclass(frozen=True)
class Geometry:
    """Lines and symmetries of an ``rows`` × ``cols`` board with ``k`` in a row."""

    rows: int
    cols: int
    k: int
    variant: str = "normal"

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise BadInput(f"unknown m,n,k variant {self.variant!r}; known: {', '.join(VARIANTS)}")
        if not (1 <= self.rows <= 26 and 1 <= self.cols <= 26) or self.rows * self.cols > MAX_CELLS:
            raise BadInput(f"board {self.rows}x{self.cols} unsupported: need 1..26 rows and columns, at most {MAX_CELLS} cells")
        if self.k < 1:
            raise BadInput(f"k must be at least 1, got {self.k}")

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def name(self, square: int) -> str:
        """``a1``-style name of a square index."""
        return f"{chr(ord('a') + square % self.cols)}{square // self.cols + 1}"

    def parse(self, text: str) -> int:
        """Square index of an ``a1``-style name; raises BadInput when it is off the board."""
        text = text.strip().lower()
        if len(text) >= 2 and text[0].isalpha() and text[1:].isdigit():
            col, row = ord(text[0]) - ord("a"), int(text[1:]) - 1
            if 0 <= col < self.cols and 0 <= row < self.rows:
                return row * self.cols + col
        raise BadInput(f"{text!r} is not a square of a {self.rows}x{self.cols} board (a1..{self.name(self.cells - 1)})")

    @cached_property
    def lines(self) -> list[tuple[int, ...]]:
        """Every k-in-a-row window, as a tuple of square indices."""
        found = []
        for r in range(self.rows):
            for c in range(self.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + dr * (self.k - 1), c + dc * (self.k - 1)
                    if 0 <= end_r < self.rows and 0 <= end_c < self.cols:
                        found.append(tuple((r + dr * i) * self.cols + c + dc * i for i in range(self.k)))
        if self.k == 1:  # all four directions give the same single square
            found = sorted(set(found))
        return found

    @cached_property
    def symmetries(self) -> list[tuple[int, ...]]:
        """Board symmetries as square permutations (8 on a square board, 4 otherwise); identity first."""
        R, C = self.rows, self.cols
        maps = [lambda r, c: (r, c), lambda r, c: (r, C - 1 - c), lambda r, c: (R - 1 - r, c), lambda r, c: (R - 1 - r, C - 1 - c)]
        if R == C:
            maps += [lambda r, c: (c, r), lambda r, c: (C - 1 - c, r), lambda r, c: (c, R - 1 - r), lambda r, c: (C - 1 - c, R - 1 - r)]
        perms = []
        for f in maps:
            perm = []
            for sq in range(R * C):
                r2, c2 = f(sq // C, sq % C)
                perm.append(r2 * C + c2)
            perms.append(tuple(perm))
        return perms

    @property
    def exact_keys(self) -> bool:
        """Whether position keys are injective (ternary or binary codes) rather than 64-bit hashes."""
        return self.variant == "notakto" or self.cells <= EXACT_TERNARY_CELLS

    @cached_property
    def key_weights(self) -> np.ndarray:
        """uint64[sym, square, colour]: a position's key under symmetry s is the sum of its stones' weights.

        Exact codes where they fit: base 3 (empty 0, first player 1, second 2) or, for Notakto's one
        colour, base 2; otherwise random 64-bit weights (sums wrap), making keys hashes.
        """
        n, syms = self.cells, self.symmetries
        weights = np.zeros((len(syms), n, 2), dtype=np.uint64)
        if self.variant == "notakto":
            base = [1 << sq for sq in range(n)]
            table = [[b, b] for b in base]
        elif self.exact_keys:
            table = [[3**sq, 2 * 3**sq] for sq in range(n)]
        else:
            rng = np.random.default_rng(0x6D6E6B)
            table = rng.integers(0, 2**64 - 1, size=(n, 2), dtype=np.uint64, endpoint=True).tolist()
        for s, perm in enumerate(syms):
            for sq in range(n):
                weights[s, sq, 0] = np.uint64(table[perm[sq]][0])
                weights[s, sq, 1] = np.uint64(table[perm[sq]][1])
        return weights

    @cached_property
    def tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Kernel tables: (line masks uint64[L], lines per square int64[n, d] padded -1, key weights, info int64[6]).

        info = [rows, cols, k, variant index, cells, symmetries].
        """
        masks = np.array([sum(1 << sq for sq in line) for line in self.lines], dtype=np.uint64)
        per_square: list[list[int]] = [[] for _ in range(self.cells)]
        for index, line in enumerate(self.lines):
            for sq in line:
                per_square[sq].append(index)
        width = max(1, max(len(x) for x in per_square))
        by_square = np.full((self.cells, width), -1, dtype=np.int64)
        for sq, indices in enumerate(per_square):
            by_square[sq, : len(indices)] = indices
        info = np.array([self.rows, self.cols, self.k, VARIANTS.index(self.variant), self.cells, len(self.symmetries)], dtype=np.int64)
        return masks, by_square, self.key_weights, info
