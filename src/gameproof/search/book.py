"""Opening books in SQLite: solved positions keyed by canonical position key, with move values.

An entry: key (decimal text, since keys may exceed SQLite's signed 64-bit integers), the record of
a representative position (its moves' names), its ply, the value for the player to move, the value of
each of its moves (JSON, keyed by move number on the representative), the search effort, and how it was proven
(``df-pn`` at the book's leaves, ``children`` when backed up from entries one ply deeper, ``over``
for finished games). A book built with scores (meta ``scores``) keeps each entry's exact final score for the
player to move and each move's in a table of its own, ``scores``, beside the values they decide.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from gameproof.answers import Value
from gameproof.errors import BadInput
from gameproof.framework.declaration import bounded_number
from gameproof.storage import connect_read_only

_TABLES = {"meta", "positions"}
#: The table of exact scores, which books built before scores lack.
_SCORES = "scores"
#: The largest key (keys are 64-bit words) and move number an entry may hold.
_MOST_KEY = 2**64 - 1
#: How long opening a book to write waits for another process's lock on it before refusing the file.
_BUSY_SECONDS = 2.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS positions (
    key TEXT PRIMARY KEY, record TEXT NOT NULL, plies INTEGER NOT NULL, value TEXT NOT NULL,
    moves TEXT NOT NULL, nodes INTEGER NOT NULL, seconds REAL NOT NULL, method TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, score INTEGER NOT NULL, moves TEXT NOT NULL);
"""
#: The meta entry of a book built with scores, and its value.
SCORED = ("scores", "exact")


@dataclass(frozen=True)
class Entry:
    """A position's entry (see the module's docstring)."""

    key: int
    record: str
    plies: int
    value: Value
    moves: dict[int, Value]
    nodes: int = 0
    seconds: float = 0.0
    method: str = "df-pn"
    score: int | None = None  # the exact final score for the player to move, in a book built with scores
    move_scores: dict[int, int] = field(default_factory=dict)  # each move's score for that player (by move number)

    @classmethod
    def from_json(cls, data: dict) -> Entry:
        """The entry :meth:`as_json` wrote."""
        moves = {_move(move): Value(value) for move, value in data["moves"].items()}
        scores = {_move(move): _score(score) for move, score in data.get("move_scores", {}).items()}
        score = data.get("score")
        return cls(int(data["key"]), data["record"], data["plies"], Value(data["value"]), moves, data["nodes"],
                   data["seconds"], data["method"], None if score is None else _score(score), scores)

    def as_json(self) -> dict:
        """The entry as JSON can hold it (its moves keyed by their numbers as text); scores where it has them."""
        found = {"key": self.key, "record": self.record, "plies": self.plies, "value": self.value,
                 "moves": self.moves, "nodes": self.nodes, "seconds": round(self.seconds, 6), "method": self.method}
        if self.score is not None:
            found |= {"score": self.score, "move_scores": self.move_scores}
        return found


