"""Ctrl-C and SIGTERM end a command within two seconds, compiled kernels included; kernels report broken rules.

Under :func:`handling_signals` (the command line's), SIGINT raises KeyboardInterrupt and SIGTERM raises
:class:`Terminated` in the main thread, between two bytecodes as Python does. A compiled kernel runs
without the GIL (``nogil``) and reaches no bytecode until it returns, so a watchdog thread, woken by the
signal through Python's wakeup file descriptor, writes :attr:`Halt.STOPPED` into the stop slot of every
kernel running inside :func:`stoppable`; each polls its slot and returns, and the main thread raises as
usual. The watchdog ends the process itself (the one line, unless the command printed it: see
:func:`say_interrupted`; the partial files of :func:`~gameproof.atomic.atomic_output` removed; exit code
128 + the signal) when the command does not end in time: when within :data:`GRACE_SECONDS` the main thread
has not taken the signal, or a kernel asked to stop has not returned (a rule function that loops forever
polls nothing, and whatever waits for its thread waits for ever); when it has not ended within
:data:`STOP_SECONDS`; or when it has ended while such a kernel still runs (Python's exit would wait for it).

Compiled code that holds the GIL (PySAT's solvers, for the whole of a solve) keeps every Python thread
from running, this watchdog and the signal handlers included: before calling such code, call
:func:`guard_gil_holders`, which starts a watchdog compiled without the GIL (:mod:`gameproof.gil_watch`).

A kernel that finds the rules breaking an assumption it relies on (a game longer than its state holds,
say) stops with a fault in the same slot, which :class:`RulesBroken` names.
"""

from __future__ import annotations

import ctypes
import enum
import os
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

from gameproof.atomic import remove_partials
from gameproof.errors import BadInput, Unknown

if TYPE_CHECKING:
    import numpy as np

#: What an interrupted command prints (on stderr) before it exits with 130 (SIGINT) or 143 (SIGTERM).
INTERRUPTED = "gameproof: interrupted"
#: How long the watchdog waits for the main thread to take a signal before it ends the process.
GRACE_SECONDS = 1.0
#: How long, from the signal, an interrupted command that took it may take to end (its ``finally`` blocks, a
#: last save of a journal) before the watchdog ends the process.
STOP_SECONDS = 1.5


class Halt(enum.IntEnum):
    """Why a kernel returned before its answer, as it writes it to its stop slot (NONE: it did not).

    The faults follow the results of a move (0..3, see :mod:`gameproof.search.dfpn`), so that a kernel's
    ``play`` may return one."""

    NONE = 0
    STOPPED = 1  # a signal: the watchdog asked the kernel to stop
    OUT_OF_TIME = 2  # the time a caller allowed ran out (:func:`time_limit`)
    TOO_LONG = 4
    UNKNOWN_RESULT = 5
    NO_MOVE = 6
    UNCHANGED = 7
    TOO_MANY_MOVES = 9
    DEAD_END = 10
    BAD_TURN = 11
    BAD_SCORE = 12
    DRAWN = 13

    @property
    def is_fault(self) -> bool:
        return self >= Halt.TOO_LONG


#: The first fault's code, for kernels: a move's result at least this large is a fault.
FIRST_FAULT = int(Halt.TOO_LONG)

_FAULTS = {
    Halt.TOO_LONG: "a game went on longer than the {limit} plies its search holds",
    Halt.UNKNOWN_RESULT: "result() returned a code that is none of ONGOING, WIN, LOSS, DRAW",
    Halt.NO_MOVE: "no side can move, yet result() says ONGOING (the game never ends)",
    Halt.UNCHANGED: "play() left the position unchanged",
    Halt.TOO_MANY_MOVES: "a position has more legal moves than the game's max_moves",
    Halt.DEAD_END: "legal() gave a first part that no legal move continues",
    Halt.BAD_TURN: "to_move() gave a side that is neither 0 nor 1",
    Halt.BAD_SCORE: "score() gave a score whose sign disagrees with result(), or past MAX_SCORE",
    Halt.DRAWN: "result() or decided() gave a draw, but the game declares that it has none (draws=False)",
}


