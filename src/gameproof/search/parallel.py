"""`solve` on several threads over one transposition table, journalled and resumable.

The df-pn kernels run without the GIL, so the workers are threads of this process searching one table
(a private array, which gets the kernel's huge pages; a table in shared memory between processes is
slower per node). The solve is split into its binary questions, as :func:`gameproof.search.exact.solve`
asks them (for every move's value, a question or two about each distinct child): a free worker takes
the first question nobody searches, and when none is left it joins the question fewest search, as
another lane of it: the searchers of one question try last the children another has on its path, and
once one answers the others stop. What one worker proves, all find in the table. The driver (the main
thread) hands out questions, draws progress from the table and the lanes, and saves the table to the
journal now and then.

On Ray (``backend=Backend.RAY``) the same questions go to long-lived Ray workers: the workers of one machine
are threads of one process there, searching one table in its private memory as local threads do
(:class:`~gameproof.search.jobs._RayWorkers`). A question is sent to a worker as soon as it is asked and the
worker is free; when every worker is on one machine, a free worker with no new question joins the open
question fewest search, as another lane of it (lanes do not cross machines, whose tables are apart), and a
dead worker's question is sent again.

A solve resumed from a journal confirms its answer, and every move's value, by certificates that the
independent checker (:mod:`gameproof.certify.check`) accepts; when they are not accepted the journal's
table is dropped and the position solved again on an empty one.
"""

from __future__ import annotations

import enum
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gameproof.answers import Value, to_mover
from gameproof.errors import BadInput, RunFailed, Unknown
from gameproof.framework.declaration import Engine
from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.interrupts import RulesBroken, Terminated
from gameproof.search.alphabeta import AlphaBeta
from gameproof.search.confirm import confirm_symmetries, confirmed_by_certificates
from gameproof.search.dfpn import Options, Search
from gameproof.search.exact import Solution, asks_draws, final_value
from gameproof.search.jobs import Backend, Job, ray_workers
from gameproof.search.solve_journal import CHECKPOINT_SECONDS, FIRST_SAVE_SECONDS, SolveJournal, save_interval
from gameproof.search.tt import (LANE_NODES, LANE_QUESTION, MOST_LANES, TranspositionTable, census,
                                 lookup)

if TYPE_CHECKING:
    from gameproof.search.certificate import Certificate

#: df-pn nodes between two stores of the root's numbers (the progress shows them): a search goes back to the
#: root this often, which costs little, since every node on its path stores its numbers on the way.
_ROOT_EVERY = 1 << 18
#: Seconds between two progress reports, and the part of the table a report's census reads.
_REPORT_SECONDS, _CENSUS_PART = 1.0, 16


class Disagreement(RunFailed):
    """Two workers answered one question differently (only a table that lies can make them)."""


@dataclass(frozen=True)
class Progress:
    """How a solve stands: nodes so far (all workers, the journal's included), the table's entries, and for
    df-pn those by kind and the attacker's proof and disproof numbers of the question being asked (None
    before the first; alpha-beta's table holds bounds, not proofs). On Ray the nodes are those of the
    questions answered so far, and the table's numbers and the root's are None (the tables are the workers')."""

    nodes: int
    seconds: float
    nodes_per_second: float
    proven: int | None
    disproven: int | None
    open: int | None
    capacity: int | None
    root: tuple[int, int] | None
    workers: int
    entries: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "seconds": round(self.seconds, 3),
                "nodes_per_second": round(self.nodes_per_second), "proven": self.proven,
                "disproven": self.disproven, "open": self.open, "capacity": self.capacity,
                "root": None if self.root is None else {"proof": self.root[0], "disproof": self.root[1]},
                "workers": self.workers, "entries": self.entries}


@dataclass
class ParallelSolution(Solution):
    """A solution found by workers, with how the journal took part and the last progress."""

    workers: int = 1
    backend: Backend = Backend.LOCAL
    journal: str | None = None
    resumed_nodes: int = 0  # nodes the journal's table held the work of when the solve started
    confirmed: str | None = None  # how a resumed answer was confirmed
    certificate: Certificate | None = None  # the checked certificate of the value that confirmed it
    saves: int = 0
    last: Progress | None = None
    then: Any = None


