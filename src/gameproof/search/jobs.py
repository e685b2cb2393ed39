"""Jobs: idempotent tasks run on local processes or on Ray, each result journalled by the driver.

A job is a key, stable from one run to the next, and the keyword arguments of a task: a module-level
function that returns something JSON can hold. :func:`run_jobs` skips the jobs its journal already
holds, runs the rest on a backend and records each result as it arrives (one committed SQLite
transaction each), so a driver killed at any moment, even by SIGKILL, resumes with every finished job
kept. A worker that dies is replaced and its jobs run again, up to ``retries`` times; a task that
raises fails the run with the job's key named (a BadInput fails it as it is: the input is at fault).
Results do not depend on the backend. Local workers never see Ctrl-C (the driver decides): an interrupted
driver kills them and raises at once. Ray workers are actors that live for the whole run, so what a task
keeps in its process serves every job there. A task whose work releases the GIL (the search kernels) can
run on local threads instead of processes, over one table in this process's private memory, which gets
the kernel's huge pages (shared memory here does not); on Ray such a task runs on threads too, in one
process a machine (:class:`_RayWorkers`).
"""

from __future__ import annotations

import enum
import itertools
import json
import multiprocessing
import os
import queue
import socket
import sqlite3
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, redirect_stdout
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from gameproof.errors import BadInput, RunFailed
from gameproof.interrupts import ctrl_c_held, die_with_driver
from gameproof.search.tt import MOST_LANES, SharedTable, TranspositionTable
from gameproof.storage import connect_read_only

Task = Callable[..., Any]
#: ``progress(done, total, elapsed_seconds)``, called after each job (done counts journalled ones too).
Progress = Callable[[int, int, float], None]

_KIND = "gameproof-journal"
#: How long opening a journal waits for another process's lock on it before refusing the file.
_BUSY_SECONDS = 2.0


class Backend(enum.Enum):
    """Where the jobs run."""

    LOCAL = "local"  # a pool of processes on this machine
    RAY = "ray"  # a Ray cluster (`pip install gameproof[ray]`); a local one when no address is given


class JobFailed(RunFailed):
    """A job raised, or its worker died more often than the retries allow."""


@dataclass(frozen=True)
class Job:
    """One unit of work: ``task(**arguments)``, known by ``key`` in the journal."""

    key: str
    arguments: Mapping[str, Any]


class Journal(Protocol):
    """Where the driver keeps finished jobs."""

    def finished(self) -> set[str]:
        """Keys of the jobs already done."""

    def record(self, key: str, result: Any, seconds: float) -> None:
        """Keep one job's result (durably, before returning)."""


