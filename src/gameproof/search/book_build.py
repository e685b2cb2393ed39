"""Building an opening book of any declared game: every position a given number of plies deep, one per
class of positions equal up to the game's symmetries (by canonical key), solved as jobs (local processes
or Ray, :mod:`gameproof.search.jobs`) and resumable, then backed up to the start from the children."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gameproof.answers import Value, to_mover
from gameproof.errors import BadInput
from gameproof.framework.declaration import RulesError
from gameproof.framework.game import Game
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.interrupts import RulesBroken
from gameproof.search.book import SCORED, Book, Entry
from gameproof.search.book_game import DEEPENING, Identity, open_book
from gameproof.search.confirm import relies_on_declared_symmetries
from gameproof.search.dfpn import Options
from gameproof.search.exact import final_value
from gameproof.search.jobs import Backend, Job, Progress, run_jobs
from gameproof.search.score import ScoreSolution, exact_score, final_score
from gameproof.search.solve import solve
from gameproof.search.tt import TranspositionTable

#: The most worker processes a build starts.
MOST_WORKERS = 256
#: The most leaves one book job solves: a killed build loses at most the jobs it was running.
LEAVES_PER_JOB = 64


def levels(start: RulesState, depth: int) -> list[list[RulesState]]:
    """For each ply 0..depth from `start`, one representative per canonical key (finished games end their
    line); positions are of `start`'s class."""
    level = {start.key: start}
    found = [list(level.values())]
    for _ in range(depth):
        following: dict[int, RulesState] = {}
        for state in level.values():
            for move in state.legal_moves():
                state.play(move)
                if state.key not in following:
                    following[state.key] = state.copy()
                state.undo()
        level = following
        found.append(list(level.values()))
    return found


def check_merges(layers: list[list[RulesState]]) -> None:
    """For a game whose declared symmetries no test of gameproof's checks (:func:`relies_on_declared_symmetries`):
    that each image of each position of the book's levels may share its entry (an entry is looked up by the
    canonical key of any image). A finished position's images finish with its value; an unfinished one's above the
    leaves have moves to the same classes of positions (so, up from the leaves, whose solves are confirmed by
    certificates of every image, each image has its value). RulesError, naming the symmetry and the position,
    where one is not."""
    from gameproof.certify.check import Images

    if not layers or not relies_on_declared_symmetries(layers[0][0]):
        return
    game = layers[0][0].game
    images = Images(game)

    def children(state: RulesState) -> list[int]:
        keys = []
        for move in state.legal_moves():
            state.play(move)
            keys.append(state.key)
            state.undo()
        return sorted(keys)

    for depth, layer in enumerate(layers):
        for state in layer:
            for symmetry, words in images.others(state.words):
                image = RulesState.at(game, words, state.to_move)
                same = (image.is_over() == state.is_over() and (final_value(image) is final_value(state) if
                        state.is_over() else depth == len(layers) - 1 or children(image) == children(state)))
                if not same:
                    raise RulesError(f"{game.name}: {images.named(symmetry)} is false at {image.marks()} "
                                     f"({game.spec.player_names[image.to_move]} to move), the {symmetry.value} image "
                                     f"of the book's position after {state.record or '(start)'}: declare only "
                                     "symmetries that its rules keep everywhere")


def finished_entry(state: RulesState, scored: bool) -> Entry:
    """The entry of a finished game (with its final score when `scored`)."""
    return Entry(state.key, state.record, len(state.history), final_value(state), {}, method="over",
                 score=final_score(state) if scored else None)


def from_children(state: RulesState, book: Book) -> Entry:
    """The entry of the unfinished ``state`` backed up from book entries one ply deeper: its value and its moves'
    (and their exact scores, in a book built with scores)."""
    scored = book.scored
    moves: dict[int, Value] = {}
    scores: dict[int, int] = {}
    mover = state.to_move
    for move in state.legal_moves():
        state.play(move)
        child, turn_passed = book.get(state.key), state.to_move != mover
        state.undo()
        if child is None or scored and child.score is None:
            lacks = "position" if child is None else "score of the position"
            raise BadInput(f"the book lacks the {lacks} after {state.record} {state.move_name(move)}".replace("  ", " "))
        moves[move] = to_mover(child.value, turn_passed)
        if scored:
            scores[move] = to_mover(child.score, turn_passed)
    return Entry(state.key, state.record, len(state.history), Value.best(moves.values()), moves, method="children",
                 score=max(scores.values()) if scored else None, move_scores=scores)