class Book:
    """A book file; every `put` is committed at once, so a killed build loses nothing it finished.

    Opened read-only unless ``writable``: reading never changes the file, and a file that is not a book
    (not SQLite, or SQLite without a book's tables) is refused with BadInput rather than turned into one.
    A writable book may be a new or empty file; a database that holds other tables is refused too.
    """

    def __init__(self, path: str | Path, writable: bool = False) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise BadInput(f"{path} is a folder, not a book")
        if not writable and not self.path.exists():
            raise BadInput(f"no book at {path}")
        try:
            self._db = sqlite3.connect(self.path, timeout=_BUSY_SECONDS) if writable else connect_read_only(self.path)
        except sqlite3.Error as error:
            raise BadInput(f"cannot open the book {path}: {error}") from None
        try:
            tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise BadInput(f"{path} is not a gameproof book: {error}") from None
        if not _TABLES <= tables and (tables or not writable):
            self._db.close()
            raise BadInput(f"{path} is not a gameproof book" + (f": it holds the tables {', '.join(sorted(tables))}" if tables else ""))
        other = [table for table in sorted((_TABLES | {_SCORES}) & tables)
                 if _columns(self._db, table) != _book_columns()[table]]
        if other:
            self._db.close()
            raise BadInput(f"{path} is not a gameproof book: its table {other[0]} has other columns than a book's")
        if writable:
            self._take_for_writing()
        self._has_scores = writable or _SCORES in tables  # a writable book has every table once it is taken

    def _take_for_writing(self) -> None:
        """Create the tables if need be; BadInput if the file cannot be written now (read-only, or locked by
        another process), before any work is done."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                self._db.execute(statement)
            self._db.commit()
        except sqlite3.Error as error:
            self._db.close()
            raise BadInput(f"cannot write to the book {self.path}: {error}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Book:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def meta(self) -> dict[str, str]:
        with self._reading():
            return dict(self._db.execute("SELECT name, value FROM meta"))

    def set_meta(self, **values: str | None) -> None:
        """Set meta rows in one transaction; a row given None is removed."""
        with self._writing():
            self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                 [(k, str(v)) for k, v in values.items() if v is not None])
            self._db.executemany("DELETE FROM meta WHERE name = ?", [(k,) for k, v in values.items() if v is None])

    @property
    def scored(self) -> bool:
        """Whether the book was built with scores: every entry then keeps its exact score and its moves'."""
        name, value = SCORED
        return self.meta().get(name) == value

    def put(self, entry: Entry) -> None:
        with self._writing():
            self._insert(entry)

    def put_all(self, entries: list[Entry]) -> None:
        """Put several entries in one transaction."""
        with self._writing():
            for entry in entries:
                self._insert(entry)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One transaction; BadInput when the file refuses it (locked by another process for too long)."""
        try:
            with self._db:
                yield
        except sqlite3.OperationalError as error:
            raise BadInput(f"cannot write to the book {self.path}: {error}") from None

    def _insert(self, entry: Entry) -> None:
        self._db.execute("INSERT OR REPLACE INTO positions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (str(entry.key), entry.record, entry.plies, entry.value, json.dumps(entry.moves),
                          entry.nodes, entry.seconds, entry.method))
        if entry.score is None:
            self._db.execute("DELETE FROM scores WHERE key = ?", (str(entry.key),))
        else:
            self._db.execute("INSERT OR REPLACE INTO scores VALUES (?, ?, ?)",
                             (str(entry.key), entry.score, json.dumps(entry.move_scores)))

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """BadInput, one line, for a file that SQLite cannot read (damaged since it was opened, say)."""
        try:
            yield
        except sqlite3.DatabaseError as error:
            raise BadInput(f"cannot read the book {self.path}: {error}") from None

    def _select(self) -> str:
        """The query of entries with their scores (none in a book made before scores had a table)."""
        if self._has_scores:
            return ("SELECT positions.*, scores.score, scores.moves FROM positions "
                    "LEFT JOIN scores ON scores.key = positions.key")
        return "SELECT *, NULL, NULL FROM positions"

    def get(self, key: int) -> Entry | None:
        with self._reading():
            row = self._db.execute(f"{self._select()} WHERE positions.key = ?", (str(key),)).fetchone()
        return self._entry(row) if row else None

    def keys(self) -> set[int]:
        with self._reading():
            return {self._key(k) for (k,) in self._db.execute("SELECT key FROM positions")}

    def entries(self) -> Iterator[Entry]:
        with self._reading():
            for row in self._db.execute(f"{self._select()} ORDER BY plies, record"):
                yield self._entry(row)

    def _key(self, text: object) -> int:
        key = bounded_number(text, _MOST_KEY) if isinstance(text, str) else None
        if key is None:
            raise BadInput(f"{self.path}: a damaged entry: the key {text!r:.60} is not a position's key")
        return key

    def _entry(self, row: tuple) -> Entry:
        """The entry a row holds; BadInput (naming the row's key) for a row this module did not write."""
        key, record, plies, value, moves, nodes, seconds, method, score, move_scores = row
        number = self._key(key)
        try:
            named = json.loads(moves)
            scores = {} if move_scores is None else json.loads(move_scores)
            if not (isinstance(record, str) and type(plies) is int and isinstance(named, dict)
                    and type(nodes) is int and isinstance(seconds, (int, float)) and isinstance(method, str)
                    and isinstance(scores, dict)):
                raise ValueError("a field of the wrong type")
            return Entry(number, record, plies, Value(value), {_move(m): Value(v) for m, v in named.items()},
                         nodes, seconds, method, None if score is None else _score(score),
                         {_move(m): _score(v) for m, v in scores.items()})
        except (TypeError, ValueError, RecursionError) as error:
            raise BadInput(f"{self.path}: a damaged entry (key {key}): {error}") from None

    def __len__(self) -> int:
        with self._reading():
            return self._db.execute("SELECT COUNT(*) FROM positions").fetchone()[0]


def _columns(db: sqlite3.Connection, table: str) -> list[tuple]:
    """How SQLite describes the columns of `table` (name, type, constraints, in order)."""
    return db.execute(f"PRAGMA table_info({table})").fetchall()


@cache
def _book_columns() -> dict[str, list[tuple]]:
    """The columns of each table of a book, as :data:`_SCHEMA` makes them."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(_SCHEMA)
        return {table: _columns(db, table) for table in _TABLES | {_SCORES}}
    finally:
        db.close()


def _score(score: object) -> int:
    """A score as a book keeps it (an integer); ValueError for anything else."""
    if type(score) is not int:
        raise ValueError(f"the score {score!r:.60} is not an integer")
    return score


def _move(move: object) -> int:
    """A move number, or one as JSON keeps an object's key (its digits); ValueError for anything else."""
    if type(move) is int and move >= 0:
        return move
    number = bounded_number(move, _MOST_KEY) if isinstance(move, str) else None
    if number is None:
        raise ValueError(f"the move {move!r:.60} is not a move number")
    return number

