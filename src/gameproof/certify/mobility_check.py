"""A point of the Othello mobility curve counted again with nothing but the rules on Python ints.

The claim "after exactly P moves (passes free) the side to move has at most M legal moves, and M is reached"
is checked here without the numba enumeration that found it (:mod:`gameproof.games.othello.mobility`): this
module imports the Othello rule functions (:mod:`gameproof.games.othello.rules`, run on Python ints) and the
notation (the error type, and how worker processes stop), nothing from the search, its kernels, its kept levels or its symmetry tables. The positions after
each number of moves are kept in a set, each as the least of its images under the symmetries of the square
that map the start to itself (built here from the eight maps of a square and tested on the start), a forced
pass taken at once and a finished game dropped; the last move is played from each position of the level
before it, and the largest legal-move count of the new side to move is the count. The witness is replayed
on the rules. The last level runs on `workers` processes.

A certificate of a point (`othello mobility P --certificate FILE`) is gzip around one JSON document: its
:data:`FORMAT`, the moves P, the count M and the witness. `certificate check FILE` replays the witness and
counts again here; the certificate is accepted when both give M. What it spares is trust, not work: the
claim is about every game, so the check plays them all (about ten minutes on two processes for P = 11).
"""

from __future__ import annotations

import gzip
import json
import multiprocessing
import os
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameproof.errors import BadInput
from gameproof.games.othello import rules
from gameproof.games.othello.notation import PASS, tokenize_record
from gameproof.interrupts import ctrl_c_held, die_with_driver

#: The first field of a mobility certificate's document.
FORMAT = "gameproof-othello-mobility-certificate-1"
#: The longest games the count checks: it keeps every position a move before the end in memory (about 20 million
#: after 11 moves, some 4 GB as Python tuples; seven times as many a move more).
MOST_CHECKED_PLIES = 12
_MOST_WITNESS = 400  # characters of a witness: 60 moves and passes
_SIDE = 8
_SQUARE_MAPS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda row, col: (row, col),
    lambda row, col: (row, 7 - col),
    lambda row, col: (7 - row, col),
    lambda row, col: (7 - row, 7 - col),
    lambda row, col: (col, row),
    lambda row, col: (col, 7 - row),
    lambda row, col: (7 - col, row),
    lambda row, col: (7 - col, 7 - row),
)
_SPLIT = 1 << 12  # positions of the last level handed to a process at once


@dataclass(frozen=True)
class MobilityCheck:
    """What the count found: the most legal moves after `plies` moves, whether the witness reaches it."""

    plies: int
    most: int
    witness_reaches: bool
    positions: int  # distinct positions (up to symmetry) of the level before the last
    seconds: float

    def holds(self, claimed: int) -> bool:
        return self.most == claimed and self.witness_reaches


def check_mobility(plies: int, witness: str, workers: int = 1,
                   progress: Callable[[str], None] | None = None) -> MobilityCheck:
    """The most legal moves after exactly `plies` moves, counted over every game on the rules, and whether the
    game `witness` (a move record) is a strict game of `plies` moves reaching that many."""
    if not 0 <= plies <= MOST_CHECKED_PLIES:
        raise BadInput(f"the independent count checks 0 to {MOST_CHECKED_PLIES} moves, not {plies}")
    started = time.perf_counter()
    maps = _start_symmetries()
    level = {_least(_turned(rules.START_BLACK, rules.START_WHITE), maps)}
    for done in range(max(plies - 1, 0)):
        level = {_least(child, maps) for position in level for child in _children(*position)}
        if progress is not None:
            progress(f"{len(level):,} positions after {done + 1} moves")
    if plies == 0:
        most = max(rules.popcount(rules.legal_moves(*position)) for position in level)
    else:
        most = _most_after_one_more(sorted(level), workers)
    return MobilityCheck(plies, most, _reaches(witness, plies, most), len(level), time.perf_counter() - started)


