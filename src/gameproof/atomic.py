"""Output files that appear whole or not at all: written under a temporary name, renamed when complete."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


_open: list[Path] = []  # the partial files of the blocks under way, for a process that ends at once


def partial_name(path: str | Path) -> Path:
    """Where :func:`atomic_output` writes `path` until it is complete: a hidden file in the same folder
    (so the rename stays on one file system), named after `path` so that whoever started a writer that
    was killed can remove it."""
    path = Path(path)
    return path.with_name(f".{path.name}.partial")


@contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """A path to write `path`'s content to: renamed to `path` when the block ends normally, removed when it
    raises (an interruption included) or the process ends at once (:func:`remove_partials`). A `path` that
    exists and is no regular file (``/dev/stdout``, a pipe) is written in place. An OSError in the block
    names `path`."""
    path = Path(path)
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        with _naming(path):
            yield path
        return
    partial = partial_name(path)
    _open.append(partial)
    try:
        with _naming(path):
            yield partial
            os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        _open.remove(partial)


def remove_partials() -> None:
    """Remove the partial file of every :func:`atomic_output` block under way: for a process that is about to end
    without unwinding (the watchdog of :mod:`gameproof.interrupts`)."""
    for partial in list(_open):
        partial.unlink(missing_ok=True)


@contextmanager
def _naming(path: Path) -> Iterator[None]:
    """An OSError raised in the block names `path` (a failed write or flush names no file, and the partial
    file's name would mean nothing to whoever asked for `path`)."""
    try:
        yield
    except OSError as error:
        if error.strerror is not None:  # a system error (naming a file in another would hide its message)
            error.filename = str(path)
        raise
