"""Answers kept in files: opening books (:class:`Book`) and tablebases of every position (:class:`Tablebase`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gameproof.api.positions import Game, Position, checked_position
from gameproof.api.results import JsonResult, ProgressCallback, Solution, Source
from gameproof.api.running import Reporter, limited, options_for
from gameproof.errors import BadInput
from gameproof.search.tablebase import MOST_POSITIONS


def _check_of(game: Game, position: Position, what: str) -> None:
    """BadInput unless `position` is a position of `game`, the game of the `what` asked."""
    if checked_position(position, f"a {what}'s query").game != game:
        raise BadInput(f"the {what} is of {game.name}, not of {position.game.name}")


@dataclass(frozen=True)
class BookCheck(JsonResult):
    """What :meth:`Book.verify` found: how each entry was re-checked, and the problems."""

    accepted: bool
    """No problem found."""
    searched: bool
    """Every entry was re-checked by search (not for consistency only)."""
    counts: dict[str, int]
    """Entries by how they were re-checked: against their children in the book, by a fresh search, ..."""
    problems: list[str]


class Book:
    """An opening book in a SQLite file (as ``gameproof book``): every position up to symmetry some plies deep
    solved by the game's own search, the shallower ones backed up from them. Every entry it answers from is
    re-checked first."""

    def __init__(self, path: str | Path) -> None:
        """The book at `path` (only read); BadInput for a file that is not a book, or whose game does not load."""
        from gameproof.search.book_game import open_book

        opened, game, self.depth = open_book(path)
        with opened:
            self.entries = len(opened)
        self.path = str(path)
        self.game = Game.of(game)
        """The book's game."""

    def __repr__(self) -> str:
        return f"<Book {self.path!r}: {self.game.name} to depth {self.depth}, {self.entries:,} entries>"

    def __len__(self) -> int:
        return self.entries

    @classmethod
    def build(cls, game: Game, path: str | Path, depth: int, *, workers: int | None = None, value_only: bool = False,
              score: bool = False, tt_mb: float = 128.0, progress: ProgressCallback | None = None) -> Book:
        """Build the book of `game` at `path` to `depth` plies (as ``gameproof book build``; a file that a build
        left unfinished is resumed): its leaves solved by `workers` processes (by default in this process), with
        each move's value unless `value_only`, with exact scores where `score`. `progress` is told the leaves'
        jobs done of all."""
        from gameproof.search.book_build import build

        report = Reporter(progress)
        options = options_for(game.framework, tt_mb)
        build(game.framework, depth, path, workers=workers, options=options, values_only=value_only, scores=score,
              progress=None if progress is None else lambda done, total, *_: report(done, total, "book jobs"))
        return cls(path)

    def query(self, position: Position, *, tt_mb: float = 128.0, timeout: float | None = None) -> Solution:
        """`position`'s value and each move's (and scores, in a book built with them), from the book once its entry
        passes a re-check, else by the game's own search (`tt_mb` MiB of table; Unknown when `timeout` seconds of
        searching pass first)."""
        from gameproof.search import book_check
        from gameproof.search.book_game import open_book

        _check_of(self.game, position, "book")
        state = position.state
        options = options_for(state.game, tt_mb)
        opened, _, depth = open_book(self.path)
        with opened, limited(timeout) as timing:
            answer = book_check.query(opened, state, depth, book_check.by_search(options), options,
                                      verify_hint="Book.verify() re-checks the whole book")
        names = {code: state.move_name(code) for code in state.legal_moves()}
        return Solution(state.game.name, state.position, position.player, answer.value,
                        {names[code]: value for code, value in answer.moves.items()}, answer.score,
                        {names[code]: score for code, score in answer.move_scores.items()},
                        source=Source[answer.source.name], seconds=timing.seconds,
                        compile_seconds=timing.compile_seconds)

    def verify(self, *, consistency_only: bool = False, tt_mb: float = 128.0) -> BookCheck:
        """Re-check every entry (as ``gameproof book verify``): interior ones against their children in the book,
        leaves by a fresh search (a table of `tt_mb` MiB), or only for consistency with their own move values."""
        from gameproof.search import book_check
        from gameproof.search.book_game import open_book

        opened, game, depth = open_book(self.path)
        leaf_check = (book_check.consistency_only if consistency_only else
                      book_check.by_search(options_for(game, tt_mb)))
        with opened:
            found = book_check.verify(opened, game, depth, leaf_check)
        return BookCheck(not found.problems, found.searched, {how.name.lower(): count for how, count in
                                                              found.counts.items()}, list(found.problems))


