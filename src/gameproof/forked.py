"""Run tasks side by side in forked children and take the first acceptable answer.

Each task runs in a child process of its own (forked, so it shares the parent's modules and data) and
sends back one picklable value. The parent waits for the first value that ``accept`` takes and kills
the other children; a child's exception is raised again in the parent. A task may itself run tasks
this way: each top-level child leads a process group of its own, its children stay in it, and the
whole group is killed at the end.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from gameproof.errors import RunFailed

T = TypeVar("T")
_in_child = False  # whether this process is a task's child (and so inside its group)


def _run_in_child(task: Callable[[], object], pipe) -> None:
    # Out of the terminal's process group: Ctrl-C reaches only the parent, which kills its children
    # (the child could otherwise catch the signal and die with a traceback of its own).
    global _in_child
    if not _in_child:
        os.setpgid(0, 0)
        _in_child = True
    try:
        pipe.send((True, task()))
    except Exception as error:  # handed to the parent, which raises it
        pipe.send((False, error))


def first_accepted(tasks: Sequence[Callable[[], T]], accept: Callable[[T], bool] = lambda _: True,
                   seconds: float | None = None,
                   progress: Callable[[float, int], None] | None = None) -> tuple[T | None, list[T]]:
    """The first value ``accept`` takes (None if none does, or ``seconds`` run out), and the values of
    the tasks that finished before it, in the order they came. ``progress(elapsed, -1)`` is called
    about once a second while waiting."""
    context = multiprocessing.get_context("fork")
    children, pipes, finished = [], [], []
    try:
        for task in tasks:
            receive, send = context.Pipe(duplex=False)
            child = context.Process(target=_run_in_child, args=(task, send))
            child.start()
            send.close()
            children.append(child)
            pipes.append(receive)
        began, waiting = time.monotonic(), list(pipes)
        while waiting:
            left = None if seconds is None else seconds - (time.monotonic() - began)
            if left is not None and left <= 0:
                break
            for pipe in multiprocessing.connection.wait(waiting, timeout=1.0 if left is None else min(1.0, left)):
                waiting.remove(pipe)
                try:
                    succeeded, value = pipe.recv()
                except EOFError:
                    raise RunFailed("a child process died without an answer") from None
                if not succeeded:
                    raise value
                if accept(value):
                    return value, finished
                finished.append(value)
            if progress is not None:
                progress(time.monotonic() - began, -1)
        return None, finished
    finally:
        for child in children:
            _kill(child)
            child.join()
        for pipe in pipes:
            pipe.close()


def _kill(child: multiprocessing.Process) -> None:
    """Kill a child and, for a top-level one, every process in its group."""
    if not _in_child:
        try:
            os.killpg(child.pid, signal.SIGKILL)
            return
        except (ProcessLookupError, PermissionError):
            pass  # not yet a group leader: it has no children either
    child.kill()