def journal_identity(state: RulesState, loading: str, with_moves: bool, options: Options) -> dict[str, Any]:
    """What a journal records of the question: game, rules file, position, engine and search settings."""
    from gameproof.search.book_game import Identity

    identity = Identity.of(state.game)
    return {"game": identity.name, "rules_sha256": identity.sha256, "played": state.record,
            "position": None if state.root is None else [list(state.root[0]), state.root[1]],
            "engine": Engine.DFPN.value,
            "with_moves": with_moves, "wpns": options.wpns, "epsilon": options.epsilon, "heuristic": options.heuristic,
            "brute_force": options.brute_force, "loading": loading if identity.file is None else None}


def solve_on_workers(state: RulesState, options: Options, *, workers: int, with_moves: bool = True,
                     engine: Engine = Engine.DFPN, journal: Path | str | None = None,
                     checkpoint_seconds: float = CHECKPOINT_SECONDS, progress: Callable[[Progress], None] | None = None,
                     then: Callable[[Search, Solution], Any] | None = None, backend: Backend = Backend.LOCAL,
                     address: str | None = None, confirming: Callable[[str], None] | None = None) -> ParallelSolution:
    """Solve the unfinished position `state` with `engine` on `workers` threads sharing one table, or on
    `workers` Ray workers (of the cluster at `address`, else of one started here; see the module).

    With `journal` (df-pn), the table is saved there every `checkpoint_seconds` (less often where a save takes
    over a tenth of that: :func:`~gameproof.search.solve_journal.save_interval`) and a journal of the same
    question is resumed; its answer is then confirmed by checked certificates (``confirming`` is told how far
    they are; the solution keeps the position's as ``certificate``). An interruption saves the journal on its
    way out where that is quick, and notes whether it did (``add_note``). ``then`` is called with a
    df-pn search (over the solved table, for df-pn) and the solution, to build a certificate, say; what it
    returns is the solution's ``then``; on Ray its search is a fresh one."""
    from gameproof.search.book_game import Identity

    if not 1 <= workers <= MOST_LANES:
        raise BadInput(f"--workers must be between 1 and {MOST_LANES}, got {workers}")
    if not checkpoint_seconds > 0:
        raise BadInput(f"--checkpoint must be a positive number of seconds, got {checkpoint_seconds}")
    if journal is not None and engine is not Engine.DFPN:
        raise BadInput(f"--journal keeps a df-pn search; {state.game.name} is solved by {engine.value} here "
                       "(give --engine dfpn)")
    if journal is not None and backend is Backend.RAY:
        raise BadInput("--journal saves the table of a solve on this machine; it cannot be used with --backend ray")
    game = state.game
    loading = Identity.of(game).loading
    book = None if journal is None else SolveJournal(journal, journal_identity(state, loading, with_moves, options))
    if book is not None:
        _check_confirmable(state, loading)
    with _noting_on_interruption(book):
        if backend is Backend.RAY:
            solution = _RayRun(state, loading, options, workers, with_moves, engine, address, progress).solve()
            table = None
        else:
            solution, table = _solve_here(state, loading, options, workers, with_moves, engine, book,
                                          checkpoint_seconds, progress, confirming)
        confirm_symmetries(state, loading, solution, table if engine is Engine.DFPN else None, options, workers,
                           confirming)
        if then is not None:
            certifying = (table if table is not None and engine is Engine.DFPN
                          else TranspositionTable(options.tt_mb, game.max_positions))
            solution.then = then(_table_search(game, options, certifying), solution)
    return solution


@contextmanager
def _noting_on_interruption(journal: SolveJournal | None) -> Iterator[None]:
    """An interruption of the block (or the end of its time limit) notes on itself whether the journal was saved, for
    the command's last line."""
    try:
        yield
    except (KeyboardInterrupt, Terminated, Unknown) as interruption:
        if journal is not None:
            interruption.add_note(journal.describe())
        raise


