"""Proven values (or exact scores) of positions for the game screen: from a book, else by the game's own search, in
cancellable chunks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from gameproof.framework.declaration import Engine
from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.search.alphabeta import AlphaBeta
from gameproof.search.book import Book, Entry
from gameproof.search.dfpn import Options, Search
from gameproof.answers import Value, to_mover
from gameproof.search.exact import final_value
from gameproof.search.score import ScoreQuestions, final_score, searched_game
from gameproof.tui.game_view import Position, SearchSetup, view_of

StopCheck = Callable[[], bool]
#: Whether a book's entry passes the re-check a fresh answer would get (see :func:`gameproof.search.book_check.recheck`).
Vetting = Callable[[Book, Entry], bool]
Poll = Callable[[int, int, int], None]
#: What the oracle answers about a position: its value, or with scores its exact score, for the side to move.
Proven = Value | int
CHUNK = 1 << 14
"""Search steps (df-pn expansions, alpha-beta nodes) between checks for a stop request."""


class Cancelled(Exception):
    """A search stopped because its caller asked it to."""


class Prover(Protocol):
    """One game's long-lived search: the value (or score) of a non-terminal position for its side to move."""

    def value(self, state: Position, poll: Poll) -> Proven: ...


class DfpnProver:
    """Two df-pn questions: can the mover draw, and then can it win?"""

    def __init__(self, setup: SearchSetup, options: Options) -> None:
        self.frames = setup.frames
        self.search = Search(setup.kernels, setup.tables, setup.max_depth, setup.max_moves, options)

    def value(self, state: Position, poll: Poll) -> Value:
        frames = self.frames(state)
        me = int(self.search.kernels.mover(frames))
        if not self.search.prove(frames, me, True, poll, CHUNK):
            return Value.LOSS
        return Value.WIN if self.search.prove(frames, me, False, poll, CHUNK) else Value.DRAW


class AlphaBetaProver:
    """Alpha-beta over the same kernels (the engine of games such as Connect Four)."""

    def __init__(self, setup: SearchSetup, options: Options) -> None:
        self.frames = setup.frames
        self.search = AlphaBeta(setup.kernels, setup.tables, setup.max_depth, setup.max_moves, options)

    def value(self, state: Position, poll: Poll) -> Value:
        return Value.of_score(self.search.value(self.frames(state), poll, CHUNK))


class ScoreProver:
    """Exact scores: binary score questions over one table (:class:`~gameproof.search.score.ScoreQuestions`) on
    `game` as score searches see it (:func:`~gameproof.search.score.searched_game`)."""

    def __init__(self, game: Game, options: Options) -> None:
        self.questions = ScoreQuestions(game, options, chunk=CHUNK)
        self._last: dict[int, int] = {}  # the last score found for each side to move: the next one's first guess

    def value(self, state: Position, poll: Poll) -> int:
        game, mover = self.questions.game, state.to_move
        self.questions.progress = poll
        score = self.questions.exact(game.frames(state.words, mover), mover, self._last.get(mover, 0))
        self._last[mover] = score
        return score


PROVERS: dict[Engine, Callable[[SearchSetup, Options], Prover]] = {Engine.DFPN: DfpnProver,
                                                                   Engine.ALPHABETA: AlphaBetaProver}


class Oracle:
    """Proven values of positions: from a book when it holds them and `vetting` passes the entry (by default
    none passes), else the game's search; remembered by game and canonical key. With `scores`, exact final scores
    instead (ints, for the side to move, of games that declare a score): from a book entry that holds one, else by
    binary score questions (:mod:`gameproof.search.score`), finished games by their final score.

    ``stop`` callbacks are polled between positions and during long searches; when one returns true the
    call raises :class:`Cancelled`. Each game keeps one search (and its transposition table) from position
    to position; searches run one at a time. A book is opened afresh in each thread that asks (SQLite
    connections stay in their thread).
    """

    def __init__(self, book_path: str | Path | None = None, options: Options = Options(),
                 vetting: Vetting = lambda book, entry: False, scores: bool = False) -> None:
        self.book_path = book_path
        self.vetting = vetting
        self.options = options
        self.scores = scores
        self._known: dict[tuple[Hashable, int], Proven] = {}
        self._from_book: set[tuple[Hashable, int]] = set()
        self._provers: dict[Hashable, Prover] = {}
        self._searched: dict[Hashable, Game] = {}  # each game as its searches see it
        self._lock = threading.Lock()

    def value(self, state: Position, stop: StopCheck = lambda: False, book: Book | None = None) -> Proven:
        """Value (with scores: exact score) of ``state`` for the player to move."""
        searched = self._searched_state(state)
        key = (searched.game, searched.key)
        if key not in self._known:
            if stop():
                raise Cancelled
            entry = book.get(state.key) if book is not None else None
            if entry is not None and self.scores and entry.score is None:
                entry = None  # a book built without scores: the search answers
            if entry is not None and not self.vetting(book, entry):
                entry = None  # an entry that fails its re-check is not reported: the search answers instead
            if entry is not None:
                self._from_book.add(key)
                self._known[key] = entry.score if self.scores else entry.value
            else:
                self._known[key] = self._prove(searched, stop)
        return self._known[key]

    def from_book(self, state: Position) -> bool:
        """Whether the value of ``state`` was read from the book (rather than proven here)."""
        searched = self._searched_state(state)
        return (searched.game, searched.key) in self._from_book

    def _searched_state(self, state: Position) -> Position:
        """``state`` as the searches see it: of its game without the symmetries a user's file declares
        (:func:`~gameproof.search.score.searched_game`), so that positions merged only by a symmetry that no test
        checks keep their own answers; games of other kinds as they are."""
        if not isinstance(state, RulesState):
            return state
        searched = self._searched.get(state.game)
        if searched is None:
            if self.scores:
                state.game.require_score()
            searched = self._searched[state.game] = searched_game(state.game)
        return state if searched is state.game else RulesState.at(searched, state.words, state.to_move)

    def _prove(self, state: Position, stop: StopCheck) -> Proven:
        """The game's search, in short chunks so that the GIL and stop requests come round often."""
        if state.is_over():
            return final_score(state) if self.scores else final_value(state)

        def poll(*_: int) -> None:
            if stop():
                raise Cancelled

        with self._lock:
            prover = self._provers.get(state.game)
            if prover is None:
                prover = self._provers[state.game] = self._prover(state)
            return prover.value(state, poll)

    def _prover(self, state: Position) -> Prover:
        if self.scores:
            return ScoreProver(state.game, self.options)
        setup = view_of(state).search()
        return PROVERS[setup.engine](setup, self.options)

    def move_values(self, state: Position, stop: StopCheck = lambda: False) -> Iterator[tuple[int, Proven]]:
        """(move, value or score for the mover if they play it) for each legal move, as each is proven."""
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

    def _move_values(self, state: Position, stop: StopCheck, book: Book | None) -> Iterator[tuple[int, Proven]]:
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
