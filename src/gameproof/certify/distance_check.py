"""Check a certificate of how long perfect play lasts, with nothing but the game's rules run on Python ints.

A certificate claims that a position is won (or lost) for its side to move in exactly d plies under perfect play.
It holds two sets of records, each a position (its words and side to move), a budget of plies and, where the side
it speaks for is to move, the one move that side plays:

- ``wins``: from each, the winner wins within its budget. A record is accepted when every move it lets the other
  side play (every legal move where the loser is to move; the chosen one where the winner is) ends the game in
  the winner's favour, or leads to a position that has a ``wins`` record of a budget at least one smaller.
- ``holds``: from each, the winner cannot win within its budget. A record is accepted when every move it
  lets the winner play (all of them where the winner is to move; the chosen one where the loser is) ends the game
  otherwise than in the winner's favour, or leads to a position with a ``holds`` record of a budget at least one
  smaller (none is needed where that budget would be 0: a game that goes on is not won yet).

Budgets fall by one at least along every move, so by induction on the budget each accepted ``wins`` record is won
within its budget and each ``holds`` record held (which also rules out cycles). The claim is accepted when the
root has a ``wins`` record of a budget of at most d and, where d > 1, a ``holds`` record of at least d - 1.

What this module imports: :func:`gameproof.framework.registry.load_game` for the game's declaration by name (or
the :class:`~gameproof.framework.game.Game` given) and
:class:`gameproof.framework.state.RulesState` for its rules on Python ints (legal moves, the position after a
move, who moves next, the result of a finished game), and :func:`~gameproof.certify.records.file_sha256` for the
rules file a certificate names. Nothing from :mod:`gameproof.search`: no kernels, keys,
tables or symmetries; each position is the one the records name, word for word.
"""

from __future__ import annotations

import enum
import gzip
import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameproof.answers import Value
from gameproof.certify.records import file_sha256
from gameproof.errors import BadInput
from gameproof.framework.game import Game
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState

#: What a certificate's ``format`` says.
FORMAT = "gameproof-distance-certificate-1"

Position = tuple[tuple[int, ...], int]


class Side(enum.StrEnum):
    """The sets of records: the winner's strategy, and the loser's."""

    WINS = "wins"
    HOLDS = "holds"


@dataclass(frozen=True)
class DistanceReport:
    """The verdict: whether the claim holds, what it claims, and why not where it does not."""

    accepted: bool
    value: Value | None
    plies: int | None
    records: int
    finding: str | None = None


class Rejected(Exception):
    """A record, or the claim, that the rules do not bear out (one line)."""


def check_distance_certificate(document: dict[str, Any], game: Game | None = None) -> DistanceReport:
    """Whether `document` (a certificate as JSON gives it) proves its claim, for the game it names (or `game`, one
    that no name loads); never raises for a malformed one."""
    try:
        value, plies, records = _checked(document, game)
    except Rejected as why:
        return DistanceReport(False, None, None, 0, str(why))
    return DistanceReport(True, value, plies, records)


def read_distance_document(path: str | Path) -> dict[str, Any] | None:
    """The document of a distance certificate (``solve --distance --certificate``) at `path`, or None for a file of
    any other kind (the reader of value certificates then says what is wrong with it)."""
    try:
        with gzip.open(path, "rt") as file:
            head = file.read(256)  # a distance certificate's document names its format first
            if FORMAT not in head:
                return None
            document = json.loads(head + file.read())
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def check_distance_document(path: str | Path, document: dict[str, Any],
                            rules_file: str | None = None) -> DistanceReport:
    """:func:`check_distance_certificate` of the `document` read from `path`, whose game is loaded from the rules file
    it names (at `rules_file` where given) once that file holds what it held: BadInput, one line, where it does not."""
    game = str(document.get("game", ""))
    if "rules_sha256" in document:
        where = rules_file or game.partition(":")[0]
        if file_sha256(where) != document["rules_sha256"]:
            raise BadInput(f"certificate {path}: the rules file changed since the certificate was written ({where!r} "
                           f"does not have sha256 {str(document['rules_sha256'])!r:.80})")
        document = document | {"game": where + (":" + game.partition(":")[2] if ":" in game else "")}
    elif game.partition(":")[0].endswith(".py"):
        raise BadInput(f"certificate {path}: it names the rules file {game!r:.80} without its sha256")
    return check_distance_certificate(document)


