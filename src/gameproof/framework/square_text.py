"""Positions of a two-colour game on a square of cells as text: ``B--/B--/-RR blue``, the square's rows top to bottom
separated by ``/`` (or spaces), one letter a piece (either case), ``-`` or ``.`` an empty cell, then the side to
move by name or first letter. For games whose own format writes only part of their board (Dodgem leaves out its
exits) or checks counts of pieces (Three Men's Morris); other games derive theirs (:mod:`gameproof.framework.diagram`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gameproof.errors import BadInput


@dataclass(frozen=True)
class SquareText:
    """The `size` × `size` cells of bits ``row * stride + col`` of two words (the first player's pieces, the second's),
    drawn with the letters `pieces`; `names` the two sides; `cell` what a message calls a cell ("square", "point")."""

    size: int
    stride: int
    pieces: str
    names: tuple[str, str]
    cell: str = "square"

    def read(self, text: str) -> tuple[tuple[int, int], int]:
        """The two words and the side to move of `text`; BadInput, one line, for text that is not such a square."""
        sides = {name: side for side, name in enumerate(self.names)} | {name[0]: side for side, name in enumerate(self.names)}
        spelt = f"{self.names[0]} or {self.names[1]}"
        tokens = text.split()
        if len(tokens) < 2:
            missing = "board" if tokens and tokens[0].casefold() in sides else "side to move"
            raise BadInput(f"no {missing}: write the rows top to bottom separated by /, a space and the side to move "
                           f"({spelt})")
        side = tokens[-1].casefold()
        if side not in sides:
            raise BadInput(f"unknown side to move {tokens[-1]!r:.30} ({spelt}, or {self.names[0][0]} or "
                           f"{self.names[1][0]})")
        rows = [row for token in tokens[:-1] for row in token.split("/")]
        if len(rows) != self.size:
            raise BadInput(f"{len(rows)} rows, but the board has {self.size} (the rows top to bottom, separated by /, "
                           "then the side to move)")
        words = [0, 0]
        legend = f"{self.pieces[0]} {self.names[0]}, {self.pieces[1]} {self.names[1]}; - or . empty"
        for index, row in enumerate(rows):
            number = self.size - index
            if len(row) != self.size:
                raise BadInput(f"row {number} has {len(row)} {self.cell}s, but the board has {self.size} columns")
            for col, char in enumerate(row):
                if char in "-.":
                    continue
                if char.upper() not in self.pieces:
                    raise BadInput(f"row {number}: unknown piece {char!r} ({legend})")
                words[self.pieces.index(char.upper())] |= 1 << ((number - 1) * self.stride + col)
        return (words[0], words[1]), sides[side]

    def write(self, words: tuple[int, ...], to_move: int) -> str:
        """The text :meth:`read` reads."""
        def drawn(bit: int) -> str:
            return self.pieces[0] if words[0] >> bit & 1 else self.pieces[1] if words[1] >> bit & 1 else "-"

        rows = ["".join(drawn(row * self.stride + col) for col in range(self.size)) for row in reversed(range(self.size))]
        return "/".join(rows) + " " + self.names[to_move]
