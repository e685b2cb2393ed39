"""Certificates of game values, extracted from df-pn: proof DAGs over canonical positions.

A certificate (file format: :mod:`gameproof.certify.records`) holds one part for a win or a loss and
two for a draw (each side at least draws). A part is built by a walk from the root: at the claimant's
positions it keeps one move -- one that ends the game well for the claimant, else one to a position
already in the part, else of those the transposition table proves the one it spent least work on (its proof is
likely the smallest), else the first one that df-pn proves --
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
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import IO

import numpy as np

from gameproof import borrowed as borrowing
from gameproof.answers import Value
from gameproof.borrowed import borrowed
from gameproof.certify.records import (Goal, Header, Part, RulesFile, move_bytes, no_move, word_bytes,
                                      write_certificate)
from gameproof.errors import BadInput, RunFailed
from gameproof.certify.won import won_verifier
from gameproof.framework.derived import threshold_of, without_decided, won_only
from gameproof.framework.registry import load_game, recorded_name
from gameproof.framework.state import RulesState
from gameproof.interrupts import FIRST_FAULT, Halt, RulesBroken
from gameproof.search import dfpn, keyset
from gameproof.search import tt as ttmod
from gameproof.search.dfpn import CONTINUE, DRAW, MOVER_WINS, Kernels, Search, bind_kernels, counted, question_salt
from gameproof.search.exact import asks_draws
from gameproof.search.keyset import KeySet, full, holds, put

#: What the table says about a child, for the search's attacker; what df-pn, asked during the walk, said.
PROVEN, DISPROVEN, UNKNOWN, GOOD_NOW, BAD_NOW = 0, 1, 2, 3, 4
_PROGRESS_EVERY = 1 << 14  # positions the walk enters between two calls of its progress
_WRITE_EVERY = 1 << 20  # bytes of records gathered before they go to the part's file
_RECORDS_IN_MEMORY = 64 << 20  # bytes of a part's records kept in memory before they go to a temporary file

# The walk's registers (an int64 array kept between the calls of the kernel) ...
R_DEPTH, R_PHASE, R_CHOSEN, R_USED, R_RECORDS, R_BUDGET, R_FAULT = range(7)
# ... what it does next at the current depth ...
P_ENTER, P_CHOOSE, P_COVER, P_WRITE, P_UP_PROVEN, P_UP_FAILED = range(6)
# ... and why it returned.
W_PROVEN, W_FAILED, W_PROVE, W_FLUSH, W_GROW, W_PAUSE, W_MOVES_FAULT, W_PLAY_FAULT, W_WIDE, W_DEEP = range(10)

K_play: Callable
K_undo: Callable
K_moves: Callable
K_key: Callable


def _children(s, g, table, bits, salt, depth, moves, results, keys, status, works):
    """Every move of the current position, its result, and for the unfinished children their key, what the table
    says of them and, of those it proves or disproves, the work it spent on them; rows `depth` of the output arrays.
    Returns the number of moves."""
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
            if found and (pn == 0 or dn == 0):
                status[depth, i] = PROVEN if pn == 0 else DISPROVEN
                works[depth, i] = ttmod.spent(table, bits, key ^ salt)
        K_undo(s, g, move)
    return n


def _good_end(result, mover, claimant, draw_goal):
    """Whether a move by `mover` that ends the game with `result` is good for the claimant."""
    if result == DRAW:
        return draw_goal
    return (result == MOVER_WINS) == (mover == claimant)


def _mover(s, layer):
    base = np.int64(s[0])
    return np.int64(s[base + np.int64(s[2]) + layer])


def _cheapest_first(depth, n, good, moves, results, keys, status, works):
    """Put first in row `depth` the child that the table says is good and spent the least work on: its proof is
    likely the smallest (after a solve of every first move, hex:5's certificate holds 3,108 positions instead of the
    5,515 of the first such child in move order)."""
    cheapest = -1
    for i in range(n):
        if results[depth, i] == CONTINUE and status[depth, i] == good and (
                cheapest < 0 or works[depth, i] < works[depth, cheapest]):
            cheapest = i
    if cheapest > 0:
        for row in (moves, results, status, works):
            row[depth, 0], row[depth, cheapest] = row[depth, cheapest], row[depth, 0]
        keys[depth, 0], keys[depth, cheapest] = keys[depth, cheapest], keys[depth, 0]


def _down(s, g, depth, i, moves, keys, node_keys):
    """Play the `i`th move at `depth`; the depth of the position it leads to."""
    K_play(s, g, moves[depth, i])
    node_keys[depth + 1] = keys[depth, i]
    return depth + 1


def _walk(s, g, table, bits, salt, claimant, draw_goal, good, no_move_field, word_size, move_size, layer,
          moves, results, keys, status, works, counts, cursor, node_keys, regs, slots, meta, out):
    """The walk of one part, resumed where ``regs`` says and run until it needs Python: its records go to
    `out`, the keys of the positions written to the key set (`slots`, `meta`). Returns a W_ code; the state
    is kept in the arrays, so that calling it again goes on."""
    s, g, table, moves, results, keys, status, works, counts, cursor, node_keys, regs, slots, meta, out = borrowed(
        (s, g, table, moves, results, keys, status, works, counts, cursor, node_keys, regs, slots, meta, out))
    depth, phase = regs[R_DEPTH], regs[R_PHASE]
    deepest = moves.shape[0] - 1
    while True:
        if phase == P_ENTER:
            if depth == deepest:  # no row for its children's children: deeper than any game
                regs[R_DEPTH], regs[R_PHASE] = depth, phase
                return W_DEEP
            if regs[R_BUDGET] <= 0:
                break
            regs[R_BUDGET] -= 1
            n = _children(s, g, table, bits, salt, depth, moves, results, keys, status, works)
            if n < 0:
                regs[R_FAULT] = n
                regs[R_DEPTH], regs[R_PHASE] = depth, phase
                return W_MOVES_FAULT
            counts[depth] = n
            mover = _mover(s, layer)
            for i in range(n):
                if results[depth, i] >= FIRST_FAULT:
                    regs[R_FAULT] = results[depth, i]
                    regs[R_DEPTH], regs[R_PHASE] = depth, phase
                    return W_PLAY_FAULT
            if mover == claimant:
                chosen = -1
                for i in range(n):
                    if results[depth, i] != CONTINUE and _good_end(results[depth, i], mover, claimant, draw_goal):
                        chosen = i
                        break
                if chosen < 0:
                    for i in range(n):
                        if results[depth, i] == CONTINUE and holds(slots, meta, keys[depth, i]):
                            chosen = i
                            break
                if chosen >= 0:
                    regs[R_CHOSEN] = moves[depth, chosen]
                    phase = P_WRITE
                else:
                    _cheapest_first(depth, n, good, moves, results, keys, status, works)
                    cursor[depth] = 0
                    phase = P_CHOOSE
            else:
                phase = P_COVER
                cursor[depth] = 0
                for i in range(n):
                    if results[depth, i] != CONTINUE and not _good_end(results[depth, i], mover, claimant, draw_goal):
                        phase = P_UP_FAILED
                        break
        elif phase == P_CHOOSE:  # known good children first, then the unknown ones, each once df-pn says good
            n = counts[depth]
            phase = P_UP_FAILED
            c = cursor[depth]
            while c < 2 * n:
                i = c % n
                if results[depth, i] == CONTINUE:
                    known = status[depth, i]
                    if c >= n and known == UNKNOWN:
                        cursor[depth] = c
                        regs[R_DEPTH], regs[R_PHASE] = depth, P_CHOOSE
                        return W_PROVE
                    if known == (good if c < n else GOOD_NOW):
                        cursor[depth] = c
                        if holds(slots, meta, keys[depth, i]):
                            regs[R_CHOSEN] = moves[depth, i]
                            phase = P_WRITE
                        else:
                            depth, phase = _down(s, g, depth, i, moves, keys, node_keys), P_ENTER
                        break
                c += 1
        elif phase == P_COVER:  # every reply not yet in the part, in turn
            n = counts[depth]
            phase = P_WRITE
            regs[R_CHOSEN] = no_move_field
            c = cursor[depth]
            while c < n:
                if results[depth, c] == CONTINUE and not holds(slots, meta, keys[depth, c]):
                    cursor[depth] = c
                    depth, phase = _down(s, g, depth, c, moves, keys, node_keys), P_ENTER
                    break
                c += 1
        elif phase == P_WRITE:
            if not holds(slots, meta, node_keys[depth]):  # (a position met again below itself is written once)
                count = np.int64(s[2])
                size = count * word_size + 1 + move_size
                if regs[R_USED] + size > out.size:
                    regs[R_DEPTH], regs[R_PHASE] = depth, phase
                    return W_FLUSH
                if full(slots, meta):
                    regs[R_DEPTH], regs[R_PHASE] = depth, phase
                    return W_GROW
                base = np.int64(s[0])
                at = regs[R_USED]
                for w in range(count):
                    word = s[base + w]
                    if word_size < 8 and (word >> np.uint64(8 * word_size)) != 0:
                        regs[R_DEPTH], regs[R_PHASE] = depth, phase
                        return W_WIDE
                    for b in range(word_size):
                        out[at] = np.uint8((word >> np.uint64(8 * b)) & np.uint64(0xFF))
                        at += 1
                out[at] = np.uint8(_mover(s, layer))
                at += 1
                chosen = np.uint64(regs[R_CHOSEN])
                for b in range(move_size):
                    out[at] = np.uint8((chosen >> np.uint64(8 * b)) & np.uint64(0xFF))
                    at += 1
                regs[R_USED] = at
                put(slots, meta, node_keys[depth])
                regs[R_RECORDS] += 1
            phase = P_UP_PROVEN
        else:  # P_UP_PROVEN or P_UP_FAILED: back to the parent with the child's verdict
            if depth == 0:
                regs[R_DEPTH], regs[R_PHASE] = depth, phase
                return W_PROVEN if phase == P_UP_PROVEN else W_FAILED
            depth -= 1
            i = cursor[depth] % counts[depth]
            K_undo(s, g, moves[depth, i])
            mine = _mover(s, layer) == claimant
            if phase == P_UP_PROVEN:
                if mine:
                    regs[R_CHOSEN] = moves[depth, i]
                    phase = P_WRITE
                else:
                    cursor[depth] += 1
                    phase = P_COVER
            elif mine:
                cursor[depth] += 1
                phase = P_CHOOSE
    regs[R_DEPTH], regs[R_PHASE] = depth, phase
    return W_PAUSE


@functools.cache
def _kernels(kernels: Kernels) -> SimpleNamespace:
    return bind_kernels((_children, _good_end, _mover, _cheapest_first, _down, _walk), kernels, also=(keyset, dfpn, borrowing))


@dataclass
class Certificate:
    """A built certificate: its header and each part with its packed records."""

    header: Header
    parts: list[tuple[Part, IO[bytes]]]  # a part's records in a temporary file (in memory while small)
    seconds: float

    @property
    def nodes(self) -> int:
        return sum(part.nodes for part, _ in self.parts)

    def close(self) -> None:
        """Let go of the parts' temporary files."""
        for _, records in self.parts:
            records.close()


