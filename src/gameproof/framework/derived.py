"""Kernels derived from a game's rules: df-pn's kernel protocol and perft, compiled once per game.

The templates below are written against global names ``R_legal``, ``R_play``, … that
:func:`derive` binds to one game's compiled rules (see :func:`gameproof.jit.specialise`), and against
constants of the game (``WORDS``, ``LAYER``, ``PARTS``, ``TURN``, …) on which numba prunes branches and
unrolls loops, so that a placement game of one word runs the code it always ran. Rule functions take the
position as separate words, so the templates hold it as a tuple and call them with ``R_play(*words, move)``
(the side to move first where the game declares ``turn_argument``).

A df-pn state is one uint64 array: ``s[0]`` the offset of the current frame, ``s[1]`` the frame size,
``s[2]`` the number of words; then one frame per ply, each ``[words…, first parts of the legal moves (a
layer's words), side to move, key under each symmetry…]``. Moves are codes (:mod:`gameproof.framework.moves`):
a placement game's are the cells, ``PASS_MOVE`` the pass. Playing a move writes the next frame (its keys
updated from the cells that changed), taking one back steps back a frame.

The kernels guard what rules with a bug could break: ``room`` tells the searches how many frames the
state array holds past the current one (a game longer than that is a fault, never a write past the end);
``moves`` returns a fault for more moves than the game declares, or a first part that no move continues;
``play`` for a move that changes nothing, an unknown result code, or a position where no side can move but
``result`` says the game goes on; perft stops with the same faults. See :class:`gameproof.interrupts.Halt`.
A declared move order only ranks the moves (:attr:`Game.move_ranks`): a cell it leaves out comes last, never
left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numba
import numpy as np
from numba import njit
from numba.np.unsafe.ndarray import to_fixed_tuple

from gameproof import borrowed as borrowing
from gameproof.borrowed import borrowed
from gameproof.framework.declaration import DRAW, LOSS, MAX_ESTIMATE, MAX_SCORE, ONGOING, WIN
from gameproof.interrupts import Halt, stoppable
from gameproof.jit import specialise
from gameproof.search.dfpn import CONTINUE, DRAW as RESULT_DRAW, MOVER_LOSES, MOVER_WINS, Kernels, halt, raise_for_halt

if TYPE_CHECKING:
    from gameproof.framework.game import Game

HEADER = 3  # s[0] frame offset, s[1] frame size, s[2] words
UNKNOWN_RESULT, NO_MOVE, UNCHANGED, TOO_MANY_MOVES, DEAD_END, BAD_TURN, BAD_SCORE, DRAWN = (int(fault) for fault in (
    Halt.UNKNOWN_RESULT, Halt.NO_MOVE, Halt.UNCHANGED, Halt.TOO_MANY_MOVES, Halt.DEAD_END, Halt.BAD_TURN,
    Halt.BAD_SCORE, Halt.DRAWN))
# slots of the info table g[1]: then, from INFO_MASKS on, the board's cells in each word of a layer. With INFO_SCORED
# set (Game.scored_tables), a finished game is a win, draw or loss by its first player's score against the threshold
# INFO_THRESHOLD (held plus THRESHOLD_OFFSET, so that the word is never negative). With INFO_DECIDED set (a game that
# declares `decided`), a position the rules' `decided` settles ends the game there with that value (see `play`); set to
# BY_WON instead (a game that declares `won`: won_only), only one that its `won` settles does; with INFO_BOUND set (a
# game that declares `bound`), alpha-beta takes the rules' bound on a position's value (see `bound`).
INFO_CELLS, INFO_PERSPECTIVE, INFO_TO_MOVE_TERM, INFO_LOOKAHEAD, INFO_SCORED, INFO_THRESHOLD, INFO_DECIDED, \
    INFO_BOUND, INFO_MASKS = range(9)
THRESHOLD_OFFSET = 1 << 31
# what INFO_DECIDED holds: which of the rules' functions ends a game before its end, if any
BY_DECIDED, BY_WON = 1, 2
# how `remaining` bounds the plies left: the empty cells, the rules' plies_left, or not at all
EMPTY_CELLS, PLIES_LEFT, UNBOUNDED = range(3)
#: What `remaining` gives when nothing bounds the plies left (the searches never switch to plain minimax).
FAR = 1 << 30
#: The most legal moves of a one-word placement game that `moves` sorts by rank as it finds them (insertion sort);
#: with more it looks up each of the board's cells in order.
SORTED_AT_MOST = 12

if numba.config.DISABLE_JIT:  # numba's intrinsic only compiles: the kernels as plain Python (differential tests)

    def trailing_zeros(x):
        """Index of the lowest set bit of a non-zero word."""
        return np.int64((int(x) & -int(x)).bit_length() - 1)
else:
    from numba.cpython.unsafe.numbers import trailing_zeros


R_legal: Callable
R_legal2: Callable  # the second part's cells, after the first (games whose moves have several parts)
R_legal3: Callable
R_play: Callable
R_result: Callable
R_pass: Callable
R_estimate: Callable
R_plies_left: Callable
R_to_move: Callable  # the side to move a position's words say (games with extra turns)
R_score: Callable  # the final score for the side to move (games that declare one)
R_decided: Callable  # the value for the side to move where the rules know it without search (games that declare it)
R_bound: Callable  # the best the side to move can reach, by the rules (games that declare it)
R_load: Callable
WORDS: int  # words of a position
LAYER: int  # words of a layer (of a mask of cells, and of a move's part)
PARTS: int  # parts of a move
BASE: int  # codes of one part: 64 per word of a layer
PASS_MOVE: int  # the code of the pass
TURN: bool  # whether the rules take the side to move first
KEYS: int  # keys of a frame: one per symmetry
HAS_PASS: bool  # whether the game has a pass_turn rule
HAS_TURNS: bool  # whether the rules say who moves (to_move): else the sides alternate
HAS_SCORE: bool  # whether the game declares a final score
DRAWS: bool  # whether the game may end in a draw (else a draw is a fault: see GameSpec.draws)
HAS_WON: bool  # whether the game declares `won` (its certificates end where a side has won: won_only)
R_won: Callable  # WIN or LOSS for the side to move where a side has won whatever is played (games that declare it)
HAS_DECIDED: bool  # whether the game declares `decided` (else its calls are pruned: a game without it runs no test)
HAS_BOUND: bool  # whether the game declares `bound`
REMAINING: int  # EMPTY_CELLS, PLIES_LEFT or UNBOUNDED


@njit(cache=True)
def popcount(x):
    """Number of set bits of a uint64."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555_5555_5555_5555))
    x = (x & np.uint64(0x3333_3333_3333_3333)) + ((x >> np.uint64(2)) & np.uint64(0x3333_3333_3333_3333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F_0F0F_0F0F_0F0F)
    return np.int64((x * np.uint64(0x0101_0101_0101_0101)) >> np.uint64(56))


@njit(cache=True)
def nothing(*words):
    """What the kernels bind a rule function the game does not have to: never called (its calls are pruned, or
    come only from a game that breaks its protocol)."""
    return words


@njit(cache=True)
def no_estimate(*words):
    return np.int64(0), np.int64(0)


# --- the rules, called the way the game takes them -----------------------------------------------------


def load(s, base):
    """The `WORDS` words from ``s[base]`` on, as a tuple."""
    if WORDS == 1:
        return (s[base],)
    if WORDS == 2:
        return (s[base], s[base + 1])
    if WORDS == 3:
        return (s[base], s[base + 1], s[base + 2])
    if WORDS == 4:
        return (s[base], s[base + 1], s[base + 2], s[base + 3])
    return to_fixed_tuple(s[base : base + WORDS], WORDS)


def part(cell):
    """The one-bit mask of a cell: a layer's words."""
    bit = np.uint64(1) << np.uint64(cell & 63)
    none = np.uint64(0)
    if LAYER == 1:
        return (bit,)
    word = cell >> 6
    if LAYER == 2:
        return (bit if word == 0 else none, bit if word == 1 else none)
    if LAYER == 3:
        return (bit if word == 0 else none, bit if word == 1 else none, bit if word == 2 else none)
    if LAYER == 4:
        return (bit if word == 0 else none, bit if word == 1 else none, bit if word == 2 else none,
                bit if word == 3 else none)
    words = np.zeros(LAYER, dtype=np.uint64)
    words[cell >> 6] = np.uint64(1) << np.uint64(cell & 63)
    return to_fixed_tuple(words, LAYER)


def as_mask(value):
    """A mask a rule returned, as a tuple of a layer's words."""
    if LAYER == 1:
        return (value,)
    return value


def given(to_move, arguments):
    """The arguments of a rule function: the side to move first where the rules take it."""
    if TURN:
        return (np.uint64(to_move),) + arguments
    return arguments


def first_parts(to_move, words):
    return as_mask(R_legal(*given(to_move, words)))


def second_parts(to_move, words, first):
    """The cells of the second part of a move whose first part is the cell `first`."""
    return as_mask(R_legal2(*given(to_move, words + part(first))))


def third_parts(to_move, words, first, second):
    """The cells of the third part of a move whose first parts are the cells `first` and `second`."""
    return as_mask(R_legal3(*given(to_move, words + part(first) + part(second))))


def played(to_move, words, move):
    """The position after the move of code `move` (not the pass)."""
    if PARTS == 1:
        return R_play(*given(to_move, words + part(move)))
    if PARTS == 2:
        return R_play(*given(to_move, words + part(move // BASE) + part(move % BASE)))
    return R_play(*given(to_move, words + part(move // (BASE * BASE)) + part(move // BASE % BASE) + part(move % BASE)))


def side_after(to_move, child):
    """The side to move at `child`, reached by a move of `to_move`'s: the rules' to_move where the game has one
    (a value other than 0 or 1 is a fault the callers report), else the other side."""
    if HAS_TURNS:
        return np.int64(R_to_move(*child))
    return 1 - to_move


def any_set(mask):
    found = False
    for w in range(LAYER):
        if mask[w] != np.uint64(0):
            found = True
    return found


# --- the df-pn kernel protocol (see gameproof.search.dfpn.Kernels) ------------------------------------


def mover(s):
    return np.int64(s[np.int64(s[0]) + WORDS + LAYER])


def remaining(s, g):
    base = np.int64(s[0])
    if REMAINING == UNBOUNDED:
        return np.int64(FAR)
    if REMAINING == PLIES_LEFT:
        return np.int64(R_plies_left(*given(s[base + WORDS + LAYER], load(s, base))))
    filled = np.int64(0)
    for w in range(LAYER):
        occupied = np.uint64(0)
        for layer in range(WORDS // LAYER):
            occupied |= s[base + layer * LAYER + w]
        filled += popcount(occupied & g[1][INFO_MASKS + w])
    return np.int64(g[1][INFO_CELLS]) - filled


def room(s):
    return (np.int64(s.size) - np.int64(s[0])) // np.int64(s[1]) - 1


def moves(s, g, out):
    if PARTS == 1 and LAYER == 1:  # one word of cells: the code placement games always ran (the loops below cost 10%)
        return one_word_placements(s[np.int64(s[0]) + WORDS], g[2], g[1][INFO_MASKS], out)
    # g[2]: the game's move ranks (Game.move_ranks): the board's cells in order, then each code's rank
    base = np.int64(s[0])
    legal = base + WORDS  # the first parts' mask, in the frame
    empty = True
    for w in range(LAYER):
        if s[legal + w] != np.uint64(0):
            empty = False
    if empty:
        out[0] = PASS_MOVE
        return 1
    to_move = np.int64(s[base + WORDS + LAYER])
    ranked = g[2]
    n = 0
    for i in range(ranked.size - BASE):  # the board's cells in the declared order
        cell = ranked[i]
        if (s[legal + (cell >> 6)] >> np.uint64(cell & 63)) & np.uint64(1):
            n = starting_on(s, base, to_move, cell, out, n)
            if n < 0:
                return n
    for w in range(LAYER):  # lowest first: every cell without an order, else only what is off the board (a bug's)
        cells = s[legal + w]
        if ranked.size > 0:
            cells &= ~g[1][INFO_MASKS + w]
        while cells != np.uint64(0):
            cell = 64 * w + trailing_zeros(cells)
            cells &= cells - np.uint64(1)
            n = starting_on(s, base, to_move, cell, out, n)
            if n < 0:
                return n
    return n


def starting_on(s, base, to_move, cell, out, n):
    """Writes the moves whose first part is the cell `cell` to ``out[n:]`` (in a placement game, the cell: `out`
    has room for every cell); the new count, or minus a fault."""
    if PARTS == 1:
        out[n] = cell
        return n + 1
    return continued(to_move, load(s, base), cell, out, n)


def one_word_placements(legal, ranked, board, out):
    """Writes the cells of the word `legal` to `out` (in the order of the move ranks `ranked` where there are any;
    `board`: the board's cells); their count (a pass where there are none)."""
    if legal == np.uint64(0):
        out[0] = PASS_MOVE
        return 1
    n = 0
    if ranked.size > 0 and popcount(legal) <= SORTED_AT_MOST:  # a few moves (Connect Four's): sorted as they come
        while legal != np.uint64(0):
            cell = trailing_zeros(legal)
            legal &= legal - np.uint64(1)
            rank = ranked[ranked.size - 64 + cell]
            j = n
            while j > 0 and ranked[ranked.size - 64 + out[j - 1]] > rank:
                out[j] = out[j - 1]
                j -= 1
            out[j] = cell
            n += 1
        return n
    if ranked.size > 0:  # many moves: the board's cells in order, each looked up; then what is off the board
        for i in range(ranked.size - 64):
            if (legal >> np.uint64(ranked[i])) & np.uint64(1):
                out[n] = ranked[i]
                n += 1
        legal &= ~board
    while legal != np.uint64(0):
        out[n] = trailing_zeros(legal)
        legal &= legal - np.uint64(1)
        n += 1
    return n


def continued(to_move, words, first, out, n):
    """Writes the codes of the moves (of a game whose moves have several parts) whose first part is the cell
    `first` to ``out[n:]``; the new count, or minus a fault."""
    seconds = second_parts(to_move, words, first)
    if not any_set(seconds):
        return -DEAD_END
    for w in range(LAYER):
        cells = seconds[w]
        while cells != np.uint64(0):
            second = 64 * w + trailing_zeros(cells)
            cells &= cells - np.uint64(1)
            if PARTS == 2:
                if n >= out.size:
                    return -TOO_MANY_MOVES
                out[n] = first * BASE + second
                n += 1
            else:
                thirds = third_parts(to_move, words, first, second)
                if not any_set(thirds):
                    return -DEAD_END
                for v in range(LAYER):
                    lasts = thirds[v]
                    while lasts != np.uint64(0):
                        if n >= out.size:
                            return -TOO_MANY_MOVES
                        out[n] = (first * BASE + second) * BASE + 64 * v + trailing_zeros(lasts)
                        lasts &= lasts - np.uint64(1)
                        n += 1
    return n


def swapped(a, to_move):
    """The word of a perspective game's position (mover's layer first) that holds absolute word `a`."""
    if to_move == 0 or a >= 2 * LAYER:
        return a
    return (a + LAYER) % (2 * LAYER)


def play(s, g, move):
    base, size = np.int64(s[0]), np.int64(s[1])
    following = base + size
    words = load(s, base)
    to_move = np.int64(s[base + WORDS + LAYER])
    if HAS_PASS and move == PASS_MOVE:
        child = R_pass(*given(to_move, words))
    else:
        child = played(to_move, words, move)  # moves() gives no pass to a game without one
    for i in range(WORDS):
        s[following + i] = child[i]
    side = side_after(to_move, child)
    legal = first_parts(side, child)
    for w in range(LAYER):
        s[following + WORDS + w] = legal[w]
    s[following + WORDS + LAYER] = np.uint64(side)
    s[0] = np.uint64(following)
    weights, info = g[0], g[1]
    keys = WORDS + LAYER + 1
    for k in range(KEYS):
        s[following + keys + k] = s[base + keys + k]
    perspective = info[INFO_PERSPECTIVE] != np.uint64(0)
    for a in range(WORDS):  # the words read back from the frames: a tuple indexed at run time is slow
        before, after = s[base + a], s[following + a]
        if perspective:
            before, after = s[base + swapped(a, to_move)], s[following + swapped(a, 1 - to_move)]
        added, removed = after & ~before, before & ~after
        while added != np.uint64(0):
            bit = trailing_zeros(added)
            added &= added - np.uint64(1)
            for k in range(KEYS):
                s[following + keys + k] += weights[k, a, bit]
        while removed != np.uint64(0):
            bit = trailing_zeros(removed)
            removed &= removed - np.uint64(1)
            for k in range(KEYS):
                s[following + keys + k] -= weights[k, a, bit]
    if HAS_TURNS and (side < 0 or side > 1):
        return BAD_TURN
    if any_set(legal):  # the guards at the end: a return before the frame is written costs 20% of the speed
        if child == words and move != PASS_MOVE:
            return UNCHANGED
        if info[INFO_LOOKAHEAD] != np.uint64(0) and wins_at_once(side, child, legal):
            return MOVER_LOSES
        if HAS_DECIDED or HAS_WON:
            known = decided_at(info, side, child)  # for the side to move next
            if known != ONGOING:
                return settled(known, side == to_move)
        if PROBE:
            return probed(s, g, following, side == to_move)
        return CONTINUE
    outcome = R_result(*given(side, child))  # for the side to move next
    if HAS_SCORE and outcome != ONGOING and info[INFO_SCORED] != np.uint64(0):
        return against_threshold(to_move, side, child, outcome, info)
    if outcome != ONGOING:  # an extra turn that ends the game: its result is the mover's own
        return settled(outcome, side == to_move)
    if not HAS_PASS or move == PASS_MOVE:
        return NO_MOVE  # the side to move can neither move nor pass, or both sides pass
    return CONTINUE


def decided_at(info, side, child):
    """What the rules' ``decided`` (or ``won``, as the info table says) knows of the position `child`, `side` to move
    (each call is compiled only for a game that declares the function: an unpruned call of `nothing` would not type)."""
    if HAS_WON:
        if info[INFO_DECIDED] == np.uint64(BY_WON):
            return R_won(*given(side, child))
    if HAS_DECIDED:
        if info[INFO_DECIDED] == np.uint64(BY_DECIDED):
            return R_decided(*given(side, child))
    return ONGOING


def settled(known, same):
    """What the value `known` of a position for its side to move (the game's result there, or what its `decided`
    says) is for the mover who reached it (`same`: the mover moves there again): an end of the game, or a fault for
    a code that is no value, or for a draw in a game that declares none (its searches count on that)."""
    if known == WIN:
        return MOVER_WINS if same else MOVER_LOSES
    if known == LOSS:
        return MOVER_LOSES if same else MOVER_WINS
    if known == DRAW:
        return RESULT_DRAW if DRAWS else DRAWN
    return UNKNOWN_RESULT


def probed(s, g, frame, same):
    """With a tablebase's sorted keys ``g[3]`` and values ``g[4]`` (for the side to move there): the result for the
    mover of the position in `frame` (reached by the mover's move; `same`: the mover moves there again) when the
    table holds it, as if the game ended there; CONTINUE when it does not."""
    first = frame + WORDS + LAYER + 1
    key = s[first]
    for k in range(1, KEYS):
        if s[first + k] < key:
            key = s[first + k]
    key += s[first - 1] * g[1][INFO_TO_MOVE_TERM]
    keys = g[3]
    at = np.searchsorted(keys, key)
    if at >= keys.size or keys[at] != key:
        return CONTINUE
    value = g[4][at]
    if value == 0:
        return RESULT_DRAW
    return MOVER_WINS if (value > 0) == same else MOVER_LOSES


def against_threshold(to_move, after, child, outcome, info):
    """The result, for `to_move` who made the move, of the finished game `child` (`after` to move there, whose
    result is `outcome`) as the question of the tables `info` counts it: the first player wins above the threshold,
    draws at it and loses below; a fault for a score past MAX_SCORE or whose sign disagrees with the result."""
    if outcome != WIN and outcome != LOSS and outcome != DRAW:
        return UNKNOWN_RESULT
    score = np.int64(R_score(*given(after, child)))
    if score > MAX_SCORE or score < -MAX_SCORE or (score > 0) != (outcome == WIN) or (score < 0) != (outcome == LOSS):
        return BAD_SCORE
    first = score if after == 0 else -score
    threshold = np.int64(info[INFO_THRESHOLD]) - THRESHOLD_OFFSET
    if first == threshold:
        return RESULT_DRAW
    return MOVER_WINS if (first > threshold) == (to_move == 0) else MOVER_LOSES


def wins_at_once(to_move, words, legal):
    """Whether `to_move`, to move in a placement game, has a move that ends the game in its favour."""
    for w in range(LAYER):
        cells = legal[w]
        while cells != np.uint64(0):
            cell = 64 * w + trailing_zeros(cells)
            cells &= cells - np.uint64(1)
            after = played(to_move, words, cell)
            if not any_set(first_parts(1 - to_move, after)) and R_result(*given(1 - to_move, after)) == LOSS:
                return True
    return False


def undo(s, g, move):
    s[0] -= s[1]


def key(s, g):
    first = np.int64(s[0]) + WORDS + LAYER + 1
    best = s[first]
    for k in range(1, KEYS):
        if s[first + k] < best:
            best = s[first + k]
    return best + s[first - 1] * g[1][INFO_TO_MOVE_TERM]


def estimate(s, g, attacker):
    base = np.int64(s[0])
    to_move = np.int64(s[base + WORDS + LAYER])
    for_mover, for_other = R_estimate(*given(to_move, load(s, base)))
    if to_move == attacker:
        return bounded(for_other), bounded(for_mover)
    return bounded(for_mover), bounded(for_other)


def bound(s, g):
    """The best the side to move can reach, by the rules' ``bound``: 1 (a win, which bounds nothing), 0 (at most a
    draw) or -1 (a loss); 1 for a game without it, where the tables turn it off, and for a code that is no value."""
    if not HAS_BOUND or g[1][INFO_BOUND] == np.uint64(0):
        return np.int64(1)
    base = np.int64(s[0])
    code = R_bound(*given(np.int64(s[base + WORDS + LAYER]), load(s, base)))
    if code == LOSS:
        return np.int64(-1)
    if code == DRAW:
        return np.int64(0)
    return np.int64(1)


def bounded(count):
    """A count of the rules' estimate within 0 .. MAX_ESTIMATE, the range the self-check holds it to only where its
    random games went: larger or negative, it would give a fresh node's proof numbers that claim a proof."""
    if count <= 0:
        return np.int64(0)
    if count >= MAX_ESTIMATE:
        return np.int64(MAX_ESTIMATE)
    return np.int64(count)


def without_decided(tables: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """The kernel `tables` with the game's `decided` and `bound` off (the same tables where they are off already):
    every game is then played to its real end, as certificates, distances, scores and tablebases need (a position
    `decided` settles is no end of the game to the independent checker, says nothing of the plies to the end, nor of
    the score; a bound on the value says nothing of either)."""
    info = tables[1]
    if info[INFO_DECIDED] == 0 and info[INFO_BOUND] == 0:
        return tables
    info = info.copy()
    info[INFO_DECIDED] = info[INFO_BOUND] = 0
    return (tables[0], info, *tables[2:])


def won_only(tables: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """The kernel `tables` of a game that declares ``won``, with its ``decided`` and ``bound`` off and ``won`` on: a
    game is played to its real end, or to where a side has won whatever is played, which the certificate checker
    verifies with a module of its own for the game (:mod:`gameproof.certify.won`)."""
    info = tables[1].copy()
    info[INFO_DECIDED], info[INFO_BOUND] = BY_WON, 0
    return (tables[0], info, *tables[2:])


def threshold_of(tables: tuple[np.ndarray, ...]) -> int | None:
    """The first player's score threshold of the question the kernels' `tables` ask (see Game.scored_tables), or None
    for the game's own win/draw/loss."""
    info = tables[1]
    return int(info[INFO_THRESHOLD]) - THRESHOLD_OFFSET if info[INFO_SCORED] else None


def position(s: np.ndarray, layer_words: int) -> tuple[tuple[int, ...], int]:
    """The words and the side to move of a df-pn state's current frame, as Python ints (`layer_words`: the
    words of a layer of the game's board)."""
    base, count = int(s[0]), int(s[2])
    frame = s[base : base + count + layer_words + 1].tolist()
    return tuple(frame[:count]), frame[count + layer_words]


# --- perft ---------------------------------------------------------------------------------------------


def perft(words, to_move, depth, count_finished, pass_is_ply, status, buffer):
    """Move paths of `depth` plies (see :mod:`gameproof.games.othello.perft` for the conventions); 0 once
    ``status[0]`` holds a reason to stop (a signal, or a fault this writes with the depth left). ``buffer``
    holds the moves of each depth of a game whose moves have several parts."""
    status, buffer = borrowed((status, buffer))
    legal = first_parts(to_move, words)
    if not any_set(legal):
        outcome = R_result(*given(to_move, words))
        if outcome != ONGOING:
            if np.uint64(outcome) > np.uint64(DRAW):
                halt(status, 0, UNKNOWN_RESULT, depth)
            return np.uint64(1) if count_finished else np.uint64(0)
        if not HAS_PASS:
            halt(status, 0, NO_MOVE, depth)
            return np.uint64(0)
        passed = R_pass(*given(to_move, words))
        after = side_after(to_move, passed)
        if after < 0 or after > 1:
            halt(status, 0, BAD_TURN, depth)
            return np.uint64(0)
        if not any_set(first_parts(after, passed)) and R_result(*given(after, passed)) == ONGOING:
            halt(status, 0, NO_MOVE, depth)
            return np.uint64(0)
        if not pass_is_ply:
            return perft(passed, after, depth, count_finished, pass_is_ply, status, buffer)
        if depth == 1:
            return np.uint64(1)
        return perft(passed, after, depth - 1, count_finished, pass_is_ply, status, buffer)
    if PARTS == 1:  # a placement game: the last ply counted without a call (most of the work)
        if depth == 1:
            count = np.int64(0)
            for w in range(LAYER):
                count += popcount(legal[w])
            return np.uint64(count)
        total = np.uint64(0)
        for w in range(LAYER):
            cells = legal[w]
            while cells != np.uint64(0) and status[0] == 0:
                cell = 64 * w + trailing_zeros(cells)
                cells &= cells - np.uint64(1)
                child = played(to_move, words, cell)
                if child == words:
                    halt(status, 0, UNCHANGED, depth - 1)
                after = side_after(to_move, child)
                if after < 0 or after > 1:
                    halt(status, 0, BAD_TURN, depth - 1)
                    return np.uint64(0)
                replies = first_parts(after, child)
                if LAYER == 1 and depth == 2 and replies[0] != np.uint64(0):
                    total += np.uint64(popcount(replies[0]))
                else:
                    total += perft(child, after, depth - 1, count_finished, pass_is_ply, status, buffer)
        return total
    out = buffer[depth]
    n = np.int64(0)
    for w in range(LAYER):
        cells = legal[w]
        while cells != np.uint64(0) and n >= 0:
            n = continued(to_move, words, 64 * w + trailing_zeros(cells), out, n)
            cells &= cells - np.uint64(1)
    if n < 0:
        halt(status, 0, -n, depth)
        return np.uint64(0)
    if depth == 1:
        return np.uint64(n)
    total = np.uint64(0)
    for i in range(n):
        if status[0] != 0:
            break
        child = played(to_move, words, out[i])
        if child == words:
            halt(status, 0, UNCHANGED, depth - 1)
        after = side_after(to_move, child)
        if after < 0 or after > 1:
            halt(status, 0, BAD_TURN, depth - 1)
            return np.uint64(0)
        total += perft(child, after, depth - 1, count_finished, pass_is_ply, status, buffer)
    return total


def run_perft(game: Game, words: tuple[int, ...], to_move: int, depth: int, count_finished: bool,
              pass_is_ply: bool) -> int:
    """The perft kernel of `game` from the position `words` (`to_move` to play), stoppable by a signal; a fault
    raises :class:`~gameproof.interrupts.RulesBroken` at the depth (plies from the position) it was found."""
    status = np.zeros(2, dtype=np.int64)
    buffer = np.zeros((depth + 1, 1 if game.is_placement else game.max_moves), dtype=np.int64)
    with stoppable(status, 0):
        paths = int(game.perft_kernel(tuple(np.uint64(word) for word in words), np.int64(to_move), np.int64(depth),
                                      count_finished, pass_is_ply, status, buffer))
    status[1] = depth - status[1]  # plies from the position, where the kernel wrote the plies left
    raise_for_halt(status, 0, depth)
    return paths


def derive(game: Game, probe: bool = False) -> tuple[Kernels, Callable]:
    """df-pn kernels and a perft kernel for one game's compiled rules; with `probe`, kernels whose ``play`` ends the
    game at any position a tablebase given with the tables holds (:func:`probed`)."""
    from gameproof.search import dfpn

    compiled = game.compiled
    later = [getattr(compiled, f"legal_{name}") for name in game.spec.parts[1:]]
    if game.has_plies_left:
        remaining_by = PLIES_LEFT
    else:  # empty cells bound a placement game's plies, unless a move may leave the same side to move
        remaining_by = EMPTY_CELLS if game.is_placement and not game.has_turns else UNBOUNDED
    bindings = {
        "R_legal": compiled.legal, "R_legal2": later[0] if later else nothing,
        "R_legal3": later[1] if len(later) > 1 else nothing, "R_play": compiled.play, "R_result": compiled.result,
        "R_pass": getattr(compiled, "pass_turn", nothing), "R_estimate": getattr(compiled, "estimate", no_estimate),
        "R_plies_left": getattr(compiled, "plies_left", nothing), "R_to_move": getattr(compiled, "to_move", nothing),
        "R_score": getattr(compiled, "score", nothing), "R_decided": getattr(compiled, "decided", nothing),
        "R_bound": getattr(compiled, "bound", nothing), "HAS_BOUND": game.has_bound,
        "WORDS": game.words, "LAYER": game.layer_words, "PARTS": game.codes.parts, "BASE": game.codes.base,
        "PASS_MOVE": game.pass_move, "TURN": game.spec.turn_argument, "KEYS": len(game.symmetries),
        "HAS_PASS": game.has_passes, "HAS_TURNS": game.has_turns, "HAS_SCORE": game.has_score,
        "HAS_DECIDED": game.has_decided, "DRAWS": game.spec.draws, "HAS_WON": game.has_won,
        "R_won": getattr(compiled, "won", nothing),
        "REMAINING": remaining_by, "PROBE": int(probe),
    }
    templates = (load, part, as_mask, given, first_parts, second_parts, third_parts, played, side_after, any_set, mover,
                 remaining, room, moves, starting_on, one_word_placements, continued, swapped, play, decided_at, settled,
                 probed, against_threshold, wins_at_once, undo, key, estimate, bound, bounded, perft)
    made = specialise(templates, bindings, depends_on=[dfpn, borrowing], fingerprint=game.fingerprint)
    kernels = Kernels(made.mover, made.remaining, made.moves, made.play, made.undo, made.key, made.estimate, made.room,
                      made.bound, game.has_turns)
    return kernels, made.perft
