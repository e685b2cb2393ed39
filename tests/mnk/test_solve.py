"""df-pn values against published facts (golden data) and against the plain pure-Python minimax."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.answers import Value
from gameproof.games.mnk import reference
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.search.dfpn import Options
from gameproof.search.solve import solve

from .conftest import GOLDEN

VALUE = {1: "win", 0: "draw", -1: "loss"}
PLAIN = Options(wpns=False, epsilon=0.0, heuristic=0, brute_force=0, tt_mb=4)
VARIANTS_OF_OPTIONS = [Options(tt_mb=4), PLAIN, Options(wpns=False, tt_mb=4), Options(heuristic=0, tt_mb=4),
                       Options(epsilon=0.0, brute_force=0, tt_mb=4), Options(tt_mb=0.001)]


@pytest.mark.parametrize("case", GOLDEN["games"], ids=lambda c: c["game"])
def test_golden_values(case):
    state = MnkState(case["game"])
    solution = solve(state, Options(tt_mb=32))
    named = {state.move_name(m): v for m, v in solution.moves.items()}
    assert solution.value == case["value"]
    assert {sq: named[sq] for sq in case.get("moves", {})} == case.get("moves", {})
    assert len(named) == state.game.cells and solution.nodes > 0


@pytest.mark.slow
@pytest.mark.parametrize("case", GOLDEN["slow_games"], ids=lambda c: c["game"])
def test_golden_values_slow(case):
    options = Options(tt_mb=512, heuristic=case.get("heuristic", Options.heuristic))
    assert solve(MnkState(case["game"]), options, with_moves=False).value == case["value"]


@pytest.mark.parametrize("name", ["mnk:3,3,3", "mnk-misere:3,3,3", "mnk-notakto:3,3,3", "mnk:3,4,3", "mnk-misere:4,3,3", "mnk-notakto:2,5,2"])
@pytest.mark.parametrize("options", VARIANTS_OF_OPTIONS, ids=["default", "plain", "no-wpns", "no-heuristic", "no-eps-no-brute", "tiny-tt"])
def test_every_move_matches_minimax_under_every_switch(name, options):
    state = MnkState(name)
    expected = reference.move_values("-" * state.game.cells, state.game.rows, state.game.cols, state.game.k, state.game.variant)
    solution = solve(state, options)
    assert solution.moves == {m: VALUE[v] for m, v in expected.items()}
    assert solution.value == VALUE[max(expected.values())]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["mnk:4,4,3", "mnk-misere:4,4,3", "mnk-notakto:4,4,3", "mnk:4,4,4", "mnk-misere:5,4,3", "mnk-notakto:4,5,4"]),
       st.integers(6, 10), st.integers(0, 2**32 - 1))
def test_random_positions_match_minimax(name, stones, seed):
    rng = random.Random(seed)
    state = MnkState(name)
    while len(state.history) < stones and not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    solution = solve(state, Options(tt_mb=2))
    if state.is_over():
        assert solution.moves == {}
        return
    game = state.game
    expected = reference.move_values(state.marks(), game.rows, game.cols, game.k, game.variant)
    assert solution.moves == {m: VALUE[v] for m, v in expected.items()}
    assert solution.value == VALUE[max(expected.values())]
    # The value alone, whichever question is asked first.
    for expect in (None, Value.WIN, Value.DRAW, Value.LOSS):
        assert solve(state, Options(tt_mb=2), with_moves=False, expect=expect).value == solution.value


def test_a_kept_table_gives_the_answers_of_fresh_searches():
    from gameproof.games.mnk.positions import levels

    game = MnkGame(4, 4, 3, "misere")
    positions = [state for state in levels(game, 2)[2] if not state.is_over()]
    kept = [solve(state, keep_table=True) for state in positions]
    fresh = [solve(state) for state in positions]
    assert [(s.value, s.moves) for s in kept] == [(s.value, s.moves) for s in fresh]
    # Later positions reuse what earlier ones proved: far fewer nodes in all.
    assert sum(s.nodes for s in kept) < sum(s.nodes for s in fresh) / 2
