"""The certificate file: gzip around a JSON header line, then for each part a JSON line and fixed-size records.

The header: ``{"format": "gameproof-certificate", "version": 1, "game": "mnk-misere:4,4,3", "moves": [5, 10],
"played": "b2 c3", "value": "loss", "words": 2, "word_bytes": 2, "parts": 1}`` -- the game by name with
its parameters, the moves from its start to the root (move codes; ``played`` names them for people, and
the checker rejects a ``played`` that names other moves), the value claimed for the side to move at the
root, and the record layout. A game loaded from a file adds ``"rules_file": "examples/domineering.py",
"rules_sha256": "…"`` after ``game``: the file's path as it was given and the sha256 of its content. A game
whose move codes do not fit a byte adds ``"move_bytes"`` (2, 4 or 8; absent, it is 1), so the
certificates of games with one-byte moves are what they were. A certificate of a position given as text or words
(``--position``) adds ``"position": {"words": [...], "to_move": 1}`` before ``moves``, which are then played from
that position instead of the game's start. Each part:
``{"claimant": 1, "goal": "win", "nodes": N}`` and N records, one per position: its words
(little-endian, ``word_bytes`` each), the side to move (one byte) and, where the claimant is to move,
the move chosen (``move_bytes``; :attr:`Header.no_move` at the other side's positions). Malformed input
raises :class:`~gameproof.errors.BadInput` with one line.
"""

from __future__ import annotations

import enum
import gzip
import hashlib
import json
import shutil
import struct
import sys
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NoReturn

from gameproof.answers import Value
from gameproof.atomic import atomic_output
from gameproof.errors import BadInput
from gameproof.framework.declaration import MAX_SCORE, MAX_WORDS

FORMAT = "gameproof-certificate"
VERSION = 1
#: The struct code of an unsigned little-endian field of each size in bytes.
WORD_BYTES = {1: "B", 2: "H", 4: "I", 8: "Q"}
_SHA256 = frozenset("0123456789abcdef")
_MAX_HEADER = 1 << 20
_BLOCK = 1 << 16  # records read at a time
_COPY_BYTES = 1 << 20  # bytes of records copied at a time


class Goal(enum.Enum):
    """What a part proves the claimant reaches: a win, or at least a draw."""

    WIN = "win"
    DRAW = "draw"


@dataclass(frozen=True)
class RulesFile:
    """The file a game was loaded from: its path as given, and the sha256 (hex) of its content."""

    path: str
    sha256: str

    @classmethod
    def of(cls, path: str) -> RulesFile:
        """The file at `path` with the hash of what it holds now (BadInput when it cannot be read)."""
        return cls(path, file_sha256(path))


@dataclass(frozen=True)
class Header:
    """What a certificate claims: the root position, its value for the side to move, and the record layout."""

    game: str
    moves: tuple[int, ...]
    played: str
    value: Value
    words: int
    word_bytes: int
    parts: int
    rules_file: RulesFile | None = None  # for a game loaded from a file
    move_bytes: int = 1
    #: For a score question: the first player's score that counts as a draw (above it the first player wins,
    #: below it loses), so that the value claimed compares the side to move's score with it (see :meth:`claim`).
    threshold: int | None = None
    #: The position `moves` start from, as the game's words and the side to move (None: the game's start).
    position: tuple[tuple[int, ...], int] | None = None

    @property
    def no_move(self) -> int:
        """The move field of a position where the claimant's opponent is to move."""
        return no_move(self.move_bytes)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game}
        if self.rules_file is not None:
            data |= {"rules_file": self.rules_file.path, "rules_sha256": self.rules_file.sha256}
        if self.position is not None:
            data["position"] = {"words": list(self.position[0]), "to_move": self.position[1]}
        data |= {"moves": list(self.moves), "played": self.played, "value": self.value.value, "words": self.words,
                 "word_bytes": self.word_bytes}
        if self.move_bytes != 1:
            data["move_bytes"] = self.move_bytes
        if self.threshold is not None:
            data["score_threshold"] = self.threshold
        return data | {"parts": self.parts}

    def part_claim(self, part: Part) -> str:
        """What a part proves its claimant reaches: ``wins``, ``at least draws``, or for a score question ``scores at
        least 3`` or ``scores more than 3`` (its own score)."""
        if self.threshold is None:
            return "wins" if part.goal is Goal.WIN else "at least draws"
        own = self.threshold if part.claimant == 0 else -self.threshold
        return f"scores more than {own}" if part.goal is Goal.WIN else f"scores at least {own}"

    def claim(self, to_move: int, value: Value | None = None) -> str:
        """What the certificate's value (or `value`) says for the side `to_move` at the root: ``win``, ``draw``,
        ``loss``, or for a score question ``score = 3``, ``score > 3``, ``score < 3`` (its own score)."""
        value = self.value if value is None else value
        if self.threshold is None:
            return value.value
        own = self.threshold if to_move == 0 else -self.threshold
        return f"score {dict(win='>', draw='=', loss='<')[value.value]} {own}"


