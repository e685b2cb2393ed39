"""Othello reachability by SAT: witnesses replay, refutations agree with brute force."""

import json

import pytest

from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.games.othello import rules
from gameproof.games.othello.notation import PASS, tokenize_record
from gameproof.games.othello.reach import default_plies, replay, short_plies, solve_flips, solve_reach, solve_reachable
from gameproof.logic import drat
from gameproof.logic.drat import Checker, Verdict


def _turn(player: int, opponent: int) -> tuple[int, int]:
    """The same board from the side that moves next: the other side when this one must pass."""
    return (opponent, player) if rules.legal_moves(player, opponent) == 0 else (player, opponent)


def most_legal_moves_within(moves: int) -> int:
    """Brute force: the largest legal-move count over every position reachable within `moves` moves
    (with any passes in between)."""
    frontier = {(rules.START_BLACK, rules.START_WHITE)}
    best = 4
    for _ in range(moves):
        following = set()
        for player, opponent in map(lambda board: _turn(*board), frontier):
            legal = rules.legal_moves(player, opponent)
            for square in range(64):
                if legal >> square & 1:
                    following.add(rules.after_move(player, opponent, 1 << square))
        frontier = following
        best = max(best, *(rules.popcount(rules.legal_moves(*_turn(p, o))) for p, o in frontier))
    return best


@pytest.mark.parametrize(
    ("plies", "encoding"),
    [(2, "direct"), (3, "direct"), (4, "direct"), (5, "direct"), (6, "direct"), (2, "generic"), (4, "generic")],
)
def test_sat_frontier_matches_brute_force(plies, encoding):
    best = most_legal_moves_within(plies)
    found = solve_reach(best, plies, encoding=encoding, search=False)
    assert found.status == "sat" and found.witness.legal_move_count >= best and found.variables
    assert len(found.witness.moves) <= plies
    assert solve_reach(best + 1, plies, encoding=encoding).status == "unsat"


def most_legal_moves_within_relaxed(moves: int) -> int:
    """Brute force under relaxed rules: either side may move next (a pass is allowed at any time)."""
    frontier = {(rules.START_BLACK, rules.START_WHITE)}  # (side to move, other), before any pass
    best = 4
    for _ in range(moves):
        following = set()
        for player, opponent in frontier:
            for mover, other in ((player, opponent), (opponent, player)):
                legal = rules.legal_moves(mover, other)
                following |= {rules.after_move(mover, other, 1 << s) for s in range(64) if legal >> s & 1}
        frontier = following
        counts = (rules.popcount(rules.legal_moves(mover, other)) for player, opponent in frontier
                  for mover, other in ((player, opponent), (opponent, player)))
        best = max(best, *counts)
    return best


@pytest.mark.parametrize("moves", [2, 3, 4, 5])
def test_relaxed_frontier_matches_brute_force(moves):
    best = most_legal_moves_within_relaxed(moves)
    found = solve_reach(best, moves, rule_set="relaxed", search=False)
    assert found.status == "sat" and found.witness.legal_move_count >= best
    assert solve_reach(best + 1, moves, rule_set="relaxed").status == "unsat"


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
    # Squares no disc can reach cost nothing, nor does the turn while a legal move is certain: far
    # fewer variables than one capture chain per square and direction (8 x 64) for each of 3 positions.
    two = encode_direct(10, 2)
    assert two.passes == [-1, -1]
    assert two.cnf.num_vars < 8 * 64


def test_sixteen_moves_within_six_plies_is_unsat():
    assert solve_reach(16, plies=6).status == "unsat"


def test_relaxed_witness_is_checked_against_strict_rules():
    result = solve_reach(12, plies=8, rule_set="relaxed", search=False)
    assert result.status == "sat" and result.witness.legal_move_count >= 12
    assert result.witness.strict == replay(result.witness.moves).strict


def test_replay_marks_unforced_passes_and_rejects_illegal_moves():
    assert not replay([37, PASS]).strict
    assert replay([37]).strict
    with pytest.raises(ValueError, match="ply 2"):
        replay([37, 37])