def check_buildable(state: RulesState) -> None:
    """BadInput unless df-pn can build a certificate of `state`'s value (whether or not a name loads its game)."""
    game = state.game
    if state.is_over():
        raise BadInput("the game is over at this position: there is no value to certify")
    if game.spec.lookahead:
        raise BadInput(f"no certificates for {game.name}: its df-pn kernels treat a position where the other side "
                       "wins at once as lost before it is (lookahead), which a certificate cannot show")


def check_certifiable(state: RulesState, source: str | None = None) -> RulesFile | None:
    """BadInput unless a certificate of `state`'s value can be built and checked (say so before solving).

    `source` is the game as it was named (``examples/domineering.py:4,4``; by default its registered name).
    For a game loaded from a file, returns that file (its path as given and its content's hash), which the
    certificate names for the checker to load; None for a registered game."""
    check_buildable(state)
    game = state.game
    name = recorded_name(game, source)
    path = name.partition(":")[0]
    rules_file = RulesFile.of(path) if path.endswith(".py") else None
    try:
        loaded = load_game(name)
    except BadInput:
        loaded = None
    if loaded is None or loaded.spec is not game.spec:
        raise BadInput(f"no certificates for {game.name}: a certificate names its game for the checker to load, and "
                       f"{name} is not this game")
    return rules_file