class SqliteJournal:
    """A journal file: the task it belongs to, and one row per finished job (its result as JSON).

    Opening it takes its write lock at once, so a file that is read-only, or locked by another process for
    longer than ``_BUSY_SECONDS``, is refused (BadInput) before any job runs, and left as it was."""

    def __init__(self, path: str | Path, task: str) -> None:
        self.path = Path(path)
        existed = self.path.exists()
        if existed:
            _check_journal(self.path, task)
        try:
            self._db = sqlite3.connect(self.path, timeout=_BUSY_SECONDS)
        except sqlite3.Error as error:
            raise BadInput(f"cannot open the journal {path}: {error}") from None
        try:
            self._db.execute("BEGIN IMMEDIATE")  # a read-only or locked file is refused before any work
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.execute("CREATE TABLE IF NOT EXISTS results "
                             "(key TEXT PRIMARY KEY, result TEXT NOT NULL, seconds REAL NOT NULL)")
            self._db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", [("kind", _KIND), ("task", task)])
            self._db.commit()
        except sqlite3.Error as error:
            self._db.close()
            if not existed:
                self.path.unlink(missing_ok=True)
            raise BadInput(f"cannot write to the journal {path}: {error}") from None

    def finished(self) -> set[str]:
        return {key for (key,) in self._db.execute("SELECT key FROM results")}

    def results(self) -> dict[str, Any]:
        """Every finished job's result, by key (None for a row that does not read as JSON)."""
        return {key: _json_or_none(text) for key, text in self._db.execute("SELECT key, result FROM results")}

    def record(self, key: str, result: Any, seconds: float) -> None:
        try:
            with self._db:
                self._db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?)", (key, json.dumps(result), seconds))
        except sqlite3.OperationalError as error:  # another process has held the file locked for too long
            raise BadInput(f"cannot write to the journal {self.path}: {error}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SqliteJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _json_or_none(text: Any) -> Any:
    """The JSON value `text` holds, or None (not JSON, or nested too deeply to read)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None


def _check_journal(path: Path, task: str) -> None:
    """Refuse, without changing it, a file that is not this task's journal."""
    if not path.is_file():
        raise BadInput(f"{path} is not a file")
    try:
        db = connect_read_only(path)
        try:
            if db.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise BadInput(f"{path} is a damaged SQLite file")
            meta = dict(db.execute("SELECT name, value FROM meta"))
            db.execute("SELECT key, result, seconds FROM results LIMIT 1").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        raise BadInput(f"{path} is not a gameproof journal ({error})") from None
    if meta.get("kind") != _KIND:
        raise BadInput(f"{path} is not a gameproof journal")
    if meta.get("task") != task:
        raise BadInput(f"{path} is the journal of {meta.get('task')!r}, not of {task}")


def task_name(task: Task) -> str:
    """``module:function``, how a journal names the task it belongs to."""
    return f"{task.__module__}:{task.__qualname__}"


def run_jobs(task: Task, jobs: Iterable[Job], journal: Journal, *, backend: Backend = Backend.LOCAL,
             workers: int | None = None, address: str | None = None, retries: int = 2,
             progress: Progress | None = None, shared_table_mb: float | None = None, threads: bool = False) -> int:
    """Run every job the journal lacks; returns how many ran. ``workers``: by default one locally (the jobs
    then run in this process) and one per CPU of a Ray cluster. With ``shared_table_mb``, jobs run by worker
    processes also get ``shared_table``, the name of a :class:`SharedTable` of that many MiB made for the run
    on their machine, one a machine. With ``threads`` (for a task safe on threads that releases the GIL), local
    workers are threads of this process, and with ``shared_table_mb`` their jobs get ``table``, one
    :class:`TranspositionTable` for all of them, instead."""
    if workers is not None and workers < 1:
        raise BadInput("--workers must be at least 1")
    jobs = list(jobs)
    keys = [job.key for job in jobs]
    if len(set(keys)) != len(keys):
        raise ValueError("job keys must be distinct")
    finished = journal.finished()
    pending = [job for job in jobs if job.key not in finished]
    started, done, total = time.perf_counter(), len(jobs) - len(pending), len(jobs)

    def keep(key: str, outcome: tuple[Any, float]) -> None:
        nonlocal done
        journal.record(key, *outcome)
        done += 1
        if progress:
            progress(done, total, time.perf_counter() - started)

    if progress:
        progress(done, total, 0.0)
    if not pending:
        return 0
    if backend is Backend.RAY:
        _run_on_ray(task, pending, keep, workers, address, retries, shared_table_mb, threads)
    elif workers is None or workers == 1:
        for job in pending:
            keep(job.key, _timed(task, job))
    elif threads:
        table = None if shared_table_mb is None else TranspositionTable(shared_table_mb)
        _run_on_threads(task, [_on_table(job, table, "table") for job in pending], keep, workers)
    else:
        with _machine_table(shared_table_mb) as table:
            _run_on_processes(task, [_on_table(job, table) for job in pending], keep, workers, retries)
    return len(pending)


def _timed(task: Task, job: Job) -> tuple[Any, float]:
    """Run one job (in a worker); its result and the seconds it took. A task's error names the job, but for
    BadInput: the input is at fault (rules that break where only a job's search goes), and the run fails with its
    one line as the command itself would say it (a plain BadInput, which any worker can send back)."""
    began = time.perf_counter()
    try:
        result = task(**job.arguments)
    except BadInput as error:
        raise BadInput(str(error)) from None
    except Exception as error:
        raise JobFailed(f"job {job.key} failed: {type(error).__name__}: {error}") from None
    return result, time.perf_counter() - began


def _run_on_processes(task: Task, pending: list[Job], keep: Callable[[str, tuple[Any, float]], None], workers: int,
                      retries: int) -> None:
    """A pool of spawned processes; when one dies the pool is rebuilt and the unfinished jobs run again.

    The pool hands jobs out in order, at most one more than it has workers, so a death is charged to the
    first ``workers + 1`` unfinished jobs; one charged more than ``retries`` times fails the run. An
    interruption (Ctrl-C, SIGTERM) kills the workers before it goes on."""
    deaths = dict.fromkeys((job.key for job in pending), 0)
    left = {job.key: job for job in pending}  # in submission order
    while left:
        pool = ProcessPoolExecutor(min(workers, len(left)), mp_context=multiprocessing.get_context("spawn"),
                                   initializer=die_with_driver, initargs=(os.getpid(),))
        try:
            with ctrl_c_held():  # the workers start now (on submit), with Ctrl-C ignored
                futures: dict[Future, str] = {pool.submit(_timed, task, job): key for key, job in left.items()}
            while futures:
                ready, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in ready:
                    key = futures.pop(future)
                    keep(key, future.result())
                    del left[key]
        except BrokenProcessPool:
            suspects = list(left)[:workers + 1]
            for key in suspects:
                deaths[key] += 1
            over = [key for key in suspects if deaths[key] > retries]
            if over:
                raise JobFailed(f"a worker died {retries + 1} times while running job {' or '.join(over)}") from None
        except BaseException:
            _kill_workers(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _run_on_threads(task: Task, pending: list[Job], keep: Callable[[str, tuple[Any, float]], None],
                    workers: int) -> None:
    """Threads of this process, each taking the next job until none is left or the run ends. The threads are
    daemons: a run that fails or is interrupted raises at once, without waiting for the jobs under way (a
    signal stops their search kernels anyway; a process that exits takes them with it)."""
    waiting: queue.SimpleQueue[Job] = queue.SimpleQueue()
    for job in pending:
        waiting.put(job)
    finished: queue.SimpleQueue[tuple[Job, tuple[Any, float] | None, BaseException | None]] = queue.SimpleQueue()
    ended = threading.Event()

    def work() -> None:
        while not ended.is_set():
            try:
                job = waiting.get_nowait()
            except queue.Empty:
                return
            try:
                finished.put((job, _timed(task, job), None))
            except BaseException as error:  # a job's failure, or a signal that stopped its kernel
                finished.put((job, None, error))
                return

    for number in range(min(workers, len(pending))):
        threading.Thread(target=work, name=f"gameproof-job-{number + 1}", daemon=True).start()
    try:
        for _ in pending:
            job, outcome, error = finished.get()
            if error is not None:
                raise error
            keep(job.key, outcome)
    finally:
        ended.set()


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's workers at once (shutting it down would wait for their jobs to finish)."""
    for process in list((pool._processes or {}).values()):  # no public way to reach them
        process.kill()


@contextmanager
def _machine_table(megabytes: float | None) -> Iterator[str | None]:
    """The name of a :class:`SharedTable` of ``megabytes`` MiB made here for the run (None when none is asked
    for), released afterwards."""
    if megabytes is None:
        yield None
        return
    table = SharedTable(megabytes)
    try:
        yield table.name
    finally:
        table.release()


def _on_table(job: Job, table: str | TranspositionTable | None, argument: str = "shared_table") -> Job:
    """``job`` with its machine's table among its arguments as `argument` (a shared table by name, or the table
    of this process's threads; itself when there is none)."""
    return job if table is None else Job(job.key, {**job.arguments, argument: table})


#: Jobs a Ray worker holds beyond the one it runs, so that it does not wait for the driver between jobs.
_QUEUED_PER_WORKER = 1
#: How long a run's end waits for its shared tables to be released before it kills their keepers.
_RELEASE_SECONDS = 30.0
#: How long joining a cluster at ``host:port`` waits for a connection before refusing the address.
_CONNECT_SECONDS = 10.0


class _Worker:
    """A Ray actor of one CPU that runs jobs one after another in its one process, so that what a task keeps
    in its process (compiled kernels, a kept search and its table) serves its later jobs. On threads
    (:class:`_RayWorkers`), the first worker on a machine also runs the jobs of the others there, each on a
    thread of its own, over one table in its private memory."""

    def place(self) -> tuple[str, str]:
        """The id of the Ray node this worker runs on, and what names its shared memory (:func:`_machine`)."""
        import ray

        node = ray.get_runtime_context().get_node_id()
        return node, _machine() or f"node {node}"

    def run(self, task: Task, job: Job, table_mb: float | None = None,
            lane: tuple[int, int] | None = None) -> tuple[Any, float]:
        """One job, as a local worker runs it (:func:`_timed`); with ``table_mb``, on this process's table of that
        many MiB (the task's ``table``), and with ``lane`` as lane ``lane[0]`` of ``lane[1]`` searching it."""
        if table_mb is not None:
            job = _on_table(job, _process_table(table_mb), "table")
        if lane is not None:
            job = Job(job.key, {**job.arguments, "lane": lane[0], "lanes": lane[1]})
        return _timed(task, job)


@cache
def _process_table(megabytes: float) -> TranspositionTable:
    """The table of the threads of this Ray worker's process, with lanes for as many as may search it."""
    return TranspositionTable(megabytes, searchers=MOST_LANES)


def _machine() -> str | None:
    """The same for all processes that see the same shared memory, and only for them: the kernel's boot id
    and the device of /dev/shm (two Ray nodes on one machine share it, two containers with their own do
    not); None where there is none to read."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        return f"{boot} {os.stat('/dev/shm').st_dev}"
    except OSError:
        return None


class _TableKeeper:
    """A Ray actor of no CPU that keeps one :class:`SharedTable` on its machine for the workers there."""

    def __init__(self, megabytes: float) -> None:
        self.table = SharedTable(megabytes)

    def name(self) -> str:
        """The table's name, for :meth:`SharedTable.attach`."""
        return self.table.name

    def release(self) -> None:
        """Free the table."""
        self.table.release()


@dataclass
class _Slot:
    """One Ray worker: its actor, its machine (:func:`_machine`) and that machine's table once it has started,
    the jobs sent to it and not finished (in the order they were sent). On threads, ``runner`` is the worker
    that runs its jobs (the first on its machine) and ``lane`` its number among the workers there."""

    actor: Any
    machine: str | None = None
    table: str | None = None
    jobs: deque[Job] = field(default_factory=deque)
    runner: Any = None
    lane: int = 1


class _RayWorkers:
    """Long-lived Ray workers, each sent ``ahead`` jobs more than it runs. A worker that dies is replaced and its jobs
    are queued again (the one it was running charged with the death); the table of its machine stays.

    With ``threads`` (a task safe on threads whose work releases the GIL), the workers that share a machine run
    their jobs in one process, the first worker's, on a thread each, over one table in its private memory
    (which gets the kernel's huge pages, where shared memory here gets none), as local threads do; the others
    hold their CPUs. Each is then sent one job at a time. When that process dies, every worker on its machine
    is replaced and each job that was running there is charged with the death. With ``lanes`` the task is
    also told which of the machine's workers runs the job (``lane``, ``lanes``), for searches that share
    their table's lanes."""

    def __init__(self, ray: Any, task: Task, retries: int, table_mb: float | None, ahead: int,
                 threads: bool = False, lanes: bool = False) -> None:
        self.ray, self.task, self.retries, self.table_mb = ray, task, retries, table_mb
        self.threads, self.lanes = threads, lanes
        self.ahead = 0 if threads else ahead
        options = {"max_concurrency": MOST_LANES} if threads else {}
        self.worker = ray.remote(num_cpus=1, max_restarts=0, **options)(_Worker)
        self.keeper = ray.remote(num_cpus=0, max_restarts=0)(_TableKeeper)
        self.slots: dict[int, _Slot] = {}
        self.calls: dict[Any, tuple[int, Job | None]] = {}  # a call's reference: its worker, its job (None: start)
        self.tables: dict[str, tuple[Any, str]] = {}  # machine: the keeper of its table now, the table's name
        self.runners: dict[str, list[int]] = {}  # on threads, machine: its workers, the one running jobs first
        self.queue: deque[Job] = deque()
        self.deaths: dict[str, int] = {}
        self.failed_starts = 0
        self.numbers = itertools.count()

    def add(self, jobs: Iterable[Job]) -> None:
        """Queue ``jobs``, and send them to the started workers that have room."""
        self.queue.extend(jobs)
        for number in list(self.slots):
            self.feed(number)

    def busy(self) -> bool:
        """Whether some job is queued or sent and not finished."""
        return bool(self.queue) or any(slot.jobs for slot in self.slots.values())

    def idle(self) -> int:
        """How many started workers have no job, none being queued for them."""
        free = sum(1 for slot in self.slots.values() if slot.machine is not None and not slot.jobs)
        return max(0, free - len(self.queue))

    def one_machine(self) -> bool:
        """Whether the jobs run on threads of one process, every worker started so far being on one machine."""
        return self.threads and len({slot.machine for slot in self.slots.values() if slot.machine}) == 1

    def next(self, timeout: float | None = None) -> tuple[Job, tuple[Any, float]] | None:
        """The next job to finish and its outcome (:func:`_timed`), or None after ``timeout`` seconds without one;
        meanwhile workers that start are placed and fed, and dead ones replaced (see :meth:`replace`)."""
        errors = self.ray.exceptions
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _ = self.ray.wait(list(self.calls), num_returns=1, timeout=left)
            if not ready:
                return None
            number, job = self.calls.pop(ready[0])
            try:
                answer = self.ray.get(ready[0])
            except errors.RayTaskError as error:  # the task raised: its JobFailed names the job, or bad input
                if isinstance(error.cause, BadInput):
                    raise error.cause from None
                raise JobFailed(str(error.cause or error)) from None
            except errors.RayError as error:  # the worker, or its node, died
                self.replace(number, error)
                for other in list(self.slots):  # an idle worker takes the dead one's jobs
                    self.feed(other)
                continue
            slot = self.slots[number]
            if job is None:
                node, slot.machine = answer
                self.place(number, node)
                self.feed(number)
                continue
            slot.jobs.remove(job)  # not always the first sent: Ray may run an actor's calls out of order
            self.feed(number)
            return job, answer

    def start(self) -> None:
        """Start one more worker; it is sent jobs once it says where it runs."""
        number = next(self.numbers)
        actor = self.worker.remote()
        self.slots[number] = _Slot(actor)
        self.calls[actor.place.remote()] = (number, None)

    def place(self, number: int, node: str) -> None:
        """Worker ``number`` has started on ``node``: give it its machine's table, or on threads its runner."""
        slot = self.slots[number]
        assert slot.machine is not None
        if not self.threads:
            slot.runner, slot.table = slot.actor, self.table_on(slot.machine, node)
            return
        workers = self.runners.setdefault(slot.machine, [])
        workers.append(number)
        slot.runner, slot.lane = self.slots[workers[0]].actor, len(workers)

    def feed(self, number: int) -> None:
        """Send worker ``number``, once it has started, jobs from the queue until it holds ``ahead`` more than it
        runs."""
        slot = self.slots[number]
        while slot.machine is not None and self.queue and len(slot.jobs) <= self.ahead:
            job = self.queue.popleft()
            slot.jobs.append(job)
            if not self.threads:
                call = slot.runner.run.remote(self.task, _on_table(job, slot.table))
            else:
                lane = (slot.lane, len(self.slots)) if self.lanes else None  # lanes for every worker of the run
                call = slot.runner.run.remote(self.task, job, self.table_mb, lane)
            self.calls[call] = (number, job)

    def replace(self, number: int, error: Exception) -> None:
        """Put a dead worker's jobs back in the queue and start another worker (on threads, every worker whose
        jobs ran in the same process); JobFailed when a job it ran (or its start, when it had none) has failed
        more than ``retries`` times."""
        slot = self.slots[number]
        dead = [number]
        if self.threads and slot.machine is not None:
            dead = self.runners.pop(slot.machine)
        for lost in dead:
            self._forget(lost, error)
        for _ in dead:
            self.start()

    def _forget(self, number: int, error: Exception) -> None:
        """End worker ``number`` and queue its jobs again, charging the one it ran with its death."""
        slot = self.slots.pop(number)
        self.ray.kill(slot.actor)
        self.calls = {ref: call for ref, call in self.calls.items() if call[0] != number}
        if slot.jobs:
            running = slot.jobs[0].key
            self.deaths[running] = self.deaths.get(running, 0) + 1
            if self.deaths[running] > self.retries:
                raise JobFailed(f"a worker died {self.retries + 1} times while running job {running}")
            self.queue.extendleft(reversed(slot.jobs))
        elif slot.machine is None:
            self.failed_starts += 1
            if self.failed_starts > self.retries:
                raise JobFailed(f"a Ray worker failed to start {self.retries + 1} times: {error}")

    def table_on(self, machine: str, node: str) -> str | None:
        """The name of the shared table on ``machine`` (made now on ``node`` if it has none), or None when none
        is asked for."""
        if self.table_mb is None:
            return None
        if machine not in self.tables:
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            keeper = self.keeper.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False))
            actor = keeper.remote(self.table_mb)
            try:
                self.tables[machine] = actor, self.ray.get(actor.name.remote())
            except self.ray.exceptions.RayError as error:
                raise JobFailed(f"cannot make a shared table on the Ray node {node}: {error}") from None
        return self.tables[machine][1]

    def stop(self) -> None:
        """Release the shared tables, then end the workers and the tables' keepers."""
        keepers = [actor for actor, _ in self.tables.values()]
        if keepers:
            self.ray.wait([actor.release.remote() for actor in keepers], num_returns=len(keepers),
                          timeout=_RELEASE_SECONDS)
        for actor in [slot.actor for slot in self.slots.values()] + keepers:
            self.ray.kill(actor)


