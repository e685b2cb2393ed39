"""Check a tablebase entry by entry with nothing but the game's rules, run on Python ints.

What this module imports, and why that keeps it independent of the build it checks:

- the standard library, numpy, and its own reader of the file (the magic line, the header's length, the JSON
  header, the arrays at their offsets: :func:`read_tablebase`), not the builder's;
- :func:`gameproof.framework.registry.load_game`, for the game by the name the header gives (or from the rules file
  it names, once that file is found to hold what it held when the table was built); the game's plain-Python key
  (:meth:`Game.key`, here computed for many positions at once from the same weights, :attr:`Game.key_weights`, and
  compared with :meth:`Game.key` itself on a sample of rows); :mod:`gameproof.framework.diagram` to name a position
  in a problem;
- from :mod:`gameproof.certify.check`, the certificate checker's :class:`~gameproof.certify.check._Rules` (legal
  moves, passes, the position after a move, results, scores and who moves next, from the rule functions) and
  :func:`~gameproof.certify.check.symmetry_group` (the symmetries the declared ones generate, from the board's
  geometry).

Nothing from :mod:`gameproof.search`, the numba kernels or their passes. What it trusts: the rule functions, and (as
the certificate checker does) the symmetries of a built-in game, which the test suite checks against its rules; a
game from a user's file must have been built without its declared symmetries (``"symmetries": ["identity"]``).

What is checked, every row in one pass (the problems are counted, the first :data:`MOST_PROBLEMS` kept):

1. the arrays: their lengths and types, keys strictly increasing, ``keys[i] == Game.key(words[i], to_move[i])``,
   each row a position of the game (no piece off the board's cells, no cell holding two: what makes the key an
   exact code), the side to move 0 or 1 (and the one the rules' ``to_move`` says where they say it), the values
   -1, 0, 1; the header's positions, counts, start row (the row of the start position's key — or of the
   ``root`` position the header gives, for the table of the positions after it — holding it or an image of it),
   start value and start distance, and its symmetries, ``repeats`` and scores against the game's;
2. at each row, by the rules alone: its legal moves (a side with no move passes where the game has passes), each
   move's position and who moves there; each such child is looked up by its key and must be in the table (the
   table is closed under moves), held there as the child itself or, for a built-in game with symmetries, as one of
   its images, with the same side to move;
3. each row's entry against its children's. A child's worth for the mover is the child's value, negated when the
   turn passed (not when the move earned another turn), with the child's distance. A finished game (no legal move,
   and a result other than ONGOING) holds its result for the side to move, distance 0 and the rules' score. Any
   other row is a win at distance ``d`` when some move is worth a win to the mover and ``d - 1`` is the least
   distance of such a move's child; a loss at ``d`` when every move is worth a loss and ``d - 1`` is the greatest
   distance of a child; otherwise a draw at distance -1 (no move wins, one at least draws). With scores (a game that
   declares one and must end): a finished game's score is the rules', any other's the best of its moves' children's
   scores given back the same way, its value the score's sign, and the moves between the rows hold no cycle.

Why these local conditions make every entry right, for a game that may repeat positions too. Say a row is *truly* a
win (loss) at ``n`` when the side to move can force a win (the other side can) and ``n`` is the length of the game
under perfect play, the winner hurrying and the loser delaying; a row that is neither is truly a draw. First, every
claimed win or loss has a distance of 0 or more: an unfinished one at ``d`` has a child claimed a win or loss at
``d - 1``, which passes the check too, and distances that only decrease along a path through a finite table end at
a finished game, at 0. Then by induction on ``n``, a row is claimed a win (loss) at ``n`` exactly when it is truly
one at ``n``. At 0 both mean a finished game, which is checked against the rules. For ``n > 0``: a row truly a win at
``n`` has a move to a child truly worth a win to the mover at ``n - 1``, claimed so by induction, so the row is not
claimed a draw or a loss (no move would win), and no move is claimed a winning one at a distance below ``n - 1``
(by induction it would truly be one, and the row would truly be won sooner); so it is claimed a win at ``n``.
Conversely a claimed win at ``n`` has a move to a child claimed, hence truly, a win for the mover at ``n - 1``: the
row truly is a win within ``n`` plies, and in no fewer, or by induction it would be claimed at that distance. A
row truly a loss at ``n`` has every child truly a loss for the mover at ``n - 1`` or less, claimed so by induction,
so it is claimed a loss at ``n``; a claimed loss at ``n`` has every child claimed, hence truly, lost for the mover
at ``n - 1`` at most and one at ``n - 1``, so it truly is a loss at ``n``. A row claimed a draw is therefore no true
win or loss (that would be claimed at its distance), and a true draw is claimed neither a win nor a loss: no win or
loss can pass as a draw, since its decisive move, or all its moves, would be seen. Scores are backed up exactly the
same way, by induction on the height of a row in the moves between the rows, which the check finds to hold no cycle.
The key check makes a lookup by key find the position it claims (the row holds the child or an image of it); the
symmetries of a built-in game are what lets an image stand for the child.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gameproof.certify.check import _Rules, symmetry_group
from gameproof.errors import BadInput
from gameproof.framework.declaration import DRAW, LOSS, ONGOING, WIN
from gameproof.framework.diagram import format_position
from gameproof.framework.game import Game
from gameproof.framework.registry import is_builtin, load_game
from gameproof.framework.state import RulesState

MAGIC = b"GAMEPROOF-TABLEBASE 1\n"
#: The format of table this module reads.
FORMAT = 1
_ALIGN = 64
_MOST_HEADER = 1 << 20
#: Each array's type; all but ``score`` must be there.
_TYPES = {"keys": "<u8", "words": "<u8", "to_move": "u1", "value": "i1", "distance": "<i4", "score": "<i8"}
_NEEDED = ("keys", "words", "to_move", "value", "distance")
#: The most problems a report keeps (all are counted).
MOST_PROBLEMS = 20
#: Rows checked at a time (their children are looked up together).
_CHUNK = 4096
#: Rows whose key is also computed by Game.key itself, to confirm the fast keys.
_SAMPLED = 32
_RESULTS = {WIN: 1, LOSS: -1, DRAW: 0}
_NAMES = {1: "win", 0: "draw", -1: "loss"}


@dataclass
class TablebaseReport:
    """The verdict on a tablebase: accepted when no problem was found; the first problems, and how many."""

    path: str
    game: str
    positions: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    start: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    problem_count: int = 0
    checked: int = 0
    seconds: float = 0.0

    @property
    def accepted(self) -> bool:
        return self.problem_count == 0

    def add(self, problem: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MOST_PROBLEMS:
            self.problems.append(problem)

    def summary(self) -> str:
        """One line: the positions, their values and the start's; or how many problems were found."""
        if not self.accepted:
            more = "" if self.problem_count <= len(self.problems) else f" (the first {len(self.problems)} shown)"
            return (f"{self.game}: {self.problem_count:,} problem{'s' if self.problem_count != 1 else ''} in "
                    f"{self.positions:,} positions{more}")
        counts = self.counts
        start = _entry_text(self.start.get("value"), self.start.get("distance"), self.start.get("score"))
        return (f"{self.game}: {self.positions:,} positions, {counts.get('win', 0):,} wins, {counts.get('draw', 0):,} "
                f"draws, {counts.get('loss', 0):,} losses; start: {start}")

    def to_json(self) -> dict[str, Any]:
        return {"tablebase": self.path, "game": self.game, "accepted": self.accepted, "positions": self.positions,
                "counts": self.counts, "start": self.start, "problem_count": self.problem_count,
                "problems": self.problems, "checked": self.checked, "seconds": round(self.seconds, 3)}