def _solve_here(state: RulesState, loading: str, options: Options, workers: int, with_moves: bool, engine: Engine,
                book: SolveJournal | None, checkpoint_seconds: float,
                progress: Callable[[Progress], None] | None,
                confirming: Callable[[str], None] | None) -> tuple[ParallelSolution, TranspositionTable]:
    """:func:`solve_on_workers` on threads of this process: the solution and the table they shared."""
    game = state.game
    table = TranspositionTable(options.tt_mb, game.max_positions, searchers=workers)
    saved = book.restore(table.words) if book is not None else None
    try:
        solution = _Run(state, options, table, workers, with_moves, engine, book, checkpoint_seconds, progress,
                        saved).solve()
    except Disagreement:
        if saved is None:
            raise
        solution = None  # workers reading a forged table may disagree: the journal is not confirmed either
    if saved is not None:
        confirmed = None if solution is None else confirmed_by_certificates(state, loading, solution, table, options,
                                                                            workers, confirming)
        if confirmed is None:
            table.words[:] = 0
            solution = _Run(state, options, table, workers, with_moves, engine, book, checkpoint_seconds, progress,
                            None).solve()
            solution.confirmed = "the journal's answer was not confirmed by its certificates: solved again afresh"
        else:
            solution.confirmed, solution.certificate = confirmed
    solution.journal = None if book is None else str(book.path)
    return solution, table

def _table_search(game: Game, options: Options, table: TranspositionTable, lane: int = 1, lanes: int = 1,
                  engine: Engine = Engine.DFPN) -> Search | AlphaBeta:
    """A search by `engine` of `game` over `table`, as lane `lane` of `lanes`."""
    options = replace(options, lanes=lanes, lane=lane)
    if engine is Engine.ALPHABETA:
        return AlphaBeta(game.kernels, game.tables, game.max_plies, game.max_moves, options, table=table)
    return Search(game.kernels, game.tables, game.max_plies, game.max_moves, options, game.max_positions, table=table)


class Ask(enum.Enum):
    """What a question asks of a position: df-pn's two questions, or alpha-beta's value."""

    DRAW = "draw"  # can the attacker at least draw?
    WIN = "win"  # can the attacker win?
    VALUE = "value"  # the score (-1, 0, 1) for the side to move


@dataclass(eq=False)
class Question:
    """One question of the solve about `position` (df-pn's for `attacker`, the side to move at the root)."""

    position: RulesState
    ask: Ask
    attacker: int
    answer: bool | int | None = None
    lanes: set[int] = field(default_factory=set)  # the lanes searching it now


class _Plan:
    """The questions of a solve, as :func:`gameproof.search.exact.solve` and alpha-beta's solve ask them: for
    every move's value, df-pn's draw question about each distinct child (up to symmetry) and then, in a game that
    may end in a draw, the win question about those that draw, or alpha-beta's value of each distinct child; for the value alone, the
    same about the position itself."""

    def __init__(self, state: RulesState, with_moves: bool, engine: Engine) -> None:
        self.state, self.engine = state, engine
        self.drawn = asks_draws(state.game.spec.draws, state.game.tables)  # else the draw question says it all
        self.values: dict[int, Value] = {}
        self.asked: list[Question] = []
        self._follow: dict[int, Callable[[bool | int], None]] = {}
        self.value: Value | None = None
        if not with_moves:
            self._value_of(state, self._root_is)
            return
        self.twins: dict[int, list[int]] = {}
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            if child.is_over():
                self.values[move] = final_value(child).flipped()
            elif child.key in self.twins:
                self.twins[child.key].append(move)
            else:
                self.twins[child.key] = [move]
                self._value_of(child, lambda value, key=child.key: self._child_is(key, value))
        self._settle()

    def _value_of(self, position: RulesState, then: Callable[[Value], None]) -> None:
        """Ask the questions that value `position` for the side to move at the root, then call `then` with it."""
        if self.engine is Engine.ALPHABETA:
            passed = position.to_move != self.state.to_move
            self._ask(position, Ask.VALUE, lambda score: then(Value.of_score(to_mover(score, passed))))
            return

        def draws(answer: bool) -> None:
            if answer and self.drawn:
                self._ask(position, Ask.WIN, lambda wins: then(Value.WIN if wins else Value.DRAW))
            else:
                then(Value.WIN if answer else Value.LOSS)

        self._ask(position, Ask.DRAW, draws)

    def _ask(self, position: RulesState, ask: Ask, then: Callable[[Any], None]) -> None:
        question = Question(position, ask, self.state.to_move)
        self.asked.append(question)
        self._follow[id(question)] = then

    def answered(self, question: Question, answer: bool | int) -> None:
        """Record `answer`, which may ask the next question; :class:`Disagreement` if it contradicts an earlier one."""
        if question.answer is not None:
            if question.answer != answer:
                raise Disagreement(f"two workers answered a question differently: {question.ask.value} after "
                                   f"{question.position.record!r}: {question.answer} and {answer}")
            return
        question.answer = answer
        self._follow.pop(id(question))(answer)

    def _root_is(self, value: Value) -> None:
        self.value = value

    def _child_is(self, key: int, value: Value) -> None:
        self.values.update(dict.fromkeys(self.twins[key], value))
        self._settle()

    def _settle(self) -> None:
        if len(self.values) == len(self.state.legal_moves()):
            self.value = Value.best(self.values.values())

    def waiting(self) -> list[Question]:
        """Questions not answered yet, in the order they were asked."""
        return [question for question in self.asked if question.answer is None]


