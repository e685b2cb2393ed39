"""Which game and depth a book holds, from its meta rows: the game's name, and for a game declared in a
file (not known to the registry by its name) that file and the SHA-256 of its contents, so that a book
is never read with rules other than those it was built with."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameproof.errors import BadInput
from gameproof.framework.declaration import bounded_number, is_ascii_number, shown_number
from gameproof.framework.game import Game
from gameproof.framework.registry import load_game, specs
from gameproof.search.book import Book

#: The book format: 3 = the declared rules' keys (with the side to move), moves kept by their numbers, and
#: the game's file and its hash for a game loaded from a file. Books without the row are of format 1.
FORMAT = "3"
#: The meta row of a book that a build is deepening: the depth it is taking the book to (the row ``depth`` stays
#: the book's own until every entry of the new depth is in).
DEEPENING = "deepening"

#: How a book's game is loaded again from the text that names it (a name, or ``FILE.py:PARAMS``).
Loader = Callable[[str], Game]


@dataclass(frozen=True)
class Identity:
    """What names a game in a book: its name, and for a game from a file the file and its SHA-256."""

    name: str
    file: str | None = None
    sha256: str | None = None

    @classmethod
    def of(cls, game: Game) -> Identity:
        """The identity of `game`: its name when the registry knows its declaration by it, else its file."""
        if specs().get(game.spec.name) is game.spec:
            return cls(game.name)
        file = Path(inspect.getfile(game.spec.rules)).resolve()
        return cls(game.name, str(file), _sha256(file))

    @property
    def loading(self) -> str:
        """The text :func:`~gameproof.framework.registry.load_game` loads this game from."""
        if self.file is None:
            return self.name
        parameters = self.name.partition(":")[2]
        return f"{self.file}:{parameters}" if parameters else self.file

    def meta(self) -> dict[str, str]:
        """The meta rows that record it."""
        return {"game": self.name} | ({"file": self.file, "sha256": self.sha256} if self.file is not None else {})

    def __str__(self) -> str:
        return self.name if self.file is None else f"{self.name} (from {self.file})"


def _sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror}") from None


def open_book(path: str | Path, game: Game | None = None, depth: int | None = None,
              load: Loader = load_game) -> tuple[Book, Game, int]:
    """Open a book: read-only, or with ``depth`` to build it, where a new file takes ``game`` and ``depth``; an
    existing one must hold ``game``, and a ``depth`` beyond its own deepens it (:func:`_check_build_depth`).
    Returns the book, its game (loaded by ``load``) and its depth as its meta rows hold them (BadInput, one line,
    for meta rows a build does not write, or a game file that changed since)."""
    book = Book(path, writable=depth is not None)
    meta = book.meta()
    if not meta:
        if game is None or depth is None:
            book.close()
            raise BadInput(f"{path} is not a gameproof book")
        book.set_meta(**Identity.of(game).meta(), depth=str(depth), format=FORMAT)
        return book, game, depth
    try:
        stored, stored_depth = _settings(path, meta, load)
        if game is not None and Identity.of(game) != Identity.of(stored):
            raise BadInput(f"{path} holds {Identity.of(stored)} to depth {stored_depth}, not {Identity.of(game)}; "
                           "build another file for it")
        if depth is not None:
            _check_build_depth(path, meta, stored, stored_depth, depth)
    except BadInput:
        book.close()
        raise
    return book, stored, stored_depth


def _check_build_depth(path: str | Path, meta: dict[str, Any], game: Game, stored: int, depth: int) -> None:
    """BadInput, one line, unless a build to ``depth`` may go on in a book ``stored`` plies deep: a build deepens a
    book, never makes it shallower, and goes on with a deepening that a stopped build began."""
    if depth < stored:
        raise BadInput(f"{path} holds {Identity.of(game)} to depth {stored}, deeper than --depth {depth}: a build only "
                       "deepens a book; build another file for a shallower one")
    target = _deepening(path, meta, game, stored)
    if target is not None and depth < target:
        raise BadInput(f"{path} is being deepened from depth {stored} to {target} by a build that stopped; resume it "
                       f"with --depth {target} (or deeper)")


def _deepening(path: str | Path, meta: dict[str, Any], game: Game, stored: int) -> int | None:
    """The depth a build that has not finished was deepening the book (``stored`` plies deep) to, from its meta row
    :data:`DEEPENING`; None when none was. BadInput for a row a build does not write."""
    found = meta.get(DEEPENING)
    if found is None:
        return None
    target = bounded_number(found, game.max_plies) if isinstance(found, str) else None
    if target is None or target <= stored:
        raise BadInput(f"{path}: its meta row \"{DEEPENING}\" is {found!r:.60}, not a depth from {stored + 1} to "
                       f"{game.max_plies}")
    return target


def _settings(path: str | Path, meta: dict[str, Any], load: Loader) -> tuple[Game, int]:
    """The game and depth a book's meta rows name; BadInput for rows a build does not write."""
    if meta.get("format") != FORMAT:
        found = meta.get("format", "1")
        shown = shown_number(found) if isinstance(found, str) and is_ascii_number(found) else f"{found!r:.60}"
        raise BadInput(f"{path} is in book format {shown}, but this gameproof reads book format {FORMAT}; "
                       "build the book again")
    game = stored_game(path, meta, load)
    stored, leaves = meta.get("depth"), meta.get("leaves", "moves")
    depth = bounded_number(stored, game.max_plies) if isinstance(stored, str) else None
    if depth is None:
        raise BadInput(f"{path}: its meta row \"depth\" is {stored!r:.60}, not a depth from 0 to {game.max_plies}")
    if leaves not in ("values", "moves"):
        raise BadInput(f"{path}: its meta row \"leaves\" is {leaves!r}, not values or moves")
    return game, depth


def stored_game(path: str | Path, meta: dict[str, Any], load: Loader = load_game, what: str = "book") -> Game:
    """The game that the meta rows (or header) of the `what` at `path` name, loaded by `load`; BadInput, one line,
    for a name that loads another game or none, and for a game file that is gone or changed since."""
    identity = _identity(path, meta, what)
    field = _field(what)
    try:
        game = load(identity.loading)
    except BadInput as error:
        raise BadInput(f"{path}: its {field} \"game\" is {identity.name!r}: {error}") from None
    if game.name != identity.name:
        raise BadInput(f"{path}: its {field} \"game\" is {identity.name!r}, but {identity.loading!r} loads {game.name}")
    return game


def _field(what: str) -> str:
    """What holds the game's name in a `what`: a book's meta row, a tablebase's header field."""
    return "meta row" if what == "book" else "header's field"


def _identity(path: str | Path, meta: dict[str, Any], what: str) -> Identity:
    """The game's identity the meta rows hold; BadInput for a game file that is gone or changed since."""
    name, file, sha256 = meta.get("game"), meta.get("file"), meta.get("sha256")
    if not isinstance(name, str):
        raise BadInput(f"{path}: its {_field(what)} \"game\" is {name!r}, not a game's name")
    if file is None:
        return Identity(name)
    if not isinstance(file, str) or not Path(file).is_file():
        raise BadInput(f"{path} holds {name} as declared in {file}, which is not there")
    if _sha256(Path(file)) != sha256:
        raise BadInput(f"{path} holds {name} as declared in {file}, which has changed since the {what} was built; "
                       f"build another {what} for the new rules")
    return Identity(name, file, sha256)
