"""Othello reachability by SAT: witnesses replay, refutations agree with brute force."""

import json

import pytest

from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.games.othello import rules
from gameproof.games.othello.notation import PASS, tokenize_record
from gameproof.games.othello.reach import default_plies, replay, short_plies, solve_reach, solve_reachable
from gameproof.logic.drat import find_checker


def most_legal_moves_within(plies: int) -> int:
    """Brute force: the largest legal-move count over every position reachable within `plies` plies."""
    frontier = {(rules.START_BLACK, rules.START_WHITE)}
    best = 4
    for _ in range(plies):
        following = set()
        for player, opponent in frontier:
            moves = rules.legal_moves(player, opponent)
            if moves == 0:
                following.add((opponent, player))
            for square in range(64):
                if moves >> square & 1:
                    following.add(rules.after_move(player, opponent, 1 << square))
        frontier = following
        best = max(best, *(rules.popcount(rules.legal_moves(p, o)) for p, o in frontier))
    return best


@pytest.mark.parametrize(
    ("plies", "encoding"),
    [(2, "direct"), (3, "direct"), (4, "direct"), (5, "direct"), (6, "direct"), (2, "generic"), (4, "generic")],
)
def test_sat_frontier_matches_brute_force(plies, encoding):
    best = most_legal_moves_within(plies)
    found = solve_reach(best, plies, encoding=encoding)
    assert found.status == "sat" and found.witness.legal_move_count >= best
    assert len(found.witness.moves) <= plies
    assert solve_reach(best + 1, plies, encoding=encoding).status == "unsat"


@pytest.mark.parametrize("rule_set", ["strict", "relaxed"])
def test_generic_encoding_witness_replays(rule_set):
    result = solve_reach(12, plies=9, rule_set=rule_set, encoding="generic")
    assert result.status == "sat" and result.witness.legal_move_count >= 12


@pytest.mark.parametrize("wanted", [10, 16, 20])
def test_witnesses_replay_to_enough_legal_moves(wanted):
    result = solve_reach(wanted, plies=wanted + 4)
    assert result.status == "sat"
    again = replay(tokenize_record(result.witness.record))
    assert again.legal_move_count >= wanted and again.strict


def test_the_start_position_counts_as_reached_after_zero_plies():
    assert solve_reach(4, plies=0).status == "sat"
    assert solve_reach(5, plies=0).status == "unsat"
    assert solve_reach(4, plies=3).witness.legal_move_count >= 4


def test_constant_folding_leaves_no_variables_for_the_forced_opening():
    from gameproof.games.othello.reach_direct import encode_direct

    # One ply: the forced f5 leaves a known position (3 moves for white), so nothing is left to choose.
    one = encode_direct(5, 1).cnf
    assert one.num_vars == 1  # just the constant
    assert encode_direct(5, 1).moves[0][37] == 1
    # Squares no disc can reach cost nothing: far fewer variables than 64 per board per ply.
    assert encode_direct(10, 2).cnf.num_vars < 2 * 64


def test_sixteen_moves_within_six_plies_is_unsat():
    assert solve_reach(16, plies=6).status == "unsat"


def test_relaxed_witness_is_checked_against_strict_rules():
    result = solve_reach(12, plies=8, rule_set="relaxed")
    assert result.status == "sat" and result.witness.legal_move_count >= 12
    assert result.witness.strict == replay(result.witness.moves).strict


def test_replay_marks_unforced_passes_and_rejects_illegal_moves():
    assert not replay([37, PASS]).strict
    assert replay([37]).strict
    with pytest.raises(ValueError, match="ply 2"):
        replay([37, 37])


def test_default_ply_bound():
    assert default_plies(33) == 29 and default_plies(60) == 2
    assert short_plies(16) == 20 and short_plies(33) == 29


def test_without_a_bound_short_games_are_tried_first(monkeypatch):
    found = solve_reach(16)
    assert found.status == "sat" and found.plies == short_plies(16) and len(found.witness.moves) <= 20
    # A short stage that is unsat (16 moves within 6 plies) hands over to the full bound.
    from gameproof.games.othello import reach

    monkeypatch.setattr(reach, "SHORT_EXTRA_PLIES", -10)
    found = solve_reach(16)
    assert found.status == "sat" and found.plies == default_plies(16)
    assert found.notes and "within 6 plies: unsat" in found.notes[0]