class _Run:
    """One pass of the workers over a position: hands them questions, watches them, saves the journal.

    A free worker takes the first question nobody is searching; when there is none, it joins the question
    fewest workers search (as another lane of it), so that no worker idles while a question is open."""

    def __init__(self, state: RulesState, options: Options, table: TranspositionTable, workers: int,
                 with_moves: bool, engine: Engine, journal: SolveJournal | None, every: float,
                 progress: Callable[[Progress], None] | None, saved: dict[str, Any] | None) -> None:
        self.state, self.table, self.workers, self.with_moves, self.engine = state, table, workers, with_moves, engine
        self.journal, self.every, self.progress = journal, every, progress
        self.searches = {lane: _table_search(state.game, options, table, lane, workers, engine)
                         for lane in range(1, workers + 1)}
        self.earlier_nodes = int(saved["nodes"]) if saved else 0
        self.earlier_seconds = float(saved["seconds"]) if saved else 0.0
        self.done_nodes = 0  # nodes of the questions' searches that have returned
        self.running: dict[Future, tuple[Question, int]] = {}
        self.began = time.perf_counter()
        self.saves = 0
        self.last: Progress | None = None

    def nodes(self) -> int:
        busy = [lane for _, lane in self.running.values()]
        return self.earlier_nodes + self.done_nodes + sum(int(self.table.lanes[lane, LANE_NODES]) for lane in busy)

    def solve(self) -> ParallelSolution:
        plan = _Plan(self.state, self.with_moves, self.engine)
        pool = ThreadPoolExecutor(self.workers, thread_name_prefix="gameproof-solve")
        try:
            self._answer(plan, pool)
        except (KeyboardInterrupt, Terminated, Unknown):
            self._stop(pool)
            if self.journal is not None and self.journal.quick_to_save(self.table.words):
                self.save()  # the work so far, whatever the last checkpoint
            raise
        finally:
            self._stop(pool)
        assert plan.value is not None
        if self.journal is not None:  # the whole table: a solve of the same question again finds it all there
            self.save()
        last = self.report()
        return ParallelSolution(plan.value, dict(sorted(plan.values.items())), nodes=last.nodes - self.earlier_nodes,
                                seconds=time.perf_counter() - self.began,
                                tt_entries=last.entries, workers=self.workers,
                                resumed_nodes=self.earlier_nodes, saves=self.saves, last=last)

    def _answer(self, plan: _Plan, pool: ThreadPoolExecutor) -> None:
        """Hand out `plan`'s questions until it has the answer, saving the journal on the way: first after
        :data:`~gameproof.search.solve_journal.FIRST_SAVE_SECONDS` (or the checkpoint, if sooner), then every
        checkpoint (or less often: see :func:`~gameproof.search.solve_journal.save_interval`)."""
        saved_at, due = time.perf_counter(), min(self.every, FIRST_SAVE_SECONDS)
        while plan.value is None or self.running:
            self._hand_out(plan, pool)
            done, _ = wait(self.running, timeout=min(_REPORT_SECONDS, self.every), return_when=FIRST_COMPLETED)
            for future in done:
                question, lane = self.running.pop(future)
                question.lanes.discard(lane)
                answer, nodes = future.result()
                self.done_nodes += nodes
                plan.answered(question, answer)
            if self.progress is not None:
                self.report(_CENSUS_PART)
            if self.journal is not None and time.perf_counter() - saved_at >= due:
                began_saving = time.perf_counter()
                self.save()
                saved_at = time.perf_counter()
                due = save_interval(self.every, saved_at - began_saving)

    def _stop(self, pool: ThreadPoolExecutor) -> None:
        """End the workers' searches: at once when some still run (the solve failed or was interrupted)."""
        if self.running:
            for search in self.searches.values():
                search.abandon()
        pool.shutdown(wait=True, cancel_futures=True)

    def _hand_out(self, plan: _Plan, pool: ThreadPoolExecutor) -> None:
        """Give every free worker a question: one nobody searches, else another lane of the least searched."""
        free = sorted(set(self.searches) - {lane for _, lane in self.running.values()})
        waiting = plan.waiting()
        for lane in free:
            if not waiting:
                return
            question = min(waiting, key=lambda q: (len(q.lanes), waiting.index(q)))
            question.lanes.add(lane)
            self.table.lanes[lane, LANE_NODES] = 0  # not the last question's count (its nodes are in done_nodes)
            future = pool.submit(_prove, self.searches[lane], question)
            self.running[future] = (question, lane)

    def save(self) -> None:
        assert self.journal is not None
        self.journal.save(self.table.words, self.nodes(), self.earlier_seconds + time.perf_counter() - self.began)
        self.saves += 1

    def report(self, part: int = 1) -> Progress:
        """The progress now (given to the callback, if any); the census from 1/`part` of the table."""
        proven, disproven, open_ = census(self.table.words, part)
        entries = proven + disproven + open_
        found = None
        if self.engine is Engine.ALPHABETA:
            proven = disproven = open_ = None
        elif self.running:
            lane = min(lane for _, lane in self.running.values())
            known, pn, dn = lookup(self.table.words, self.table.bits, self.table.lanes[lane, LANE_QUESTION])
            found = (int(pn), int(dn)) if known else None
        seconds = time.perf_counter() - self.began
        nodes = self.nodes()
        self.last = Progress(nodes, self.earlier_seconds + seconds, (nodes - self.earlier_nodes) / max(seconds, 1e-9),
                             proven, disproven, open_, self.table.capacity, found, self.workers, entries)
        if self.progress is not None:
            self.progress(self.last)
        return self.last


