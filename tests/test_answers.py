"""Answers are enum members in the API and plain strings in JSON."""

import json

import pytest

from gameproof.answers import Reachability, Status, Value, Variant
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.games.othello import rules
from gameproof.games.othello.reach import solve_reach, solve_reachable
from gameproof.search.dfpn import Options
from gameproof.search.solve import solve


def test_values_are_ordered_and_seen_from_either_side():
    assert Value.best([Value.LOSS, Value.DRAW]) is Value.DRAW
    assert Value.best([Value.LOSS, Value.WIN, Value.DRAW]) is Value.WIN
    assert [v.flipped() for v in Value] == [Value.WIN, Value.DRAW, Value.LOSS]
    assert [Value.of_score(s) for s in (-3, 0, 2)] == [Value.LOSS, Value.DRAW, Value.WIN]


def test_statuses_know_their_exit_codes_and_reject_typos():
    assert [Status.of(a).exit_code for a in (True, False, None)] == [0, 1, 3]
    assert [r.exit_code for r in Reachability] == [0, 1, 3]
    with pytest.raises(ValueError):
        Status("unsatisfiable")


def test_the_api_hands_out_members_and_json_keeps_strings():
    refuted = solve_reach(16, 6, solver="cadical195")
    assert refuted.status is Status.UNSAT
    assert json.loads(json.dumps(refuted.to_json()))["status"] == "unsat"
    start = solve_reachable(rules.START_BLACK, rules.START_WHITE, True)
    assert start.status is Reachability.REACHABLE
    solution = solve(MnkState(MnkGame(3, 3, 3, "misere")), Options(tt_mb=1))
    assert solution.value is Value.DRAW and all(isinstance(v, Value) for v in solution.moves.values())
    assert MnkGame.from_name("mnk-notakto:3,3,3").variant is Variant.NOTAKTO
