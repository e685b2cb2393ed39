"""Opening books for m,n,k games: build (parallel, resumable), query, and verify against children.

Books store position keys, so a book records the :data:`FORMAT` of its keys and one of another format is refused."""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gameproof.answers import Value
from gameproof.errors import BadInput
from gameproof.games.mnk import reference
from gameproof.games.mnk.positions import levels, orientation
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.search.book import Book, Entry
from gameproof.search.dfpn import Options
from gameproof.search.jobs import Backend, Job, Progress, run_jobs
from gameproof.search.solve import solve
from gameproof.search.tt import SharedTable

#: The keys a book holds: 2 = the declared rules' keys (with the side to move); books without it are older.
FORMAT = "2"
#: The most worker processes a build starts.
MOST_WORKERS = 256


def open_book(path: str | Path, game: MnkGame | None = None, depth: int | None = None) -> tuple[Book, MnkGame, int]:
    """Open a book: read-only, or with ``depth`` to build it, where a new file takes ``game`` and ``depth``;
    an existing one must agree with them."""
    book = Book(path, writable=depth is not None)
    meta = book.meta()
    if not meta:
        if game is None or depth is None:
            book.close()
            raise BadInput(f"{path} is not a gameproof book")
        book.set_meta(game=game.name, depth=str(depth), format=FORMAT)
        return book, game, depth
    try:
        stored, stored_depth = _settings(path, meta)
    except BadInput:
        book.close()
        raise
    if (game is not None and game != stored) or (depth is not None and depth != stored_depth):
        book.close()
        raise BadInput(f"{path} holds {stored.name} to depth {stored_depth}; build another file for other settings")
    return book, stored, stored_depth


def _settings(path: str | Path, meta: dict[str, Any]) -> tuple[MnkGame, int]:
    """The game and depth a book's meta rows name; BadInput for rows a build does not write."""
    if meta.get("format") != FORMAT:
        found = meta.get("format", "1")
        shown = found if isinstance(found, str) and found.isdigit() else repr(found)
        raise BadInput(f"{path} holds position keys of book format {shown}, but this gameproof "
                       f"reads format {FORMAT}; build the book again")
    name, depth, leaves = meta.get("game"), meta.get("depth"), meta.get("leaves", "moves")
    try:
        game = MnkGame.from_name(name) if isinstance(name, str) else None
    except ValueError:  # BadInput, or a board the rules refuse
        game = None
    if game is None:
        raise BadInput(f"{path}: its meta row \"game\" is {name!r}, not an m,n,k game")
    if not (isinstance(depth, str) and depth.isascii() and depth.isdigit() and int(depth) <= game.cells):
        raise BadInput(f"{path}: its meta row \"depth\" is {depth!r}, not a depth from 0 to {game.cells}")
    if leaves not in ("values", "moves"):
        raise BadInput(f"{path}: its meta row \"leaves\" is {leaves!r}, not values or moves")
    return game, int(depth)


def _finished_entry(state: MnkState) -> Entry:
    return Entry(state.key, state.record, len(state.history), solve(state).value, {}, method="over")


def solve_leaves(game_name: str, records: list[str], options: Options, with_moves: bool) -> list[dict[str, Any]]:
    """One book job: the entries (as JSON) of the positions after ``records``, siblings solved one after another
    on one table (they share much), with their moves' values or without. Siblings tend to share their
    value, so each leaf's first question is the one that settled the leaf before it in one search."""
    entries = []
    expect = None
    for record in records:
        state = MnkState(game_name, record)
        solution = solve(state, options, with_moves=with_moves, keep_table=True, expect=expect)  # one table a worker
        expect = solution.value
        moves = {state.move_name(m): v for m, v in solution.moves.items()}
        entries.append(Entry(state.key, record, len(state.history), solution.value, moves, solution.nodes,
                             solution.seconds).as_json())
    return entries


#: The most leaves one book job solves: a killed build loses at most the jobs it was running.
LEAVES_PER_JOB = 64


