"""A tablebase file: one JSON header and the arrays of every position, each readable memory-mapped.

Layout: the line ``GAMEPROOF-TABLEBASE 1``, the header's length (8 bytes, little-endian), the header (JSON), then
each array at an offset that is a multiple of 64. The header names the game (``game``; for a game from a file also ``file``, the
path of its rules, and their ``sha256``), what was searched (symmetries, score), the counts, and each array's offset,
type and shape. Rows are sorted by canonical key: ``keys`` (uint64), ``words`` (uint64, one row of the position's
words per entry: one position of its class), ``to_move`` (uint8), ``value`` (int8: -1, 0, 1 for the side to move),
``distance`` (int32: plies to the end under perfect play; -1 for a draw that goes on) and, for a game that
declares a score, ``score`` (int64: the exact final score for the side to move).
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gameproof.errors import BadInput

MAGIC = b"GAMEPROOF-TABLEBASE 1\n"
ALIGN = 64
#: The arrays of a table, by name: their types (rows of ``words`` hold each position's words).
ARRAYS = {"keys": "<u8", "words": "<u8", "to_move": "u1", "value": "i1", "distance": "<i4", "score": "<i8"}
#: The most bytes a header may take (a longer one is not a table's).
MOST_HEADER = 1 << 20


@dataclass
class Table:
    """A tablebase read from its file: the header and the arrays (memory-mapped, read-only)."""

    path: Path
    header: dict[str, Any]
    arrays: dict[str, np.ndarray]

    @property
    def size(self) -> int:
        return len(self.arrays["keys"])

    def row(self, key: int) -> int | None:
        """The row of the position with canonical key `key`, None when the table has none."""
        keys = self.arrays["keys"]
        at = int(np.searchsorted(keys, np.uint64(key)))
        return at if at < len(keys) and int(keys[at]) == key else None


def write_table(path: Path, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> int:
    """Write a table to `path` whole or not at all (a file beside it, renamed over it once complete); its size."""
    layout, offset = {}, 0
    for name, array in arrays.items():
        layout[name] = {"offset": offset, "dtype": ARRAYS[name], "shape": list(array.shape)}
        offset += -(-array.nbytes // ALIGN) * ALIGN
    text = json.dumps(header | {"arrays": layout}, sort_keys=True).encode()
    start = -(-(len(MAGIC) + 8 + len(text)) // ALIGN) * ALIGN
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as out:
        out.write(MAGIC + struct.pack("<Q", len(text)) + text)
        out.write(b"\0" * (start - out.tell()))
        for name, array in arrays.items():
            out.seek(start + layout[name]["offset"])
            out.write(np.ascontiguousarray(array, dtype=ARRAYS[name]).tobytes())
        out.truncate(start + offset)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
    return start + offset


def read_table(path: str | Path) -> Table:
    """The table in `path`; BadInput, one line, for a file that is not one (or is cut short)."""
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"no tablebase at {path}")
    with open(path, "rb") as file:
        head = file.read(len(MAGIC) + 8)
        if len(head) < len(MAGIC) + 8 or not head.startswith(MAGIC):
            raise BadInput(f"{path} is not a gameproof tablebase")
        (length,) = struct.unpack("<Q", head[len(MAGIC):])
        if length > MOST_HEADER:
            raise BadInput(f"{path} is not a gameproof tablebase (a header of {length:,} bytes)")
        try:
            header = json.loads(file.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise BadInput(f"{path}: a damaged tablebase header: {error}") from None
    start = -(-(len(MAGIC) + 8 + length) // ALIGN) * ALIGN
    size = path.stat().st_size
    arrays = {}
    try:
        layout = header["arrays"]
        for name, kind in ARRAYS.items():
            if name not in layout:
                continue
            place = layout[name]
            if place["dtype"] != kind or not all(type(n) is int and n >= 0 for n in place["shape"]):
                raise ValueError(f"the array {name} is not as a table keeps it")
            shape = tuple(place["shape"])
            end = start + place["offset"] + int(np.prod(shape, dtype=np.int64)) * np.dtype(kind).itemsize
            if type(place["offset"]) is not int or place["offset"] < 0 or end > size:
                raise ValueError(f"the array {name} runs past the end of the file")
            arrays[name] = (np.memmap(path, dtype=kind, mode="r", offset=start + place["offset"], shape=shape)
                            if np.prod(shape) else np.zeros(shape, dtype=kind))
    except (KeyError, TypeError, ValueError) as error:
        raise BadInput(f"{path}: a damaged tablebase: {error}") from None
    missing = {"keys", "words", "to_move", "value", "distance"} - set(arrays)
    if missing or len({len(array) for array in arrays.values()}) > 1:
        raise BadInput(f"{path}: a damaged tablebase: " + (f"no {sorted(missing)[0]}" if missing else
                                                           "its arrays differ in length"))
    return Table(path, header, arrays)
