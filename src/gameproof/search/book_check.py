"""A book is not trusted: every entry it answers or verifies is re-checked, interior entries against their
children in the book, leaves by a fresh search (or by a game's own leaf check, such as the m,n,k
reference minimax), and the answer says which; ``verify`` says an entry was searched only when it was."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from gameproof.answers import Value
from gameproof.errors import BadInput
from gameproof.framework.declaration import Engine
from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.search.book import Book, Entry
from gameproof.search.book_build import finished_entry, from_children, scored_entry
from gameproof.search.dfpn import Options
from gameproof.search.score import exact_score
from gameproof.search.solve import solve


#: A move's worth in a book: its value, or its exact score.
Worth = TypeVar("Worth", Value, int)


class Recheck(enum.Enum):
    """How a book entry is re-checked: by search (its children in the book, a fresh search of a leaf, or a
    game's plain minimax), or only for consistency with its own move values."""

    BY_CHILDREN = "against its children in the book"
    BY_SEARCH = "by a fresh search"
    BY_MINIMAX = "by plain minimax"
    CONSISTENT_ONLY = "for consistency only (not searched)"


#: A leaf's re-check, given the leaf, whether its moves' values are wanted and whether exact scores are: how it was
#: re-checked and the entry it finds (moves' values by move number, none when not wanted; scores when wanted), or
#: None to check it for consistency only.
LeafCheck = Callable[[RulesState, bool, bool], tuple[Recheck, Entry] | None]


def by_search(options: Options = Options()) -> LeafCheck:
    """Re-check leaves by a fresh solve (a table of its own, not the build's) with the game's own engine, or a
    fresh exact score."""
    def check(state: RulesState, with_moves: bool, scored: bool) -> tuple[Recheck, Entry]:
        if scored:
            return Recheck.BY_SEARCH, scored_entry(state, exact_score(state, options, with_moves=with_moves))
        solution = solve(state, options, with_moves=with_moves)
        return Recheck.BY_SEARCH, Entry(state.key, state.record, len(state.history), solution.value,
                                        dict(solution.moves))

    return check


def consistency_only(state: RulesState, with_moves: bool, scored: bool) -> None:
    """Re-check no leaf by search: each only for consistency with its own move values."""
    return None


def recheck(book: Book, game: Game, depth: int, entry: Entry, leaf_check: LeafCheck) -> tuple[Recheck, str | None]:
    """How ``entry`` is re-checked, and what is wrong with it (None when nothing): interior entries and
    finished games against their children, leaves by ``leaf_check``, else for consistency (its moves are
    the legal ones and its value the best of theirs; nothing for a leaf kept by its value only)."""
    try:
        state = RulesState(game, entry.record)
    except BadInput as error:
        return Recheck.CONSISTENT_ONLY, f"its record does not replay: {error}"
    if state.key != entry.key:
        return Recheck.CONSISTENT_ONLY, f"stored key {entry.key} but the position's key is {state.key}"
    if entry.plies != len(state.history):
        return Recheck.CONSISTENT_ONLY, f"stored at ply {entry.plies}, but its record has {len(state.history)} moves"
    value_only = entry.plies >= depth and not entry.moves and not state.is_over()  # a leaf of a --values-only build
    scored = book.scored
    if scored and entry.score is None:
        return Recheck.CONSISTENT_ONLY, "it keeps no score, in a book built with scores"
    if state.is_over():
        how, expected = Recheck.BY_CHILDREN, finished_entry(state, scored)
    elif entry.plies < depth:
        try:
            how, expected = Recheck.BY_CHILDREN, from_children(state, book)
        except BadInput as lacking:  # a child's entry, or its score, is not in the book
            return Recheck.BY_CHILDREN, str(lacking)
    elif (checked := leaf_check(state, not value_only, scored)) is not None:
        how, expected = checked
    else:
        legal = set(state.legal_moves())
        if not value_only and set(entry.moves) != legal:
            return Recheck.CONSISTENT_ONLY, (f"book gives the moves {_names(state, entry.moves)}, the legal ones are "
                                             f"{_names(state, legal)}")
        how, expected = Recheck.CONSISTENT_ONLY, _consistent(entry, scored, value_only)
    if _judged(entry, value_only) != _judged(expected, value_only):
        return how, f"book says {_valued(state, entry)}, re-check gives {_valued(state, expected)}"
    return how, None


def _consistent(entry: Entry, scored: bool, value_only: bool) -> Entry:
    """What `entry` would hold if its value (and score) were those its moves' give, with moves' values the signs of
    their scores in a book with scores; a leaf kept by its value only has only its value and its score's sign."""
    if value_only:
        return replace(entry, value=Value.of_score(entry.score)) if scored else replace(entry, score=None)
    if not scored:
        return replace(entry, value=Value.best(entry.moves.values()), score=None, move_scores={})
    moves = {move: Value.of_score(score) for move, score in entry.move_scores.items()}
    best = max(entry.move_scores.values(), default=None)
    return replace(entry, value=Value.best(moves.values()), moves=moves, score=best)


def _judged(entry: Entry, value_only: bool) -> tuple:
    """What a re-check compares of an entry: its value and score, and unless kept by its value only, its moves'."""
    if value_only:
        return entry.value, entry.score
    return entry.value, entry.score, entry.moves, entry.move_scores


def named_moves(state: RulesState, moves: dict[int, Worth]) -> dict[str, Worth]:
    """Move values (or scores) keyed by the moves' names (as `state` names them) instead of their numbers."""
    return {state.move_name(move): value for move, value in moves.items()}


def _valued(state: RulesState, entry: Entry) -> str:
    """An entry's value and its moves' values (with scores where it has them) for a message:
    ``draw (a1:draw b1:loss)``, ``win +2 (a1:win +2 b1:loss -1)``."""
    def worth(value: Value, score: int | None) -> str:
        return str(value) if score is None else f"{value} {score:+d}"

    each = " ".join(f"{state.move_name(move)}:{worth(value, entry.move_scores.get(move))}"
                    for move, value in entry.moves.items())
    stated = worth(entry.value, entry.score)
    return f"{stated} ({each})" if entry.moves else stated


def _names(state: RulesState, moves: object) -> list[str]:
    return sorted(state.move_name(move) for move in moves)


def passes_recheck(game: Game, depth: int, leaf_check: LeafCheck) -> Callable[[Book, Entry], bool]:
    """Whether an entry of a `depth`-ply book of `game` passes :func:`recheck` (for readers that answer from
    a book, such as the game screen's oracle)."""
    def passes(book: Book, entry: Entry) -> bool:
        try:
            return recheck(book, game, depth, entry, leaf_check)[1] is None
        except BadInput:  # a child missing from the book, a damaged row: the entry is not used
            return False

    return passes


class Source(enum.StrEnum):
    """Where an answer came from: the book, or the game's own search."""

    BOOK = "book"
    DFPN = "df-pn"
    ALPHABETA = "alpha-beta"


@dataclass
class Answer:
    """A position's value and its moves' values (by move number), and where they came from."""

    value: Value
    moves: dict[int, Value]
    source: Source
    entry: Entry | None = None
    checked: Recheck | None = None  # how a book entry was re-checked before it was answered
    score: int | None = None  # the exact score for the player to move, from a book built with scores
    move_scores: dict[int, int] = field(default_factory=dict)


def query(book: Book, state: RulesState, depth: int, leaf_check: LeafCheck, options: Options = Options(),
          verify_hint: str = "`gameproof book verify` re-checks the whole book") -> Answer:
    """The position's value and move values from the book (moves matched to the position's own by the
    positions they lead to), once its entry passes :func:`recheck` (BadInput, ending with `verify_hint`,
    when it does not); the game's own search when the book has no entry."""
    entry = book.get(state.key)
    if entry is None:
        engine = Source.ALPHABETA if state.game.spec.engine is Engine.ALPHABETA else Source.DFPN
        if book.scored:
            found = scored_entry(state, exact_score(state, options))
            return Answer(found.value, found.moves, engine, score=found.score, move_scores=found.move_scores)
        solution = solve(state, options)
        return Answer(solution.value, dict(solution.moves), engine)
    how, problem = recheck(book, state.game, depth, entry, leaf_check)
    if problem is not None:
        raise BadInput(f"{book.path}: the entry of this position fails its re-check ({problem}); {verify_hint}")
    representative = RulesState(state.game, entry.record)
    moves = _oriented(state, representative, entry.moves) if entry.moves else {}
    scores = _oriented(state, representative, entry.move_scores) if entry.move_scores else {}
    return Answer(value=entry.value, moves=moves, source=Source.BOOK, entry=entry, checked=how, score=entry.score,
                  move_scores=scores)


def _oriented(state: RulesState, representative: RulesState, moves: dict[int, Worth]) -> dict[int, Worth]:
    """The representative's move values given to `state`'s moves: a move's value is that of the
    representative's move that leads to a position with the same canonical key."""
    by_child = {}
    for move, value in moves.items():
        representative.play(move)
        by_child[representative.key] = value
        representative.undo()
    oriented = {}
    for move in state.legal_moves():
        state.play(move)
        value = by_child.get(state.key)
        state.undo()
        if value is None:
            raise BadInput(f"the book's entry {representative.record or '(start)'} is not a symmetric image of "
                           f"{state.record or 'the start'} (their keys collide)")
        oriented[move] = value
    return oriented


@dataclass
class Verification:
    """What `verify` found: how many entries it re-checked in each way, and the problems."""

    counts: dict[Recheck, int] = field(default_factory=lambda: dict.fromkeys(Recheck, 0))
    problems: list[str] = field(default_factory=list)

    @property
    def searched(self) -> bool:
        """Whether every entry was re-checked by search (none for consistency only)."""
        return self.counts[Recheck.CONSISTENT_ONLY] == 0


def verify(book: Book, game: Game, depth: int, leaf_check: LeafCheck) -> Verification:
    """Re-check every entry (:func:`recheck`) and count how."""
    report = Verification()
    for entry in book.entries():
        how, problem = recheck(book, game, depth, entry, leaf_check)
        report.counts[how] += 1
        if problem is not None:
            report.problems.append(f"{entry.record or '(start)'}: {problem}")
    return report