@pytest.mark.parametrize(
    "kwargs",
    [dict(min_legal=61), dict(min_legal=5, rule_set="lenient"), dict(min_legal=5, plies=-1),
     dict(min_legal=5, encoding="clever")],
)
def test_bad_arguments(kwargs):
    with pytest.raises(BadInput):
        solve_reach(**kwargs)


def test_cli_reach_json_and_exit_codes(capsys, tmp_path):
    cnf = tmp_path / "reach.cnf"
    assert main(["othello", "reach", "--legal-moves", "16", "--plies", "12", "--json", "--dimacs", str(cnf)]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["status"] == "sat" and payload["legal_move_count"] >= 16
    assert set(payload) >= {"record", "ply", "variables", "clauses", "encode_seconds", "solve_seconds"}
    header = cnf.read_text().split("\n", 3)
    assert any(line.startswith(f"p cnf {payload['variables']} {payload['clauses']}") for line in header)
    assert main(["othello", "reach", "--legal-moves", "16", "--plies", "6"]) == 1
    assert main(["othello", "reach", "--legal-moves", "99"]) == 2


RECORD_33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"
# Found by SAT on the board alone: 34 legal moves for white. 33 is the most any reachable position has.
BLACK_34, WHITE_34 = 0x205244100A624A04, 0x4424220850842402


def _final(record: str):
    from gameproof.games.othello.position import Position

    position = Position.from_record(record)
    return position.black, position.white, position.color == "black"


def test_the_33_move_position_is_reachable():
    result = solve_reachable(*_final(RECORD_33))
    assert result.status == "reachable"
    assert replay(tokenize_record(result.witness.record)).legal_move_count == 33


def test_a_34_move_position_is_refuted():
    assert rules.popcount(rules.legal_moves(WHITE_34, BLACK_34)) == 34
    result = solve_reachable(BLACK_34, WHITE_34, black_to_move=False)
    assert result.status == "unreachable" and "SAT refutation" in result.reason


@pytest.mark.parametrize("record", ["", "f5d6", "f5f6e6f4e3c5c4", "f5d6c3d3c4f4c5b3c2e6c6b4b5d2"])
def test_positions_from_real_games_are_reachable_with_either_side_to_move_checked(record):
    black, white, black_to_move = _final(record)
    assert solve_reachable(black, white, black_to_move).status == "reachable"
    # The same discs with the other side to move need a pass that cannot happen here.
    assert solve_reachable(black, white, not black_to_move).status == "unreachable"


@pytest.mark.parametrize("record", ["d3c3", "c4e3f6", "e6f4"])
def test_positions_after_other_openings_are_reachable(record):
    # The f5 symmetry breaking applies to the legal-move question only, never to an exact position.
    assert solve_reachable(*_final(record)).status == "reachable"


def test_cheap_refutations():
    assert "centre" in solve_reachable(0, 0x0000_0008_1000_0000, True).reason
    assert "connected" in solve_reachable(1 | 0x0000_0008_1000_0000, 0x0000_0010_0800_0000, True).reason


needs_checker = pytest.mark.skipif(find_checker() is None, reason="no DRAT checker (drat-trim) on PATH")


@needs_checker
def test_unsat_answers_come_with_a_checked_drat_proof(tmp_path):
    result = solve_reach(14, plies=5, proof=tmp_path / "refutation.drat")
    assert result.status == "unsat" and result.proof_checked is True


@needs_checker
def test_the_checker_rejects_a_proof_that_proves_nothing(tmp_path):
    from gameproof.games.othello.reach import encode
    from gameproof.logic.drat import check_drat

    cnf, _ = encode(14, 5, "strict", "direct")
    empty = tmp_path / "empty.drat"
    empty.write_text("")
    assert check_drat(cnf, empty) is False


def test_without_a_checker_proofs_are_written_but_unchecked(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEPROOF_DRAT_CHECKER", str(tmp_path / "missing-checker"))
    result = solve_reach(14, plies=5, proof=tmp_path / "refutation.drat")
    assert result.status == "unsat" and result.proof_checked is None
    assert (tmp_path / "refutation.drat").stat().st_size > 0