def test_default_ply_bound():
    assert default_plies(33) == 27 and default_plies(60) == 0
    assert short_plies(16) == 20 and short_plies(33) == 27


def test_without_a_bound_games_of_a_few_moves_more_than_n_without_passes_are_tried_first(monkeypatch):
    found = solve_reach(16, search=False)
    assert found.status == "sat" and found.plies == short_plies(16) and found.exact
    assert found.witness.discs_placed == 20 and not found.passes and PASS not in found.witness.moves
    # A short stage that is unsat (16 moves within 6 moves) hands over to the complete formula.
    from gameproof.games.othello import reach

    monkeypatch.setattr(reach, "SHORT_EXTRA_PLIES", -10)
    found = solve_reach(16, solver="cadical195", search=False)  # one solver: the stages in turn
    assert found.status == "sat" and found.plies == default_plies(16) and found.passes and found.witness.strict
    assert found.notes and "exactly 6 moves without a pass: unsat" in found.notes[0]
    if len(found.notes) > 1:  # the loose formula's witness passed by choice: the strict formula answered
        assert "passes by choice" in found.notes[1] and found.formula == "games of at most 44 moves"


def test_a_loose_stage_decides_on_a_refutation_or_a_strict_witness_only():
    from gameproof.answers import Status
    from gameproof.games.othello.reach import ReachResult, Stage

    def result(status, record=None):
        answer = ReachResult(status, 20, 10, "strict", "direct", "cadical195", 0, 0, 0.0, 0.0)
        answer.witness = None if record is None else replay(tokenize_record(record))
        return answer

    loose, quick = Stage(10, passes=True, loose=True), Stage(10, passes=False, exact=True, final=False)
    assert loose.decides(result(Status.UNSAT)) and not quick.decides(result(Status.UNSAT))
    assert loose.decides(result(Status.SAT, PASSING_GAME)) and not loose.decides(result(Status.SAT, "f5pa"))
    assert quick.decides(result(Status.SAT, "f5d6")) and not loose.decides(result(Status.UNKNOWN))


def test_refutations_come_from_the_loose_formula_with_its_proof(tmp_path, dratify_only):
    result = solve_reach(46, plies=8, proof=tmp_path / "refutation.drat")
    assert result.status == "unsat" and "from move 9 on" in result.formula
    assert result.proof.verdict is Verdict.VERIFIED and "strict games" in result.notes[-1]


def test_a_proof_is_only_asked_of_the_complete_formula(tmp_path, dratify_only):
    result = solve_reach(56, proof=tmp_path / "refutation.drat")  # 4 moves: no stage before it
    assert result.status == "unsat" and result.passes and not result.notes and result.plies == 4
    assert result.proof.verdict is Verdict.VERIFIED


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
    assert set(payload) >= {"record", "ply", "variables", "clauses", "encode_seconds", "solve_seconds", "passes_allowed",
                            "notes"}
    header = cnf.read_text().split("\n", 3)
    assert any(line.startswith(f"p cnf {payload['variables']} {payload['clauses']}") for line in header)
    assert main(["othello", "reach", "--legal-moves", "16", "--plies", "6"]) == 1
    assert main(["othello", "reach", "--legal-moves", "99"]) == 2


