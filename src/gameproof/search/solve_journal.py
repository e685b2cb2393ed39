"""The journal of a long solve: its transposition table, saved whole now and then, so that a killed solve resumes.

A df-pn search keeps all it has learnt in its table (a proven or disproven entry is a settled subtree, an
open one the numbers that steer the search back to where it was), so a solve started again on a saved
table continues where the table was saved, having lost only what came after. The file is one line
naming the format, one line of JSON (what was being solved, with which settings, the table's size, the
nodes searched so far), the table's words, then a line with their SHA-256. It is written under a temporary name and
renamed, so a kill while saving leaves the previous save.

A journal is refused (one line) unless it is a journal of the same question: the same game (and rules
file content), position, engine, search settings, table size and whether the moves' values are asked.
Its table is then checked against its SHA-256 (damage). A table that was made up to look right passes
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

_MAGIC = b"gameproof solve journal 1\n"
_TRAILER = b"sha256 "
_MOST_HEADER = 1 << 16
_CHUNK = 1 << 24  # bytes read or written at a time


def save_interval(checkpoint_seconds: float, last_save_seconds: float) -> float:
    """Seconds from the end of one save to the start of the next: the checkpoint, unless the last save took
    more than 1 / :data:`SAVING_SHARE` of it."""
    return max(checkpoint_seconds, SAVING_SHARE * last_save_seconds)


class SolveJournal:
    """A solve's journal at `path`, for the question that `identity` describes (JSON-able values)."""

    def __init__(self, path: str | Path, identity: dict[str, Any]) -> None:
        self.path = Path(path)
        self.identity = identity
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
        if not self.path.exists():
            return None
        try:
            with open(self.path, "rb") as file:
                header = self._header(file, words)
                digest = hashlib.sha256()
                view = memoryview(words.view("uint8"))
                for start in range(0, len(view), _CHUNK):
                    piece = view[start:start + _CHUNK]
                    if file.readinto(piece) != len(piece):
                        raise BadInput(f"the journal {self.path} is cut short")
                    digest.update(piece)
                trailer = file.read(len(_TRAILER) + 66)
            if trailer != _TRAILER + digest.hexdigest().encode() + b"\n":
                raise BadInput(f"the journal {self.path} is damaged: its table does not match its SHA-256")
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
        if header.get("table_bytes") != words.nbytes:
            raise BadInput(f"the journal {self.path} holds a table of {header.get('table_bytes')!r} bytes, not "
                           f"{words.nbytes}")
        for name in ("nodes", "seconds"):
            if not isinstance(header.get(name), (int, float)) or not 0 <= header[name] < math.inf:
                raise BadInput(f"the journal {self.path} has a damaged header ({name})")
        return header

    def save(self, words: np.ndarray, nodes: int, seconds: float) -> None:
        """Write the table `words` and the effort so far (a table others write meanwhile is saved as it is read:
        an entry torn by a write reads as absent, as in the table itself)."""
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
