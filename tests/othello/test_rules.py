"""The bitboard rules against the naive square-by-square reference, in every form they run."""

import os
import subprocess
import sys

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import uint64

from gameproof.games.othello import kernels, reference, rules

POSITIONS_COMPARED = 100_000


@numba.njit(cache=True)
def _compare_on_random_playouts(seed, wanted):
    """Play random games; at every position compare legal moves and every move's flips.

    Returns (positions checked, player, opponent) where the pair is a position that disagreed, or 0, 0.
    """
    np.random.seed(seed)
    checked = 0
    while checked < wanted:
        player, opponent = uint64(rules.START_BLACK), uint64(rules.START_WHITE)
        while True:
            moves = kernels.legal_moves(player, opponent)
            checked += 1
            if uint64(reference.legal_squares(player, opponent)) != moves:
                return checked, player, opponent
            count = 0
            for square in range(64):
                if moves >> uint64(square) & uint64(1):
                    count += 1
                    bit = uint64(1) << uint64(square)
                    if kernels.flips(player, opponent, bit) != uint64(
                        reference.flipped_squares(player, opponent, square)
                    ):
                        return checked, player, opponent
            if count == 0:
                if kernels.legal_moves(opponent, player) == 0:
                    break
                player, opponent = opponent, player
                continue
            pick = np.random.randint(count)
            for square in range(64):
                if moves >> uint64(square) & uint64(1):
                    if pick == 0:
                        player, opponent = kernels.after_move(player, opponent, uint64(1) << uint64(square))
                        break
                    pick -= 1
    return checked, uint64(0), uint64(0)


def test_kernels_match_reference_on_100k_playout_positions():
    checked, player, opponent = _compare_on_random_playouts(2026, POSITIONS_COMPARED)
    assert (player, opponent) == (0, 0), f"disagreement at player={player:#x} opponent={opponent:#x}"
    assert checked >= POSITIONS_COMPARED


def _reference_legal(player, opponent):
    return int(reference.legal_squares(np.uint64(player), np.uint64(opponent))) & rules.M64


def _reference_flips(player, opponent, square):
    return int(reference.flipped_squares(np.uint64(player), np.uint64(opponent), square)) & rules.M64


def _random_position(choices):
    """A position reached by playing, at each ply, the legal move picked by the next choice."""
    player, opponent = rules.START_BLACK, rules.START_WHITE
    for choice in choices:
        moves = _reference_legal(player, opponent)
        if moves == 0:
            if _reference_legal(opponent, player) == 0:
                break
            player, opponent = opponent, player
            continue
        squares = [s for s in range(64) if moves >> s & 1]
        player, opponent = rules.after_move(player, opponent, 1 << squares[choice % len(squares)])
    return player, opponent


playouts = st.lists(st.integers(0, 63), max_size=60).map(_random_position)


@settings(max_examples=150, deadline=None)
@given(playouts)
def test_python_rules_match_reference(position):
    player, opponent = position
    moves = rules.legal_moves(player, opponent)
    assert moves == _reference_legal(player, opponent)
    for square in range(64):
        expected = _reference_flips(player, opponent, square)
        if moves >> square & 1:
            assert rules.flips(player, opponent, 1 << square) == expected


@settings(max_examples=300, deadline=None)
@given(playouts)
def test_kernels_match_python_rules(position):
    player, opponent = position
    p, o = np.uint64(player), np.uint64(opponent)
    assert kernels.legal_moves(p, o) == rules.legal_moves(player, opponent)
    assert kernels.popcount(p) == rules.popcount(player) == bin(player).count("1")
    assert kernels.is_game_over(p, o) == rules.is_game_over(player, opponent)
    moves = rules.legal_moves(player, opponent)
    assert kernels.lowest_bit(np.uint64(moves)) == rules.lowest_bit(moves) == moves & -moves
    for square in range(64):
        if moves >> square & 1:
            after = kernels.after_move(p, o, np.uint64(1 << square))
            assert tuple(int(x) for x in after) == rules.after_move(player, opponent, 1 << square)


@given(st.integers(0, (1 << 64) - 1))
def test_popcount_and_lowest_bit_on_any_word(word):
    assert rules.popcount(word) == bin(word).count("1")
    assert rules.lowest_bit(word) == word & -word


def test_the_uncompiled_kernels_agree_under_numba_disable_jit():
    script = (
        "import numpy as np\n"
        "np.seterr(over='ignore')\n"
        "from gameproof.games.othello.perft import perft\n"
        "from gameproof.games.othello import rules\n"
        "import importlib, sys\n"
        "test = importlib.import_module('test_rules')\n"
        "assert perft(rules.START_BLACK, rules.START_WHITE, 5) == 1396\n"
        "checked, p, o = test._compare_on_random_playouts(7, 300)\n"
        "assert (p, o) == (0, 0), (hex(p), hex(o))\n"
        "print('ok', checked)\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=os.path.dirname(__file__))
    done = subprocess.run(
        [sys.executable, "-W", "ignore::RuntimeWarning", "-c", script], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok")