@dataclass(frozen=True)
class Part:
    """One proof: ``claimant`` (0 first player, 1 second) reaches ``goal`` from the root; ``nodes`` records follow."""

    claimant: int
    goal: Goal
    nodes: int

    def to_json(self) -> dict[str, Any]:
        return {"claimant": self.claimant, "goal": self.goal.value, "nodes": self.nodes}


def word_bytes(bits: int) -> int:
    """The fewest bytes (1, 2, 4 or 8) that hold a word of `bits` bits."""
    return next(size for size in WORD_BYTES if bits <= 8 * size)


def move_bytes(pass_move: int) -> int:
    """The fewest bytes (1, 2, 4 or 8) of a move field that holds every move code up to `pass_move` (the
    pass, the largest code) and, above them all, :attr:`Header.no_move`."""
    return word_bytes((pass_move + 1).bit_length())


def no_move(move_size: int) -> int:
    """The move field of a position where the claimant's opponent is to move: the largest value of a field
    of `move_size` bytes."""
    return (1 << 8 * move_size) - 1


def record_layout(words: int, size: int, move_size: int = 1) -> struct.Struct:
    """A record: `words` words of `size` bytes, the side to move (a byte), the chosen move (`move_size` bytes)."""
    return struct.Struct("<" + WORD_BYTES[size] * words + "B" + WORD_BYTES[move_size])