class RulesBroken(BadInput):
    """A compiled kernel found a game's rules breaking an assumption it relies on, and stopped."""

    def __init__(self, fault: Halt, depth: int, limit: int = 0, game: str | None = None) -> None:
        self.fault, self.depth, self.limit, self.game = fault, depth, limit, game
        whose = "the rules" if game is None else f"the rules of {game}"
        super().__init__(f"{whose} broke an assumption: {_FAULTS[fault].format(limit=limit)}, at depth {depth}")

    def of(self, game: str) -> RulesBroken:
        """The same fault, naming the game."""
        return RulesBroken(self.fault, self.depth, self.limit, game)

    def below(self, plies: int) -> RulesBroken:
        """The same fault, found in a search of a position `plies` plies below the one asked about."""
        return RulesBroken(self.fault, self.depth + plies, self.limit, self.game)


class Terminated(BaseException):
    """SIGTERM, raised in the main thread: the command exits with 143 once ``finally`` blocks have run. Not a
    SystemExit, which code that runs a user's harness catches, nor an Exception."""


def exit_code(interruption: BaseException) -> int:
    """The exit code of a command ended by `interruption` (KeyboardInterrupt or :class:`Terminated`)."""
    return 128 + (signal.SIGTERM if isinstance(interruption, Terminated) else signal.SIGINT)


_running: list[tuple[np.ndarray, int]] = []  # the stop slots (array, index) of the kernels running now


@contextmanager
def stoppable(flags: np.ndarray, slot: int) -> Iterator[None]:
    """Within the block, a signal writes :attr:`Halt.STOPPED` into ``flags[slot]``, which the kernel polls, and the
    end of a :func:`time_limit` writes :attr:`Halt.OUT_OF_TIME` (at once, if it has ended already)."""
    entry = (flags, slot)
    if any(limit.expired for limit in _limits):
        flags[slot] = Halt.OUT_OF_TIME
    _running.append(entry)
    try:
        yield
    finally:  # by identity: kernels of other threads may be running too, and arrays do not compare as truth values
        del _running[next(index for index, running in enumerate(_running) if running is entry)]


def _any_running(kernels: list[tuple[np.ndarray, int]]) -> bool:
    """Whether one of `kernels` (entries of ``_running``) still runs."""
    return any(entry is running for entry in kernels for running in _running)


class _TimeLimit:
    """The thread that ends the kernels running when `seconds` of work have passed since it started, compiling
    not counted (the time numba spends on a first run, which no kernel can cut short, is added to the limit). Under
    :func:`handling_signals` (a command), it ends the process when a kernel it stopped has not returned within
    :data:`STOP_SECONDS`, as the watchdog does for a signal."""

    def __init__(self, seconds: float, compiling) -> None:
        self.seconds, self.compiling = seconds, compiling
        self.started = time.monotonic()
        self.expired = False
        self.cancelled = threading.Event()
        threading.Thread(target=self._wait, name="gameproof-time-limit", daemon=True).start()

    def _wait(self) -> None:
        while not self.cancelled.wait(max(0.0, self.started + self.seconds + self.compiling.seconds - time.monotonic())):
            if time.monotonic() >= self.started + self.seconds + self.compiling.seconds:
                self.expired = True
                stopped = list(_running)
                for flags, slot in stopped:
                    flags[slot] = Halt.OUT_OF_TIME
                if handled() and not self.cancelled.wait(STOP_SECONDS) and _any_running(stopped):
                    _end_unknown(self.seconds)  # a kernel held in a rule that never returns: the command would wait
                return


_limits: list[_TimeLimit] = []  # the time limits in force


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Within the block, the compiled searches (df-pn, alpha-beta, distances, perft) stop once `seconds` of work
    have passed, and raise :class:`~gameproof.errors.Unknown`; the time numba takes to compile them is not counted.
    None: no limit. The limit stops every such kernel of the process running while it is in force (those of the
    threads of one parallel solve, which is what it is for)."""
    if seconds is None:
        yield
        return
    from gameproof.jit import compile_timer

    with compile_timer() as compiling:
        limit = _TimeLimit(seconds, compiling)
        _limits.append(limit)
        try:
            yield
        finally:
            limit.cancelled.set()
            _limits.remove(limit)


def out_of_time() -> Unknown:
    """The exception of a search that a :func:`time_limit` ended, naming the limit."""
    seconds = min((limit.seconds for limit in _limits if limit.expired), default=None)
    return Unknown("no answer within the time allowed" if seconds is None else f"no answer within {seconds:g} s")


def wait_for_signal() -> None:
    """A kernel stopped for a signal: let the main thread take it (its handler raises), within the grace
    time; a KeyboardInterrupt after that, should the handler not raise (its signal was already taken). In
    another thread (a worker's), a KeyboardInterrupt at once: the main thread takes the signal itself."""
    if threading.current_thread() is not threading.main_thread():
        raise KeyboardInterrupt
    deadline = time.monotonic() + GRACE_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.01)
    raise KeyboardInterrupt


