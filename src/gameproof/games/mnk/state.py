"""m,n,k games (normal, misère, Notakto) as friendly Python objects over the numba kernels."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from gameproof.errors import BadInput
from gameproof.games.mnk import kernels as kn
from gameproof.games.mnk.geometry import Geometry
from gameproof.search.dfpn import Kernels

KERNELS = Kernels(kn.mover, kn.remaining, kn.moves, kn.play, kn.undo, kn.key, kn.estimate)
_PREFIX = {"normal": "mnk", "misere": "mnk-misere", "notakto": "mnk-notakto"}
_NAME = re.compile(r"^(mnk|mnk-misere|mnk-notakto|notakto):(\d+),(\d+),(\d+)$")


@dataclass(frozen=True)
class MnkGame:
    """An m,n,k game: ``rows`` × ``cols`` board, ``k`` in a row, and a variant (normal, misere, notakto)."""

    rows: int
    cols: int
    k: int
    variant: str = "normal"

    def __post_init__(self) -> None:
        self.geometry  # noqa: B018 -- builds (and so validates) the board now

    @classmethod
    def from_name(cls, name: str) -> MnkGame:
        """Parse a registry name such as ``mnk:3,3,3``, ``mnk-misere:5,5,3`` or ``mnk-notakto:3,3,3``."""
        match = _NAME.match(name.strip())
        if not match:
            raise BadInput(f"unknown game {name!r}; known forms: mnk:R,C,K, mnk-misere:R,C,K, mnk-notakto:R,C,K")
        prefix, rows, cols, k = match.groups()
        variant = {"mnk": "normal", "mnk-misere": "misere"}.get(prefix, "notakto")
        return cls(int(rows), int(cols), int(k), variant)

    @property
    def name(self) -> str:
        return f"{_PREFIX[self.variant]}:{self.rows},{self.cols},{self.k}"

    @cached_property
    def geometry(self) -> Geometry:
        return Geometry(self.rows, self.cols, self.k, self.variant)

    def start(self) -> MnkState:
        return MnkState(self)


class MnkState:
    """A position, built from a game (or its name) and space-separated moves: ``MnkState('mnk:3,3,3', 'b2 a1')``."""

    def __init__(self, game: MnkGame | str, moves: str = "") -> None:
        self.game = game if isinstance(game, MnkGame) else MnkGame.from_name(game)
        self.geometry = self.game.geometry
        self.tables = self.geometry.tables
        self.words = kn.new_state(self.tables)
        self.history: list[int] = []
        self._results: list[int] = []
        for text in moves.split():
            self.play(self.parse_move(text))

    def __repr__(self) -> str:
        return f"MnkState({self.game.name!r}, {self.record!r})"

    def __str__(self) -> str:
        marks = self.marks()
        rows = []
        for r in reversed(range(self.geometry.rows)):
            cells = marks[r * self.geometry.cols : (r + 1) * self.geometry.cols]
            rows.append(f"{r + 1:>2} " + " ".join(cells))
        rows.append("   " + " ".join(chr(ord("a") + c) for c in range(self.geometry.cols)))
        return "\n".join(rows)

    def marks(self) -> str:
        """One character per square in index order: ``X`` first player, ``O`` second, ``-`` empty."""
        x, o = int(self.words[0]), int(self.words[1])
        return "".join("X" if x >> i & 1 else "O" if o >> i & 1 else "-" for i in range(self.geometry.cells))

    @property
    def record(self) -> str:
        return " ".join(self.move_name(m) for m in self.history)

    @property
    def to_move(self) -> int:
        return len(self.history) % 2

    @property
    def key(self) -> int:
        """Canonical key, equal for positions equal up to board symmetry."""
        return int(kn.key(self.words, self.tables))

    def legal_moves(self) -> list[int]:
        if self.is_over():
            return []
        occupied = int(self.words[0] | self.words[1])
        return [sq for sq in range(self.geometry.cells) if not occupied >> sq & 1]

    def play(self, move: int) -> None:
        if self.is_over():
            raise BadInput(f"the game is over; {self.move_name(move)} cannot be played")
        if not 0 <= move < self.geometry.cells or int(self.words[0] | self.words[1]) >> move & 1:
            raise BadInput(f"{self.move_name(move) if 0 <= move < self.geometry.cells else move} is not an empty square")
        self._results.append(int(kn.play(self.words, self.tables, move)))
        self.history.append(move)

    def undo(self) -> None:
        kn.undo(self.words, self.tables, self.history.pop())
        self._results.pop()

    def is_over(self) -> bool:
        return bool(self._results) and self._results[-1] != kn.CONTINUE

    def outcome(self) -> int | None:
        """+1 if the first player won, -1 if the second did, 0 for a draw, None while not over."""
        if not self.is_over():
            return None
        result = self._results[-1]
        if result == kn.DRAW:
            return 0
        last_mover = 1 - self.to_move
        winner = last_mover if result == kn.MOVER_WINS else 1 - last_mover
        return 1 if winner == 0 else -1

    def move_name(self, move: int) -> str:
        return self.geometry.name(move)

    def parse_move(self, text: str) -> int:
        return self.geometry.parse(text)

    def copy(self) -> MnkState:
        return MnkState(self.game, self.record)
