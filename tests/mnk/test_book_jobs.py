"""Books built as jobs: killed with SIGKILL and resumed, on two workers or on Ray, the same book."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gameproof.errors import BadInput
from gameproof.games.mnk import book
from gameproof.games.mnk.state import MnkGame
from gameproof.search.book import Book
from gameproof.search.book_build import subtree_jobs
from gameproof.search.dfpn import Options
from gameproof.search.jobs import Backend

GAME = MnkGame(4, 4, 3, "misere")
DEPTH = 3
SMALL = Options(tt_mb=16)
BUILD = [sys.executable, "-m", "gameproof", "mnk", "book", "build", "--rows", "4", "--cols", "4", "--k", "3", "--misere",
         "--depth", str(DEPTH), "--tt-mb", "16", "--quiet"]


def _contents(path: Path) -> dict[int, tuple]:
    with Book(path) as opened:
        return {entry.key: (entry.value, entry.moves, entry.plies, entry.method) for entry in opened.entries()}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> dict[int, tuple]:
    path = tmp_path_factory.mktemp("book") / "whole.db"
    report = book.build(GAME, DEPTH, path, options=SMALL)
    assert report.solved == 219 and report.entries == 256
    return _contents(path)


def _entries(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with Book(path) as opened:
            return len(opened)
    except BadInput:
        return 0  # not created yet


def test_a_build_killed_by_sigkill_resumes_to_the_same_book(tmp_path, uninterrupted, killed_midway):
    attempt, kept = killed_midway(lambda attempt: [*BUILD, "--db", str(tmp_path / f"book{attempt}.db"), "--workers", "2"],
                                  lambda attempt: _entries(tmp_path / f"book{attempt}.db"), 60, len(uninterrupted))
    path = tmp_path / f"book{attempt}.db"
    resumed = subprocess.run([*BUILD, "--db", str(path), "--workers", "2", "--json"], capture_output=True, text=True,
                             check=True)
    summary = json.loads(resumed.stdout)
    assert summary["already_there"] == kept and summary["solved"] == 219 - kept  # no finished leaf solved again
    assert _contents(path) == uninterrupted


def test_ray_builds_the_same_book(tmp_path, uninterrupted, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))
    path = tmp_path / "book.db"
    book.build(GAME, DEPTH, path, options=SMALL, workers=2, backend=Backend.RAY)
    assert _contents(path) == uninterrupted


def test_a_book_of_values_keeps_the_same_values(tmp_path, uninterrupted):
    path = tmp_path / "book.db"
    book.build(GAME, DEPTH, path, options=SMALL, values_only=True)
    values = _contents(path)
    assert {key: entry[0] for key, entry in values.items()} == {key: entry[0] for key, entry in uninterrupted.items()}
    leaves = [entry for entry in values.values() if entry[2] == DEPTH and entry[3] == "df-pn"]
    assert leaves and all(entry[1] == {} for entry in leaves)
    with pytest.raises(BadInput, match="resume it the same way"):
        book.build(GAME, DEPTH, path, options=SMALL)


def _shared_memory() -> set[str]:
    return set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()


def test_two_workers_on_one_shared_table_build_the_same_values_and_release_the_table(tmp_path, uninterrupted):
    before = _shared_memory()
    path = tmp_path / "book.db"
    book.build(GAME, DEPTH, path, options=SMALL, values_only=True, workers=2)
    assert {key: entry[0] for key, entry in _contents(path).items()} == {key: entry[0] for key, entry in uninterrupted.items()}
    assert _shared_memory() == before


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_a_shallow_book_gives_every_worker_a_job(workers):
    from gameproof.games.mnk.positions import levels

    leaves = [state for state in levels(GAME, 1)[1] if not state.is_over()]  # three: corner, edge, centre
    jobs = subtree_jobs(leaves, 1, GAME, SMALL, False, workers)
    assert len(jobs) == min(workers, len(leaves))
    assert sorted(record for job in jobs for record in job.arguments["records"]) == sorted(leaf.record for leaf in leaves)
