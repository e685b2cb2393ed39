"""The model behind `gameproof tui mnk`: a position, a cursor and proven values, without Textual."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from gameproof.games.mnk.geometry import Geometry
from gameproof.games.mnk.solver import solve
from gameproof.games.mnk.state import KERNELS, MnkGame, MnkState
from gameproof.search.book import Book
from gameproof.search.dfpn import Options, Search

VALUES = ("win", "draw", "loss")
"""Proven values for the player to move, best first."""
FLIP = {"win": "loss", "draw": "draw", "loss": "win"}

StopCheck = Callable[[], bool]
CHUNK = 1 << 14
"""df-pn expansions between checks for a stop request."""


class Cancelled(Exception):
    """A search stopped because its caller asked it to."""


def best(values: list[str]) -> str:
    """The mover's value given the values of their moves."""
    return min(values, key=VALUES.index)


class Oracle:
    """Proven values of positions: from a book when it holds them, else df-pn; remembered by game and canonical key.

    ``stop`` callbacks are polled between positions and during long searches; when one returns true the
    call raises :class:`Cancelled`. Searches keep their transposition table from position to position and
    run one at a time. A book is opened afresh in each thread that asks (SQLite connections stay in their
    thread).
    """

    def __init__(self, book_path: str | Path | None = None, options: Options = Options()) -> None:
        self.book_path = book_path
        self.options = options
        self._known: dict[tuple[MnkGame, int], str] = {}
        self._from_book: set[tuple[MnkGame, int]] = set()
        self._searches: dict[MnkGame, Search] = {}
        self._lock = threading.Lock()

    def value(self, state: MnkState, stop: StopCheck = lambda: False, book: Book | None = None) -> str:
        """Value of ``state`` for the player to move."""
        key = (state.game, state.key)
        if key not in self._known:
            if stop():
                raise Cancelled
            entry = book.get(state.key) if book is not None else None
            if entry is not None:
                self._from_book.add(key)
            self._known[key] = entry.value if entry is not None else self._prove(state, stop)
        return self._known[key]

    def from_book(self, state: MnkState) -> bool:
        """Whether the value of ``state`` was read from the book (rather than proven here)."""
        return (state.game, state.key) in self._from_book

    def _prove(self, state: MnkState, stop: StopCheck) -> str:
        """df-pn on one long-lived search per game, in short chunks so that the GIL and stop requests come round often."""
        if state.is_over():
            return solve(state).value

        def poll(*_: int) -> None:
            if stop():
                raise Cancelled

        with self._lock:
            search = self._searches.get(state.game)
            if search is None:
                cells = state.geometry.cells
                search = self._searches[state.game] = Search(KERNELS, state.tables, cells, cells, self.options)
            me = int(KERNELS.mover(state.words))
            if not search.prove(state.words, me, True, poll, CHUNK):
                return "loss"
            return "win" if search.prove(state.words, me, False, poll, CHUNK) else "draw"

    def move_values(self, state: MnkState, stop: StopCheck = lambda: False) -> Iterator[tuple[int, str]]:
        """(move, value for the mover if they play it) for each legal move, as each is proven."""
        with self._book() as book:
            yield from self._move_values(state, stop, book)

    def principal_line(self, state: MnkState, stop: StopCheck = lambda: False) -> list[int]:
        """Moves of perfect play from ``state`` to the end (the first best move at each turn)."""
        line: list[int] = []
        position = state.copy()
        with self._book() as book:
            while not position.is_over():
                target = self.value(position, stop, book)
                move = next(m for m, v in self._move_values(position, stop, book) if v == target)
                line.append(move)
                position.play(move)
        return line

    def _move_values(self, state: MnkState, stop: StopCheck, book: Book | None) -> Iterator[tuple[int, str]]:
        child = state.copy()
        for move in state.legal_moves():
            child.play(move)
            value = FLIP[self.value(child, stop, book)]
            child.undo()
            yield move, value

    @contextmanager
    def _book(self) -> Iterator[Book | None]:
        if self.book_path is None:
            yield None
            return
        book = Book(self.book_path)
        try:
            yield book
        finally:
            book.close()


class MnkSession:
    """What the m,n,k screen shows: the position, a cursor square, the values proven so far, the principal line.

    Values arrive from a background search tagged with the record they belong to; stale ones are ignored.
    """

    def __init__(self, game: MnkGame, moves: str = "") -> None:
        self.state = MnkState(game, moves)
        g = self.state.geometry
        self.cursor = self.state.history[-1] if self.state.history else g.rows // 2 * g.cols + g.cols // 2
        self.values: dict[int, str] = {}
        self.line: list[int] | None = None

    @property
    def geometry(self) -> Geometry:
        return self.state.geometry

    @property
    def record(self) -> str:
        return self.state.record

    @property
    def mover(self) -> str:
        return "XO"[self.state.to_move]

    def move_cursor(self, drow: int, dcol: int) -> None:
        """Move the cursor by rows (up is +1, towards higher row numbers) and columns, staying on the board."""
        g = self.geometry
        row = min(max(self.cursor // g.cols + drow, 0), g.rows - 1)
        col = min(max(self.cursor % g.cols + dcol, 0), g.cols - 1)
        self.cursor = row * g.cols + col

    def play(self, square: int) -> None:
        """Play ``square`` for the side to move (BadInput when it cannot be played)."""
        self.state.play(square)
        self.cursor = square
        self._forget()

    def play_named(self, name: str) -> None:
        self.play(self.state.parse_move(name))

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.state.history:
            return False
        self.cursor = self.state.history[-1]
        self.state.undo()
        self._forget()
        return True

    def _forget(self) -> None:
        self.values = {}
        self.line = None

    def add_value(self, record: str, move: int, value: str) -> bool:
        """Record a proven move value for the position after ``record``; False (ignored) if that is not this one."""
        if record != self.record:
            return False
        self.values[move] = value
        return True

    def set_line(self, record: str, line: list[int]) -> bool:
        if record != self.record:
            return False
        self.line = line
        return True

    @property
    def complete(self) -> bool:
        """Whether every legal move has a proven value."""
        return len(self.values) == len(self.state.legal_moves())

    @property
    def value(self) -> str | None:
        """The position's value for the mover once it is certain: a winning move found, or every move proven."""
        if self.state.is_over():
            return None
        if "win" in self.values.values():
            return "win"
        return best(list(self.values.values())) if self.complete else None

    def best_move(self) -> int | None:
        """The first move (in square order) that keeps the position's value; None until it is known."""
        value = self.value
        if value is None:
            return None
        return min(m for m, v in self.values.items() if v == value)

    def result(self) -> str | None:
        """How a finished game ended, in words; None while it goes on."""
        outcome = self.state.outcome()
        if outcome is None:
            return None
        return "draw" if outcome == 0 else f"{'XO'[outcome < 0]} won"
