"""`gameproof tablebase build`: every position reachable from the start, valued by retrograde analysis.

A build keeps what each pass found in a folder beside the table (``FILE.work``: the positions, then the graph),
so that a build killed after a pass resumes from it; the table is written whole or not at all, and the folder is
removed once it is.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gameproof.errors import BadInput
from gameproof.framework.declaration import RulesError
from gameproof.framework.game import Game
from gameproof.search.book_game import Identity
from gameproof.search.jobs import Backend, ray_workers
from gameproof.search.score import searched_game
from gameproof.search.tablebase import MOST_POSITIONS, passes
from gameproof.search.tablebase.passes import NOT_OVER, Expander, Graph, Positions, Progress
from gameproof.search.tablebase.table import write_table

FORMAT = 1
#: The most threads a build expands positions on.
MOST_WORKERS = 64


@dataclass
class BuildReport:
    """What a build did: positions, how they came out, the seconds of each pass, the file's size."""

    positions: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    resumed: list[str] = field(default_factory=list)
    bytes: int = 0


def build(game: Game, path: str | Path, *, root: tuple[tuple[int, ...], int] | None = None, workers: int = 1,
          backend: Backend = Backend.LOCAL, address: str | None = None, most: int = MOST_POSITIONS,
          progress: Progress | None = None) -> BuildReport:
    """Build the tablebase of `game` into `path`: every position reachable from `root` (words, side to move), by
    default the start, expanded by `workers` threads, or on Ray (`workers` of its workers, by default one per CPU of
    the cluster at `address`, or of one started here) (see the module)."""
    path = Path(path)
    identity = Identity.of(game)
    searched = searched_game(game)  # a file's declared symmetries are not trusted to merge positions
    if not searched.exact_keys:
        raise BadInput(f"{game.name}: its positions' keys are 64-bit hashes ((layers + 1) ** cells is past 2**63), "
                       "and a tablebase tells positions apart by exact keys")
    if not 1 <= workers <= MOST_WORKERS:
        raise BadInput(f"--workers must be between 1 and {MOST_WORKERS}, got {workers}")
    report = BuildReport()
    words, to_move = (tuple(searched.rules.start()), 0) if root is None else root
    work = _Work(path.with_name(path.name + ".work"), identity, searched, root)
    with _expanding(searched, workers, backend, address, identity.loading) as expander:
        positions = work.load("positions", Positions, report)
        if positions is None:
            began = time.perf_counter()
            positions = passes.forward(expander, words, to_move, most, progress)
            report.seconds["forward"] = time.perf_counter() - began
            work.save("positions", positions)
        graph = work.load("graph", Graph, report)
        if graph is None:
            began = time.perf_counter()
            graph = passes.graph(expander, positions, progress)
            report.seconds["graph"] = time.perf_counter() - began
            work.save("graph", graph)

    began = time.perf_counter()
    if progress is not None:
        progress("backward: values and distances")
    starts, moves = passes.predecessors(graph.offsets, graph.children, graph.passed)
    count = len(positions.keys)
    value, distance = np.zeros(count, np.int8), np.zeros(count, np.int32)
    passes.retrograde(graph.offsets, starts, moves, positions.ends, value, distance)
    arrays = {"keys": positions.keys, "words": positions.frames[:, :searched.words],
              "to_move": expander.to_move(positions.frames).astype(np.uint8), "value": value, "distance": distance}
    if not game.may_repeat:
        scores = _scores(searched, positions, graph, starts, moves)
        if scores is not None:
            arrays["score"] = scores
    report.seconds["backward"] = time.perf_counter() - began

    first = int(np.searchsorted(positions.keys, np.uint64(expander.key(expander.root(words, to_move)))))
    report.positions = count
    report.counts = {name: int((value == number).sum()) for name, number in (("win", 1), ("draw", 0), ("loss", -1))}
    header = {"format": FORMAT, **identity.meta(),
              "symmetries": [symmetry.value for symmetry in searched.symmetries], "repeats": game.may_repeat,
              "positions": count, "counts": report.counts, "start": first, "start_value": int(value[first]),
              "start_distance": int(distance[first])}
    if root is not None:  # the table of the positions after a given one, not of the whole game
        header["root"] = {"words": list(words), "to_move": to_move}
    report.bytes = write_table(path, header, arrays)
    work.remove()
    return report