def certify(state: RulesState, search: Search, progress: Callable[[int, int], None] | None = None,
            source: str | None = None, named: bool = True) -> Certificate:
    """A certificate of the value of the unfinished position `state`, from `search` (df-pn over the
    kernels of the state's game; its table may hold an earlier solve of the position).

    `source` is the game as it was named (see :func:`check_certifiable`). ``progress`` is called with the
    number of positions written so far and the df-pn nodes spent proving again what the table no longer held,
    now and then (during a long proof too). Where not `named`, the game need not load by its name: the
    certificate is for a checker given the game itself (it names no rules file).

    The walk runs with the game's ``decided`` off (kernel tables of its own): the independent checker trusts no such
    shortcut, so the walk goes on to the real ends of the games, or, for a game whose ``won`` the checker verifies
    itself (:mod:`gameproof.certify.won`), to where a side has won whatever is played. The proofs it asks df-pn for
    keep ``decided`` on: what they find (and what the table holds from a solve) is still true, since ``decided`` only
    ever says a position's true value, and the walk goes on below each as it would below any other."""
    if named:
        rules_file = check_certifiable(state, source)
    else:
        check_buildable(state)
        rules_file = None
    game = state.game
    start = time.perf_counter()
    scored = threshold_of(search.tables) is not None
    walking = (won_only if game.has_won and won_verifier(game) is not None and not scored else without_decided)(
        search.tables)
    root = state.frames()
    me = state.to_move
    drawn = asks_draws(game.spec.draws, search.tables)
    if not search.prove(root, me, True):
        value, claims = Value.LOSS, [(1 - me, Goal.WIN)]
    elif not drawn or search.prove(root, me, False):
        value, claims = Value.WIN, [(me, Goal.WIN)]
    else:
        value, claims = Value.DRAW, [(me, Goal.DRAW), (1 - me, Goal.DRAW)]
    size, move_size = word_bytes(min(game.board.mask.bit_length(), 64)), move_bytes(game.pass_move)
    written = reproved = 0

    def count(nodes: int, nodes_reproving: int) -> None:
        if progress is not None:
            progress(written + nodes, reproved + nodes_reproving)

    parts = []
    for claimant, goal in claims:
        walk = _Walk(search, walking, state, claimant, goal, size, move_size, count, drawn)
        records = walk.run(root)
        parts.append((Part(claimant, goal, walk.nodes), records))
        written += walk.nodes
        reproved += walk.reproved
    header = Header(game.name, tuple(state.history), state.record, value, game.words, size, len(parts), rules_file,
                    move_size, threshold_of(search.tables), position=state.root)
    return Certificate(header, parts, time.perf_counter() - start)


