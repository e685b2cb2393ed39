"""Depth-first proof-number search (df-pn), compiled with numba, generic over game kernels.

A game takes part by offering :class:`Kernels`: numba functions over a uint64 state array ``s`` and a
tuple of tables ``g`` (see :mod:`gameproof.framework.derived`, which derives them from a game's rules). A search answers one binary
question: can ``attacker`` reach a win (or, with ``draw_ok``, at least a draw) from the position?

The kernel works in the phi/delta form: at every node phi is the proof number for the player to
move there and delta the disproof number, so phi(n) = min delta(child) and delta(n) = sum phi(child)
(or, with WPNS, max phi(child) + unsolved children - 1). Enhancements, each switchable in
:class:`Options`: WPNS (weak proof numbers, kinder to transpositions), the 1+ε threshold trick,
heuristic initialisation of fresh nodes, and plain minimax for nodes with few empty squares.
Positions only gain stones, so the search graph is a DAG and needs no repetition handling.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType, SimpleNamespace
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from gameproof import borrowed as borrowing
from gameproof.borrowed import borrowed
from gameproof.framework.declaration import EPSILON, ESTIMATE_WEIGHT
from gameproof.interrupts import FIRST_FAULT, Halt, RulesBroken, out_of_time, stoppable, wait_for_signal
from gameproof.jit import specialise
from gameproof.search import tt as ttmod
from gameproof.search.tt import (ANSWERED, INF, LANE_DEPTH, LANE_NODES, LANE_QUESTION, SharedTable, TranspositionTable,
                                 line_aligned)

CONTINUE, MOVER_WINS, MOVER_LOSES, DRAW = 0, 1, 2, 3  # what a move leads to; from FIRST_FAULT on, a fault
TOO_LONG = int(Halt.TOO_LONG)
# cfg slots (_LANE: the searcher's row of the lanes; _LANES: how many search the table, 1 = sharing nothing;
# _ANSWERED: the control word where the question's root key appears once some searcher has answered it)
_WPNS, _EPS_MILLI, _HEURISTIC, _BRUTE, _ATTACKER, _DRAW_OK, _LIMIT, _BITS, _SALT, _LANE, _LANES, _ANSWERED, \
    _NODE_BASE = range(13)
_CFG = 13
#: Nodes a child's search must have taken before the siblings' numbers are read again from a shared table
#: (the other searchers may have changed them meanwhile).
_REFRESH_NODES = 256
# Keys are XORed with a salt per question (attacker, draw_ok): a bijection, so exact keys stay exact
# and the answers to different questions share one table without clearing it.
_SALTS = (0, 0x5851_F42D_4C95_7F2D, 0x1405_7B7E_F767_814F, 0x2545_F491_4F6C_DD1D)
# stats slots; HALT, HALT_DEPTH and ROOM (the deepest depth the state and buffers hold) sit at the same slots
# in alpha-beta's stats
_NODES, _BF_NODES, _TT_FILLED, HALT, HALT_DEPTH, ROOM = range(6)
STATS = 6


class Abandoned(Exception):
    """A search was told to give up its question (:meth:`Search.abandon`)."""


class Kernels(NamedTuple):
    """The kernel protocol a game offers to df-pn (all numba-compiled).

    mover(s) -> 0/1; remaining(s, g) -> empty squares left (bounds the depth); moves(s, g, out) -> n,
    writing legal moves, or minus a fault; play(s, g, move) -> CONTINUE/MOVER_WINS/MOVER_LOSES/DRAW, or a
    fault (a :class:`~gameproof.interrupts.Halt` from FIRST_FAULT on, after which ``s`` is left as it is); undo(s, g, move);
    key(s, g) -> uint64 canonical key; estimate(s, g, attacker) -> (threats against the attacker,
    threats against the defender), counts that make a fresh node 1 + weight × count; room(s) -> how many
    more frames ``s`` holds (a search never plays deeper); bound(s, g) -> the best the side to move can reach by the
    rules (1 win, 0 draw, -1 loss; 1 where they say nothing), which alpha-beta uses. ``turns``: whether a move may leave the same side to
    move (the game's rules say who moves); the searches bind it as a constant, so that a game whose sides
    alternate runs no test of it.
    """

    mover: Callable
    remaining: Callable
    moves: Callable
    play: Callable
    undo: Callable
    key: Callable
    estimate: Callable
    room: Callable
    bound: Callable
    turns: bool = False


@dataclass(frozen=True)
class Options:
    """Search switches (for measurement), the transposition-table budget, and which table to use."""

    wpns: bool = True
    epsilon: float = EPSILON
    heuristic: int = ESTIMATE_WEIGHT  # weight of the rules' estimate in a fresh node's numbers; 0 = off
    brute_force: int = 5
    tt_mb: float = 128.0
    shared_table: str | None = None  # the name of a SharedTable to search on instead of a table of one's own
    lanes: int = 1  # how many threads search one table at once, keeping out of each other's way
    lane: int = 1  # which of them this one is (1 .. lanes)


@njit(cache=True)
def _add(a, b):
    """Saturating sum of proof numbers."""
    if a >= INF or b >= INF:
        return INF
    return min(a + b, INF - 1)


@njit(cache=True)
def partnered(lanes, lane, used):
    """Whether a searcher other than ``lane`` (of lanes 1 .. ``used``) is on the same question."""
    for other in range(1, used + 1):
        if other != lane and lanes[other, LANE_QUESTION] == lanes[lane, LANE_QUESTION]:
            return True
    return False


@njit(cache=True)
def busy(lanes, lane, used, depth, key):
    """Whether a searcher other than ``lane`` (of lanes 1 .. ``used``) on the same question has the position
    ``key`` on its path at ``depth``."""
    for other in range(1, used + 1):
        if other != lane and lanes[other, depth] == key and lanes[other, LANE_QUESTION] == lanes[lane, LANE_QUESTION]:
            return True
    return False


@njit(cache=True)
def halt(flags, slot, code, depth):
    """Record why a kernel stops (`code`, a :class:`~gameproof.interrupts.Halt`) and at which depth in
    ``flags[slot]`` and ``flags[slot + 1]``; the first reason stays."""
    if flags[slot] == 0:
        flags[slot] = code
        flags[slot + 1] = depth


# The search is written against the global names K_mover ... K_estimate and compiled once per game by
# `search_kernels`, which binds them to that game's kernels (numba caches it on disk that way; it cannot
# cache a kernel that takes compiled functions as arguments).
K_mover: Callable
K_remaining: Callable
K_moves: Callable
K_play: Callable
K_undo: Callable
K_key: Callable
K_estimate: Callable
K_room: Callable
K_turns: bool


def _brute(s, g, buf, depth, attacker, draw_ok, stats):
    """Plain minimax: does the player to move reach their goal (attacker: win or draw_ok; defender: the opposite)?"""
    s, g, buf, stats = borrowed((s, g, buf, stats))
    stats[_BF_NODES] += 1
    if depth >= stats[ROOM]:
        halt(stats, HALT, TOO_LONG, depth + 1)
        return False
    me = K_mover(s)
    draw_good = draw_ok if me == attacker else not draw_ok
    n = K_moves(s, g, buf[depth])
    if n == 0:
        return draw_good
    if n < 0:
        halt(stats, HALT, -n, depth)
        return False
    for i in range(n):
        move = buf[depth, i]
        result = K_play(s, g, move)
        if result == CONTINUE:
            good = _brute(s, g, buf, depth + 1, attacker, draw_ok, stats) == (K_turns and K_mover(s) == me)
            if stats[HALT] != 0:
                return False
        elif result >= FIRST_FAULT:
            halt(stats, HALT, result, depth + 1)
            return False
        else:
            good = result == MOVER_WINS or (result == DRAW and draw_good)
        K_undo(s, g, move)
        if good:
            return True
    return False


def _mid(s, g, tt, lanes, cfg, stats, bmove, bkey, bphi, bdelta, depth, node_key, th_phi, th_delta):
    """Multiple iterative deepening at one node; returns its (phi, delta) and stores them.

    Searchers sharing the table (``cfg[_LANES]`` > 1) write their path into ``lanes``, try a child that
    another has on its path only after its siblings (its delta counted twice), read the siblings' numbers
    again after a long child search, and stop once another has answered the question."""
    s, g, tt, lanes, cfg, stats, bmove, bkey, bphi, bdelta = borrowed((s, g, tt, lanes, cfg, stats, bmove, bkey, bphi,
                                                                        bdelta))
    stats[_NODES] += 1
    if depth >= stats[ROOM]:
        halt(stats, HALT, TOO_LONG, depth + 1)
        return INF, INF
    start = stats[_NODES] + stats[_BF_NODES]
    lane = cfg[_LANE]
    shared = cfg[_LANES] > 1
    if depth < LANE_DEPTH:
        lanes[lane, LANE_NODES] = stats[_NODES] + stats[_BF_NODES] - cfg[_NODE_BASE]
        if shared:
            lanes[lane, depth] = node_key
    bits, attacker, draw_ok = cfg[_BITS], cfg[_ATTACKER], cfg[_DRAW_OK] != 0
    me = K_mover(s)
    is_or = me == attacker
    draw_good = draw_ok if is_or else not draw_ok
    n = K_moves(s, g, bmove[depth])
    if n < 0:
        halt(stats, HALT, -n, depth)
        return INF, INF
    m = 0
    won = n == 0 and draw_good
    lost = n == 0 and not draw_good
    # First pass: play every move, settle the ones that end the game, and prefetch the others' table
    # buckets, so that their lookups below overlap their cache misses. bphi holds each move's result
    # until the second pass overwrites it (it only writes at m <= i, after reading entry i).
    for i in range(n):
        move = bmove[depth, i]
        result = K_play(s, g, move)
        if result == CONTINUE:
            child_key = K_key(s, g) ^ np.uint64(cfg[_SALT])
            ttmod.prefetch(tt, bits, child_key)
            bkey[depth, i] = child_key
        elif result >= FIRST_FAULT:
            halt(stats, HALT, result, depth + 1)
            return INF, INF
        elif result == MOVER_WINS or (result == DRAW and draw_good):
            won = True
        K_undo(s, g, move)
        bphi[depth, i] = result
        if won:
            break
    for i in range(n if not won else 0):
        if bphi[depth, i] != CONTINUE:
            continue  # a move that ends the game without reaching the mover's goal
        move = bmove[depth, i]
        child_key = bkey[depth, i]
        duplicate = False
        for j in range(m):
            if bkey[depth, j] == child_key:
                duplicate = True
        if duplicate:
            continue
        solved = True
        found, pn, dn = ttmod.lookup(tt, bits, child_key)
        if found:
            phi, delta = (dn, pn) if is_or else (pn, dn)  # this node's view of the child, whoever moves there
            solved = phi == 0 or delta == 0
            good = delta == 0
        else:
            K_play(s, g, move)
            if K_remaining(s, g) <= cfg[_BRUTE]:
                before = stats[_BF_NODES]
                good = _brute(s, g, bmove, depth + 1, attacker, draw_ok, stats) == (K_turns and K_mover(s) == me)
                if stats[HALT] != 0:
                    return INF, INF
                pn, dn = (0, INF) if good == is_or else (INF, 0)
                stats[_TT_FILLED] += ttmod.store(tt, bits, child_key, pn, dn, stats[_BF_NODES] - before)
            else:
                solved = False
                good = False
                against_attacker, against_defender = K_estimate(s, g, attacker)
                pn = 1 + cfg[_HEURISTIC] * against_attacker
                dn = 1 + cfg[_HEURISTIC] * against_defender
                phi, delta = (dn, pn) if is_or else (pn, dn)
            K_undo(s, g, move)
        if solved:
            if good:
                won = True
                break
            continue
        bmove[depth, m] = move  # safe: m <= i, and entries before i are no longer read
        bkey[depth, m] = child_key
        bphi[depth, m] = phi
        bdelta[depth, m] = delta
        m += 1
    if not won and m == 0:
        lost = True
    phi, delta = np.int64(0), INF
    if lost:
        phi, delta = INF, np.int64(0)
    while not won and not lost:
        sharing = shared and partnered(lanes, lane, cfg[_LANES])  # another searcher is on this question now
        # aggregate the children
        phi = INF
        choice = INF  # the least delta once another searcher's children count twice: the child to search
        delta2 = INF
        best = -1
        total = np.int64(0)
        largest = np.int64(0)
        unsolved = 0
        for j in range(m):
            cd = bdelta[depth, j]
            cp = bphi[depth, j]
            if cd < phi:
                phi = cd
            ce = cd
            if sharing and depth + 1 < LANE_DEPTH and busy(lanes, lane, cfg[_LANES], depth + 1, bkey[depth, j]):
                ce = _add(cd, cd)
            if ce < choice:
                delta2 = choice
                choice = ce
                best = j
            elif ce < delta2:
                delta2 = ce
            total = _add(total, cp)
            if cp > largest:
                largest = cp
            if cp != 0 and cd != 0:
                unsolved += 1
        if cfg[_WPNS] != 0 and largest < INF:
            delta = min(largest + max(unsolved - 1, 0), INF - 1)
        else:
            delta = total
        if phi >= th_phi or delta >= th_delta or stats[_NODES] >= cfg[_LIMIT]:
            break
        if shared and lanes[0, cfg[_ANSWERED]] == lanes[lane, LANE_QUESTION]:
            break  # another searcher has answered the question
        # descend into the most proving child
        if delta2 >= INF:
            child_th_delta = th_phi
        else:
            child_th_delta = min(th_phi, delta2 + 1 + (delta2 * cfg[_EPS_MILLI]) // 1000)
        if cfg[_WPNS] != 0:
            child_th_phi = th_delta - max(unsolved - 1, 0)
        else:
            child_th_phi = th_delta - delta + bphi[depth, best]
        move = bmove[depth, best]
        before = stats[_NODES]
        K_play(s, g, move)
        if K_turns and K_mover(s) == me:  # an extra turn: the child's own numbers are this node's view, swapped
            cdelta, cphi = _mid(s, g, tt, lanes, cfg, stats, bmove, bkey, bphi, bdelta, depth + 1, bkey[depth, best],
                                child_th_delta, child_th_phi)
        else:
            cphi, cdelta = _mid(s, g, tt, lanes, cfg, stats, bmove, bkey, bphi, bdelta, depth + 1, bkey[depth, best],
                                child_th_phi, child_th_delta)
        if stats[HALT] != 0:
            return INF, INF
        K_undo(s, g, move)
        bphi[depth, best] = cphi
        bdelta[depth, best] = cdelta
        if shared and stats[_NODES] - before >= _REFRESH_NODES and partnered(lanes, lane, cfg[_LANES]):
            for j in range(m):
                if j != best:
                    found, pn, dn = ttmod.lookup(tt, bits, bkey[depth, j])
                    if found:
                        bphi[depth, j], bdelta[depth, j] = (dn, pn) if is_or else (pn, dn)
    pn, dn = (phi, delta) if is_or else (delta, phi)
    stats[_TT_FILLED] += ttmod.store(tt, bits, node_key, pn, dn, stats[_NODES] + stats[_BF_NODES] - start + 1, shared)
    if shared and depth < LANE_DEPTH:
        lanes[lane, depth] = 0
    return phi, delta


def bind_kernels(templates: tuple[Callable, ...], kernels: Kernels, also: tuple[ModuleType, ...] = ()) -> SimpleNamespace:
    """`templates`, written against the global names ``K_mover`` … ``K_estimate``, compiled for one game's
    kernels (cached on disk, and compiled again when a module of the game's, the table's or `also` changes)."""
    games = {inspect.getmodule(function) for function in kernels if callable(function)}
    return specialise(templates, {f"K_{name}": function for name, function in zip(Kernels._fields, kernels)},
                      depends_on=sorted(games, key=lambda module: module.__name__) + [ttmod, borrowing, *also])


@functools.cache
def search_kernels(kernels: Kernels) -> SimpleNamespace:
    """The df-pn kernels (``_mid`` and ``_brute``) compiled for one game's kernels, cached on disk."""
    return bind_kernels((_brute, _mid), kernels)


def question_salt(attacker: int, draw_ok: bool) -> np.uint64:
    """What the table's keys are XORed with for the question (attacker, draw_ok)."""
    return np.uint64(_SALTS[2 * attacker + draw_ok])


class Search:
    """A df-pn searcher for one game's kernels and tables, keeping its transposition table between calls.

    Given a ``table`` that other threads search too (with lanes for them), it searches as lane
    ``options.lane`` of ``options.lanes``; a question that several of them ask at once is answered by
    whichever finds the answer first. With ``options.shared_table`` it searches that table of another
    process, alone on it."""

    def __init__(self, kernels: Kernels, tables: tuple[Any, ...], max_depth: int, max_moves: int,
                 options: Options = Options(), max_positions: int | None = None, *,
                 table: TranspositionTable | None = None) -> None:
        self.kernels, self.tables, self.options, self.max_depth = kernels, tables, options, max_depth
        self._mid = search_kernels(kernels)._mid
        if table is not None:
            self.table = table
        elif options.shared_table is None:
            self.table = TranspositionTable(options.tt_mb, max_positions)
        else:
            self.table = SharedTable.attach(options.shared_table)
        if not 1 <= options.lane <= options.lanes < self.table.lanes.shape[0]:
            raise ValueError(f"lane {options.lane} of {options.lanes} searchers, on a table with lanes for "
                             f"{self.table.lanes.shape[0] - 1}")
        shape = (max_depth + 2, max(1, max_moves))
        self._bmove = line_aligned(shape)
        self._bkey = line_aligned(shape, np.uint64)
        self._bphi = line_aligned(shape)
        self._bdelta = line_aligned(shape)
        self._stats = line_aligned(STATS)
        self._cfg = line_aligned(_CFG)
        self._abandoned = False

    def abandon(self) -> None:
        """From another thread: end the question being searched; :meth:`prove` raises :class:`Abandoned`."""
        self._abandoned = True
        self._cfg[_LIMIT] = 0

    @property
    def nodes(self) -> int:
        """Nodes searched so far (df-pn expansions plus brute-force visits)."""
        return int(self._stats[_NODES] + self._stats[_BF_NODES])

    @property
    def tt_entries(self) -> int:
        return int(self._stats[_TT_FILLED])

    def question_key(self, state: np.ndarray, attacker: int, draw_ok: bool) -> np.uint64:
        """The table key of the question (attacker, draw_ok) about ``state``."""
        return np.uint64(self.kernels.key(state, self.tables)) ^ question_salt(attacker, draw_ok)

    def numbers(self, key: np.uint64) -> tuple[int, int] | None:
        """The attacker's (proof, disproof) numbers the table holds for a question's ``key``, if any."""
        found, pn, dn = ttmod.lookup(self.table.words, self.table.bits, key)
        return (int(pn), int(dn)) if found else None

    def prove(self, state: np.ndarray, attacker: int, draw_ok: bool,
              progress: Callable[[int, int, int], None] | None = None, chunk: int = 1 << 21) -> bool:
        """Whether ``attacker`` reaches a win (or a draw, with ``draw_ok``) from the non-terminal ``state``.

        The table keeps what earlier calls proved. ``progress`` is called with (nodes, TT entries, TT capacity)
        about every ``chunk`` df-pn expansions.
        """
        o = self.options
        K = self.kernels
        s = state.copy()
        root_key = self.question_key(s, attacker, draw_ok)
        answered = int(root_key % np.uint64(ANSWERED))
        cfg = self._cfg
        cfg[:] = [o.wpns, int(o.epsilon * 1000), o.heuristic, o.brute_force, attacker, draw_ok, 0, self.table.bits,
                  question_salt(attacker, draw_ok).view(np.int64), o.lane, o.lanes, answered, self.nodes]
        lanes = self.table.lanes
        lanes[o.lane, LANE_QUESTION] = root_key
        lanes[o.lane, LANE_NODES] = 0
        while True:
            cfg[_LIMIT] = self._stats[_NODES] + chunk
            if self._abandoned:
                raise Abandoned
            self._stats[ROOM] = min(K.room(s), self._bmove.shape[0])
            with stoppable(self._stats, HALT):
                phi, delta = self._mid(s, self.tables, self.table.words, lanes, cfg, self._stats,
                                       self._bmove, self._bkey, self._bphi, self._bdelta, 0, root_key, INF, INF)
            raise_for_halt(self._stats, HALT, self.max_depth)
            lanes[o.lane, :LANE_DEPTH] = 0
            if phi == 0 or delta == 0:
                lanes[0, answered] = root_key  # for the other searchers (read by nobody when alone)
                return (phi == 0) == (K.mover(s) == attacker)
            if cfg[_LANES] > 1:
                numbers = self.numbers(root_key)
                if numbers is not None and 0 in numbers:  # another searcher's answer
                    return numbers[0] == 0
                if lanes[0, answered] == root_key:  # answered, but its entry was lost: answer it alone
                    cfg[_LANES] = 1
            if progress is not None:
                progress(self.nodes, self.tt_entries, self.table.capacity)


def raise_for_halt(flags: np.ndarray, slot: int, limit: int) -> None:
    """After a kernel returned: let the signal that stopped it end the command, raise
    :class:`~gameproof.errors.Unknown` where a time limit ended it, or raise the fault it recorded with :func:`halt`
    (`limit`: the plies its search holds). Clears the record, so that the search
    may be asked again."""
    code, depth = int(flags[slot]), int(flags[slot + 1])
    flags[slot] = flags[slot + 1] = 0
    if code == Halt.STOPPED:
        wait_for_signal()
    if code == Halt.OUT_OF_TIME:
        raise out_of_time()
    if code != Halt.NONE:
        raise RulesBroken(Halt(code), depth, limit)


def checked(result: int, limit: int) -> int:
    """The result of a move played at the root from Python, unless it is a fault (raised, at depth 1)."""
    if result >= FIRST_FAULT:
        raise RulesBroken(Halt(result), 1, limit)
    return result


def counted(n: int, limit: int) -> int:
    """The number of moves `moves` found at the root (called from Python), unless it is a fault (raised)."""
    if n < 0:
        raise RulesBroken(Halt(-n), 0, limit)
    return n
