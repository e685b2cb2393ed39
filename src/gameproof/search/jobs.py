"""Jobs: idempotent tasks run on local processes or on Ray, each result journalled by the driver.

A job is a key, stable from one run to the next, and the keyword arguments of a task: a module-level
function that returns something JSON can hold. :func:`run_jobs` skips the jobs its journal already
holds, runs the rest on a backend and records each result as it arrives (one committed SQLite
transaction each), so a driver killed at any moment, even by SIGKILL, resumes with every finished job
kept. A worker that dies is replaced and its jobs run again, up to ``retries`` times; a task that
raises fails the run with the job's key named. Results do not depend on the backend. Local workers
never see Ctrl-C (the driver decides): an interrupted driver kills them and raises at once.
"""

from __future__ import annotations

import ctypes
import enum
import json
import multiprocessing
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from gameproof.errors import BadInput
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


class JobFailed(RuntimeError):
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
             workers: int = 1, address: str | None = None, retries: int = 2,
             progress: Progress | None = None) -> int:
    """Run every job the journal lacks; returns how many ran. With one local worker they run in this process."""
    if workers < 1:
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
        _run_on_ray(task, pending, keep, workers, address, retries)
    elif workers == 1:
        for job in pending:
            keep(job.key, _timed(task, job))
    else:
        _run_on_processes(task, pending, keep, workers, retries)
    return len(pending)


def _timed(task: Task, job: Job) -> tuple[Any, float]:
    """Run one job (in a worker); its result and the seconds it took. A task's error names the job."""
    began = time.perf_counter()
    try:
        result = task(**job.arguments)
    except Exception as error:
        raise JobFailed(f"job {job.key} failed: {type(error).__name__}: {error}") from None
    return result, time.perf_counter() - began


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _die_with_driver(driver: int) -> None:
    """In a worker: be killed when the driver dies (Linux), rather than finish a job nobody will journal; and
    let Ctrl-C pass by (the driver decides), while the programs the worker runs (drat-trim) still get it."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != driver:  # the driver died before the request took effect
        os._exit(1)
    # A handler of our own, not SIG_IGN: exec resets it to the default, and SIG_IGN (or a blocked signal,
    # as the worker started with) would be inherited by those programs, which then outlive an interruption.
    signal.signal(signal.SIGINT, _let_pass)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _let_pass(signum: int, frame: object) -> None:
    """A worker's Ctrl-C handler: nothing (the driver kills the workers when it is interrupted)."""


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
                                   initializer=_die_with_driver, initargs=(os.getpid(),))
        try:
            with _ctrl_c_held():  # the workers start now (on submit): they inherit the blocked Ctrl-C
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


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """SIGINT blocked in this thread within the block, and so in the processes it spawns (a blocked signal
    stays blocked across exec): Ctrl-C reaches only the driver, which gets it when the block ends."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's workers at once (shutting it down would wait for their jobs to finish)."""
    for process in list((pool._processes or {}).values()):  # no public way to reach them
        process.kill()


def _run_on_ray(task: Task, pending: list[Job], keep: Callable[[str, tuple[Any, float]], None], workers: int,
                address: str | None, retries: int) -> None:
    """Ray tasks, retried by Ray when their worker dies; results gathered by this driver as they finish."""
    try:
        import ray
    except ImportError:
        raise BadInput("the Ray backend needs Ray: pip install 'gameproof[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if address is None:
            options["num_cpus"] = workers
        else:
            options["address"] = address
        try:
            ray.init(**options)
        except ConnectionError as error:
            raise BadInput(f"cannot reach the Ray cluster at {address}: {error}") from None
    try:
        remote = ray.remote(max_retries=retries, retry_exceptions=False)(_timed)
        refs = {remote.remote(task, job): job.key for job in pending}
        try:
            while refs:
                ready, _ = ray.wait(list(refs), num_returns=1)
                for ref in ready:
                    key = refs.pop(ref)
                    try:
                        keep(key, ray.get(ref))
                    except ray.exceptions.RayTaskError as error:
                        raise JobFailed(str(error.cause) if error.cause else f"job {key} failed") from None
                    except ray.exceptions.RayError as error:
                        raise JobFailed(f"job {key} failed: {type(error).__name__}") from None
        finally:
            for ref in refs:
                ray.cancel(ref, force=True)
    finally:
        if started_here:
            ray.shutdown()