def read_mobility_document(path: str | Path) -> dict[str, Any] | None:
    """The document of a mobility certificate at `path`, or None for a file of any other kind."""
    try:
        with gzip.open(path, "rt") as file:
            head = file.read(256)  # the document names its format first
            if FORMAT not in head:
                return None
            document = json.loads(head + file.read(1 << 16))
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def check_mobility_document(path: str | Path, document: dict[str, Any], workers: int = 1,
                            progress: Callable[[str], None] | None = None) -> MobilityCheck:
    """:func:`check_mobility` of the claim the certificate at `path` makes; BadInput, one line, for a document that
    does not make one."""
    plies, most, witness = document.get("plies"), document.get("most_legal_moves"), document.get("witness")
    if document.get("format") != FORMAT or not _whole(plies, 60) or not _whole(most, 64) or \
            not isinstance(witness, str) or len(witness) > _MOST_WITNESS:
        raise BadInput(f"certificate {path}: not a mobility claim (plies 0..60, most_legal_moves 0..64 and a witness "
                       "record expected)")
    if plies > MOST_CHECKED_PLIES:
        raise BadInput(f"certificate {path}: a claim after {plies} moves; the count checks claims after at most "
                       f"{MOST_CHECKED_PLIES} (it keeps every position a move before the end in memory)")
    return check_mobility(plies, witness, workers, progress)


def _whole(value: Any, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most


def _start_symmetries() -> list[list[tuple[int, int]]]:
    """For each map of the square that fixes both colours of the start: the (bit, image bit) pairs."""
    found = []
    for square_map in _SQUARE_MAPS:
        pairs = [(square, _index(*square_map(square // _SIDE, square % _SIDE))) for square in range(64)]
        if all(_image(colour, pairs) == colour for colour in (rules.START_BLACK, rules.START_WHITE)):
            found.append(pairs)
    return found


def _index(row: int, col: int) -> int:
    return row * _SIDE + col


def _image(bits: int, pairs: list[tuple[int, int]]) -> int:
    image = 0
    for square, target in pairs:
        if bits >> square & 1:
            image |= 1 << target
    return image


def _least(position: tuple[int, int], maps: list[list[tuple[int, int]]]) -> tuple[int, int]:
    player, opponent = position
    return min((_image(player, pairs), _image(opponent, pairs)) for pairs in maps)


def _turned(player: int, opponent: int) -> tuple[int, int]:
    """The position with a forced pass taken (the side to move has no legal move)."""
    return (opponent, player) if rules.legal_moves(player, opponent) == 0 else (player, opponent)


def _children(player: int, opponent: int) -> Iterable[tuple[int, int]]:
    """The positions one move on (forced passes taken), games that are over left out."""
    moves = rules.legal_moves(player, opponent)
    for square in range(64):
        if moves >> square & 1:
            child = _turned(*rules.after_move(player, opponent, 1 << square))
            if rules.legal_moves(*child) != 0:
                yield child


def _most_in(positions: list[tuple[int, int]]) -> int:
    return max((rules.popcount(rules.legal_moves(*child)) for position in positions for child in _children(*position)),
               default=0)


def _most_after_one_more(positions: list[tuple[int, int]], workers: int) -> int:
    parts = [positions[first:first + _SPLIT] for first in range(0, len(positions), _SPLIT)]
    if workers <= 1 or len(parts) <= 1:
        return max(map(_most_in, parts), default=0)
    with ctrl_c_held():  # Ctrl-C reaches this process only, which stops the others (no traceback of theirs)
        pool = multiprocessing.get_context("spawn").Pool(workers, initializer=die_with_driver, initargs=(os.getpid(),))
    with pool:
        return max(pool.imap_unordered(_most_in, parts), default=0)


def _reaches(witness: str, plies: int, most: int) -> bool:
    """Whether `witness` is a strict game (every pass forced) of exactly `plies` moves after which the side to
    move, having passed if it must, has `most` legal moves."""
    player, opponent, placed = rules.START_BLACK, rules.START_WHITE, 0
    try:
        moves = tokenize_record(witness)
    except BadInput:
        return False
    for move in moves:
        legal = rules.legal_moves(player, opponent)
        if move == PASS:
            if legal != 0 or rules.legal_moves(opponent, player) == 0:
                return False
            player, opponent = opponent, player
            continue
        if not legal >> move & 1:
            return False
        player, opponent = rules.after_move(player, opponent, 1 << move)
        placed += 1
    player, opponent = _turned(player, opponent)
    return placed == plies and rules.popcount(rules.legal_moves(player, opponent)) == most
