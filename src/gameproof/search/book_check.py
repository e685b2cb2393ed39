"""A book is not trusted: every entry it answers or verifies is re-checked, interior entries against their
children in the book, leaves by a fresh search (or by a game's own leaf check, such as the m,n,k
reference minimax), and the answer says which; ``verify`` says an entry was searched only when it was."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from gameproof.answers import Value
from gameproof.errors import BadInput
from gameproof.framework.declaration import Engine
from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.search.book import Book, Entry
from gameproof.search.book_build import from_children
from gameproof.search.dfpn import Options
from gameproof.search.exact import final_value
from gameproof.search.solve import solve


class Recheck(enum.Enum):
    """How a book entry is re-checked: by search (its children in the book, a fresh search of a leaf, or a
    game's plain minimax), or only for consistency with its own move values."""

    BY_CHILDREN = "against its children in the book"
    BY_SEARCH = "by a fresh search"
    BY_MINIMAX = "by plain minimax"
    CONSISTENT_ONLY = "for consistency only (not searched)"


#: A leaf's re-check, given the leaf and whether its moves' values are wanted: how it was re-checked, its
#: value and its moves' values (by move number; none when not wanted), or None to check it for consistency only.
LeafCheck = Callable[[RulesState, bool], tuple[Recheck, Value, dict[int, Value]] | None]


def by_search(options: Options = Options()) -> LeafCheck:
    """Re-check leaves by a fresh solve (a table of its own, not the build's) with the game's own engine."""
    def check(state: RulesState, with_moves: bool) -> tuple[Recheck, Value, dict[int, Value]]:
        solution = solve(state, options, with_moves=with_moves)
        return Recheck.BY_SEARCH, solution.value, dict(solution.moves)

    return check


def consistency_only(state: RulesState, with_moves: bool) -> None:
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
    if state.is_over():
        how, expected, moves = Recheck.BY_CHILDREN, final_value(state), {}
    elif entry.plies < depth:
        how, (expected, moves) = Recheck.BY_CHILDREN, from_children(state, book)
    elif (checked := leaf_check(state, not value_only)) is not None:
        how, expected, moves = checked
    elif value_only:
        return Recheck.CONSISTENT_ONLY, None
    else:
        legal = set(state.legal_moves())
        if set(entry.moves) != legal:
            return Recheck.CONSISTENT_ONLY, (f"book gives the moves {_names(state, entry.moves)}, the legal ones are "
                                             f"{_names(state, legal)}")
        how, expected, moves = Recheck.CONSISTENT_ONLY, Value.best(entry.moves.values()), entry.moves
    if entry.value != expected or (not value_only and entry.moves != moves):
        return how, (f"book says {_valued(state, entry.value, entry.moves)}, re-check gives "
                     f"{_valued(state, expected, moves)}")
    return how, None


def named_moves(state: RulesState, moves: dict[int, Value]) -> dict[str, Value]:
    """Move values keyed by the moves' names (as `state` names them) instead of their numbers."""
    return {state.move_name(move): value for move, value in moves.items()}


def _valued(state: RulesState, value: Value, moves: dict[int, Value]) -> str:
    """A value and its moves' values for a message: ``draw (a1:draw b1:loss)``."""
    each = " ".join(f"{name}:{move_value}" for name, move_value in named_moves(state, moves).items())
    return f"{value} ({each})" if moves else str(value)


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


def query(book: Book, state: RulesState, depth: int, leaf_check: LeafCheck, options: Options = Options(),
          verify_hint: str = "`gameproof book verify` re-checks the whole book") -> Answer:
    """The position's value and move values from the book (moves matched to the position's own by the
    positions they lead to), once its entry passes :func:`recheck` (BadInput, ending with `verify_hint`,
    when it does not); the game's own search when the book has no entry."""
    entry = book.get(state.key)
    if entry is None:
        solution = solve(state, options)
        engine = Source.ALPHABETA if state.game.spec.engine is Engine.ALPHABETA else Source.DFPN
        return Answer(solution.value, dict(solution.moves), engine)
    how, problem = recheck(book, state.game, depth, entry, leaf_check)
    if problem is not None:
        raise BadInput(f"{book.path}: the entry of this position fails its re-check ({problem}); {verify_hint}")
    moves = _oriented(state, RulesState(state.game, entry.record), entry.moves) if entry.moves else {}
    return Answer(value=entry.value, moves=moves, source=Source.BOOK, entry=entry, checked=how)


def _oriented(state: RulesState, representative: RulesState, moves: dict[int, Value]) -> dict[int, Value]:
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