class _Watchdog:
    """The thread that stops kernels and, failing that, the process, when a signal comes.

    Python's C-level handler writes each signal's number to the wakeup socket; this thread waits for one
    without the GIL but reads it only with the GIL, so that a number left unread tells the native watchdog
    (:func:`guard_gil_holders`) that no Python code can run. The token pipe holds one byte: whoever reads it
    prints the interrupted line, so that it is printed once."""

    def __init__(self) -> None:
        self.wakeup, wakeup_end = socket.socketpair()
        wakeup_end.setblocking(False)
        self.write_end = wakeup_end.detach()
        self.token_end, self.token_fill = os.pipe()
        os.set_blocking(self.token_end, False)
        self.active = False
        self.taken = 0  # signals the main thread has taken (its handler ran)
        self.native = False  # whether the native watchdog runs
        threading.Thread(target=self._watch, name="gameproof-watchdog", daemon=True).start()

    def _watch(self) -> None:
        while True:
            select.select([self.wakeup], [], [])  # without the GIL, leaving the signal's number unread
            received = bytes(number for number in os.read(self.wakeup.fileno(), 64)
                             if number in (signal.SIGINT, signal.SIGTERM))  # not another handler's (SIGALRM)
            if not self.active or not received:
                continue
            stopped = list(_running)
            for flags, slot in stopped:
                flags[slot] = Halt.STOPPED
            if self._outlived(time.monotonic(), stopped):
                _end_now(128 + received[-1])

    def _outlived(self, signalled: float, stopped: list[tuple[np.ndarray, int]]) -> bool:
        """Wait for the command to take the signal and end; whether the process must be ended instead: within
        GRACE_SECONDS the signal is not taken, or a kernel of `stopped` has not returned (it is stuck in the
        rules, and whatever waits for it waits for ever); the command has not ended within STOP_SECONDS; or it
        has ended while a kernel still runs (Python, exiting, would wait for its thread)."""
        while self.active:
            waited = time.monotonic() - signalled
            if waited >= STOP_SECONDS or waited >= GRACE_SECONDS and (not self.taken or _any_running(stopped)):
                return True
            time.sleep(0.02)
        return bool(_running)

    def take(self, signum: int, frame: FrameType | None) -> None:
        """The handler of SIGINT and SIGTERM: raise for the first one; later ones only count (the command
        is already unwinding)."""
        self.taken += 1
        if self.taken == 1:
            raise KeyboardInterrupt if signum == signal.SIGINT else Terminated()

    def take_token(self) -> bool:
        """Whether this caller is the first to print the interrupted line (it reads the token)."""
        try:
            return os.read(self.token_end, 1) == b"."
        except BlockingIOError:
            return False

    def lay_token(self) -> None:
        """One token in the pipe, for the next command (one left by the last is taken first)."""
        self.take_token()
        os.write(self.token_fill, b".")


_watchdog: _Watchdog | None = None
_starting = threading.Lock()  # held while the native watchdog starts (:func:`guard_gil_holders`)


def _forget_in_child() -> None:
    """In a forked child: its signals are its own, not its parent's watchdog's (whose threads it has not)."""
    if _watchdog is not None:
        _watchdog.native = False
        if _watchdog.active:
            _watchdog.active = False
            signal.set_wakeup_fd(-1)


@contextmanager
def handling_signals() -> Iterator[None]:
    """SIGINT and SIGTERM end the block within two seconds, as described above (call from the main thread)."""
    global _watchdog
    if _watchdog is None:
        _watchdog = _Watchdog()
        os.register_at_fork(after_in_child=_forget_in_child)
    watchdog = _watchdog
    watchdog.taken = 0
    watchdog.lay_token()
    previous = {number: signal.signal(number, watchdog.take) for number in (signal.SIGINT, signal.SIGTERM)}
    previous_fd = signal.set_wakeup_fd(watchdog.write_end, warn_on_full_buffer=False)
    watchdog.active = True
    try:
        yield
    finally:
        watchdog.active = False
        signal.set_wakeup_fd(previous_fd)
        for number, handler in previous.items():
            signal.signal(number, handler)