@contextmanager
def _expanding(game: Game, workers: int, backend: Backend, address: str | None, loading: str) -> Iterator[Expander]:
    """An expander of `game`'s positions on `workers` threads here, or on Ray's workers for the whole build."""
    if backend is not Backend.RAY:
        yield Expander(game, workers)
        return
    with ray_workers(passes.expand_chunk, None if workers == 1 else workers, address) as pool:
        yield Expander(game, workers, pool, loading)


def _scores(game: Game, positions: Positions, graph: Graph, starts: np.ndarray, moves: np.ndarray) -> np.ndarray | None:
    """Exact scores of a game that must end (None when it declares none); RulesError when its positions repeat,
    which a game that declares the longest game cannot do."""
    ended = np.flatnonzero(positions.ends != NOT_OVER)
    end_scores = np.zeros(len(positions.keys), dtype=np.int64)
    if game.has_score:
        turn = game.words + game.layer_words
        for row in ended.tolist():
            words = tuple(int(word) for word in positions.frames[row, :game.words])
            end_scores[row] = game.rules.score(*game.arguments.of(words, int(positions.frames[row, turn])))
    score = np.zeros(len(positions.keys), dtype=np.int64)
    scored = passes.backed_up_scores(graph.offsets, graph.children, graph.passed, starts, moves, positions.ends,
                                     end_scores, score)
    if scored < len(score):
        raise RulesError(f"{game.name}: a position comes round again, though the game declares that every game ends "
                         "(declare repetition instead of max_plies)")
    return score if game.has_score else None


class _Work:
    """The folder of a build's passes: each pass's arrays once it is done, and the game they are of."""

    def __init__(self, folder: Path, identity: Identity, game: Game, root: tuple[tuple[int, ...], int] | None) -> None:
        self.folder = folder
        self.stamp = {"format": FORMAT, **identity.meta(), "fingerprint": game.fingerprint,
                      "symmetries": [symmetry.value for symmetry in game.symmetries],
                      "root": None if root is None else [list(root[0]), root[1]]}
        stamp = folder / "game.json"
        if folder.is_dir() and stamp.is_file():
            try:
                kept = json.loads(stamp.read_text())
            except (OSError, ValueError):
                kept = None
            if kept != self.stamp:
                raise BadInput(f"{folder} holds a build of another game (or of other rules, or from another position): "
                               "remove it to build anew")
        elif folder.exists() and not folder.is_dir():
            raise BadInput(f"{folder} is in the way of the build's working folder")

    def load(self, name: str, kind: type, report: BuildReport):
        """The arrays of pass `name`, when a build before this one finished it."""
        file = self.folder / f"{name}.npz"
        if not file.is_file():
            return None
        try:
            with np.load(file) as kept:
                found = kind(*(kept[field] for field in kind.__dataclass_fields__))
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
            raise BadInput(f"{file} cannot be read ({error}): remove {self.folder} to build anew") from None
        report.resumed.append(name)
        return found

    def save(self, name: str, found: Positions | Graph) -> None:
        self.folder.mkdir(exist_ok=True)
        stamp = self.folder / "game.json"
        if not stamp.exists():
            stamp.write_text(json.dumps(self.stamp))
        partial = self.folder / f"{name}.partial.npz"
        np.savez(partial, **{field: getattr(found, field) for field in type(found).__dataclass_fields__})
        os.replace(partial, self.folder / f"{name}.npz")

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
