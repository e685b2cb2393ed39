"""Certificates of how long perfect play lasts, for :mod:`gameproof.certify.distance_check` to check.

For a position won in d plies for its winner, the winner's strategy that wins within d plies (``wins``: each
position's exact plies to the end as its budget, the fastest move where the winner is to move, every move where
the loser is) and the loser's that keeps the winner from winning within d - 1 (``holds``: the slowest move where
the loser is to move, every move where the winner is). The plies come from a :class:`DistanceSearch`, one
exact search a position, its table shared by all of them; the records name each position word for word.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gameproof.answers import Value
from gameproof.atomic import atomic_output
from gameproof.certify.distance_check import FORMAT, Side
from gameproof.certify.records import file_sha256
from gameproof.errors import BadInput
from gameproof.framework.registry import recorded_name
from gameproof.framework.state import RulesState
from gameproof.interrupts import RulesBroken
from gameproof.search.dfpn import Options
from gameproof.search.distance import BIG, DistanceSearch, search_tables

Position = tuple[tuple[int, ...], int]


class _Scores:
    """Each position's exact score for a side (BIG - d: won in d plies; 0 a draw; -(BIG - d): lost in d plies), by
    search, or from the result of a finished game (0 plies)."""

    def __init__(self, state: RulesState, options: Options) -> None:
        game = state.game
        tables, _ = search_tables(state)
        self.search = DistanceSearch(game.kernels, tables, game.max_plies, game.max_moves, options, game.max_positions)
        self._first: dict[Position, int] = {}  # for the first player

    def of(self, state: RulesState, side: int) -> int:
        at = (state.words, state.to_move)
        if at not in self._first:
            if state.is_over():
                self._first[at] = state.outcome() * BIG
            else:
                _, frames = search_tables(state)
                found = self.search.score(frames)
                self._first[at] = found if state.to_move == 0 else -found
        return self._first[at] if side == 0 else -self._first[at]


def certify_distance(state: RulesState, options: Options = Options(), progress: Callable[[int], None] | None = None,
                     source: str | None = None) -> dict[str, Any]:
    """A certificate (a JSON document) that `state` is won or lost for its side to move in exactly the plies that
    perfect play lasts; BadInput for a drawn or finished position. `progress` is told the records written so far;
    `source`: the game as the checker loads it (``FILE.py:PARAMS``; by default its registered name)."""
    if state.is_over():
        raise BadInput("the game is over: no plies to certify")
    try:
        return _certified(state, options, progress) | {"game": recorded_name(state.game, source)}
    except RulesBroken as broken:
        raise broken.of(state.game.name) from None


def write_distance_certificate(state: RulesState, source: str, path: str | Path, options: Options = Options(),
                               progress: Callable[[int], None] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Write the certificate of `state`'s distance (:func:`certify_distance`) to `path`, gzip around one JSON document
    (`source`: the game as it was named): the document, and what was written (its path, records and bytes). A game
    from a file is named by its path as given and the sha256 of its content, which `certificate check` compares
    before it loads the file."""
    rules_file = source.partition(":")[0].strip()
    document = certify_distance(state, options, progress, source)
    if rules_file.endswith(".py"):
        document["rules_sha256"] = file_sha256(rules_file)
    with atomic_output(path) as partial, gzip.open(partial, "wt") as out:
        json.dump(document, out, separators=(",", ":"))
    records = sum(len(document[side.value]) for side in Side)
    return document, {"path": str(path), "records": records, "bytes": Path(path).stat().st_size}


def _certified(state: RulesState, options: Options, progress: Callable[[int], None] | None) -> dict[str, Any]:
    scores = _Scores(state, options)
    mine = scores.of(state, state.to_move)
    if mine == 0:
        raise BadInput("a draw: perfect play lasts no set number of plies, and there is nothing to certify")
    winner = state.to_move if mine > 0 else 1 - state.to_move
    plies = BIG - abs(mine)
    wins = _winning(state, winner, scores, progress)
    holds = _holding(state, winner, scores, plies - 1, progress)
    return {"format": FORMAT, "words": list(state.words), "to_move": state.to_move,
            "value": Value.WIN if mine > 0 else Value.LOSS, "plies": plies,
            Side.WINS.value: _rows(wins), Side.HOLDS.value: _rows(holds)}


def _rows(records: dict[Position, tuple[int, int | None]]) -> list[list[Any]]:
    """Records as the certificate writes them: [words, side to move, budget, move or None]."""
    return [[list(words), to_move, budget, move] for (words, to_move), (budget, move) in records.items()]


def _children(state: RulesState) -> list[tuple[int, RulesState]]:
    found = []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        found.append((move, child))
    return found


def _winning(root: RulesState, winner: int, scores: _Scores,
             progress: Callable[[int], None] | None) -> dict[Position, tuple[int, int | None]]:
    """The winner's records: each position's plies to its end, and the winner's fastest move."""
    records: dict[Position, tuple[int, int | None]] = {}
    pending = [root]
    while pending:
        state = pending.pop()
        at = (state.words, state.to_move)
        if at in records:
            continue
        plies = BIG - scores.of(state, winner)
        children = _children(state)
        if state.to_move == winner:
            move, child = max(children, key=lambda pair: scores.of(pair[1], winner))
            records[at] = plies, move
            children = [(move, child)]
        else:
            records[at] = plies, None
        pending.extend(child for _, child in children if not child.is_over())
        if progress is not None and len(records) % 4096 == 0:
            progress(len(records))
    return records


def _holding(root: RulesState, winner: int, scores: _Scores, need: int,
             progress: Callable[[int], None] | None) -> dict[Position, tuple[int, int | None]]:
    """The loser's records: that the winner cannot win within a position's plies to its end less one (or, from a
    position the winner does not win, within the plies needed there), and the loser's slowest move."""
    records: dict[Position, tuple[int, int | None]] = {}
    pending = [(root, need)]
    while pending:
        state, need = pending.pop()
        at = (state.words, state.to_move)
        if need < 1 or (at in records and records[at][0] >= need):
            continue
        score = scores.of(state, winner)
        budget = BIG - score - 1 if score > 0 else need
        children = _children(state)
        if state.to_move != winner:
            move, child = min(children, key=lambda pair: scores.of(pair[1], winner))
            records[at] = budget, move
            children = [(move, child)]
        else:
            records[at] = budget, None
        pending.extend((child, budget - 1) for _, child in children if not child.is_over())
        if progress is not None and len(records) % 4096 == 0:
            progress(len(records))
    return records