def solve_leaves(game: str, records: list[str], options: Options, with_moves: bool,
                 shared_table: str | None = None, table: TranspositionTable | None = None) -> list[dict[str, Any]]:
    """One book job: the entries (as JSON) of the positions after ``records`` in the game that ``game`` loads
    (:func:`~gameproof.framework.registry.load_game`), siblings solved one after another on one table (they
    share much; the :class:`~gameproof.search.tt.SharedTable` called ``shared_table``, or ``table``, which other
    threads search too, when given), with their moves' values or without. Siblings tend to share their value,
    so each leaf's first question is the one that settled the leaf before it in one search. Rules that break
    the kernels' assumptions below a leaf raise :class:`~gameproof.interrupts.RulesBroken` as a solve from the
    start would."""
    rules = load_game(game)
    if shared_table is not None:
        options = replace(options, shared_table=shared_table)
    own = None if table is None else table.with_own_lanes()
    entries = []
    expect = None
    for record in records:
        state = RulesState(rules, record)
        try:  # one table a worker, or one for all the threads
            solution = solve(state, options, with_moves=with_moves, keep_table=True, expect=expect, table=own)
        except RulesBroken as broken:  # the depth from the start, as the game's own solve counts it
            raise broken.below(len(state.history)) from None
        expect = solution.value
        entries.append(Entry(state.key, record, len(state.history), solution.value, dict(solution.moves),
                             solution.nodes, solution.seconds).as_json())
    return entries


def score_leaves(game: str, records: list[str], options: Options, with_moves: bool) -> list[dict[str, Any]]:
    """One job of a book built with scores: the entries (as JSON) of the positions after ``records``, each with its
    exact score (:func:`~gameproof.search.score.exact_score`, on a table of its own) and, with ``with_moves``,
    each move's."""
    rules = load_game(game)
    entries = []
    for record in records:
        state = RulesState(rules, record)
        try:
            entries.append(scored_entry(state, exact_score(state, options, with_moves=with_moves)).as_json())
        except RulesBroken as broken:
            raise broken.below(len(state.history)) from None
    return entries


def scored_entry(state: RulesState, solution: ScoreSolution) -> Entry:
    """The book's entry of `state` solved with scores: its values are the signs of the scores."""
    moves = {move: Value.of_score(score) for move, score in solution.moves.items()}
    return Entry(state.key, state.record, len(state.history), Value.of_score(solution.score), moves, solution.nodes,
                 solution.seconds, score=solution.score, move_scores=dict(solution.moves))


