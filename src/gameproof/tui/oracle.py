"""Proven values of positions for the game screen: from a book, else by the game's own search, in cancellable chunks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

import numpy as np

from gameproof.framework.declaration import Engine
from gameproof.search.alphabeta import AlphaBeta
from gameproof.search.book import Book, Entry
from gameproof.search.dfpn import Options, Search
from gameproof.answers import Value, to_mover
from gameproof.search.exact import final_value
from gameproof.tui.game_view import Position, SearchSetup, view_of

StopCheck = Callable[[], bool]
#: Whether a book's entry passes the re-check a fresh answer would get (see :func:`gameproof.search.book_check.recheck`).
Vetting = Callable[[Book, Entry], bool]
Poll = Callable[[int, int, int], None]
CHUNK = 1 << 14
"""Search steps (df-pn expansions, alpha-beta nodes) between checks for a stop request."""


class Cancelled(Exception):
    """A search stopped because its caller asked it to."""


class Prover(Protocol):
    """One game's long-lived search: the value of a non-terminal state array for its side to move."""

    def value(self, frames: np.ndarray, poll: Poll) -> Value: ...


class DfpnProver:
    """Two df-pn questions: can the mover draw, and then can it win?"""

    def __init__(self, setup: SearchSetup, options: Options) -> None:
        self.search = Search(setup.kernels, setup.tables, setup.max_depth, setup.max_moves, options)

    def value(self, frames: np.ndarray, poll: Poll) -> Value:
        me = int(self.search.kernels.mover(frames))
        if not self.search.prove(frames, me, True, poll, CHUNK):
            return Value.LOSS
        return Value.WIN if self.search.prove(frames, me, False, poll, CHUNK) else Value.DRAW


class AlphaBetaProver:
    """Alpha-beta over the same kernels (the engine of games such as Connect Four)."""

    def __init__(self, setup: SearchSetup, options: Options) -> None:
        self.search = AlphaBeta(setup.kernels, setup.tables, setup.max_depth, setup.max_moves, options)

    def value(self, frames: np.ndarray, poll: Poll) -> Value:
        return Value.of_score(self.search.value(frames, poll, CHUNK))


PROVERS: dict[Engine, Callable[[SearchSetup, Options], Prover]] = {Engine.DFPN: DfpnProver,
                                                                   Engine.ALPHABETA: AlphaBetaProver}


class Oracle:
    """Proven values of positions: from a book when it holds them and `vetting` passes the entry (by default
    none passes), else the game's search; remembered by game and canonical key.

    ``stop`` callbacks are polled between positions and during long searches; when one returns true the
    call raises :class:`Cancelled`. Each game keeps one search (and its transposition table) from position
    to position; searches run one at a time. A book is opened afresh in each thread that asks (SQLite
    connections stay in their thread).
    """

    def __init__(self, book_path: str | Path | None = None, options: Options = Options(),
                 vetting: Vetting = lambda book, entry: False) -> None:
        self.book_path = book_path
        self.vetting = vetting
        self.options = options
        self._known: dict[tuple[Hashable, int], Value] = {}
        self._from_book: set[tuple[Hashable, int]] = set()
        self._provers: dict[Hashable, Prover] = {}
        self._lock = threading.Lock()

    def value(self, state: Position, stop: StopCheck = lambda: False, book: Book | None = None) -> Value:
        """Value of ``state`` for the player to move."""
        key = (state.game, state.key)
        if key not in self._known:
            if stop():
                raise Cancelled
            entry = book.get(state.key) if book is not None else None
            if entry is not None and not self.vetting(book, entry):
                entry = None  # an entry that fails its re-check is not reported: the search answers instead
            if entry is not None:
                self._from_book.add(key)
            self._known[key] = entry.value if entry is not None else self._prove(state, stop)
        return self._known[key]

    def from_book(self, state: Position) -> bool:
        """Whether the value of ``state`` was read from the book (rather than proven here)."""
        return (state.game, state.key) in self._from_book

    def _prove(self, state: Position, stop: StopCheck) -> Value:
        """The game's search, in short chunks so that the GIL and stop requests come round often."""
        if state.is_over():
            return final_value(state)

        def poll(*_: int) -> None:
            if stop():
                raise Cancelled

        with self._lock:
            prover = self._provers.get(state.game)
            setup = view_of(state).search()
            if prover is None:
                prover = self._provers[state.game] = PROVERS[setup.engine](setup, self.options)
            return prover.value(setup.frames(state), poll)

    def move_values(self, state: Position, stop: StopCheck = lambda: False) -> Iterator[tuple[int, Value]]:
        """(move, value for the mover if they play it) for each legal move, as each is proven."""
        with self._book() as book:
            yield from self._move_values(state, stop, book)

    def principal_line(self, state: Position, stop: StopCheck = lambda: False) -> list[int]:
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

    def _move_values(self, state: Position, stop: StopCheck, book: Book | None) -> Iterator[tuple[int, Value]]:
        child = state.copy()
        for move in state.legal_moves():
            child.play(move)
            value = to_mover(self.value(child, stop, book), child.to_move != state.to_move)
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
