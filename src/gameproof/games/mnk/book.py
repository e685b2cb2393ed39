"""Opening books of m,n,k games: the books of any game (:mod:`gameproof.search.book_build`,
:mod:`gameproof.search.book_check`) opened as m,n,k games, with the m,n,k leaf re-check: plain minimax (the
reference) on leaves with at most ``max_empty`` empty squares, the others for consistency only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gameproof.answers import Value
from gameproof.errors import BadInput
from gameproof.games.mnk import reference
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.search import book_check, book_game
from gameproof.search.book import Book, Entry
from gameproof.search.book_build import build
from gameproof.search.book_check import Answer, LeafCheck, Recheck, Verification
from gameproof.search.book_game import FORMAT
from gameproof.search.dfpn import Options

__all__ = ["FORMAT", "RECHECK_EMPTY", "Answer", "Book", "Recheck", "Verification", "build", "by_minimax", "open_book",
           "passes_recheck", "query", "recheck", "verify"]

#: Leaves with at most this many empty squares are re-checked by plain minimax (more: for consistency only).
RECHECK_EMPTY = 12
_VERIFY_HINT = "`gameproof mnk verify --db` re-checks the whole book"


def _mnk_game(name: str) -> MnkGame:
    try:
        return MnkGame.from_name(name)
    except ValueError:  # BadInput, or a board the rules refuse
        raise BadInput("not an m,n,k game") from None


def open_book(path: str | Path, game: MnkGame | None = None, depth: int | None = None) -> tuple[Book, MnkGame, int]:
    """:func:`gameproof.search.book_game.open_book` for a book of an m,n,k game."""
    return book_game.open_book(path, game, depth, load=_mnk_game)  # type: ignore[return-value]


def by_minimax(game: MnkGame, max_empty: int) -> LeafCheck:
    """The m,n,k leaf re-check: plain minimax on leaves with at most ``max_empty`` empty squares."""
    def check(state: MnkState, with_moves: bool, scored: bool) -> tuple[Recheck, Entry] | None:
        """(An m,n,k game has no score: `scored` asks for none that it could give.)"""
        if game.cells - len(state.history) > max_empty:
            return None
        found = reference.move_values(state.marks(), game.rows, game.cols, game.k, game.variant)
        moves = {move: Value.of_score(score) for move, score in found.items()}
        return Recheck.BY_MINIMAX, Entry(state.key, state.record, len(state.history), Value.best(moves.values()),
                                         moves if with_moves else {})

    return check


def recheck(book: Book, game: MnkGame, depth: int, entry: Entry, max_empty: int) -> tuple[Recheck, str | None]:
    """:func:`gameproof.search.book_check.recheck` with the leaves re-checked by :func:`by_minimax`."""
    return book_check.recheck(book, game, depth, entry, by_minimax(game, max_empty))


def passes_recheck(game: MnkGame, depth: int, max_empty: int = RECHECK_EMPTY) -> Callable[[Book, Entry], bool]:
    """Whether an entry of a `depth`-ply book of `game` passes :func:`recheck` (for the game screen's oracle)."""
    return book_check.passes_recheck(game, depth, by_minimax(game, max_empty))


def query(book: Book, state: MnkState, depth: int, options: Options = Options(), max_empty: int = RECHECK_EMPTY) -> Answer:
    """:func:`gameproof.search.book_check.query` with the leaves re-checked by :func:`by_minimax`."""
    return book_check.query(book, state, depth, by_minimax(state.game, max_empty), options, _VERIFY_HINT)


def verify(book: Book, game: MnkGame, depth: int, *, max_empty: int = RECHECK_EMPTY) -> Verification:
    """Re-check every entry, leaves by :func:`by_minimax`."""
    return book_check.verify(book, game, depth, by_minimax(game, max_empty))