def _run_on_ray(task: Task, pending: list[Job], keep: Callable[[str, tuple[Any, float]], None], workers: int | None,
                address: str | None, retries: int, table_mb: float | None, threads: bool) -> None:
    """The jobs on long-lived Ray workers (:func:`ray_workers`), each result kept as it arrives."""
    with ray_workers(task, workers, address, retries, table_mb, threads=threads) as pool:
        pool.add(pending)
        while pool.busy():
            finished = pool.next()
            assert finished is not None  # no timeout
            keep(finished[0].key, finished[1])


@contextmanager
def ray_workers(task: Task, workers: int | None, address: str | None, retries: int = 2,
                table_mb: float | None = None, ahead: int = _QUEUED_PER_WORKER, threads: bool = False,
                lanes: bool = False) -> Iterator[_RayWorkers]:
    """Long-lived Ray workers that run ``task`` (:class:`_RayWorkers`; ``ahead``: jobs each is sent beyond the one
    it runs; ``threads``, ``lanes``: see there), on the cluster at ``address`` or on one started here with
    ``workers`` CPUs; ``workers`` of them (by default one per CPU of the cluster), stopped when the block ends.
    BadInput without Ray. What Ray prints meanwhile (a worker that died, on stdout) goes to stderr, so that
    stdout keeps the command's own output."""
    try:
        import ray
    except ImportError:
        raise BadInput("the Ray backend needs Ray: pip install 'gameproof[ray]'") from None
    started_here = not ray.is_initialized()
    with redirect_stdout(sys.stderr):
        if started_here:
            _join_ray(ray, workers, address)
        try:
            pool = _RayWorkers(ray, task, retries, table_mb, ahead, threads, lanes)
            try:
                for _ in range(workers or max(1, int(ray.cluster_resources().get("CPU", 1)))):
                    pool.start()
                yield pool
            finally:
                pool.stop()
        finally:
            if started_here:
                ray.shutdown()


