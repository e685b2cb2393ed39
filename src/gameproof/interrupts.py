"""Ctrl-C and SIGTERM end a command within two seconds, compiled kernels included; kernels report broken rules.

Under :func:`handling_signals` (the command line's), SIGINT raises KeyboardInterrupt and SIGTERM raises
:class:`Terminated` in the main thread, between two bytecodes as Python does. A compiled kernel runs
without the GIL (``nogil``) and reaches no bytecode until it returns, so a watchdog thread, woken by the
signal through Python's wakeup file descriptor, writes :attr:`Halt.STOPPED` into the stop slot of every
kernel running inside :func:`stoppable`; each polls its slot and returns, and the main thread raises as
usual. When the main thread has not taken the signal a second later (a rule function that loops forever
polls nothing), the watchdog prints the one line and ends the process with exit code 128 + the signal.

A kernel that finds the rules breaking an assumption it relies on (a game longer than its state holds,
say) stops with a fault in the same slot, which :class:`RulesBroken` names.
"""

from __future__ import annotations

import ctypes
import enum
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

from gameproof.errors import BadInput

if TYPE_CHECKING:
    import numpy as np

#: What an interrupted command prints (on stderr) before it exits with 130 (SIGINT) or 143 (SIGTERM).
INTERRUPTED = "gameproof: interrupted"
#: How long the watchdog waits for the main thread to take a signal before it ends the process.
GRACE_SECONDS = 1.0


class Halt(enum.IntEnum):
    """Why a kernel returned before its answer, as it writes it to its stop slot (NONE: it did not).

    The faults follow the results of a move (0..3, see :mod:`gameproof.search.dfpn`), so that a kernel's
    ``play`` may return one."""

    NONE = 0
    STOPPED = 1  # a signal: the watchdog asked the kernel to stop
    TOO_LONG = 4
    UNKNOWN_RESULT = 5
    NO_MOVE = 6
    UNCHANGED = 7
    TOO_MANY_MOVES = 9
    DEAD_END = 10

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
    """Within the block, a signal writes :attr:`Halt.STOPPED` into ``flags[slot]``, which the kernel polls."""
    entry = (flags, slot)
    _running.append(entry)
    try:
        yield
    finally:  # by identity: kernels of other threads may be running too, and arrays do not compare as truth values
        del _running[next(index for index, running in enumerate(_running) if running is entry)]


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
    """The thread that stops kernels and, failing that, the process, when a signal comes."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()
        os.set_blocking(self.write_end, False)
        self.active = False
        self.taken = 0  # signals the main thread has taken (its handler ran)
        threading.Thread(target=self._watch, name="gameproof-watchdog", daemon=True).start()

    def _watch(self) -> None:
        while True:
            received = bytes(number for number in os.read(self.read_end, 64)  # blocks without holding the GIL
                             if number in (signal.SIGINT, signal.SIGTERM))  # not another handler's (SIGALRM)
            if not self.active or not received:
                continue
            for flags, slot in list(_running):
                flags[slot] = Halt.STOPPED
            deadline = time.monotonic() + GRACE_SECONDS
            while self.taken == 0 and time.monotonic() < deadline:  # the command unwinds once the first is taken
                time.sleep(0.02)
            if self.taken == 0 and self.active:
                os.write(2, f"{INTERRUPTED}\n".encode())
                os._exit(128 + received[-1])

    def take(self, signum: int, frame: FrameType | None) -> None:
        """The handler of SIGINT and SIGTERM: raise for the first one; later ones only count (the command
        is already unwinding)."""
        self.taken += 1
        if self.taken == 1:
            raise KeyboardInterrupt if signum == signal.SIGINT else Terminated()


_watchdog: _Watchdog | None = None


def _forget_in_child() -> None:
    """In a forked child: its signals are its own, not its parent's watchdog's."""
    if _watchdog is not None and _watchdog.active:
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
