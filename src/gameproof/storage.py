"""SQLite files that gameproof reads without ever changing them (books, journals)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def connect_read_only(path: str | Path) -> sqlite3.Connection:
    """A connection that cannot write to `path` (opened by URI, so any file name works)."""
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
