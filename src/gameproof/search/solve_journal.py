"""The journal of a long solve: its transposition table, saved whole now and then, so that a killed solve resumes.

A df-pn search keeps all it has learnt in its table (a proven or disproven entry is a settled subtree, an
open one the numbers that steer the search back to where it was), so a solve started again on a saved
table continues where the table was saved, having lost only what came after. The first save comes a few
seconds into the solve (:data:`FIRST_SAVE_SECONDS`), and an interrupted solve saves once more on its way out when that
fits in the time a stop may take (:meth:`SolveJournal.quick_to_save`). The file is one line
naming the format, one line of JSON (what was being solved, with which settings, the table's size, the
nodes searched so far), the table's words, then a line with their SHA-256. It is written under a temporary name and
renamed, so a kill while saving leaves the previous save.

A journal is refused (one line) unless it is a journal of the same question: the same game (and rules
file content), position, engine, search settings and whether the moves' values are asked, with a table no
larger than the solve's (a smaller one is regrown: each entry is stored where its key hashes in the larger
table, so a long solve whose table filled up resumes with a larger --tt-mb). Its table is then checked against
its SHA-256 (damage). A table that was made up to look right passes
both, so nothing it proves is taken on trust: :mod:`gameproof.search.parallel` confirms the answer of a
resumed solve by certificates checked by the independent checker.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gameproof.atomic import atomic_output
from gameproof.errors import BadInput

if TYPE_CHECKING:  # `solve --help` reads CHECKPOINT_SECONDS here, and stays light
    import numpy as np

#: Seconds between two saves of a journal, by default.
CHECKPOINT_SECONDS = 60.0
#: The least time between two saves, in multiples of the time the last save took: a large table's saves then
#: take at most 1 / (SAVING_SHARE + 1) of the solve's time, however short the checkpoint.
SAVING_SHARE = 10
#: Seconds into a solve of its first save (unless the checkpoint comes sooner): an interruption, or a kill,
#: after that never loses all the work. The workers search on while the driver saves.
FIRST_SAVE_SECONDS = 5.0
#: The longest save an interrupted solve makes on its way out: the rest of the two seconds a stop may take
#: goes to stopping the workers and exiting.
STOP_SAVE_SECONDS = 1.0
#: Bytes a second a save is reckoned to take before one has been timed (SHA-256, write and fsync; measured:
#: 200 to 600 MiB/s).
SAVE_RATE = 200 << 20

_MAGIC = b"gameproof solve journal 1\n"
_TRAILER = b"sha256 "
_MOST_HEADER = 1 << 16
_CHUNK = 1 << 24  # bytes read or written at a time


def _table_sized(size: int) -> bool:
    """Whether `size` bytes are a table's: two words an entry, a power of two entries (four or more)."""
    entries = size // (2 * 8)
    return size == entries * 16 and entries >= 4 and entries & (entries - 1) == 0


def save_interval(checkpoint_seconds: float, last_save_seconds: float) -> float:
    """Seconds from the end of one save to the start of the next: the checkpoint, unless the last save took
    more than 1 / :data:`SAVING_SHARE` of it."""
    return max(checkpoint_seconds, SAVING_SHARE * last_save_seconds)


