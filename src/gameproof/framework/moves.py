"""Moves as codes: one int per move for search, books and certificates, names for people, and the
arguments that hand a move to the rule functions.

A move is one cell (a placement game) or several (its ``parts``: a piece's cell, then its target, then an
arrow). Each part is a bit of a layer of the board, ``0 .. base - 1`` where ``base`` is 64 per word of a
layer, and the move's code is the parts read as the digits of a number in that base: ``from * base + to``.
The pass is the code after the last, ``base ** parts`` (64 for a placement game on one word, as before).
The rule functions get each part as a one-bit mask: one word, or a layer's words where a layer has several.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from gameproof.errors import BadInput
from gameproof.framework.declaration import Board, Symmetry, bounded_number, joined_words, split_words

#: What a move's name may use instead of ``-`` between two parts (``b2xc3`` for a capture).
CAPTURE = "x"


@dataclass(frozen=True)
class MoveCodes:
    """The codes of the moves of a game whose moves have `parts` parts, each a bit ``0 .. base - 1``."""

    parts: int
    base: int

    @property
    def pass_move(self) -> int:
        return self.base**self.parts

    def encode(self, cells: tuple[int, ...]) -> int:
        """The code of the move whose parts are `cells`."""
        code = 0
        for cell in cells:
            code = code * self.base + cell
        return code

    def decode(self, code: int) -> tuple[int, ...]:
        """The cells of the parts of the move `code` (not the pass)."""
        if self.parts == 1:
            return (code % self.base,)
        cells = []
        for _ in range(self.parts):
            code, cell = divmod(code, self.base)
            cells.append(cell)
        return tuple(reversed(cells))


@dataclass(frozen=True)
class MoveNames:
    """How the moves of one game are named and read back: its parts' cells, joined by its joiners."""

    codes: MoveCodes
    board: Board
    joiners: tuple[str, ...]

    def name(self, code: int) -> str:
        """``c4``, ``b2-c3``, ``d1-d4/b4``; ``pass``; ``@N`` for a code that names no cells of the board."""
        if code == self.codes.pass_move:
            return "pass"
        if not 0 <= code < self.codes.pass_move:
            return f"@{code}"
        cells = self.codes.decode(code)
        if not all(cell in self.board.cells for cell in cells):
            return f"@{code}"
        text = self.board.cell_name(cells[0])
        for joiner, cell in zip(self.joiners, cells[1:]):
            text += joiner + self.board.cell_name(cell)
        return text

    def parse(self, text: str) -> int:
        """The code a move's name gives (see :meth:`name`; ``x`` may stand for ``-``); BadInput otherwise."""
        text = text.strip().lower()
        if text in ("pass", "pa"):
            return self.codes.pass_move
        if text.startswith("@") and (code := bounded_number(text[1:], self.codes.pass_move - 1)) is not None:
            return code
        pieces = self._split(text)
        if pieces is None:
            shape = self.name(self.codes.encode(tuple((self.board.cells * self.codes.parts)[:self.codes.parts])))
            raise BadInput(f"{text!r:.60} is not a move: a move names {self.codes.parts} cells, as in {shape}")
        return self.codes.encode(tuple(self.board.parse_cell(piece) for piece in pieces))

    def _split(self, text: str) -> list[str] | None:
        """The cells' names in a move's name, split at its joiners (None when they are not there)."""
        pieces = []
        for joiner in self.joiners:
            at = _find_joiner(text, joiner)
            if at is None:
                return None
            pieces.append(text[:at])
            text = text[at + len(joiner):]
        return [*pieces, text]


def _find_joiner(text: str, joiner: str) -> int | None:
    """Where `joiner` (or ``x`` for ``-``) first stands in `text` after a cell's name, or None."""
    for at in range(1, len(text)):
        if text.startswith(joiner, at) or (joiner == "-" and text[at] == CAPTURE):
            return at
    return None


def joiners_of(parts: int, declared: tuple[str, ...]) -> tuple[str, ...]:
    """The declared joiners, or ``-`` between every two parts."""
    return declared or ("-",) * (parts - 1)


def mapped_move(codes: MoveCodes, permutation: dict[int, int], code: int) -> int:
    """The code of move `code` under a symmetry's cell `permutation` (the pass stays the pass)."""
    if code == codes.pass_move:
        return code
    return codes.encode(tuple(permutation[cell] for cell in codes.decode(code)))


def symmetry_permutations(board: Board, symmetries: list[Symmetry]) -> list[dict[int, int]]:
    """The cell permutation of each symmetry."""
    return [board.permutation(symmetry) for symmetry in symmetries]


@dataclass(frozen=True)
class RuleArguments:
    """How the rule functions of one game take a position and a move's parts: the side to move first where
    the game declares ``turn_argument``, then the words, then each part as a layer's words with one bit set;
    and how the masks they return read as one int of cells."""

    layer_words: int
    turn_argument: bool

    def of(self, words: tuple[int, ...], to_move: int, cells: tuple[int, ...] = ()) -> tuple[int, ...]:
        """The arguments of a rule function for the position `words` and the parts `cells` so far."""
        turn = (to_move,) if self.turn_argument else ()
        if self.layer_words == 1:
            return (*turn, *words, *[1 << cell for cell in cells])
        parts = tuple(word for cell in cells for word in split_words(1 << cell, self.layer_words))
        return (*turn, *words, *parts)

    def mask(self, value: object) -> int | None:
        """The cells of a mask a rule returned (one int, or a layer's words), or None when it is not one."""
        if self.layer_words == 1:
            return value if _is_word(value) else None  # type: ignore[return-value]
        if isinstance(value, tuple) and len(value) == self.layer_words and all(map(_is_word, value)):
            return joined_words(value)
        return None

    def shape(self) -> str:
        """What :meth:`mask` takes, for an error line."""
        return "an int 0 .. 2**64 - 1" if self.layer_words == 1 else f"a tuple of {self.layer_words} such ints"


def _is_word(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 64


def bits_of(mask: int) -> Iterator[int]:
    """The set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def complete_moves(first: int, later: Callable[[int, tuple[int, ...]], int], codes: MoveCodes) -> list[tuple[int, ...]]:
    """Every move's parts: each cell of `first`, followed (for moves of more parts) by each cell of
    ``later(index, earlier)``, the mask of part `index` after the parts `earlier`."""
    moves: list[tuple[int, ...]] = [(cell,) for cell in bits_of(first)]
    for index in range(1, codes.parts):
        moves = [(*earlier, cell) for earlier in moves for cell in bits_of(later(index, earlier))]
    return moves
