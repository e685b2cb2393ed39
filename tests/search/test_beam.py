"""The beam search finds only what is there, on a toy state space checked by brute force, and on Othello."""

import itertools

import pytest

from gameproof.games.othello import rules
from gameproof.games.othello.notation import PASS
from gameproof.games.othello.reach import replay, search_witness
from gameproof.search.beam import beam_search

MODULUS = 101


def _successors(state):
    """A toy game on residues: add one, double, or square (steps named by the letters)."""
    return [(("a",), (state + 1) % MODULUS), (("d",), 2 * state % MODULUS), (("s",), state * state % MODULUS)]


def _play(state, steps):
    for step in steps:
        state = dict((name, child) for (name,), child in _successors(state))[step]
    return state


def _reachable(start, plies, exact):
    """Every state within (exactly) `plies` plies, by brute force over all step sequences."""
    found = set()
    for length in ([plies] if exact else range(plies + 1)):
        found |= {_play(start, steps) for steps in itertools.product("ads", repeat=length)}
    return found


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("width", [1, 3, 1000])
def test_a_beam_finds_only_reachable_states_and_its_steps_lead_there(exact, width):
    start, plies = 3, 4
    reachable = _reachable(start, plies, exact)
    for target in range(MODULUS):
        found = beam_search(start, _successors, lambda state: state, lambda state: state == target, plies, exact,
                            widths=(width,))
        if found is None:
            assert width < 1000 or target not in reachable  # a beam as wide as the space misses nothing
            continue
        assert found.state == target in reachable and _play(start, found.steps) == target
        assert len(found.steps) == plies if exact else len(found.steps) <= plies
        assert found.width == width


def test_wider_beams_are_tried_until_one_drops_no_state():
    tried = []

    def successors(state):
        tried.append(state)
        return _successors(state)

    # Nothing is wanted: every width runs, except those after the first that never had to drop a state.
    assert beam_search(3, successors, lambda state: state, lambda state: False, 2, widths=(1, 100, 1000)) is None
    assert len(tried) == 2 + (1 + 3)  # width 1: the start and one child; width 100: the start and its 3 children


def test_a_beam_out_of_time_finds_nothing():
    assert beam_search(3, _successors, lambda state: state, lambda state: state == 100, 4, seconds=-1.0) is None
    assert beam_search(3, _successors, lambda state: state, lambda state: state == 3, 4, seconds=-1.0).steps == ()


def _most_legal_moves_within(moves):
    """The most legal moves any position within `moves` moves has, by brute force (strict rules)."""
    frontier, best = {(rules.START_BLACK, rules.START_WHITE)}, 4
    for _ in range(moves):
        following = set()
        for player, opponent in frontier:
            legal = rules.legal_moves(player, opponent)
            following |= {rules.after_move(player, opponent, 1 << s) for s in range(64) if legal >> s & 1}
        frontier = {(o, p) if not rules.legal_moves(p, o) and rules.legal_moves(o, p) else (p, o) for p, o in following}
        best = max(best, *(rules.popcount(rules.legal_moves(p, o)) for p, o in frontier))
    return best


@pytest.mark.parametrize("moves", [0, 1, 2, 3, 4, 5, 6])
def test_othello_beam_witnesses_replay_and_never_beat_brute_force(moves):
    best = _most_legal_moves_within(moves)
    assert search_witness(best + 1, moves) is None
    found = search_witness(best, moves)
    if found is None:  # a greedy beam misses the very best from 5 moves on (the formulas then answer), not by much
        assert moves >= 5
        found = search_witness(best - 2, moves)
    assert found.status == "sat" and found.encoding == "beam"
    again = replay(found.witness.moves)
    assert again.strict and again.legal_move_count >= found.min_legal and again.discs_placed <= moves


def test_othello_beam_records_a_forced_pass_and_honours_exact():
    # Twenty legal moves within 20 moves: found in a blink; after exactly 20 moves the witness has 20 discs placed.
    exact = search_witness(20, 20, exact=True)
    assert exact.witness.discs_placed == 20 and exact.exact and exact.witness.legal_move_count >= 20
    state = (rules.START_BLACK, rules.START_WHITE, rules.legal_moves(rules.START_BLACK, rules.START_WHITE))
    from gameproof.games.othello.reach import _children

    # Black a1, white b1 and d1: black's c1 leaves white without a move while black has one, so the child
    # records the forced pass and black is to move again.
    black, white = 0x1, 0xA
    steps = dict(_children((black, white, rules.legal_moves(black, white))))
    assert steps[(2, PASS)] == (0x7, 0x8, rules.legal_moves(0x7, 0x8)) != (0x7, 0x8, 0)
    assert all(len(step) == 1 for step in dict(_children(state)))