def _subtree_jobs(leaves: list[MnkState], depth: int, game: MnkGame, options: Options, with_moves: bool,
                  workers: int) -> list[Job]:
    """The leaves as jobs of at most :data:`LEAVES_PER_JOB` leaves below one ancestor two plies up (one ply up
    below depth 3): a worker's table then serves the positions those leaves share. Groups are cut smaller
    when there are fewer of them than workers (a shallow book), so that every worker has a job.
    Misère 4×5 k3 to depth 3, two workers against one: 1.8–2.1× on one shared table; with a table per
    worker 1.3× (1.5× with whole subtrees as jobs; one job per leaf was slower than one worker;
    docs/benchmarks.md)."""
    prefix = max(depth - 2, 1) if depth >= 2 else 0
    groups: dict[str, list[MnkState]] = {}
    for leaf in leaves:
        groups.setdefault(" ".join(leaf.record.split()[:prefix]), []).append(leaf)
    size = LEAVES_PER_JOB
    if groups and len(groups) < workers:
        size = min(size, -(-max(len(group) for group in groups.values()) * len(groups) // workers))
    chunks = [group[start:start + size] for group in groups.values() for start in range(0, len(group), size)]
    return [Job(",".join(str(leaf.key) for leaf in chunk),
                {"game_name": game.name, "records": [leaf.record for leaf in chunk], "options": options,
                 "with_moves": with_moves}) for chunk in chunks]


class _BookJournal:
    """The book is the journal of its own build: a job is done when the entries of all its leaves are there."""

    def __init__(self, book: Book, report: BuildReport, jobs: list[Job]) -> None:
        self.book, self.report, self.jobs = book, report, jobs

    def finished(self) -> set[str]:
        kept = {str(key) for key in self.book.keys()}
        return {job.key for job in self.jobs if kept.issuperset(job.key.split(","))}

    def record(self, key: str, result: list[dict[str, Any]], seconds: float) -> None:
        entries = [Entry.from_json(data) for data in result]
        self.book.put_all(entries)  # one transaction: a job's leaves are kept together or not at all
        for entry in entries:
            self.report.solved += 1
            self.report.nodes += entry.nodes
            self.report.seconds += entry.seconds


def _from_children(state: MnkState, book: Book) -> tuple[Value, dict[str, Value]]:
    """Value and move values of ``state`` from book entries one ply deeper."""
    moves = {}
    for move in state.legal_moves():
        state.play(move)
        child = book.get(state.key)
        state.undo()
        if child is None:
            raise BadInput(f"the book lacks the position after {state.record} {state.move_name(move)}".replace("  ", " "))
        moves[state.move_name(move)] = child.value.flipped()
    return Value.best(moves.values()), moves


@contextmanager
def _table_for(backend: Backend, workers: int, options: Options) -> Iterator[Options]:
    """``options`` naming one transposition table in shared memory for the local worker processes (they
    prove much the same positions), released afterwards. One worker runs in this process on a table of
    its own (kept for later builds); Ray's workers may be on other machines and keep a table each."""
    if backend is not Backend.LOCAL or workers == 1:
        yield options
        return
    table = SharedTable(options.tt_mb)
    try:
        yield replace(options, shared_table=table.name)
    finally:
        table.release()


@dataclass
class BuildReport:
    """What a build did: leaves solved now and found already solved, entries in the book, effort."""

    solved: int = 0
    skipped: int = 0
    entries: int = 0
    nodes: int = 0
    seconds: float = 0.0  # solving time summed over the leaves solved now
    wall_seconds: float = 0.0


def build(game: MnkGame, depth: int, path: str | Path, *, workers: int = 1, options: Options = Options(),
          values_only: bool = False, backend: Backend = Backend.LOCAL, address: str | None = None,
          progress: Progress | None = None) -> BuildReport:
    """Solve every symmetry-distinct position ``depth`` plies deep as jobs (resuming a partial file: the
    book is the journal), then back up. ``values_only`` leaves keep their value only (faster)."""
    if not 0 <= depth <= game.cells:
        raise BadInput(f"--depth must be between 0 and {game.cells} (the squares of {game.name}), got {depth}")
    if not 1 <= workers <= MOST_WORKERS:
        raise BadInput(f"--workers must be between 1 and {MOST_WORKERS}, got {workers}")
    began = time.perf_counter()
    book, game, depth = open_book(path, game, depth)
    report = BuildReport()
    with book:
        leaves = "values" if values_only else "moves"
        if book.meta().setdefault("leaves", leaves) != leaves:
            raise BadInput(f"{path} keeps its leaves' {book.meta()['leaves']} only; resume it the same way")
        book.set_meta(leaves=leaves)
        layers = levels(game, depth)
        done = book.keys()
        todo = [s for s in layers[depth] if not s.is_over()]
        report.skipped = sum(1 for s in todo if s.key in done)
        for state in (s for layer in layers for s in layer if s.is_over() and s.key not in done):
            book.put(_finished_entry(state))
        with _table_for(backend, workers, options) as shared:
            jobs = _subtree_jobs(todo, depth, game, shared, not values_only, workers)
            run_jobs(solve_leaves, jobs, _BookJournal(book, report, jobs), backend=backend, workers=workers,
                     address=address, progress=progress)
        for layer in reversed(layers[:depth]):
            for state in layer:
                if not state.is_over():
                    value, moves = _from_children(state, book)
                    book.put(Entry(state.key, state.record, len(state.history), value, moves, method="children"))
        report.entries = len(book)
    report.wall_seconds = time.perf_counter() - began
    return report


#: Leaves with at most this many empty squares are re-checked by plain minimax (more: for consistency only).
RECHECK_EMPTY = 12


class Recheck(enum.Enum):
    """How a book entry is re-checked: by search (its children in the book, or plain minimax), or only for
    consistency with its own move values (a leaf with more than ``max_empty`` empty squares)."""

    BY_CHILDREN = "against its children in the book"
    BY_MINIMAX = "by plain minimax"
    CONSISTENT_ONLY = "for consistency only (not searched)"


def recheck(book: Book, game: MnkGame, depth: int, entry: Entry, max_empty: int) -> tuple[Recheck, str | None]:
    """How ``entry`` is re-checked, and what is wrong with it (None when nothing): interior entries and
    finished games against their children, leaves by plain minimax when at most ``max_empty`` squares are
    empty, else for consistency (its moves are the legal ones and its value the best of theirs; nothing
    for a leaf kept by its value only)."""
    try:
        state = MnkState(game, entry.record)
    except BadInput as error:
        return Recheck.CONSISTENT_ONLY, f"its record does not replay: {error}"
    if state.key != entry.key:
        return Recheck.CONSISTENT_ONLY, f"stored key {entry.key} but the position's key is {state.key}"
    if entry.plies != len(state.history):
        return Recheck.CONSISTENT_ONLY, f"stored at ply {entry.plies}, but its record has {len(state.history)} moves"
    value_only = entry.plies >= depth and not entry.moves and not state.is_over()  # a leaf of a --values-only build
    if state.is_over():
        how, expected, moves = Recheck.BY_CHILDREN, solve(state).value, {}
    elif entry.plies < depth:
        how, (expected, moves) = Recheck.BY_CHILDREN, _from_children(state, book)
    elif game.cells - len(state.history) <= max_empty:
        found = reference.move_values(state.marks(), game.rows, game.cols, game.k, game.variant)
        moves = {state.move_name(m): Value.of_score(v) for m, v in found.items()}
        how, expected = Recheck.BY_MINIMAX, Value.best(moves.values())
    elif value_only:
        return Recheck.CONSISTENT_ONLY, None
    else:
        legal = {state.move_name(m) for m in state.legal_moves()}
        if set(entry.moves) != legal:
            return Recheck.CONSISTENT_ONLY, f"book gives the moves {sorted(entry.moves)}, the legal ones are {sorted(legal)}"
        how, expected, moves = Recheck.CONSISTENT_ONLY, Value.best(entry.moves.values()), entry.moves
    if entry.value != expected or (not value_only and entry.moves != moves):
        return how, f"book says {entry.value} {entry.moves}, re-check gives {expected} {moves}"
    return how, None


def passes_recheck(game: MnkGame, depth: int, max_empty: int = RECHECK_EMPTY) -> Callable[[Book, Entry], bool]:
    """Whether an entry of a `depth`-ply book of `game` passes :func:`recheck` (for readers that answer from
    a book, such as the game screen's oracle)."""
    def passes(book: Book, entry: Entry) -> bool:
        try:
            return recheck(book, game, depth, entry, max_empty)[1] is None
        except BadInput:  # a child missing from the book, a damaged row: the entry is not used
            return False

    return passes


@dataclass
class Answer:
    """A position's value and its moves' values, and where they came from ("book" or "df-pn")."""

    value: Value
    moves: dict[str, Value]
    source: str
    entry: Entry | None = None
    checked: Recheck | None = None  # how a book entry was re-checked before it was answered


def query(book: Book, state: MnkState, depth: int, options: Options = Options(), max_empty: int = RECHECK_EMPTY) -> Answer:
    """The position's value and move values from the book (squares renamed to the position's own orientation),
    once its entry passes :func:`recheck` (BadInput when it does not); df-pn when absent."""
    entry = book.get(state.key)
    if entry is None:
        solution = solve(state, options)
        return Answer(solution.value, {state.move_name(m): v for m, v in solution.moves.items()}, "df-pn")
    how, problem = recheck(book, state.game, depth, entry, max_empty)
    if problem is not None:
        raise BadInput(f"{book.path}: the entry of this position fails its re-check ({problem}); "
                       "`gameproof mnk verify --db` re-checks the whole book")
    representative = MnkState(state.game, entry.record)
    perm = orientation(state, representative)
    moves = {state.move_name(m): entry.moves[representative.move_name(perm[m])]
             for m in state.legal_moves()} if entry.moves else {}  # none for a leaf of a --values-only build
    return Answer(value=entry.value, moves=moves, source="book", entry=entry, checked=how)


@dataclass
class Verification:
    """What `verify` found: how many entries it re-checked in each way, and the problems."""

    checked_by_children: int = 0
    checked_by_minimax: int = 0
    consistent_only: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def searched(self) -> bool:
        """Whether every entry was re-checked by search (none for consistency only)."""
        return self.consistent_only == 0


def verify(book: Book, game: MnkGame, depth: int, *, max_empty: int = RECHECK_EMPTY) -> Verification:
    """Re-check every entry (:func:`recheck`) and count how."""
    report = Verification()
    counters = {Recheck.BY_CHILDREN: "checked_by_children", Recheck.BY_MINIMAX: "checked_by_minimax",
                Recheck.CONSISTENT_ONLY: "consistent_only"}
    for entry in book.entries():
        how, problem = recheck(book, game, depth, entry, max_empty)
        setattr(report, counters[how], getattr(report, counters[how]) + 1)
        if problem is not None:
            report.problems.append(f"{entry.record or '(start)'}: {problem}")
    return report