def handled() -> bool:
    """Whether SIGINT and SIGTERM are handled as described above now (within :func:`handling_signals`)."""
    return _watchdog is not None and _watchdog.active


def say_interrupted(line: str) -> None:
    """Print `line`, an interrupted command's last, on stderr: unless a watchdog ending the process printed
    the interrupted line already (or is printing it), which then stands for it."""
    watchdog = _watchdog
    if watchdog is None or not watchdog.active or watchdog.take_token():
        print(line, file=sys.stderr, flush=True)


def _end_now(code: int) -> None:
    """End the process at once with exit code `code`: the interrupted line printed unless it was, and the partial
    files of :func:`~gameproof.atomic.atomic_output` removed."""
    if _watchdog is None or _watchdog.take_token():
        os.write(2, f"{INTERRUPTED}\n".encode())
    remove_partials()
    os._exit(code)


def _end_unknown(seconds: float) -> None:
    """End a command whose time limit ran out while one of its kernels does not return (held in a rule of the game
    that loops, which polls nothing): "unknown", exit code 3, as its time limit promised."""
    os.write(2, f"gameproof: unknown: no answer within {seconds:g} s, and a search did not stop when asked (a rule "
                "of the game that never returns?)\n".encode())
    remove_partials()
    os._exit(3)


def guard_gil_holders() -> None:
    """Before a call of compiled code that holds the GIL (a PySAT solve): make sure that a signal ends the
    process within :data:`GRACE_SECONDS` all the same, should the call outlast them. A watchdog compiled
    without the GIL (:mod:`gameproof.gil_watch`, started once) ends it when a signal's number stays unread
    that long, which only happens when no Python thread can run. Nothing outside :func:`handling_signals`."""
    watchdog = _watchdog
    if watchdog is None or not watchdog.active or watchdog.native:
        return
    from gameproof.gil_watch import start  # numba: loaded only by the commands that need it

    with _starting:
        if not watchdog.native:
            start(watchdog.wakeup.fileno(), watchdog.token_end, int(GRACE_SECONDS * 1000),
                  f"{INTERRUPTED}\n".encode())
            watchdog.native = True


# --- worker processes ------------------------------------------------------------------------------------

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Start worker processes within the block: in the main thread, SIGINT is ignored within it, which the
    processes started keep from their first instruction (an ignored signal stays ignored across exec; a
    blocked one does not survive multiprocessing's spawn), so Ctrl-C reaches only the driver, which stops
    them; a SIGTERM that comes within the block is acted on when it ends, so that no process is left half
    started (its bootstrap cut off, printing a traceback). A Ctrl-C within the block (a few milliseconds a
    process) is lost. Elsewhere than in the main thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    previous = {signal.SIGINT: signal.signal(signal.SIGINT, signal.SIG_IGN),
                signal.SIGTERM: signal.signal(signal.SIGTERM, lambda signum, frame: arrived.append(signum))}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if arrived:
            handler = previous[signal.SIGTERM]
            if callable(handler):
                handler(signal.SIGTERM, None)
            else:  # the default action (or none): the signal again, as it now stands
                signal.raise_signal(signal.SIGTERM)


def die_with_driver(driver: int) -> None:
    """In a worker process started under :func:`ctrl_c_held`: be killed when the driver (process `driver`) dies
    (Linux), rather than finish work nobody will read; and let Ctrl-C pass by (the driver decides), while the
    programs the worker runs (drat-trim) still get it."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != driver:  # the driver died before the request took effect
        os._exit(1)
    # A handler of our own, not SIG_IGN (as the worker started with): exec resets it to the default, where
    # SIG_IGN would be inherited by those programs, which then outlive an interruption.
    signal.signal(signal.SIGINT, _let_pass)


def _let_pass(signum: int, frame: object) -> None:
    """A worker's Ctrl-C handler: nothing (the driver kills the workers when it is interrupted)."""
