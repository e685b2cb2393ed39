"""Certificates of game values, extracted from df-pn: proof DAGs over canonical positions.

A certificate (file format: :mod:`gameproof.certify.records`) holds one part for a win or a loss and
two for a draw (each side at least draws). A part is built by a walk from the root: at the claimant's
positions it keeps one move -- one that ends the game well for the claimant, else one to a position
already in the part, else one the transposition table proves, else the first one that df-pn proves --
and at the other side's positions it follows every reply. Positions are merged by the kernels'
canonical key (transpositions and symmetries) and each is written after every position its moves
lead to, so the root comes last and a checker can verify the part in one pass.

Every question asked is one that :func:`gameproof.search.exact.solve` asks (the attacker is the side
to move at the root), so a table that has just solved the position answers most of them at once; a
part for the other side reads the answers the other way round ("the attacker cannot draw" is "the
other side wins").
"""

from __future__ import annotations

import functools
import struct
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import IO

import numpy as np

from gameproof.answers import Value
from gameproof.certify.records import Goal, Header, Part, RulesFile, move_bytes, no_move, record_layout, word_bytes
from gameproof.errors import BadInput
from gameproof.framework.derived import position
from gameproof.framework.game import Game
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search import tt as ttmod
from gameproof.search.dfpn import CONTINUE, DRAW, MOVER_WINS, Kernels, Search, bind_kernels, counted, question_salt
from gameproof.search.keyset import KeySet

#: What the table says about a child, for the search's attacker.
PROVEN, DISPROVEN, UNKNOWN = 0, 1, 2
_PROGRESS_EVERY = 1 << 14
_WRITE_EVERY = 1 << 20  # bytes of records gathered before they go to the part's file
_RECORDS_IN_MEMORY = 64 << 20  # bytes of a part's records kept in memory before they go to a temporary file

K_play: Callable
K_undo: Callable
K_moves: Callable
K_key: Callable


def _children(s, g, table, bits, salt, depth, moves, results, keys, status):
    """Every move of the current position, its result, and for the unfinished children their key and what
    the table says of them; rows `depth` of the output arrays. Returns the number of moves."""
    n = K_moves(s, g, moves[depth])
    for i in range(n):
        move = moves[depth, i]
        result = K_play(s, g, move)
        results[depth, i] = result
        if result == CONTINUE:
            key = K_key(s, g)
            keys[depth, i] = key
            found, pn, dn = ttmod.lookup(table, bits, key ^ salt)
            status[depth, i] = UNKNOWN
            if found and pn == 0:
                status[depth, i] = PROVEN
            elif found and dn == 0:
                status[depth, i] = DISPROVEN
        K_undo(s, g, move)
    return n


@functools.cache
def _kernels(kernels: Kernels) -> SimpleNamespace:
    return bind_kernels((_children,), kernels)


@dataclass
class Certificate:
    """A built certificate: its header and each part with its packed records."""

    header: Header
    parts: list[tuple[Part, IO[bytes]]]  # a part's records in a temporary file (in memory while small)
    seconds: float

    @property
    def nodes(self) -> int:
        return sum(part.nodes for part, _ in self.parts)


def check_certifiable(state: RulesState, source: str | None = None) -> RulesFile | None:
    """BadInput unless a certificate of `state`'s value can be built and checked (say so before solving).

    `source` is the game as it was named (``examples/domineering.py:4,4``; by default its registered name).
    For a game loaded from a file, returns that file (its path as given and its content's hash), which the
    certificate names for the checker to load; None for a registered game."""
    game = state.game
    if state.is_over():
        raise BadInput("the game is over at this position: there is no value to certify")
    if game.spec.lookahead:
        raise BadInput(f"no certificates for {game.name}: its df-pn kernels treat a position where the other side "
                       "wins at once as lost before it is (lookahead), which a certificate cannot show")
    path = (source or game.name).strip().partition(":")[0].strip()
    rules_file = RulesFile.of(path) if path.endswith(".py") else None
    parameters = game.name.partition(":")[2]
    name = game.name if rules_file is None else f"{path}:{parameters}" if parameters else path
    try:
        loaded = load_game(name)
    except BadInput:
        loaded = None
    if loaded is None or loaded.spec is not game.spec:
        raise BadInput(f"no certificates for {game.name}: a certificate names its game for the checker to load, and "
                       f"{name} is not this game")
    return rules_file


def certify(state: RulesState, search: Search, progress: Callable[[int], None] | None = None,
            source: str | None = None) -> Certificate:
    """A certificate of the value of the unfinished position `state`, from `search` (df-pn over the
    kernels of the state's game; its table may hold an earlier solve of the position).

    `source` is the game as it was named (see :func:`check_certifiable`). ``progress`` is called with the
    number of positions written so far, now and then."""
    rules_file = check_certifiable(state, source)
    game = state.game
    start = time.perf_counter()
    root = state.frames()
    me = state.to_move
    if not search.prove(root, me, True):
        value, claims = Value.LOSS, [(1 - me, Goal.WIN)]
    elif search.prove(root, me, False):
        value, claims = Value.WIN, [(me, Goal.WIN)]
    else:
        value, claims = Value.DRAW, [(me, Goal.DRAW), (1 - me, Goal.DRAW)]
    size, move_size = word_bytes(min(game.board.mask.bit_length(), 64)), move_bytes(game.pass_move)
    layout = record_layout(game.words, size, move_size)
    written = 0

    def count(nodes: int) -> None:
        if progress is not None:
            progress(written + nodes)

    parts = []
    for claimant, goal in claims:
        walk = _Walk(search, state, claimant, goal, layout, no_move(move_size), count)
        records = walk.run(root)
        parts.append((Part(claimant, goal, len(walk.done)), records))
        written += len(walk.done)
    header = Header(game.name, tuple(state.history), state.record, value, game.words, size, len(parts), rules_file,
                    move_size)
    return Certificate(header, parts, time.perf_counter() - start)


