"""The direct reach encoding is one ply of the rules for every board: miters refuted, mutants caught."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.cli import main
from gameproof.games.othello import reach_direct, rules
from gameproof.games.othello.equivalence import Claim, Square, build_miter, check_miter
from gameproof.games.othello.reach_direct import CENTRE_SQUARES, _Builder


@pytest.mark.parametrize("claim", list(Claim))
@pytest.mark.parametrize("rule_set", ["strict", "relaxed"])
def test_every_board_agrees_with_the_rules(rule_set, claim):
    result = check_miter(build_miter(rule_set, claim))
    assert result.equal, result.counterexample


_OCCUPIED = st.sampled_from([Square.MINE, Square.THEIRS, Square.FREE])
_ANY = st.sampled_from(list(Square))


@st.composite
def partial_boards(draw):
    """Some squares fixed (so that the encoder folds constants, as on the plies near the start)."""
    board = {}
    for square in draw(st.sets(st.integers(0, 63), max_size=40)):
        board[square] = draw(_OCCUPIED if square in CENTRE_SQUARES else _ANY)
    return board


@settings(max_examples=6, deadline=None)
@given(board=partial_boards(), rule_set=st.sampled_from(["strict", "relaxed"]), claim=st.sampled_from(list(Claim)))
def test_boards_with_fixed_squares_agree_with_the_rules(board, rule_set, claim):
    result = check_miter(build_miter(rule_set, claim, board))
    assert result.equal, result.counterexample


def _disagrees_with_the_rules(counterexample: dict[str, int]) -> bool:
    """Check a miter's counterexample on the rules alone: the encoding's mutant must be what differs."""
    mine, theirs = counterexample["mine"], counterexample["theirs"]
    return mine & theirs == 0 and all((mine | theirs) >> s & 1 for s in CENTRE_SQUARES)


def test_a_broken_capture_chain_is_caught(monkeypatch):
    captures = _Builder.captures

    def broken(self, mine, theirs):
        capture = captures(self, mine, theirs)
        capture[(10, 3)] = -self.true  # c2 never starts a run toward the east
        return capture

    monkeypatch.setattr(_Builder, "captures", broken)
    for claim in Claim:
        result = check_miter(build_miter("strict", claim))
        assert not result.equal and _disagrees_with_the_rules(result.counterexample)


def test_a_stop_that_keeps_the_passed_board_is_caught(monkeypatch):
    # The relaxed-rules bug of the 2020 question: a stop after a pass kept the board from the other
    # side's view, so stopped plies could swap whose legal moves were counted.
    transition = _Builder.transition

    def swapped(self, mine, theirs, mover, other, move, flips, stop):
        return transition(self, mover, other, mover, other, move, flips, stop)

    monkeypatch.setattr(_Builder, "transition", swapped)
    result = check_miter(build_miter("relaxed", Claim.SOUND))
    assert not result.equal
    assert result.counterexample["stop"] == 1 and result.counterexample["pass"] == 1


def test_reach_formulas_keep_a_subset_of_the_complete_clauses():
    """The complete miter defines the mover's legal squares both ways; the reach formulas keep one half."""
    clause_sets = []
    for full in (False, True):
        builder = _Builder(1, 0, "strict")
        builder.full_legal = full
        mine = [builder.var() for _ in range(64)]
        theirs = [builder.var() for _ in range(64)]
        builder.turn(mine, theirs, ply=1)
        clause_sets.append({tuple(sorted(c)) for c in builder.cnf.clauses()})
    assert clause_sets[0] < clause_sets[1]


def test_cli_reports_each_miter(capsys, tmp_path):
    assert main(["othello", "equivalence", "--rules", "relaxed", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["equal"] and [m["claim"] for m in payload["miters"]] == ["sound", "complete"]
    assert main(["othello", "equivalence", "--proof", str(tmp_path / "missing")]) == 2
    assert "existing folder" in capsys.readouterr().err
    assert not (tmp_path / "missing").exists()


def test_witnesses_of_the_relaxed_rules_replay_with_their_final_pass():
    """A game that stops after two moves, in a six-ply relaxed formula: every model reads back as a game
    that replays to the count, whatever the passes on the stopped plies."""
    from gameproof.games.othello.reach import decode_moves, replay
    from gameproof.logic.cnf import Cnf
    from gameproof.logic.solvers import open_solver

    wanted = 5  # after two moves: 4 and 5, 5 and 4 or 5 and 5 moves for the two sides
    formula = reach_direct.encode_direct(wanted, 6, "relaxed")
    stop_after_two = Cnf()
    stop_after_two.add_clause([formula.stops[2]])
    games = set()
    with open_solver("cadical195") as solver:
        solver.add(formula.cnf)
        solver.add(stop_after_two)
        while solver.solve():
            model = solver.model()
            game = replay(decode_moves(formula, model))
            assert game.legal_move_count >= wanted, game.record
            games.add(game.record)
            chosen = [lit for ply in formula.moves for lit in ply] + formula.passes + formula.stops + [formula.final_pass]
            other_model = Cnf()
            other_model.add_clause([-lit if lit in model else lit for lit in set(chosen) if abs(lit) != 1])
            solver.add(other_model)
    assert games


def test_the_2020_question_under_relaxed_rules_has_a_witness_that_replays():
    from gameproof.games.othello.reach import solve_reach

    result = solve_reach(18, 42, rule_set="relaxed", solver="cadical195", search=False)
    assert result.status == "sat" and result.witness.legal_move_count >= 18
    assert rules.popcount(result.witness.player | result.witness.opponent) == 4 + sum(
        move != 64 for move in result.witness.moves)