def _prove(search: Search | AlphaBeta, question: Question) -> tuple[bool | int, int]:
    """In a worker thread: the answer to `question` and the nodes it took."""
    before = search.nodes
    try:
        if question.ask is Ask.VALUE:
            answer: bool | int = search.value(question.position.frames())
        else:
            answer = search.prove(question.position.frames(), question.attacker, question.ask is Ask.DRAW,
                                  chunk=_ROOT_EVERY)
    except RulesBroken as broken:
        raise broken.of(question.position.game.name) from None
    return answer, search.nodes - before


class _RayRun:
    """A solve's questions on long-lived Ray workers (:func:`gameproof.search.jobs.ray_workers`): each sent to a
    free worker as soon as it is asked, as the position's moves, the question and the attacker, and answered
    by :func:`answer_question` there."""

    def __init__(self, state: RulesState, loading: str, options: Options, workers: int, with_moves: bool,
                 engine: Engine, address: str | None, progress: Callable[[Progress], None] | None) -> None:
        self.state, self.loading, self.options, self.workers = state, loading, options, workers
        self.with_moves, self.engine, self.address, self.progress = with_moves, engine, address, progress

    def solve(self) -> ParallelSolution:
        plan = _Plan(self.state, self.with_moves, self.engine)
        began, nodes, sent = time.perf_counter(), 0, 0
        searching: Counter[int] = Counter()  # a question's number: its jobs sent and not finished
        with ray_workers(answer_question, self.workers, self.address, table_mb=self.options.tt_mb, ahead=0,
                         threads=True, lanes=True) as pool:
            while plan.value is None or pool.busy():  # then the other lanes of the last question end, soon
                new = range(sent, len(plan.asked))
                pool.add(self._job(index, plan.asked[index], searching) for index in new)
                sent = len(plan.asked)
                if pool.one_machine():
                    waiting = [index for index in range(sent) if plan.asked[index].answer is None]
                    for _ in range(min(pool.idle(), len(waiting))):
                        index = min(waiting, key=lambda i: (searching[i], i))
                        pool.add([self._job(index, plan.asked[index], searching)])
                finished = pool.next(timeout=_REPORT_SECONDS)
                if finished is not None:
                    job, ((answer, searched), _) = finished
                    index = int(job.key.partition(".")[0])
                    searching[index] -= 1
                    nodes += searched
                    plan.answered(plan.asked[index], answer)
                self.report(nodes, time.perf_counter() - began)
        last = self.report(nodes, time.perf_counter() - began)
        return ParallelSolution(plan.value, dict(sorted(plan.values.items())), nodes=nodes, seconds=last.seconds,
                                workers=self.workers, backend=Backend.RAY, last=last)

    def _job(self, index: int, question: Question, searching: Counter[int]) -> Job:
        """Question number `index` of the plan, as a job for :func:`answer_question` (its key the number, and
        which of the question's jobs this is, after a dot, from the second on)."""
        searching[index] += 1
        lane = searching[index]
        return Job(str(index) if lane == 1 else f"{index}.{lane}",
                   {"game": self.loading, "root": question.position.root, "record": question.position.record,
                    "ask": question.ask.value, "attacker": question.attacker, "options": self.options,
                    "engine": self.engine.value})

    def report(self, nodes: int, seconds: float) -> Progress:
        """The progress now (given to the callback, if any)."""
        now = Progress(nodes, seconds, nodes / max(seconds, 1e-9), None, None, None, None, None, self.workers)
        if self.progress is not None:
            self.progress(now)
        return now