@dataclass
class TablebaseFile:
    """A tablebase as this module reads it: the header and the arrays (memory-mapped, read-only)."""

    path: str
    header: dict[str, Any]
    arrays: dict[str, np.ndarray]


def read_tablebase(path: str | Path) -> TablebaseFile:
    """The header and arrays of the tablebase in `path`; BadInput, one line, for a file that is not one, is cut short
    or has a damaged header."""
    shown = str(path)
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"no tablebase at {shown}")
    with open(path, "rb") as file:
        head = file.read(len(MAGIC) + 8)
        if len(head) < len(MAGIC) + 8 or not head.startswith(MAGIC):
            raise BadInput(f"{shown} is not a gameproof tablebase")
        (length,) = struct.unpack("<Q", head[len(MAGIC):])
        if length > _MOST_HEADER:
            raise BadInput(f"{shown} is not a gameproof tablebase (a header of {length:,} bytes)")
        text = file.read(length)
    if len(text) < length:
        raise BadInput(f"{shown}: a tablebase cut short in its header")
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInput(f"{shown}: a damaged tablebase header: {' '.join(str(error).split())}") from None
    if not isinstance(header, dict) or not isinstance(header.get("arrays"), dict):
        raise BadInput(f"{shown}: a damaged tablebase header: no layout of its arrays")
    if header.get("format") != FORMAT:
        raise BadInput(f"{shown}: a tablebase of format {header.get('format')!r:.20}, not {FORMAT}")
    start = -(-(len(MAGIC) + 8 + length) // _ALIGN) * _ALIGN
    size = path.stat().st_size
    arrays = {}
    for name, kind in _TYPES.items():
        place = header["arrays"].get(name)
        if place is None:
            if name in _NEEDED:
                raise BadInput(f"{shown}: a damaged tablebase: it has no array {name}")
            continue
        if not isinstance(place, dict) or place.get("dtype") != kind:
            raise BadInput(f"{shown}: a damaged tablebase: the array {name} is not of type {kind}")
        shape, offset = place.get("shape"), place.get("offset")
        if (not isinstance(shape, list) or len(shape) != (2 if name == "words" else 1)
                or not all(type(n) is int and n >= 0 for n in shape) or type(offset) is not int or offset < 0):
            raise BadInput(f"{shown}: a damaged tablebase: the array {name} has no shape or offset")
        count = int(np.prod(shape, dtype=np.int64))
        if start + offset + count * np.dtype(kind).itemsize > size:
            raise BadInput(f"{shown}: a tablebase cut short: its array {name} runs past the end of the file")
        arrays[name] = (np.memmap(path, dtype=kind, mode="r", offset=start + offset, shape=tuple(shape)) if count
                        else np.zeros(tuple(shape), dtype=kind))
    lengths = {name: len(array) for name, array in arrays.items()}
    if len(set(lengths.values())) > 1:
        raise BadInput(f"{shown}: a damaged tablebase: its arrays differ in length ({lengths})")
    return TablebaseFile(shown, header, arrays)


def tablebase_game(table: TablebaseFile) -> Game:
    """The game of a table, as the header names it: built in by its name, or from the rules file it names once that
    file's content has the SHA-256 the header gives; BadInput, one line, otherwise."""
    header, path = table.header, table.path
    name, file, sha256 = header.get("game"), header.get("file"), header.get("sha256")
    if not isinstance(name, str) or not name:
        raise BadInput(f"{path}: its header names no game")
    parameters = name.partition(":")[2]
    if file is None:
        if name.partition(":")[0].strip().endswith(".py"):
            raise BadInput(f"{path}: names the game file {name!r:.80} without its file and sha256")
        loading = name
    else:
        if not isinstance(file, str) or not isinstance(sha256, str):
            raise BadInput(f"{path}: its header names the rules file {file!r:.80} without its sha256")
        try:
            digest = hashlib.sha256(Path(file).read_bytes()).hexdigest()
        except OSError as error:
            raise BadInput(f"{path}: holds {name} as declared in {file}, which cannot be read "
                           f"({error.strerror})") from None
        if digest != sha256:
            raise BadInput(f"{path}: the rules file changed since the tablebase was built ({file!r} has sha256 "
                           f"{digest}, not {sha256})")
        loading = f"{file}:{parameters}" if parameters else file
    try:
        game = load_game(loading)
    except BadInput as error:
        raise BadInput(f"{path}: its game {name!r:.80} does not load: {' '.join(str(error).split())}") from None
    if game.name != name:
        raise BadInput(f"{path}: its game is {name!r:.80}, but {loading!r:.80} loads {game.name}")
    if (file is None) != is_builtin(game.spec):
        raise BadInput(f"{path}: its game {name} is " + ("not built in, but the header names no rules file"
                                                          if file is None else "built in, not a user's rules file"))
    return game


def check_tablebase(path: str, progress: Callable[[str], None] | None = None) -> TablebaseReport:
    """Check every entry of the tablebase in `path` against the game's rules (see the module). BadInput, one line,
    when the file is not a readable tablebase or its game does not load (or its rules file changed); otherwise a
    report, accepted or naming the problems found."""
    began = time.perf_counter()
    table = read_tablebase(path)
    game = tablebase_game(table)
    report = TablebaseReport(str(path), game.name)
    words = table.arrays["words"]
    if words.shape[1:] != (game.words,):
        raise BadInput(f"{path}: rows of {words.shape[1:]} words, but a {game.name} position has {game.words}")
    _Check(table, game, report, progress).run()
    report.seconds = time.perf_counter() - began
    return report


class _Keys:
    """:meth:`Game.key` of many positions at once: the same weights, summed a byte of a word at a time."""

    def __init__(self, game: Game) -> None:
        self.game = game
        weights = game.key_weights  # [symmetry, word, bit], words absolute
        symmetries, words = weights.shape[:2]
        tables = np.zeros((symmetries, words, 8, 256), dtype=np.uint64)
        bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1  # [byte value, bit of the byte]
        for s in range(symmetries):
            for w in range(words):
                for byte in range(8):
                    for bit in range(8):
                        tables[s, w, byte] += bits[:, bit].astype(np.uint64) * weights[s, w, 8 * byte + bit]
        self.tables = tables
        self.term = np.uint64(game.to_move_term)
        self.perspective, self.width = game.spec.perspective, game.layer_words

    def __call__(self, words: np.ndarray, to_move: np.ndarray) -> np.ndarray:
        words = np.asarray(words, dtype=np.uint64)
        if self.perspective:  # absolute words: the first player's pieces first
            words = words.copy()
            second = to_move == 1
            width = self.width
            mine = words[second, :width].copy()
            words[second, :width] = words[second, width:2 * width]
            words[second, width:2 * width] = mine
        least = None
        with np.errstate(over="ignore"):
            for tables in self.tables:
                key = np.zeros(len(words), dtype=np.uint64)
                for w in range(words.shape[1]):
                    column = words[:, w]
                    for byte in range(8):
                        key += tables[w, byte][((column >> np.uint64(8 * byte)) & np.uint64(255)).astype(np.intp)]
                least = key if least is None else np.minimum(least, key)
            return least + to_move.astype(np.uint64) * self.term


class _Images:
    """Whether positions are images of one another under the symmetries that those the table was built with
    generate: each layer's bits mapped a byte at a time (bits that are no cell stay where they are)."""

    def __init__(self, game: Game) -> None:
        width = self.width = game.layer_words
        span = game.board.mask.bit_length()
        self.maps = []
        for _, image in symmetry_group(game, span)[1:]:
            whole = list(range(64 * width))
            whole[:span] = image
            table = np.zeros((width, 8, 256, width), dtype=np.uint64)
            for word in range(width):
                for byte in range(8):
                    for value in range(256):
                        for bit in range(8):
                            if value >> bit & 1:
                                target = whole[64 * word + 8 * byte + bit]
                                table[word, byte, value, target // 64] |= np.uint64(1 << (target % 64))
            self.maps.append(table)

    def images(self, words: np.ndarray, held: np.ndarray) -> np.ndarray:
        """Which rows of `held` are a row of `words` or one of its images."""
        same = (words == held).all(axis=1)
        width = self.width
        for table in self.maps:
            if same.all():
                break
            mapped = np.zeros_like(words)
            for layer in range(words.shape[1] // width):
                for word in range(width):
                    column = words[:, layer * width + word]
                    for byte in range(8):
                        index = ((column >> np.uint64(8 * byte)) & np.uint64(255)).astype(np.intp)
                        mapped[:, layer * width:(layer + 1) * width] |= table[word, byte][index]
            same |= (mapped == held).all(axis=1)
        return same


class _Check:
    """One pass over a table's rows (see the module)."""

    def __init__(self, table: TablebaseFile, game: Game, report: TablebaseReport,
                 progress: Callable[[str], None] | None) -> None:
        self.table, self.report, self.progress = table, report, progress
        self.header = table.header
        self.builtin = is_builtin(game.spec)
        # The positions the table tells apart: a user's file's declared symmetries are not used to merge them.
        self.game = game if self.builtin or len(game.symmetries) == 1 else Game(
            dataclasses.replace(game.spec, symmetries=()), game.parameters)
        arrays = table.arrays
        self.keys, self.words, self.to_move = arrays["keys"], arrays["words"], arrays["to_move"]
        self.value, self.distance, self.score = arrays["value"], arrays["distance"], arrays.get("score")
        self.size = len(self.keys)
        self.rules = _Rules(self.game)
        self.key = _Keys(self.game)
        self.images = _Images(self.game) if len(self.game.symmetries) > 1 else None
        self.edges: list[tuple[np.ndarray, np.ndarray]] = []  # (parent rows, child rows), for a cycle check of scores

    # --- naming positions ---------------------------------------------------------------------------------------

    def where(self, row: int | None, words: tuple[int, ...], to_move: int) -> str:
        """A position for a problem: its row (if any), its text and the side to move."""
        try:
            text = format_position(self.game, tuple(words), to_move)
        except Exception:  # a position the game's own format cannot write
            text = ""
        if not text:
            text = f"words {', '.join(hex(word) for word in words)}"
        side = self.game.spec.player_names[to_move] if to_move in (0, 1) else f"side {to_move}"
        at = "" if row is None else f"row {row:,}, "
        return f"{at}position {text!r} ({side} to move)"

    def move_name(self, words: tuple[int, ...], to_move: int, move: int) -> str:
        """A move's name as the game writes it (``pass`` for the pass)."""
        try:
            return RulesState.at(self.game, words, to_move).move_name(move)
        except Exception:  # a position the rules cannot name moves in
            return f"move {move}"

    def at_row(self, row: int) -> str:
        return self.where(row, tuple(int(w) for w in self.words[row]), int(self.to_move[row]))

    def entry(self, row: int) -> str:
        return _entry_text(int(self.value[row]), int(self.distance[row]),
                           None if self.score is None else int(self.score[row]))

    # --- the pass -----------------------------------------------------------------------------------------------

    def run(self) -> None:
        report, size = self.report, self.size
        report.positions = size
        value = np.asarray(self.value)
        report.counts = {name: int((value == number).sum()) for name, number in (("win", 1), ("draw", 0), ("loss", -1))}
        if not self.header_problems():
            return  # the keys would mean nothing: its symmetries are not the game's
        self.array_problems()
        if self.score is not None and self.game.may_repeat:
            report.add(f"scores, but {self.game.name} may repeat a position (a game that never ends has no score)")
        for first in range(0, size, _CHUNK):
            self.check_rows(first, min(size, first + _CHUNK))
            report.checked = min(size, first + _CHUNK)
            if self.progress is not None:
                self.progress(f"tablebase check: {report.checked:,} of {size:,} positions")
        if self.score is not None:
            self.cycle_problems()

    def header_problems(self) -> bool:
        """Problems of the header's claims against the game; False when the table cannot be checked further."""
        header, report, game = self.header, self.report, self.game
        used = [symmetry.value for symmetry in game.symmetries]
        if header.get("symmetries") != used:
            why = ("a game from a user's file is built without its declared symmetries, which no test of gameproof's "
                   "checks" if not self.builtin else f"{game.name} declares {used}")
            report.add(f"the header says the positions were merged by the symmetries "
                       f"{header.get('symmetries')!r:.200}, but {why}: its keys cannot be checked")
            return False
        if header.get("repeats") != game.may_repeat:
            report.add(f"the header says repeats={header.get('repeats')!r:.20}, but {game.name} "
                       + ("may repeat a position" if game.may_repeat else "must end"))
        wants_score = game.has_score and not game.may_repeat
        if wants_score and self.score is None:
            report.add(f"{game.name} declares a score and must end, but the table holds no scores")
        elif self.score is not None and not game.has_score:
            report.add(f"the table holds scores, but {game.name} declares no score")
        if header.get("positions") != self.size:
            report.add(f"the header says {header.get('positions')!r:.20} positions, but the table has {self.size:,}")
        if header.get("counts") != report.counts:
            report.add(f"the header's counts are {header.get('counts')!r:.200}, but the values count {report.counts}")
        return True

    def array_problems(self) -> None:
        """The keys' order and values, and every row's side to move, value and (sampled) key by Game.key."""
        report, size = self.report, self.size
        keys = np.asarray(self.keys)
        disorder = np.flatnonzero(keys[1:] <= keys[:-1])
        for row in disorder[:MOST_PROBLEMS].tolist():
            report.add(f"keys not strictly increasing: row {row + 1:,} has key {int(keys[row + 1])}, row {row:,} "
                       f"{int(keys[row])}")
        for row in disorder[MOST_PROBLEMS:].tolist():
            report.add("keys not strictly increasing")
        to_move = np.asarray(self.to_move)
        for row in np.flatnonzero(to_move > 1).tolist():
            report.add(f"row {row:,}: the side to move is {int(to_move[row])}, not 0 or 1")
        value = np.asarray(self.value)
        for row in np.flatnonzero((value < -1) | (value > 1)).tolist():
            report.add(f"{self.at_row(row)}: the value is {int(value[row])}, not -1, 0 or 1")
        for first in range(0, size, 1 << 16):
            last = min(size, first + (1 << 16))
            sides = np.minimum(to_move[first:last], 1)
            computed = self.key(self.words[first:last], sides)
            for row in (first + np.flatnonzero(computed != keys[first:last])).tolist():
                report.add(f"{self.at_row(row)}: its key is {int(keys[row])}, but the position's is "
                           f"{int(computed[row - first])}")
        self.shape_problems()
        for row in np.linspace(0, size - 1, min(size, _SAMPLED)).astype(np.int64).tolist():  # the fast keys, confirmed
            words, side = tuple(int(w) for w in self.words[row]), min(int(to_move[row]), 1)
            if int(self.key(np.array([words], dtype=np.uint64), np.array([side])) [0]) != self.game.key(words, side):
                raise RuntimeError(f"{self.game.name}: the checker's keys differ from Game.key at row {row}")
        # The start.
        header = self.header
        start_words, start_side = self._root()
        start_key = self.game.key(start_words, start_side)
        at = int(np.searchsorted(keys, np.uint64(start_key)))
        row = header.get("start")
        if at >= size or int(keys[at]) != start_key:
            report.add(f"the start, {self.where(None, start_words, start_side)}, is not in the table")
            return
        if row != at:
            report.add(f"the header says the start is row {row!r:.20}, but it is row {at:,}")
        held = np.asarray(self.words[at:at + 1])
        start = np.array([start_words], dtype=np.uint64)
        if int(self.to_move[at]) != start_side or not (
                (held == start).all() if self.images is None else self.images.images(start, held)[0]):
            report.add(f"the start's key is row {at:,}'s, but it holds {self.at_row(at)}, not the start "
                       f"{self.where(None, start_words, start_side)}")
        self.report.start = {"row": at, "value": _NAMES.get(int(self.value[at]), int(self.value[at])),
                             "distance": int(self.distance[at])}
        if self.score is not None:
            self.report.start["score"] = int(self.score[at])
        if header.get("start_value") != int(self.value[at]):
            report.add(f"the header says the start's value is {header.get('start_value')!r:.20}, but its row says "
                       f"{int(self.value[at])}")
        if header.get("start_distance") != int(self.distance[at]):
            report.add(f"the header says the start's distance is {header.get('start_distance')!r:.20}, but its row "
                       f"says {int(self.distance[at])}")

    def _root(self) -> tuple[tuple[int, ...], int]:
        """The position the table was built from: the game's start, or the ``root`` its header gives (the table of
        the positions after a given one); BadInput for a root that is no position of the game's shape."""
        root = self.header.get("root")
        if root is None:
            return tuple(self.game.rules.start()), 0
        words, side = (root.get("words"), root.get("to_move")) if isinstance(root, dict) else (None, None)
        if (not isinstance(words, list) or len(words) != self.game.words or side not in (0, 1)
                or not all(type(word) is int and 0 <= word < 1 << 64 for word in words)):
            raise BadInput(f"{self.table.path}: its header's root is {root!r:.80}, not a position of {self.game.name}")
        return tuple(words), side

    def shape_problems(self) -> None:
        """Rows that are no position of the game: a piece on a bit that is no cell, or two pieces on one cell (which
        :meth:`Game.key`, an exact code of a position, would not tell apart)."""
        game, report = self.game, self.report
        width, masks = game.layer_words, [np.uint64(mask) for mask in game.board.word_masks()]
        for first in range(0, self.size, 1 << 16):
            words = np.asarray(self.words[first:first + (1 << 16)])
            bad = np.zeros(len(words), dtype=bool)
            for word in range(width):
                seen = np.zeros(len(words), dtype=np.uint64)
                for layer in range(game.layers):
                    column = words[:, layer * width + word]
                    bad |= (column & ~masks[word]) != 0
                    bad |= (column & seen) != 0
                    seen |= column
            for row in (first + np.flatnonzero(bad)).tolist():
                report.add(f"{self.at_row(row)}: not a position of {game.name} (a piece off the board's cells, or "
                           "two on one cell)")

    def check_rows(self, first: int, last: int) -> None:
        """Rows `first` .. `last` - 1 against their children (see the module)."""
        rules, report, game = self.rules, self.report, self.game
        turns, has_pass, passing = game.has_turns, rules.has_pass, rules.passing
        side_after, moves_of, play, result = rules.side_after, rules.moves, rules.play, rules.result
        rows_words = [tuple(row) for row in self.words[first:last].tolist()]
        sides = self.to_move[first:last].tolist()
        child_words: list[tuple[int, ...]] = []
        child_sides: list[int] = []
        parents: list[int] = []
        moves: list[int] = []
        finished: list[tuple[int, int, int | None]] = []  # (row in the chunk, value, score)
        broken = np.zeros(last - first, dtype=bool)  # rows whose entry cannot be compared (a problem is reported)
        for index, (words, side) in enumerate(zip(rows_words, sides)):
            if side > 1:
                broken[index] = True  # reported with the arrays
                continue
            try:
                if turns and (said := game.rules.to_move(*words)) != side:
                    report.add(f"{self.where(first + index, words, side)}: the rules' to_move() says "
                               f"{said!r:.20} moves there")
                    broken[index] = True
                    continue
                legal = moves_of(words, side)
                if not legal:
                    status = result(words, side)
                    if status != ONGOING:
                        if status not in _RESULTS:
                            report.add(f"{self.where(first + index, words, side)}: the rules' result() gives "
                                       f"{status!r:.20}, not a result")
                            broken[index] = True
                            continue
                        score = None
                        if self.score is not None:
                            score = rules.functions.score(*rules.arguments.of(words, side))
                            if type(score) is not int and not hasattr(score, "__index__"):
                                raise BadInput(f"the rules' score() gives {score!r:.40}, not a whole number")
                            score = int(score)
                        finished.append((index, _RESULTS[status], score))
                        continue
                    if not has_pass:
                        report.add(f"{self.where(first + index, words, side)}: no legal move, the game goes on, and "
                                   "it has no passes")
                        broken[index] = True
                        continue
                    legal = [passing]
                for move in legal:
                    child = play(words, side, move)
                    child_words.append(child)
                    child_sides.append(side_after(child, side))
                    parents.append(index)
                    moves.append(move)
            except BadInput as error:
                report.add(f"{self.where(first + index, words, side)}: {error}")
                broken[index] = True
            except Exception as error:  # the rules fail on a row's position
                message = " ".join(str(error).split())[:200]
                report.add(f"{self.where(first + index, words, side)}: the rules raise {type(error).__name__}"
                           + (f": {message}" if message else ""))
                broken[index] = True
        self.check_finished(first, finished)
        if child_words:
            self.check_children(first, last, rows_words, child_words, child_sides, parents, moves, broken)

    def check_finished(self, first: int, finished: list[tuple[int, int, int | None]]) -> None:
        """The rows of finished games: their result, distance 0 and score (whose sign must be the result)."""
        for index, value, score in finished:
            row = first + index
            if (int(self.value[row]), int(self.distance[row])) != (value, 0) or (
                    score is not None and int(self.score[row]) != score):
                scored = "" if score is None else f", score {score:+d}"
                self.report.add(f"{self.at_row(row)}: the game is over, {_NAMES[value]} for the side to move"
                                f"{scored} at distance 0, but the table says {self.entry(row)}")
            elif score is not None and int(np.sign(score)) != value:
                self.report.add(f"{self.at_row(row)}: the game is over, {_NAMES[value]} for the side to move, but the "
                                f"rules' score() gives {score:+d}, whose sign disagrees")

    def check_children(self, first: int, last: int, rows_words: list[tuple[int, ...]], child_words: list,
                       child_sides: list[int], parents: list[int], moves: list[int], broken: np.ndarray) -> None:
        """The rows' children: each in the table (as itself or an image), and the entries they make of the rows."""
        report, size = self.report, self.size
        try:
            children = np.array(child_words, dtype=np.uint64)
        except (OverflowError, ValueError, TypeError):
            raise BadInput(f"{self.game.name}: the rules' play() gives a position that is not {self.game.words} "
                           "64-bit words") from None
        if children.shape != (len(child_words), self.game.words):
            raise BadInput(f"{self.game.name}: the rules' play() gives a position that is not {self.game.words} words")
        sides = np.array(child_sides, dtype=np.uint8)
        parent = np.array(parents, dtype=np.int64)
        keys = self.key(children, sides)
        at = np.searchsorted(self.keys, keys)
        found = at < size
        found[found] = np.asarray(self.keys)[at[found]] == keys[found]
        rows = np.where(found, at, 0)
        held = self.words[rows]
        ok = found & (np.asarray(self.to_move)[rows] == sides)
        if self.images is None:
            ok &= (held == children).all(axis=1)
        else:
            ok[ok] = self.images.images(children[ok], held[ok])
        for child in np.flatnonzero(~ok).tolist():
            index = parents[child]
            broken[index] = True
            words = rows_words[index]
            side = int(self.to_move[first + index])
            what = self.where(None, tuple(int(w) for w in children[child]), int(sides[child]))
            if not found[child]:
                reason = f"to {what}, which the table lacks"
            else:
                reason = (f"to {what}, but the row of its key ({int(rows[child]):,}) holds "
                          f"{self.at_row(int(rows[child]))}" + ("" if self.images is None else ", not an image of it"))
            move = self.move_name(words, side, moves[child])
            report.add(f"{self.where(first + index, words, side)}: the move {move} leads {reason}")
        # Each move's worth for its mover, and what it makes of the row.
        passed = sides != np.asarray(self.to_move[first:last])[parent]  # the turn passed (no extra turn)
        sign = np.where(passed, -1, 1).astype(np.int64)
        worth = np.asarray(self.value)[rows].astype(np.int64) * sign
        distance = np.asarray(self.distance)[rows].astype(np.int64)
        starts = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])
        owner = parent[starts]
        best = np.maximum.reduceat(worth, starts)
        soonest = np.minimum.reduceat(np.where(worth == 1, distance, np.iinfo(np.int64).max), starts)
        latest = np.maximum.reduceat(distance, starts)
        expected_distance = np.where(best == 1, soonest + 1, np.where(best == -1, latest + 1, -1))
        claimed_value = np.asarray(self.value[first:last])[owner].astype(np.int64)
        claimed_distance = np.asarray(self.distance[first:last])[owner].astype(np.int64)
        wrong = (claimed_value != best) | (claimed_distance != expected_distance)
        backed = unsigned = np.zeros(len(starts), dtype=np.int64)
        if self.score is not None:
            scores = np.asarray(self.score)[rows] * sign
            backed = np.maximum.reduceat(scores, starts)
            claimed_score = np.asarray(self.score[first:last])[owner]
            wrong |= claimed_score != backed
            unsigned = (claimed_value != np.sign(claimed_score)) & ~wrong & ~broken[owner]
            self.edges.append((first + parent[ok], rows[ok]))
        wrong &= ~broken[owner]
        for at_start in np.flatnonzero(wrong).tolist():
            index = int(owner[at_start])
            row = first + index
            stop = int(starts[at_start + 1]) if at_start + 1 < len(starts) else len(parent)
            expected = _entry_text(int(best[at_start]), int(expected_distance[at_start]),
                                   None if self.score is None else int(backed[at_start]))
            shown = [f"{self.move_name(rows_words[index], int(self.to_move[row]), moves[c])} "
                     + _move_text(int(worth[c]), int(distance[c]), None if self.score is None else int(scores[c]))
                     for c in range(int(starts[at_start]), stop)]
            if len(shown) > 8:
                shown[8:] = [f"{len(shown) - 8} more"]
            report.add(f"{self.at_row(row)}: the table says {self.entry(row)}, but its moves make it {expected} "
                       f"({'; '.join(shown)})")
        for at_start in np.flatnonzero(unsigned).tolist():
            row = first + int(owner[at_start])
            report.add(f"{self.at_row(row)}: the table says {self.entry(row)}: a value that is not the sign of the "
                       "score")

    def cycle_problems(self) -> None:
        """Scores are backed up from the finished games: the moves between the rows must hold no cycle."""
        if not self.edges:
            return
        parent = np.concatenate([edge[0] for edge in self.edges])
        child = np.concatenate([edge[1] for edge in self.edges])
        left = np.bincount(parent, minlength=self.size)  # each row's moves to rows not yet ordered
        done = left == 0
        fresh = done.copy()
        while fresh.any():
            reached = fresh[child]
            left -= np.bincount(parent[reached], minlength=self.size)
            keep = ~reached
            parent, child = parent[keep], child[keep]
            fresh = (left == 0) & ~done
            done |= fresh
        if not done.all():
            row = int(np.flatnonzero(~done)[0])
            self.report.add(f"{self.at_row(row)}: a position comes round again from here, so the scores backed up "
                            f"through it are not founded on finished games ({int((~done).sum()):,} rows)")


def _entry_text(value: Any, distance: int | None, score: int | None = None) -> str:
    """``win in 7``, ``loss in 12, score -10``, ``draw``, ``draw (the game is over)``."""
    if isinstance(value, str):
        value = {name: number for number, name in _NAMES.items()}.get(value, value)
    name = _NAMES.get(value, f"value {value}")
    if distance is None:
        text = name
    elif value in (1, -1):
        text = f"{name} in {distance}" if distance >= 0 else f"{name} at distance {distance}"
    elif distance == -1:
        text = name
    elif distance == 0:
        text = f"{name} (the game is over)"
    else:
        text = f"{name} at distance {distance}"
    return text if score is None else f"{text}, score {score:+d}"


def _move_text(worth: int, distance: int, score: int | None) -> str:
    """A move's worth for its mover, from its child's entry: ``wins in 5``, ``loses in 2``, ``draws``."""
    if worth in (1, -1) and distance >= 0:
        text = f"{'wins' if worth == 1 else 'loses'} in {distance + 1}"
    else:
        text = {1: "wins", 0: "draws", -1: "loses"}.get(worth, f"value {worth}")
        text += "" if distance in (-1, 0) or worth not in (-1, 0, 1) else f" (child distance {distance})"
    return text if score is None else f"{text}, score {score:+d}"