def _join_ray(ray: Any, workers: int | None, address: str | None) -> None:
    """Connect this process to the Ray cluster at ``address``, or start one here with ``workers`` CPUs (this
    machine's when None)."""
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if address is None:
        options["num_cpus"] = workers
    else:
        _check_reachable(address)
        options["address"] = address
    try:
        ray.init(**options)
    except (ConnectionError, ValueError, ray.exceptions.AuthenticationError) as error:
        where = f"join the Ray cluster at {address}" if address else "start a Ray cluster here"
        hint = ("; a cluster started with RAY_AUTH_MODE=token needs it here too, with its token in RAY_AUTH_TOKEN "
                "or ~/.ray/auth_token" if address else "")
        raise BadInput(f"cannot {where}: {error}{hint}") from None


def _check_reachable(address: str) -> None:
    """Refuse at once a ``host:port`` address where nothing answers (Ray would keep trying for minutes);
    other forms of address are Ray's to read."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or "/" in host:
        return
    if len(port) > 5 or not 0 < int(port) < 65536:
        raise BadInput(f"cannot reach the Ray cluster at {address[:80]}: a port is a number 1..65535")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_SECONDS).close()
    except OSError as error:
        raise BadInput(f"cannot reach the Ray cluster at {address}: {error}") from None