def test_cli_reach_searches_by_beam_unless_told_not_to(capsys):
    assert main(["othello", "reach", "--legal-moves", "18", "--plies", "20", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["encoding"] == "beam" and payload["solver"].startswith("beam:") and payload["variables"] == 0
    assert payload["legal_move_count"] >= 18 and payload["ply"] <= 20
    assert main(["othello", "reach", "--legal-moves", "18", "--plies", "20", "--no-search", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["encoding"] == "direct" and payload["variables"] > 0 and payload["legal_move_count"] >= 18
    assert main(["othello", "reach", "--legal-moves", "16", "--plies", "12"]) == 0
    assert "found by a beam search of width 32" in capsys.readouterr().out  # wider than the first beam
    assert main(["othello", "reach", "--flips", "4", "--plies", "6", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["solver"].startswith("beam:") and payload["flipped"] >= 4 and payload["variables"] == 0
    assert main(["othello", "reach", "--flips", "4", "--plies", "6", "--no-search", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["variables"] > 0


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


# The earliest pass (found by SAT, and no pass within 8 moves): after 8 moves black has no legal move.
PASSING_GAME = "f5f6f7g7d3f8h8h6paf4"


def test_positions_reached_through_a_pass_are_reachable():
    assert replay(tokenize_record(PASSING_GAME)).strict
    result = solve_reachable(*_final(PASSING_GAME))
    assert result.status == "reachable" and result.plies == 9  # moves; the pass costs none
    assert (replay(tokenize_record(result.witness.record)).player, result.witness.black_to_move) == (
        replay(tokenize_record(PASSING_GAME)).player, _final(PASSING_GAME)[2])


@pytest.mark.parametrize("record", [PASSING_GAME[:16], PASSING_GAME[:18]])
def test_a_side_without_moves_has_the_turn_before_and_after_its_pass(record):
    # After h6 black has no move: "black to move" and, once black passes, "white to move" are both reached.
    result = solve_reachable(*_final(record))
    assert result.status == "reachable"
    assert replay(tokenize_record(result.witness.record)).black_to_move == _final(record)[2]


def test_without_passes_the_same_moves_give_a_different_turn():
    # 8 moves without a pass leave black to move; the same discs with white to move need black to be stuck.
    black, white, _ = _final("f5d6c3d3c4f4c5b3")
    assert solve_reachable(black, white, False).status == "unreachable"


def test_no_side_is_without_a_move_within_eight_moves():
    """What EARLIEST_PASS rests on: in a formula that allows a pass at every ply (and a stop anywhere, so
    every position after 1 to 7 moves is covered), no side is stuck; after 8 moves one can be."""
    from gameproof.games.othello.reach import decode_moves
    from gameproof.games.othello.reach_direct import EARLIEST_PASS, encode_direct
    from gameproof.logic.solvers import open_solver

    for moves, possible in ((EARLIEST_PASS, False), (EARLIEST_PASS + 1, True)):
        formula = encode_direct(0, moves, earliest_pass=1)
        formula.cnf.add_clause([lit for lit in formula.passes if abs(lit) != 1])  # after 1 to moves - 1 moves
        with open_solver("cadical195") as solver:
            solver.add(formula.cnf)
            assert solver.solve() is possible
            if possible:
                game = replay(decode_moves(formula, solver.model()))
                assert PASS in game.moves and game.strict


def test_the_loose_formula_holds_a_strict_game_with_the_earliest_pass():
    from gameproof.games.othello.reach_direct import EARLIEST_PASS, encode_loose
    from gameproof.logic.solvers import open_solver

    moves = [move for move in tokenize_record(PASSING_GAME) if move != PASS]
    formula = encode_loose(0, len(moves))
    assert all(abs(lit) == 1 for lit in formula.passes[:EARLIEST_PASS])  # no pass variable before
    with open_solver("cadical195") as solver:
        solver.add(formula.cnf)
        followed = [formula.moves[ply][square] for ply, square in enumerate(moves)]
        assert solver.solve([*followed, formula.passes[EARLIEST_PASS]]) is True
        assert solver.solve([*followed, -formula.passes[EARLIEST_PASS]]) is False  # black has no move there


def test_a_game_that_stops_where_a_side_must_pass_is_read_back_with_the_pass():
    from gameproof.games.othello.reach import decode_moves
    from gameproof.games.othello.reach_direct import encode_direct
    from gameproof.logic.solvers import open_solver

    formula = encode_direct(0, 10)
    formula.cnf.add_clause([formula.stops[8]])  # the game ends after 8 moves...
    formula.cnf.add_clause([formula.passes[8]])  # ...where the side whose turn it is has no move
    with open_solver("cadical195") as solver:
        solver.add(formula.cnf)
        assert solver.solve() is True
        moves = decode_moves(formula, solver.model())
    game = replay(moves)
    assert len(moves) == 9 and moves[-1] == PASS and game.strict and game.legal_move_count > 0


@pytest.mark.parametrize("record", ["d3c3", "c4e3f6", "e6f4"])
def test_positions_after_other_openings_are_reachable(record):
    # The f5 symmetry breaking applies to the legal-move question only, never to an exact position.
    assert solve_reachable(*_final(record)).status == "reachable"


def test_cheap_refutations():
    assert "centre" in solve_reachable(0, 0x0000_0008_1000_0000, True).reason
    assert "connected" in solve_reachable(1 | 0x0000_0008_1000_0000, 0x0000_0010_0800_0000, True).reason


def test_unsat_answers_come_with_a_drat_proof_dratify_checks(tmp_path, dratify_only):
    result = solve_reach(14, plies=5, proof=tmp_path / "refutation.drat")
    assert result.status == "unsat" and result.proof.checker is Checker.DRATIFY
    assert result.proof.verdict is Verdict.VERIFIED and result.proof.path == str(tmp_path / "refutation.drat")


def test_the_checker_rejects_a_proof_that_proves_nothing(tmp_path, dratify_only):
    from gameproof.games.othello.reach import encode

    cnf, _ = encode(14, 5, "strict", "direct")
    empty = tmp_path / "empty.drat"
    empty.write_text("")
    assert drat.check_drat(cnf, empty).verdict is Verdict.REJECTED


def test_a_proof_too_large_for_dratify_is_written_but_not_checked(tmp_path, monkeypatch):
    monkeypatch.setattr(drat, "PURE_PYTHON_LIMIT", 1000)
    monkeypatch.delenv(drat.CHECKER_VARIABLE, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no drat-trim
    result = solve_reach(14, plies=5, proof=tmp_path / "refutation.drat")
    assert result.status == "unsat" and result.proof.verdict is Verdict.TOO_LARGE and result.proof.accepted is None
    assert (tmp_path / "refutation.drat").stat().st_size == result.proof.size > 1000


def test_cli_names_the_proof_and_its_checker(tmp_path, capsys, dratify_only):
    proof = tmp_path / "refutation.drat"
    assert main(["othello", "reach", "--legal-moves", "14", "--plies", "5", "--proof", str(proof), "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert (answer["proof"], answer["proof_checked"], answer["proof_checker"]) == (str(proof), True, "dratify")
    unreachable = "-" * 27 + "XXO" + "-" * 5 + "XXX" + "-" * 26  # d4 e4 d5 e5 f5 black, f4 white: 2 moves
    assert main(["othello", "reachable", f"--board={unreachable}", "--to-move", "white", "--proof", str(proof)]) == 1
    assert f"DRAT proof: {proof} (checked by dratify)" in " ".join(capsys.readouterr().out.split())


def _most_flips_by_enumeration(plies: int) -> int:
    """The most discs one legal move flips in any position reached within `plies` moves (passes free)."""
    most, frontier = 0, {(rules.START_BLACK, rules.START_WHITE)}
    for _ in range(plies + 1):
        following = set()
        for player, opponent in frontier:
            legal = rules.legal_moves(player, opponent)
            if legal == 0:
                player, opponent = opponent, player
                legal = rules.legal_moves(player, opponent)
            for square in range(64):
                if legal >> square & 1:
                    most = max(most, rules.popcount(rules.flips(player, opponent, 1 << square)))
                    following.add(rules.after_move(player, opponent, 1 << square))
        frontier = following
    return most


def test_the_flips_question_against_enumeration():
    most = _most_flips_by_enumeration(5)
    found = solve_flips(most, 5, solver="cadical195", search=False)
    assert found.status == "sat" and found.flipped >= most and len(found.witness.moves) <= 5 and found.variables
    assert solve_flips(most + 1, 5, solver="cadical195").status == "unsat"  # the beam finds nothing, SAT refutes
    by_beam = solve_flips(most, 5)
    assert by_beam.solver.startswith("beam:") and by_beam.flipped >= most and by_beam.witness.discs_placed <= 5