class SolveJournal:
    """A solve's journal at `path`, for the question that `identity` describes (JSON-able values)."""

    def __init__(self, path: str | Path, identity: dict[str, Any]) -> None:
        self.path = Path(path)
        self.identity = identity
        self.saved: tuple[float, int] | None = None  # when this run last saved (time.monotonic()), and the nodes
        self.save_seconds: float | None = None  # how long that save took
        self.declined: float | None = None  # the seconds a save at the stop was reckoned to take, when not made
        folder = self.path.parent
        if self.path.exists() and not self.path.is_file():
            raise BadInput(f"the journal {path} is not a file")
        if not folder.is_dir():
            raise BadInput(f"the journal's folder {folder} does not exist")
        if not os.access(folder, os.W_OK) or (self.path.exists() and not os.access(self.path, os.W_OK)):
            raise BadInput(f"cannot write the journal {path}")

    def restore(self, words: np.ndarray) -> dict[str, Any] | None:
        """Load the saved table into `words` (its size must match); the saved header, or None when there is no
        journal yet. BadInput, with `words` left empty, for a file that is no journal of this question or damaged."""
        import numpy as np

        from gameproof.search.tt import regrow

        if not self.path.exists():
            return None
        try:
            with open(self.path, "rb") as file:
                header = self._header(file, words)
                saved = words if header["table_bytes"] == words.nbytes else np.zeros(header["table_bytes"] // 8,
                                                                                      dtype=np.uint64)
                digest = hashlib.sha256()
                view = memoryview(saved.view("uint8"))
                for start in range(0, len(view), _CHUNK):
                    piece = view[start:start + _CHUNK]
                    if file.readinto(piece) != len(piece):
                        raise BadInput(f"the journal {self.path} is cut short")
                    digest.update(piece)
                trailer = file.read(len(_TRAILER) + 66)
            if trailer != _TRAILER + digest.hexdigest().encode() + b"\n":
                raise BadInput(f"the journal {self.path} is damaged: its table does not match its SHA-256")
            if saved is not words:
                regrow(saved, words, (words.size // 2).bit_length() - 1)
        except BadInput:
            words[:] = 0
            raise
        except OSError as error:
            words[:] = 0
            raise BadInput(f"cannot read the journal {self.path}: {error.strerror or error}") from None
        return header

    def _header(self, file: Any, words: np.ndarray) -> dict[str, Any]:
        """The header of an open journal, once it is this question's."""
        if file.readline(len(_MAGIC)) != _MAGIC:
            raise BadInput(f"{self.path} is not a gameproof solve journal")
        line = file.readline(_MOST_HEADER)
        try:
            header = json.loads(line)
        except (ValueError, RecursionError):
            header = None
        if not isinstance(header, dict) or not isinstance(header.get("question"), dict):
            raise BadInput(f"the journal {self.path} has a damaged header")
        saved = header["question"]
        for name, value in self.identity.items():
            if saved.get(name) != value:
                raise BadInput(f"the journal {self.path} is of another solve: its {name} is {saved.get(name)!r}, "
                               f"not {value!r}")
        saved_bytes = header.get("table_bytes")
        if not isinstance(saved_bytes, int) or not _table_sized(saved_bytes) or saved_bytes > words.nbytes:
            raise BadInput(f"the journal {self.path} holds a table of {saved_bytes!r} bytes, more than the "
                           f"{words.nbytes} of this solve's: give a --tt-mb at least as large as the journal's")
        for name in ("nodes", "seconds"):
            if not isinstance(header.get(name), (int, float)) or not 0 <= header[name] < math.inf:
                raise BadInput(f"the journal {self.path} has a damaged header ({name})")
        return header

    def save(self, words: np.ndarray, nodes: int, seconds: float) -> None:
        """Write the table `words` and the effort so far (a table others write meanwhile is saved as it is read:
        an entry torn by a write reads as absent, as in the table itself)."""
        began = time.monotonic()
        snapshot = words.view("uint8")
        digest = hashlib.sha256()
        header = {"question": self.identity, "table_bytes": words.nbytes, "nodes": nodes, "seconds": round(seconds, 3),
                  "saved": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        with atomic_output(self.path) as partial, open(partial, "wb") as file:
            file.write(_MAGIC + json.dumps(header).encode() + b"\n")
            for start in range(0, len(snapshot), _CHUNK):
                piece = bytes(snapshot[start:start + _CHUNK])  # hash exactly what is written
                digest.update(piece)
                file.write(piece)
            file.write(_TRAILER + digest.hexdigest().encode() + b"\n")
            file.flush()
            os.fsync(file.fileno())
        self.saved, self.save_seconds = (time.monotonic(), nodes), time.monotonic() - began

    def quick_to_save(self, words: np.ndarray) -> bool:
        """Whether a save of `words` fits in what is left of a stop (:data:`STOP_SAVE_SECONDS`), reckoned by the
        last save or, before one, by the table's size; one that does not is remembered for :meth:`describe`."""
        reckoned = self.save_seconds if self.save_seconds is not None else words.nbytes / SAVE_RATE
        self.declined = None if reckoned <= STOP_SAVE_SECONDS else reckoned
        return self.declined is None

    def describe(self) -> str:
        """Whether this run saved the journal, for the line of an interrupted solve."""
        declined = "" if self.declined is None else f" at the stop (a save takes about {self.declined:.1f} s)"
        if self.saved is None:
            held = "it holds what it held before" if self.path.exists() else "the solve stopped before its first save"
            return f"journal {self.path} not saved{declined}: {held}"
        ago, work = time.monotonic() - self.saved[0], f"{self.saved[1]:,} nodes of work"
        if declined:
            return f"journal {self.path} not saved{declined}: it keeps the save of {ago:.0f} s before ({work})"
        return f"journal {self.path} saved{f' {ago:.0f} s before the stop' if ago >= 1 else ''} ({work})"