def _checked(document: dict[str, Any], game: Game | None) -> tuple[Value, int, int]:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Rejected(f"not a distance certificate (format {FORMAT})")
    try:
        game = game or load_game(str(document["game"]))
        root = _position(document["words"], document["to_move"])
        value, plies = Value(document["value"]), int(document["plies"])
        records = {side: _records(document[side.value], side) for side in Side}
    except (KeyError, TypeError, ValueError) as error:
        raise Rejected(f"a malformed certificate: {error}") from None
    if value is Value.DRAW or plies < 1:
        raise Rejected("a certificate claims a win or a loss in at least one ply")
    winner = root[1] if value is Value.WIN else 1 - root[1]
    for side in Side:
        for position, (budget, move) in records[side].items():
            try:
                _check_record(game, side, winner, position, budget, move, records[side])
            except BadInput as error:  # words the rules refuse, or rules that raise
                raise Rejected(f"{side} record of {list(position[0])}: {error}") from None
    wins, holds = records[Side.WINS].get(root), records[Side.HOLDS].get(root)
    if wins is None or wins[0] > plies:
        raise Rejected(f"no record that the winner wins from the root within {plies} plies")
    if plies > 1 and (holds is None or holds[0] < plies - 1):
        raise Rejected(f"no record that the loser holds the root for {plies - 1} plies")
    return value, plies, sum(len(kept) for kept in records.values())


def _position(words: Any, to_move: Any) -> Position:
    if not isinstance(words, list) or not all(type(word) is int and word >= 0 for word in words):
        raise ValueError("words must be a list of non-negative ints")
    if to_move not in (0, 1):
        raise ValueError("the side to move must be 0 or 1")
    return tuple(words), to_move


def _records(rows: Iterable[Any], side: Side) -> dict[Position, tuple[int, int | None]]:
    """A set of records by position: (budget, chosen move or None)."""
    kept: dict[Position, tuple[int, int | None]] = {}
    for row in rows:
        words, to_move, budget, move = row
        position = _position(words, to_move)
        if type(budget) is not int or (move is not None and type(move) is not int):
            raise ValueError(f"a {side} record's budget and move must be ints")
        if position in kept:
            raise ValueError(f"two {side} records of one position")
        kept[position] = budget, move
    return kept


def _check_record(game: Game, side: Side, winner: int, position: Position, budget: int, move: int | None,
                  records: dict[Position, tuple[int, int | None]]) -> None:
    """Rejected unless the record holds given the records of its side (see the module's notes)."""
    state = RulesState.at(game, *position)
    where = f"{side} record of {list(position[0])} (side {position[1]} to move, budget {budget})"
    if budget < 1:
        raise Rejected(f"{where}: a budget of at least one ply")
    if state.is_over():
        raise Rejected(f"{where}: the game is over there")
    speaks_for = winner if side is Side.WINS else 1 - winner
    legal = state.legal_moves()
    if state.to_move == speaks_for:
        if move not in legal:
            raise Rejected(f"{where}: its move {move} is not legal")
        moves = [move]
    elif move is not None:
        raise Rejected(f"{where}: a move chosen for the other side")
    else:
        moves = legal
    winning = 1 if winner == 0 else -1  # the outcome (first player's) of a game the winner won
    for chosen in moves:
        state.play(chosen)
        child, over, outcome = (state.words, state.to_move), state.is_over(), state.outcome()
        state.undo()
        below = records.get(child)
        if side is Side.WINS:
            fine = outcome == winning if over else below is not None and below[0] <= budget - 1
        else:
            fine = outcome != winning if over else budget - 1 < 1 or (below is not None and below[0] >= budget - 1)
        if not fine:
            raise Rejected(f"{where}: move {chosen} is not covered")