class _Walk:
    """One part of a certificate: the claimant's proof from the root, packed post-order."""

    def __init__(self, search: Search, state: RulesState, claimant: int, goal: Goal, layout: struct.Struct,
                 no_move: int, progress: Callable[[int], None]) -> None:
        self.search, self.claimant, self.goal, self.layout, self.progress = search, claimant, goal, layout, progress
        self.no_move = no_move
        self.game = state.game.name
        self.layer_words, self.max_plies = state.game.layer_words, state.game.max_plies
        self.attacker = state.to_move
        self.draw_ok = (claimant == self.attacker) == (goal is Goal.DRAW)  # the question exact.solve asked
        self.reversed = claimant != self.attacker  # its answers read the other way round
        self.salt = question_salt(self.attacker, self.draw_ok)
        self.children = _kernels(search.kernels)._children
        shape = (state.game.max_plies + 2, state.game.max_moves)
        self.moves = np.zeros(shape, dtype=np.int64)
        self.results = np.zeros(shape, dtype=np.int64)
        self.keys = np.zeros(shape, dtype=np.uint64)
        self.status = np.zeros(shape, dtype=np.int64)
        self.done = KeySet()
        self.records = tempfile.SpooledTemporaryFile(max_size=_RECORDS_IN_MEMORY)
        self.pending = bytearray()

    def run(self, root: np.ndarray) -> IO[bytes]:
        s = root.copy()
        if not self.visit(s, 0, int(self.search.kernels.key(s, self.search.tables))):
            self.records.close()
            raise RuntimeError("df-pn proved the root, but no proof could be read back from its table")
        self.records.write(self.pending)
        self.records.seek(0)
        return self.records

    def good_end(self, result: int, mover: int) -> bool:
        """Whether a move by `mover` that ends the game with `result` is good for the claimant."""
        if result == DRAW:
            return self.goal is Goal.DRAW
        return (result == MOVER_WINS) == (mover == self.claimant)

    def visit(self, s: np.ndarray, depth: int, key: int) -> bool:
        """Add the position `s` (canonical key `key`) and what its proof needs; False if it has none."""
        words, mover = position(s, self.layer_words)
        table = self.search.table
        n = counted(self.children(s, self.search.tables, table.words, table.bits, self.salt, depth,
                                  self.moves, self.results, self.keys, self.status), self.max_plies)
        moves = self.moves[depth, :n].tolist()
        results = self.results[depth, :n].tolist()
        keys = self.keys[depth, :n].tolist()
        if mover == self.claimant:
            chosen = self.choose(s, depth, mover, moves, results, keys, self.status[depth, :n].tolist())
            if chosen is None:
                return False
        else:
            for move, result, child in zip(moves, results, keys):
                if result != CONTINUE:
                    if not self.good_end(result, mover):
                        return False
                elif child not in self.done and not self.descend(s, depth, move, child):
                    return False
            chosen = self.no_move
        try:
            self.pending += self.layout.pack(*words, mover, chosen)
        except struct.error:
            self.records.close()
            raise BadInput(f"a position of {self.game} has pieces beyond its board: no certificate") from None
        if len(self.pending) >= _WRITE_EVERY:
            self.records.write(self.pending)
            self.pending.clear()
        self.done.add(key)
        if len(self.done) % _PROGRESS_EVERY == 0:
            self.progress(len(self.done))
        return True

    def choose(self, s: np.ndarray, depth: int, mover: int, moves: list[int], results: list[int], keys: list[int],
               status: list[int]) -> int | None:
        """The claimant's move: a good end, else a child already in the part, else one the table proves, else
        the first that df-pn proves; None if none does."""
        for move, result in zip(moves, results):
            if result != CONTINUE and self.good_end(result, mover):
                return move
        unfinished = [(move, key, known) for move, result, key, known in zip(moves, results, keys, status)
                      if result == CONTINUE]
        for move, key, _ in unfinished:
            if key in self.done:
                return move
        good, bad = (DISPROVEN, PROVEN) if self.reversed else (PROVEN, DISPROVEN)
        for move, key, known in sorted(unfinished, key=lambda child: child[2] != good):
            if known == bad or (known == UNKNOWN and not self.proves(s, move)):
                continue
            if self.descend(s, depth, move, key):
                return move
        return None

    def proves(self, s: np.ndarray, move: int) -> bool:
        """Whether df-pn proves that the claimant reaches the goal after `move`."""
        kernels, tables = self.search.kernels, self.search.tables
        kernels.play(s, tables, move)
        try:
            return self.search.prove(s, self.attacker, self.draw_ok) != self.reversed
        finally:
            kernels.undo(s, tables, move)

    def descend(self, s: np.ndarray, depth: int, move: int, key: int) -> bool:
        kernels, tables = self.search.kernels, self.search.tables
        kernels.play(s, tables, move)
        try:
            return self.visit(s, depth + 1, key)
        finally:
            kernels.undo(s, tables, move)
