"""How the long calls run: their time limit and compile timer, their progress callback, their search options."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from gameproof.api.results import Progress, ProgressCallback
from gameproof.errors import BadInput, Interrupted
from gameproof.framework.game import Game
from gameproof.search.dfpn import Options


class Reporter:
    """Tells a ``progress=`` callback (if any) how far a call has got, the seconds counted from its creation."""

    def __init__(self, progress: ProgressCallback | None) -> None:
        self.progress = progress
        self.began = time.perf_counter()

    def __call__(self, done: int | None, total: int | None = None, note: str = "") -> None:
        if self.progress is not None:
            self.progress(Progress(done, total, time.perf_counter() - self.began, note))

    def counting(self, note: str) -> Callable[..., None] | None:
        """An engine's callback whose first argument counts the work done (df-pn's nodes, a certificate's
        positions), reported with `note`; None without a callback, so that the engine skips calling it."""
        if self.progress is None:
            return None
        return lambda done, *_: self(int(done), None, note)


@dataclass
class Timing:
    """How long a block took, and how much of that numba spent compiling or loading kernels."""

    seconds: float = 0.0
    compile_seconds: float = 0.0


@contextmanager
def limited(timeout: float | None) -> Iterator[Timing]:
    """Within the block, the compiled searches stop after `timeout` seconds of work and raise
    :class:`~gameproof.errors.Unknown` (compiling not counted; None: no limit), and Ctrl-C (which the searches take
    between two runs of their kernels) raises :class:`~gameproof.errors.Interrupted`; the timing is filled in at
    its end. BadInput for a timeout that is not a positive number of seconds."""
    from gameproof.interrupts import time_limit
    from gameproof.jit import compile_timer

    check_timeout(timeout)
    timing = Timing()
    began = time.perf_counter()
    with compile_timer() as compiling, time_limit(timeout):
        try:
            yield timing
        except KeyboardInterrupt as interruption:
            if isinstance(interruption, Interrupted):
                raise
            stopped = Interrupted("interrupted before the answer was found")
            for note in getattr(interruption, "__notes__", ()):  # a journal's state, say
                stopped.add_note(note)
            raise stopped from None
        finally:
            timing.compile_seconds = compiling.seconds
            timing.seconds = max(0.0, time.perf_counter() - began - timing.compile_seconds)


def check_timeout(timeout: float | None) -> None:
    """BadInput unless `timeout` is None or a positive number of seconds."""
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not (math.isfinite(timeout) and timeout > 0)):
        raise BadInput(f"timeout must be a positive number of seconds, or None, not {timeout!r:.40}")


def options_for(game: Game, tt_mb: float) -> Options:
    """The search options of `game` (its declared estimate weight and ε, as the commands use them) with a transposition table
    of `tt_mb` MiB; BadInput unless that is a positive number."""
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float)) or not (math.isfinite(tt_mb) and tt_mb > 0):
        raise BadInput(f"tt_mb must be a positive number of MiB, not {tt_mb!r:.40}")
    return Options(heuristic=game.spec.estimate_weight, epsilon=game.spec.epsilon, tt_mb=tt_mb)