def write_value_certificate(path: str | Path, state: RulesState, search: Search, *, source: str | None = None,
                            progress: Callable[[int, int], None] | None = None, expect: str | None = None,
                            built: Certificate | None = None) -> tuple[Certificate, int]:
    """Build the certificate of `state`'s value from `search` (see :func:`certify`), or take `built`, one built and
    checked already, and write it to `path`: the certificate and the file's size in bytes. RunFailed, writing
    nothing, where the value certified is not `expect` (the value a solve found)."""
    certificate = built if built is not None else certify(state, search, progress, source)
    if expect is not None and certificate.header.value != expect:
        raise RunFailed(f"the solve found {expect}, but df-pn certified {certificate.header.value.value}")
    return certificate, write_certificate(path, certificate.header, certificate.parts)


class _Walk:
    """One part of a certificate: the claimant's proof from the root, packed post-order (a kernel walks; this
    asks df-pn for it, writes what it packed, grows its key set and reports progress)."""

    def __init__(self, search: Search, tables: tuple[np.ndarray, ...], state: RulesState, claimant: int, goal: Goal,
                 word_size: int, move_size: int, progress: Callable[[int, int], None], drawn: bool) -> None:
        self.search, self.claimant, self.goal, self.progress = search, claimant, goal, progress
        self.tables = tables  # the walk's own kernel tables (where its games end), not the search's
        self.reproved = 0  # df-pn nodes spent in `proves`
        self.word_size, self.move_size = word_size, move_size
        self.game = state.game.name
        self.layer_words, self.max_plies = state.game.layer_words, state.game.max_plies
        self.attacker = state.to_move
        # The question exact.solve asked (in a game without draws, only "can the attacker at least draw?").
        self.draw_ok = (claimant == self.attacker) == (goal is Goal.DRAW) or not drawn
        self.reversed = claimant != self.attacker  # its answers read the other way round
        self.salt = question_salt(self.attacker, self.draw_ok)
        self.kernel = _kernels(search.kernels)._walk
        shape = (state.game.max_plies + 2, state.game.max_moves)
        self.moves = np.zeros(shape, dtype=np.int64)
        self.results = np.zeros(shape, dtype=np.int64)
        self.keys = np.zeros(shape, dtype=np.uint64)
        self.status = np.zeros(shape, dtype=np.int64)
        self.works = np.zeros(shape, dtype=np.int64)
        self.counts = np.zeros(shape[0], dtype=np.int64)
        self.cursor = np.zeros(shape[0], dtype=np.int64)
        self.node_keys = np.zeros(shape[0], dtype=np.uint64)
        self.regs = np.zeros(R_FAULT + 1, dtype=np.int64)
        self.done = KeySet()
        self.out = np.zeros(_WRITE_EVERY, dtype=np.uint8)

    @property
    def nodes(self) -> int:
        """Positions written."""
        return int(self.regs[R_RECORDS])

    def run(self, root: np.ndarray) -> IO[bytes]:
        """The part's records, in a temporary file at its start."""
        s = root.copy()
        self.node_keys[0] = self.search.kernels.key(s, self.tables)
        self.regs[R_PHASE] = P_ENTER
        self.regs[R_BUDGET] = _PROGRESS_EVERY
        records = tempfile.SpooledTemporaryFile(max_size=_RECORDS_IN_MEMORY)
        try:
            while (code := self.step(s)) != W_PROVEN:
                self.handle(code, s, records)
            records.write(self.out[: self.regs[R_USED]].tobytes())
        except BaseException:
            records.close()
            raise
        records.seek(0)
        return records

    def step(self, s: np.ndarray) -> int:
        table, tables = self.search.table, self.tables
        good = DISPROVEN if self.reversed else PROVEN
        return int(self.kernel(s, tables, table.words, table.bits, self.salt, self.claimant, self.goal is Goal.DRAW,
                               good, no_move(self.move_size), self.word_size, self.move_size, self.layer_words,
                               self.moves, self.results, self.keys, self.status, self.works, self.counts, self.cursor,
                               self.node_keys, self.regs, self.done.slots, self.done.meta, self.out))

    def handle(self, code: int, s: np.ndarray, records: IO[bytes]) -> None:
        """Do what the kernel returned for, or raise."""
        depth = int(self.regs[R_DEPTH])
        if code == W_PROVE:
            index = self.cursor[depth] % self.counts[depth]
            self.status[depth, index] = GOOD_NOW if self.proves(s, int(self.moves[depth, index])) else BAD_NOW
        elif code == W_FLUSH:
            records.write(self.out[: self.regs[R_USED]].tobytes())
            self.regs[R_USED] = 0
        elif code == W_GROW:
            self.done.grow()
        elif code == W_PAUSE:  # every _PROGRESS_EVERY positions entered, whatever the kernel returned for between
            self.regs[R_BUDGET] = _PROGRESS_EVERY
            self.progress(self.nodes, self.reproved)
        elif code == W_FAILED:
            raise RunFailed("df-pn proved the root, but no proof could be read back from its table")
        elif code == W_MOVES_FAULT:
            counted(int(self.regs[R_FAULT]), self.max_plies)
        elif code == W_PLAY_FAULT:
            raise RulesBroken(Halt(int(self.regs[R_FAULT])), depth + 1, self.max_plies)
        elif code == W_WIDE:
            raise BadInput(f"a position of {self.game} has pieces beyond its board: no certificate")
        else:
            raise RunFailed(f"the proof of {self.game} runs deeper than its longest game ({self.max_plies} plies)")

    def proves(self, s: np.ndarray, move: int) -> bool:
        """Whether df-pn proves that the claimant reaches the goal after `move`."""
        kernels, tables = self.search.kernels, self.search.tables
        before = self.search.nodes

        def reproving(nodes: int, entries: int, capacity: int) -> None:
            self.progress(self.nodes, self.reproved + nodes - before)

        kernels.play(s, tables, move)
        try:
            return self.search.prove(s, self.attacker, self.draw_ok, reproving) != self.reversed
        finally:
            self.reproved += self.search.nodes - before
            kernels.undo(s, tables, move)