@dataclass(frozen=True)
class TablebaseCheck(JsonResult):
    """What :meth:`Tablebase.check` found."""

    accepted: bool
    positions: int
    counts: dict[str, int]
    """Positions by value: win, draw, loss."""
    problems: list[str]
    """The first problems found (there may be more: `problem_count`)."""
    problem_count: int
    seconds: float


class Tablebase:
    """A tablebase file (as ``gameproof tablebase``): every position reachable from the start (or from a given
    position), up to symmetry, with its value, plies to the end under perfect play and exact score. It serves games
    that may repeat a position, which the searches refuse."""

    def __init__(self, path: str | Path) -> None:
        """The tablebase at `path` (only read); BadInput for a file that is not one, or whose game does not load."""
        from gameproof.search.tablebase.query import Tablebase as TableFile

        self._file = TableFile(path)
        self.path = str(path)
        self.game = Game.of(self._file.game)
        """The tablebase's game."""

    def __repr__(self) -> str:
        return f"<Tablebase {self.path!r}: {self.game.name}, {len(self):,} positions>"

    def __len__(self) -> int:
        return self._file.table.size

    @classmethod
    def build(cls, start: Game | Position, path: str | Path, *, workers: int = 1, max_positions: int = MOST_POSITIONS,
              progress: ProgressCallback | None = None) -> Tablebase:
        """Build the tablebase of every position reachable from `start` (a game's start, or a position: an
        endgame's table) at `path` (as ``gameproof tablebase build``; resumes an unfinished build), on `workers`
        threads; BadInput past `max_positions` positions. `progress` is told how each pass is going."""
        from gameproof.search.tablebase.build import build

        game = start if isinstance(start, Game) else checked_position(start, "Tablebase.build").game
        state = None if isinstance(start, Game) else start.state
        report = Reporter(progress)
        build(game.framework, path, root=None if state is None else (state.words, state.to_move), workers=workers,
              most=max_positions,
              progress=None if progress is None else lambda note: report(None, None, note))
        return cls(path)

    def query(self, position: Position) -> Solution:
        """`position`'s value, distance to the end and score (where the game declares one) for the side to move,
        and each legal move's, from the table; BadInput for a position the table does not hold."""
        _check_of(self.game, position, "tablebase")
        state = position.state
        answer = self._file.answer(state)
        worth, moves = answer.worth, {state.move_name(code): each for code, each in answer.moves.items()}
        scored = worth.score is not None
        return Solution(state.game.name, state.position, position.player, worth.value,
                        {name: each.value for name, each in moves.items()}, worth.score,
                        {name: each.score for name, each in moves.items()} if scored else {}, worth.distance,
                        {name: each.distance for name, each in moves.items()}, Source.TABLEBASE)

    def check(self, *, progress: ProgressCallback | None = None) -> TablebaseCheck:
        """Re-check every entry against its children with the rules alone (as ``gameproof tablebase check``)."""
        from gameproof.certify.tablebase_check import check_tablebase

        report = Reporter(progress)
        found = check_tablebase(self.path, None if progress is None else lambda note: report(None, None, note))
        return TablebaseCheck(found.accepted, found.positions, dict(found.counts), list(found.problems),
                              found.problem_count, found.seconds)
