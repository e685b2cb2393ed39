"""Three Men's Morris (gameproof.games.morris3) against the plain reference in morris3_reference.py: the rule
functions and the engine's moves, sides and results on random games and at every reachable position, perft, the
self-check, positions as text, the refusal of `solve`, and the tablebase, which must equal the reference's own
retrograde analysis at every position (a first-player win by the centre, as Wikipedia's article states)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import morris3_reference as reference  # noqa: E402
from reference_checks import check_every_position, engine_moves  # noqa: E402
from move_masks import rule_moves  # noqa: E402

from gameproof.certify.tablebase_check import check_tablebase  # noqa: E402
from gameproof.cli import main  # noqa: E402
from gameproof.framework.declaration import LOSS  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.perft import fast_perft, perft  # noqa: E402
from gameproof.search.tablebase.build import build  # noqa: E402
from gameproof.search.tablebase.query import Tablebase  # noqa: E402

#: Plies after which a random game is left unfinished (a game of Three Men's Morris need not end).
LONGEST = 400


@pytest.fixture(scope="module")
def analysis():
    return reference.retrograde()


# --- the rules -------------------------------------------------------------------------------------------------


def test_placement_names_the_point_twice_and_movement_steps_along_rows_and_columns():
    game = load_game("morris3")
    state = RulesState(game)
    assert state.position == "---/---/--- white" == reference.text(reference.start())
    assert engine_moves(state) == sorted(f"{p}-{p}" for p in ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"))
    state = RulesState(game, "b2-b2 a1-a1 c1-c1 a3-a3 b3-b3 c2-c2")
    assert state.position == "BW-/-WB/B-W white" and state.words == (1 << 4 | 1 << 2 | 1 << 7, 1 | 1 << 6 | 1 << 5)
    # b2 may step to a2 or b1 (not to a corner: no diagonal step); c1 to b1; b3 to c3.
    assert engine_moves(state) == ["b2-a2", "b2-b1", "b3-c3", "c1-b1"]


def test_a_line_wins_at_once_a_diagonal_included():
    game = load_game("morris3")
    state = RulesState(game, "a1-a1 a2-a2 b2-b2 a3-a3 c3-c3")  # white's a1 b2 c3: the diagonal
    assert state.position == "B-W/BW-/W-- black"
    assert state.legal_moves() == [] and state.outcome() == 1
    assert game.rules.result(1, *state.words) == LOSS
    row = RulesState.from_position(game, "WWW/BB-/B-- black")
    assert row.legal_moves() == [] and row.outcome() == 1


def test_random_games_agree_with_the_reference_move_by_move():
    game = load_game("morris3")
    rules, board = game.rules, game.board
    rng = random.Random("morris3")
    finished = 0
    for _ in range(60):
        state, position = RulesState(game), reference.start()
        for _ in range(LONGEST):
            assert state.position == reference.text(position)
            assert state.to_move == position[1]
            names = engine_moves(state)
            assert names == sorted(reference.moves(position))
            assert sorted(rule_moves(rules, board, (state.to_move, *state.words))) == names
            assert len(names) <= game.spec.max_moves()
            if not names:
                assert reference.winner(position) == 1 - state.to_move
                assert state.outcome() == (1 if state.to_move == 1 else -1)
                finished += 1
                break
            name = rng.choice(names)
            state.play(state.parse_move(name))
            position = reference.play(position, name)
    assert finished >= 40  # random play ends most games


def test_every_reachable_position_has_the_reference_moves(analysis):
    positions, _, successors = analysis
    check_every_position(load_game("morris3"), reference, positions, successors)


def test_no_reachable_position_leaves_a_side_without_a_move_unless_a_line_ended_the_game(analysis):
    """The rule for a side that cannot move (it loses) is gameproof's choice; it never comes into play."""
    positions, _, successors = analysis
    for (board, _), following in zip(positions, successors):
        if not following:
            assert reference.lined(board, reference.WHITE) or reference.lined(board, reference.BLACK)


def test_perft_through_the_engine_equals_the_reference():
    state, start = RulesState(load_game("morris3")), reference.start()
    expected = [1, 9, 72, 504, 3024, 15120, 54720, 148896]
    for d, paths in enumerate(expected):
        assert reference.perft(start, d) == paths
        assert fast_perft(state, d) == paths, d
        if d <= 4:
            assert perft(state, d) == paths, d
    middle = RulesState(load_game("morris3"), "b2-b2 a1-a1 c1-c1 a3-a3 b3-b3 c2-c2")
    position = ("B.W.WBBW.", 0)  # the same position in the reference's terms, row 1 first
    assert reference.text(position) == middle.position
    for d in range(9):
        assert fast_perft(middle, d) == reference.perft(position, d), d


def test_the_self_check_passes(capsys):
    assert main(["games", "morris3", "--check", "--games", "40"]) == 0
    assert "a game that may repeat" in capsys.readouterr().out


# --- searches that assume every game ends ----------------------------------------------------------------------


# --- positions as text -----------------------------------------------------------------------------------------


def test_perft_of_a_position_given_as_text_is_that_of_the_moves_that_reach_it(capsys):
    assert main(["perft", "morris3", "4", "--moves", "b2-b2 a1-a1 c1-c1 a3-a3 b3-b3 c2-c2", "--json"]) == 0
    by_moves = json.loads(capsys.readouterr().out)
    assert by_moves["position"] == "BW-/-WB/B-W white"
    assert main(["perft", "morris3", "4", "--position", by_moves["position"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["paths"] == by_moves["paths"]


# --- the values ----------------------------------------------------------------------------------------------------


def test_the_reference_analysis_is_consistent_and_the_centre_is_the_only_winning_first_move(analysis):
    """Wikipedia's "Three men's morris", of these rules: the first player has a winning strategy, unless not allowed
    to place the first piece in the centre, when neither player has one."""
    positions, value, successors = analysis
    for here, following in enumerate(successors):
        after = {value[index] for index in following}
        expected = (reference.LOSS if not following or after == {reference.WIN}
                    else reference.WIN if reference.LOSS in after else reference.DRAW)
        assert value[here] == expected, reference.text(positions[here])
    count, start, moves = reference.first_moves()
    assert count == 5390 and reference.classes(positions) == 744
    assert start == reference.WIN
    assert moves == {"b2-b2": reference.WIN,
                     "a1-a1": reference.DRAW, "c1-c1": reference.DRAW, "a3-a3": reference.DRAW, "c3-c3": reference.DRAW,
                     "b1-b1": reference.LOSS, "a2-a2": reference.LOSS, "c2-c2": reference.LOSS, "b3-b3": reference.LOSS}


def test_the_tablebase_equals_the_reference_at_every_position_and_is_accepted(analysis, tmp_path):
    game = load_game("morris3")
    path = tmp_path / "morris3.tb"
    report = build(game, path)
    assert report.positions == 744  # up to the board's eight symmetries
    table = Tablebase(path)
    positions, values, _ = analysis
    for position, value in zip(positions, values):
        state = RulesState.from_position(table.game, reference.text(position))
        assert table.worth(state).value.score == value, reference.text(position)
    answer = table.answer(RulesState(table.game))
    assert answer.worth.value.score == reference.WIN
    assert {game.move_name(move): worth.value.score for move, worth in answer.moves.items()} \
        == {move: value for move, value in reference.first_moves()[2].items()}
    checked = check_tablebase(str(path))
    assert checked.accepted, checked.problems
    assert checked.positions == 744
