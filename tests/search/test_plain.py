"""Plain play on the rules' Python functions (the first answer for a small position, nothing compiled) against
the compiled search, move by move; its budget; and `solve`'s choice between the two."""

import json

import pytest

from gameproof.answers import Value
from gameproof.cli import main
from gameproof.framework.declaration import Engine
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.plain import PLAIN_NODES, solve_plainly
from gameproof.search.solve import solve

# Placement and movement games, draws, passes (Othello 4×4), extra turns (Kalah, Dots and Boxes), a rules file.
SMALL = [("mnk:3,3,3", ""), ("mnk-misere:3,3,3", ""), ("mnk-notakto:3,3,3", ""), ("connect4:4,4", "b b c c a"),
         ("othello:4", ""), ("kalah:2,2", ""), ("dots-boxes:1,2", ""), ("clobber:2,3", ""),
         ("breakthrough:4,3", ""), ("hex:3", ""), ("examples/domineering.py:4,4", ""), ("examples/hexapawn.py:3,3", "")]


@pytest.mark.parametrize(("name", "moves"), SMALL)
def test_plain_play_gives_the_compiled_searchs_value_for_every_move(name, moves):
    state = RulesState(load_game(name), moves)
    before = (state.words, state.to_move, state.record)
    plainly = solve_plainly(state)
    assert plainly is not None, f"{name}: larger than the plain budget"
    assert (state.words, state.to_move, state.record) == before
    compiled = solve(state, engine=Engine.DFPN)
    assert plainly.value == compiled.value and plainly.moves == compiled.moves
    assert solve_plainly(state, with_moves=False).value == compiled.value


def test_a_larger_tree_is_left_to_the_compiled_search_within_the_budget():
    state = RulesState(load_game("connect4:7,6"))
    assert solve_plainly(state) is None and state.record == ""
    assert solve_plainly(RulesState(load_game("mnk:3,3,3")), budget=100) is None
    small = solve_plainly(RulesState(load_game("mnk:3,3,3")))
    assert small.value is Value.DRAW and small.nodes <= PLAIN_NODES


def test_a_game_that_may_repeat_is_not_played_plainly():
    assert solve_plainly(RulesState(load_game("dodgem:3"))) is None


def test_solve_answers_a_small_board_plainly_and_says_so(capsys):
    assert main(["solve", "examples/domineering.py:4,4", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["engine"] == "plain" and plain["value"] == "win" and plain["nodes"] > 0
    assert main(["solve", "examples/domineering.py:4,4", "--json", "--engine", "dfpn"]) == 0
    compiled = json.loads(capsys.readouterr().out)
    assert compiled["engine"] == "dfpn" and (compiled["value"], compiled["moves"]) == (plain["value"], plain["moves"])
    for asked in (["--workers", "2"], ["--timeout", "60"]):
        assert main(["solve", "examples/domineering.py:4,4", "--json", "--value-only", *asked]) == 0
        assert json.loads(capsys.readouterr().out)["engine"] == "dfpn"


def test_rules_whose_play_goes_round_in_a_cycle_are_left_to_the_compiled_search(tmp_path):
    """A line longer than the game's most plies (here a cycle the self-check's random games never met) is no
    answer for plain play: it gives up, and the compiled search reports the broken rules."""
    from gameproof.search.plain import _Negamax

    state = RulesState(load_game("mnk:3,3,3"))
    search = _Negamax(PLAIN_NODES, max_plies=4)  # as if the rules claimed games end within four plies
    with pytest.raises(Exception) as raised:
        search.value(state)
    assert type(raised.value).__name__ == "_TooLarge" and state.record == ""