def answer_question(game: str, root: tuple[tuple[int, ...], int] | None, record: str, ask: str, attacker: int,
                    options: Options, engine: str, table: TranspositionTable | None = None, lane: int = 1,
                    lanes: int = 1) -> tuple[bool | int, int]:
    """A Ray worker's job: the answer to `ask` (an :class:`Ask`'s value) for `attacker` about the position after
    `record`, played from `root` (words and side to move; None: the start), in the game that `game` loads, by
    `engine`, and the nodes it took; searched by the one search this process keeps for these arguments, as lane
    `lane` of `lanes` over `table`, which other threads of the process search too (by default a table this process
    keeps for the game and engine)."""
    from gameproof.framework.registry import load_game

    rules = load_game(game)
    position = RulesState(rules) if root is None else RulesState.at(rules, *root)
    position.play_moves(record)
    searched = table if table is not None else _own_table(game, options, Engine(engine))
    return _prove(_lane_search(game, options, Engine(engine), searched, lane, lanes),
                  Question(position, Ask(ask), attacker))


@cache
def _own_table(game: str, options: Options, engine: Engine) -> TranspositionTable:
    """The table this process keeps for :func:`answer_question`'s questions about `game` by `engine` when it is given
    none (a table serves one game and one engine: keys and entries mean nothing in another)."""
    from gameproof.framework.registry import load_game

    return TranspositionTable(options.tt_mb, load_game(game).max_positions)


@cache
def _lane_search(game: str, options: Options, engine: Engine, table: TranspositionTable, lane: int,
                 lanes: int) -> Search | AlphaBeta:
    """The search a thread of a Ray worker keeps for :func:`answer_question`'s arguments: lane `lane` of `lanes`
    over its process's `table`."""
    from gameproof.framework.registry import load_game

    return _table_search(load_game(game), options, table, lane, lanes, engine)


def _check_confirmable(state: RulesState, loading: str) -> None:
    """BadInput unless a resumed answer can be confirmed by certificates (say so before solving)."""
    from gameproof.search.certificate import check_certifiable

    try:
        check_certifiable(state, loading)
    except BadInput as error:
        raise BadInput(f"--journal: {error} (a resumed solve's answer is confirmed by certificates)") from None
