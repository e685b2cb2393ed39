"""Connect Four's bound (claimeven, and no four left to make): never below the value plain minimax gives, and
alpha-beta with it gives what alpha-beta without it gives. A wrong bound would be a wrong answer."""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from gameproof.framework.declaration import DRAW, LOSS, WIN
from gameproof.framework.derived import INFO_BOUND, without_decided
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search import alphabeta
from gameproof.search.dfpn import Options
from tests.games.test_declared_games import _minimax

AS_NUMBER = {WIN: 1, DRAW: 0, LOSS: -1}


def _random_positions(state: RulesState, rng: random.Random, count: int, least: int, most: int):
    """`count` positions, not over, after `least` .. `most` random moves from `state`."""
    found = 0
    while found < count:
        here = state.copy()
        for _ in range(rng.randrange(least, most + 1)):
            if here.is_over():
                break
            here.play(rng.choice(here.legal_moves()))
        if not here.is_over():
            found += 1
            yield here


@pytest.mark.parametrize(("name", "least"), [("connect4:4,4", 0), ("connect4:5,4", 2), ("connect4:6,4", 8),
                                             ("connect4:4,6", 10)])
def test_the_bound_is_never_below_the_value(name, least):
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    game = load_game(name)
    value = _minimax(game)
    bounds = Counter()
    for state in _random_positions(RulesState(game), random.Random(name), 150, least, least + 10):
        code = game.rules.bound(*state.words)
        bounds[code] += 1
        assert value(tuple(state.words)) <= AS_NUMBER[code], (state, code)
    assert bounds[DRAW] and bounds[LOSS] and bounds[WIN], bounds  # the bound at work, not WIN everywhere


@pytest.mark.parametrize(("name", "least"), [("connect4:6,4", 4), ("connect4:7,4", 6), ("connect4:6,6", 16),
                                             ("connect4:5,6", 10)])
def test_alpha_beta_answers_the_same_with_and_without_the_bound(name, least):
    game = load_game(name)
    assert game.has_bound and game.tables[1][INFO_BOUND] == 1
    plain = without_decided(game.tables)
    assert plain[1][INFO_BOUND] == 0
    nodes = Counter()
    for state in _random_positions(RulesState(game), random.Random(name), 12, least, least + 6):
        answers = []
        for label, tables in (("bound", game.tables), ("plain", plain)):
            solution = alphabeta.solve(game.kernels, tables, state.frames(), max_depth=game.max_plies,
                                       max_moves=game.max_moves, options=Options(tt_mb=16))
            answers.append((solution.value, solution.moves))
            nodes[label] += solution.nodes
        assert answers[0] == answers[1], state
    assert nodes["bound"] < nodes["plain"], nodes  # it prunes