def subtree_jobs(leaves: list[RulesState], depth: int, game: Game, options: Options, with_moves: bool,
                 workers: int) -> list[Job]:
    """The leaves as jobs of at most :data:`LEAVES_PER_JOB` leaves below one ancestor two plies up (one ply up
    below depth 3): a worker's table then serves the positions those leaves share. Groups are cut smaller
    when there are fewer of them than workers (a shallow book), so that every worker has a job.
    Misère 4×5 k3 to depth 3, two workers against one: 1.8–2.1× on one shared table; with a table per
    worker 1.3× (1.5× with whole subtrees as jobs; one job per leaf was slower than one worker;
    docs/benchmarks.md)."""
    prefix = max(depth - 2, 1) if depth >= 2 else 0
    groups: dict[tuple[int, ...], list[RulesState]] = {}
    for leaf in leaves:
        groups.setdefault(tuple(leaf.history[:prefix]), []).append(leaf)
    size = LEAVES_PER_JOB
    if groups and len(groups) < workers:
        size = min(size, -(-max(len(group) for group in groups.values()) * len(groups) // workers))
    chunks = [group[start:start + size] for group in groups.values() for start in range(0, len(group), size)]
    loading = Identity.of(game).loading
    return [Job(",".join(str(leaf.key) for leaf in chunk),
                {"game": loading, "records": [leaf.record for leaf in chunk], "options": options,
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


@dataclass
class BuildReport:
    """What a build did: the depth of the book it deepened (None for a new book, or one as deep as asked), leaves
    solved now and found already solved, entries in the book, effort."""

    deepened_from: int | None = None
    solved: int = 0
    skipped: int = 0
    entries: int = 0
    nodes: int = 0
    seconds: float = 0.0  # solving time summed over the leaves solved now
    wall_seconds: float = 0.0


def build(game: Game, depth: int, path: str | Path, *, workers: int | None = None, options: Options = Options(),
          values_only: bool = False, scores: bool = False, backend: Backend = Backend.LOCAL,
          address: str | None = None, progress: Progress | None = None) -> BuildReport:
    """Solve every symmetry-distinct position ``depth`` plies deep as jobs (resuming a partial file: the
    book is the journal), then back up. A book less deep than ``depth`` is deepened: its entries are kept, the new
    plies' leaves solved and every shallower entry backed up again, so that it becomes the book a build to ``depth``
    makes, and a deepening stopped half way resumes as any build does (the meta row ``depth`` changes last).
    ``values_only`` leaves keep their value only (faster). With ``scores`` (for a game that declares a score)
    every entry keeps its exact score and its moves' too, and each worker searches its leaves on a table of its
    own of ``options.tt_mb`` MiB. The workers
    (by default one locally, in this process, and one per CPU of a Ray cluster) share one transposition
    table of ``options.tt_mb`` MiB a machine (:func:`~gameproof.search.jobs.run_jobs`); the workers of a machine are
    threads of one process (the kernels release the GIL): this one locally, one a machine on Ray."""
    if not 0 <= depth <= game.max_plies:
        raise BadInput(f"--depth must be between 0 and {game.max_plies} (the most plies a game of {game.name} "
                       f"lasts), got {depth}")
    if workers is not None and not 1 <= workers <= MOST_WORKERS:
        raise BadInput(f"--workers must be between 1 and {MOST_WORKERS}, got {workers}")
    if scores:
        game.require_score()
    began = time.perf_counter()
    target = Path(path).resolve()  # the file itself: a link to where no file is yet stays as it was
    existed = target.exists()
    blank = not existed or target.is_file() and target.stat().st_size == 0
    book, game, stored = open_book(path, game, depth)
    report = BuildReport(deepened_from=stored if stored < depth else None)
    try:
        _build(book, game, depth, report, workers, options, values_only, scores, backend, address, progress)
    except BaseException:
        if blank and report.solved == 0:  # a failed build that solved nothing leaves the file as it found it
            if existed:
                target.write_bytes(b"")
            else:
                target.unlink(missing_ok=True)
        raise
    report.wall_seconds = time.perf_counter() - began
    return report


def _build(book: Book, game: Game, depth: int, report: BuildReport, workers: int | None, options: Options,
           values_only: bool, scores: bool, backend: Backend, address: str | None, progress: Progress | None) -> None:
    """Fill ``book`` (see :func:`build`)."""
    with book:
        leaves = "values" if values_only else "moves"
        begun = "leaves" in book.meta()
        if book.meta().setdefault("leaves", leaves) != leaves:
            raise BadInput(f"{book.path} keeps its leaves' {book.meta()['leaves']} only; resume it the same way")
        if begun and book.scored != scores:
            raise BadInput(f"{book.path} was built {'with' if book.scored else 'without'} scores; resume it the "
                           "same way" + (" (--score)" if book.scored else ""))
        layers = levels(RulesState(game), depth)
        check_merges(layers)
        scored_name, scored_value = SCORED
        deepening = {} if report.deepened_from is None else {DEEPENING: str(depth)}
        book.set_meta(leaves=leaves, **{scored_name: scored_value if scores else "none"}, **deepening)
        done = book.keys()
        todo = [s for s in layers[depth] if not s.is_over()]
        report.skipped = sum(1 for s in todo if s.key in done)
        for state in (s for layer in layers for s in layer if s.is_over() and s.key not in done):
            book.put(finished_entry(state, scores))
        jobs = subtree_jobs(todo, depth, game, options, not values_only, workers or 1)
        run_jobs(score_leaves if scores else solve_leaves, jobs, _BookJournal(book, report, jobs), backend=backend,
                 workers=workers, address=address, progress=progress,
                 shared_table_mb=None if scores else options.tt_mb, threads=True)
        for layer in reversed(layers[:depth]):
            for state in layer:
                if not state.is_over():
                    book.put(from_children(state, book))
        book.set_meta(depth=str(depth), **{DEEPENING: None})  # the book is now as deep as asked
        report.entries = len(book)
