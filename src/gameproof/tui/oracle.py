"""Proven values (or exact scores) of positions for the game screen: from a tablebase, or from a book, else by the
game's own search, in cancellable chunks."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from gameproof.errors import BadInput
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

if TYPE_CHECKING:
    from gameproof.search.tablebase.query import Tablebase, Worth

StopCheck = Callable[[], bool]
#: Whether a book's entry passes the re-check a fresh answer would get (see :func:`gameproof.search.book_check.recheck`).
Vetting = Callable[[Book, Entry], bool]
Poll = Callable[[int, int, int], None]
#: What the oracle answers about a position: its value, or with scores its exact score, for the side to move.
Proven = Value | int
CHUNK = 1 << 14
"""Search steps (df-pn expansions, alpha-beta nodes) between checks for a stop request."""


#: A move's (or position's) plies to the end under perfect play, as a tablebase gives it: the winner hurrying, the
#: loser delaying; None for a draw that goes on (and wherever no tablebase answers).
Distance = int | None
#: The most positions one class of a table's holds (the symmetries of a square board): a principal line that visits
#: more positions than a table's rows times this has come round again, whatever it keys them by.
_CLASS = 8


class Cancelled(Exception):
    """A search stopped because its caller asked it to."""


def perfect_move(results: Mapping[int, Proven], distances: Mapping[int, Distance] | None = None,
                 scores: bool = False) -> int:
    """The move perfect play chooses, given every legal move's value (with `scores`: score) for the mover: one that
    keeps the position's value (scores the most), the first in move order. With `distances` (each move's plies to
    the end, from a tablebase) and values: of the moves that keep a win the nearest to the end, of those that keep a
    loss the farthest (any move that keeps a draw), so that play makes progress where positions may repeat: a move
    that merely keeps a win can lead back and forth between won positions for ever."""
    target = max(results.values()) if scores else Value.best(results.values())
    keeping = [move for move in sorted(results) if results[move] == target]
    if distances is None or scores or target == Value.DRAW:
        return keeping[0]
    if target == Value.WIN:  # the nearest win (one without a distance, which no table gives, last)
        return min(keeping, key=lambda move: (_plies(distances.get(move), math.inf), move))
    return min(keeping, key=lambda move: (-_plies(distances.get(move), -1), move))  # the farthest loss


def _plies(distance: Distance, instead: float) -> float:
    return instead if distance is None else distance


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
    """Proven values of positions: from a tablebase when one is given (every position it holds, at once, with its
    distance to the end; a position it lacks is BadInput), else from a book when it holds them and `vetting`
    passes the entry (by default none passes), else the game's search; remembered by game and canonical key. With
    `scores`, exact final scores instead (ints, for the side to move, of games that declare a score): from a
    tablebase that keeps them (BadInput for one that does not), a book entry that holds one, else by binary score
    questions (:mod:`gameproof.search.score`), finished games by their final score.

    ``stop`` callbacks are polled between positions and during long searches; when one returns true the
    call raises :class:`Cancelled`. Each game keeps one search (and its transposition table) from position
    to position; searches run one at a time. A book is opened afresh in each thread that asks (SQLite
    connections stay in their thread). A tablebase answers for its own game only (the command line checks that
    the screen's game is that one).
    """

    def __init__(self, book_path: str | Path | None = None, options: Options = Options(),
                 vetting: Vetting = lambda book, entry: False, scores: bool = False,
                 tablebase: Tablebase | None = None) -> None:
        if tablebase is not None and book_path is not None:
            raise ValueError("an oracle answers from a tablebase or from a book, not both")
        if tablebase is not None and scores and not tablebase.scored:
            game = tablebase.game
            why = (f"{game.name} may repeat a position, and a tablebase scores only games that must end"
                   if game.may_repeat else f"{game.name} declares no score")
            raise BadInput(f"the tablebase {tablebase.table.path} keeps no scores ({why}): show its values, "
                           "without --score")
        self.book_path = book_path
        self.tablebase = tablebase
        self.vetting = vetting
        self.options = options
        self.scores = scores
        self._known: dict[tuple[Hashable, int], Proven] = {}
        self._from_book: set[tuple[Hashable, int]] = set()
        self._provers: dict[Hashable, Prover] = {}
        self._searched: dict[Hashable, Game] = {}  # each game as its searches see it
        self._lock = threading.Lock()

    @property
    def distances(self) -> bool:
        """Whether the oracle knows each position's distance to the end (it answers from a tablebase)."""
        return self.tablebase is not None

    def value(self, state: Position, stop: StopCheck = lambda: False, book: Book | None = None) -> Proven:
        """Value (with scores: exact score) of ``state`` for the player to move."""
        if self.tablebase is not None:
            return self._proven(self.worth(state, stop))
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

    def worth(self, state: Position, stop: StopCheck = lambda: False) -> Worth:
        """What the tablebase says of ``state`` for its side to move: value, distance, score (BadInput, one line,
        for a position it lacks; ValueError without a tablebase)."""
        if self.tablebase is None:
            raise ValueError("only a tablebase gives distances")
        if stop():
            raise Cancelled
        if not isinstance(state, RulesState) or state.game.name != self.tablebase.game.name:
            game = state.game.name if isinstance(state, RulesState) else type(state).__name__
            raise BadInput(f"the tablebase {self.tablebase.table.path} holds {self.tablebase.game.name}, not {game}")
        return self.tablebase.worth(state)

    def _proven(self, worth: Worth) -> Proven:
        return worth.score if self.scores else worth.value

    def from_book(self, state: Position) -> bool:
        """Whether the value of ``state`` was read from the book (rather than proven here)."""
        if self.tablebase is not None:
            return False
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
        for move, value, _ in self.move_worths(state, stop):
            yield move, value

    def move_worths(self, state: Position, stop: StopCheck = lambda: False) -> Iterator[tuple[int, Proven, Distance]]:
        """(move, value or score for the mover if they play it, its plies to the end under perfect play) for each
        legal move, as each is proven; the distance is None for a draw, and without a tablebase."""
        with self._book() as book:
            yield from self._move_worths(state, stop, book)

    def principal_line(self, state: Position, stop: StopCheck = lambda: False) -> list[int]:
        """Moves of perfect play from ``state`` (:func:`perfect_move` at each turn) to the end; with a tablebase,
        in a game that may repeat, a drawn line stops when a position comes round again (its last move leads to
        one the line has been through: the rest repeats)."""
        line: list[int] = []
        position = state.copy()
        seen = {_exact(position)}
        most = None if self.tablebase is None else _CLASS * self.tablebase.table.size + 1
        with self._book() as book:
            while not position.is_over() and (most is None or len(line) < most):
                if self.tablebase is None:  # the position's value, then its first move that keeps it
                    target = self.value(position, stop, book)
                    move = next(move for move, value, _ in self._move_worths(position, stop, book) if value == target)
                else:
                    worths = list(self._move_worths(position, stop, book))
                    move = perfect_move({move: value for move, value, _ in worths},
                                        {move: distance for move, _, distance in worths}, self.scores)
                line.append(move)
                position.play(move)
                if self.tablebase is not None:
                    if _exact(position) in seen:
                        break
                    seen.add(_exact(position))
        return line

    def _move_worths(self, state: Position, stop: StopCheck,
                     book: Book | None) -> Iterator[tuple[int, Proven, Distance]]:
        if self.tablebase is not None:
            self.worth(state, stop)  # a position the table lacks is said as itself, not as its first child
        child = state.copy()
        for move in state.legal_moves():
            child.play(move)
            passed = child.to_move != state.to_move
            if self.tablebase is not None:
                worth = self.tablebase.through(self.worth(child, stop), passed)
                child.undo()
                yield move, self._proven(worth), worth.distance
                continue
            value = to_mover(self.value(child, stop, book), passed)
            child.undo()
            yield move, value, None

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


def _exact(state: Position) -> Hashable:
    """A position itself (not its class under symmetries): its words, or its record, and the side to move."""
    words = getattr(state, "words", None)
    return (words if words is not None else state.record, state.to_move)