def file_sha256(path: str) -> str:
    """The sha256 (hex) of the content of the file at `path`; BadInput (one line) when it cannot be read."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except FileNotFoundError:
        raise BadInput(f"the rules file {path!r} is missing") from None
    except (OSError, ValueError) as error:  # ValueError: a path with a NUL character
        raise BadInput(f"cannot read the rules file {path!r}: {getattr(error, 'strerror', None) or error}") from None


def write_certificate(path: str | Path, header: Header, parts: Sequence[tuple[Part, bytes | IO[bytes]]]) -> int:
    """Write the certificate (each part with its packed records, as bytes or a binary file read from its
    start) atomically; returns the file's size in bytes.

    The file is written under a temporary name in the same folder and renamed when complete, so a run
    that fails leaves nothing behind; a target that is no regular file (``/dev/stdout``) is written in place."""
    target = Path(path)
    with atomic_output(target) as partial, open(partial, "wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as out:
        out.write(_line(header.to_json()))
        for part, records in parts:
            out.write(_line(part.to_json()))
            if isinstance(records, (bytes, bytearray)):
                out.write(records)
            else:
                records.seek(0)
                shutil.copyfileobj(records, out, _COPY_BYTES)
    return target.stat().st_size


def _line(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode() + b"\n"


class CertificateReader:
    """Reads a certificate as a stream: the header at once, then each part's records block by block."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._file: IO[bytes] = gzip.open(path, "rb")
        except OSError as error:
            raise BadInput(f"cannot read {path}: {error.strerror or error}") from None
        self.header = self._header()
        self.layout = record_layout(self.header.words, self.header.word_bytes, self.header.move_bytes)

    def __enter__(self) -> CertificateReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def parts(self) -> Iterator[tuple[Part, Iterator[tuple[int, ...]]]]:
        """Each part with an iterator over its records (``(*words, to_move, move)``), to be read in turn (the
        records of a part not read to its end are skipped); BadInput when the file ends early or has more
        after its last part."""
        for _ in range(self.header.parts):
            data = self._json_line("part")
            part = Part(_integer(data, "claimant", 0, 1), _enum(data, "goal", Goal), _integer(data, "nodes", 0, 1 << 62))
            records = _PartRecords(self, part.nodes)
            yield part, iter(records)
            records.skip()
        if self._read(1):
            self._bad("data after the last part")

    def read_records(self, count: int) -> bytes:
        """The bytes of the next `count` records; BadInput when the file ends before them."""
        data = self._read(count * self.layout.size)
        if len(data) != count * self.layout.size:
            self._bad("the file ends in the middle of a part (truncated)")
        return data

    def _header(self) -> Header:
        data = self._json_line("header")
        if data.get("format") != FORMAT:
            self._bad(f"not a certificate (no \"format\": \"{FORMAT}\" in its first line)")
        if data.get("version") != VERSION:
            self._bad(f"format version {data.get('version')!r}; this gameproof reads version {VERSION}")
        size, move_size = self._field_bytes(data, "word_bytes"), self._field_bytes(data, "move_bytes", 1)
        moves, most = data.get("moves"), no_move(move_size) - 1
        if not isinstance(moves, list) or not all(type(m) is int and 0 <= m <= most for m in moves):
            self._bad(f"\"moves\" must be a list of move codes 0..{most}")
        rules_file = None
        if "rules_file" in data or "rules_sha256" in data:
            digest = _text(data, "rules_sha256")
            if len(digest) != 64 or not set(digest) <= _SHA256:
                self._bad("\"rules_sha256\" must be 64 lowercase hex digits")
            rules_file = RulesFile(_text(data, "rules_file"), digest)
        threshold = None
        if "score_threshold" in data:
            threshold = _integer(data, "score_threshold", -MAX_SCORE, MAX_SCORE)
        words = _integer(data, "words", 1, MAX_WORDS)
        return Header(_text(data, "game"), tuple(moves), _text(data, "played"), _enum(data, "value", Value), words,
                      size, _integer(data, "parts", 1, 2), rules_file, move_size, threshold,
                      self._position(data, words) if "position" in data else None)

    def _position(self, data: dict[str, Any], count: int) -> tuple[tuple[int, ...], int]:
        """The header's root position: `count` 64-bit words and the side to move, 0 or 1."""
        position = data["position"]
        words = position.get("words") if isinstance(position, dict) else None
        if (not isinstance(words, list) or len(words) != count
                or not all(type(word) is int and 0 <= word < 1 << 64 for word in words)):
            self._bad(f"\"position\" must give \"words\": a list of {count} words 0..2**64 - 1, as \"words\" says")
        return tuple(words), _integer(position, "to_move", 0, 1)

    def _field_bytes(self, data: dict[str, Any], name: str, absent: int | None = None) -> int:
        """The size in bytes that the header gives a record field (`absent` when it gives none and may)."""
        if absent is not None and name not in data:
            return absent
        size = _integer(data, name, 1, 8)
        if size not in WORD_BYTES:
            self._bad(f"\"{name}\" must be 1, 2, 4 or 8")
        return size

    def _json_line(self, what: str) -> dict[str, Any]:
        try:
            line = self._file.readline(_MAX_HEADER)
        except (OSError, EOFError, zlib.error) as error:
            self._bad(f"unreadable ({error})")
        if not line.endswith(b"\n"):
            self._bad(f"the {what} line is missing or cut off")
        try:
            data = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            self._bad(f"the {what} line is not JSON")
        except ValueError:  # what else json raises: a number longer than Python reads
            self._bad(f"the {what} line holds a number of more than {sys.get_int_max_str_digits():,} digits")
        except RecursionError:
            self._bad(f"the {what} line is nested too deeply")
        if not isinstance(data, dict):
            self._bad(f"the {what} line is not a JSON object")
        return data

    def _read(self, size: int) -> bytes:
        try:
            return self._file.read(size)
        except (OSError, EOFError, zlib.error) as error:
            self._bad(f"unreadable ({error})")

    def _bad(self, message: str) -> NoReturn:
        raise BadInput(f"certificate {self.path}: {message}")


class _PartRecords:
    """The records of one part, read block by block."""

    def __init__(self, reader: CertificateReader, count: int) -> None:
        self.reader, self.left = reader, count

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        while self.left:
            block = min(self.left, _BLOCK)
            data = self.reader.read_records(block)
            self.left -= block
            yield from self.reader.layout.iter_unpack(data)

    def skip(self) -> None:
        """Read past the records not read yet."""
        while self.left:
            block = min(self.left, _BLOCK)
            self.reader.read_records(block)
            self.left -= block


def _integer(data: dict[str, Any], name: str, low: int, high: int) -> int:
    value = data.get(name)
    if type(value) is not int or not low <= value <= high:
        raise BadInput(f"certificate: \"{name}\" must be a whole number {low}..{high}, not {value!r}")
    return value


def _text(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise BadInput(f"certificate: \"{name}\" must be a string, not {value!r}")
    return value


def _enum(data: dict[str, Any], name: str, kind: type[enum.Enum]) -> Any:
    try:
        return kind(data.get(name))
    except ValueError:
        raise BadInput(f"certificate: \"{name}\" must be one of {', '.join(m.value for m in kind)}, "
                       f"not {data.get(name)!r}") from None
