"""Dodgem (gameproof.games.dodgem) against the plain reference in dodgem_reference.py: the rule functions and
the engine's moves, sides and results on random games, every position reachable on 3×3, perft, the self-check,
positions as text, the refusal of every search that assumes a game ends, and the values the reference's own
retrograde analysis gives (3×3 a first-player win as Winning Ways has it, 4×4 a draw as desJardins reported)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import dodgem_reference as reference  # noqa: E402
from reference_checks import check_every_position, engine_moves  # noqa: E402
from move_masks import rule_moves  # noqa: E402

from gameproof.cli import main  # noqa: E402
from gameproof.framework.declaration import WIN  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.perft import fast_perft, perft  # noqa: E402

SIZES = [3, 4, 5, 6]
#: Plies after which a random game is left unfinished (a game of Dodgem need not end).
LONGEST = 400


# --- the rules -------------------------------------------------------------------------------------------------


def test_the_start_has_blue_on_column_a_and_red_on_row_1():
    game = load_game("dodgem:3")
    assert game.board.rows == game.board.cols == 4  # the 3x3 board and its exits
    assert game.rules.start() == (1 << 4 | 1 << 8, 1 << 1 | 1 << 2)  # a2 a3; b1 c1 (bit row * 4 + col)
    state = RulesState(game)
    assert state.position == "B--/B--/-RR blue" == reference.text(reference.start(3))
    assert engine_moves(state) == ["a2-a1", "a2-b2", "a3-b3"]
    assert RulesState(load_game("dodgem:6")).position == "B-----/B-----/B-----/B-----/B-----/-RRRRR blue"


def test_a_car_leaves_forward_from_the_far_edge_into_the_exit_and_only_there():
    game = load_game("dodgem:3")
    state = RulesState(game, "a3-b3 b1-b2 b3-c3 b2-b3")
    assert state.position == "-RB/B--/--R blue"
    assert engine_moves(state) == ["a2-a1", "a2-a3", "a2-b2", "c3-c2", "c3-d3"]  # not c3-c4: red's exit
    state.play(state.parse_move("c3-d3"))
    assert state.position == "-R-/B--/--R red" and state.words == (1 << 4, 1 << 9 | 1 << 2)
    assert engine_moves(state) == ["b3-a3", "b3-b4", "b3-c3", "c1-b1", "c1-c2"]  # not c1-d1: blue's exit
    state.play(state.parse_move("b3-b4"))
    assert state.position == "---/B--/--R blue"


def test_the_side_with_no_move_wins():
    game = load_game("dodgem:3")
    gone = RulesState.from_position(game, "---/---/-RR blue")  # blue's cars have all left
    assert gone.legal_moves() == [] and gone.outcome() == 1 and game.rules.result(0, *gone.words) == WIN
    stuck = RulesState.from_position(game, "BR-/R--/--- blue")  # a3 blocked by b3 (right) and a2 (down)
    assert stuck.legal_moves() == [] and stuck.outcome() == 1
    red_stuck = RulesState.from_position(game, "---/B--/RB- red")  # a1: up a2 blue, right b1 blue
    assert red_stuck.legal_moves() == [] and red_stuck.outcome() == -1


@pytest.mark.parametrize("n", SIZES)
def test_random_games_agree_with_the_reference_move_by_move(n):
    game = load_game(f"dodgem:{n}")
    rules, board = game.rules, game.board
    most = game.spec.max_moves(**game.parameters)
    rng = random.Random(f"dodgem:{n}")
    finished = 0
    for _ in range(25):
        state, position = RulesState(game), reference.start(n)
        for _ in range(LONGEST):
            assert state.position == reference.text(position)
            assert state.to_move == position[1]
            names = engine_moves(state)
            assert names == sorted(reference.moves(position))
            assert sorted(rule_moves(rules, board, (state.to_move, *state.words))) == names
            assert len(names) <= most
            if not names:
                assert reference.winner(position) == state.to_move
                assert rules.result(state.to_move, *state.words) == WIN
                assert state.outcome() == (1 if state.to_move == 0 else -1)
                finished += 1
                break
            name = rng.choice(names)
            state.play(state.parse_move(name))
            position = reference.play(position, name)
    assert finished >= 20  # random play ends most games


def test_every_position_reachable_on_3x3_has_the_reference_moves():
    """All 2,055 positions the reference reaches, read into gameproof from their text."""
    positions, successors = reference.reachable(3)
    check_every_position(load_game("dodgem:3"), reference, positions, successors)


@pytest.mark.parametrize(("n", "depth", "python_depth"), [(3, 7, 4), (4, 5, 3), (5, 4, 2), (6, 3, 2)])
def test_perft_through_the_engine_equals_the_reference(n, depth, python_depth):
    state, start = RulesState(load_game(f"dodgem:{n}")), reference.start(n)
    for d in range(depth + 1):
        expected = reference.perft(start, d)
        assert fast_perft(state, d) == expected, d
        if d <= python_depth:
            assert perft(state, d) == expected, d


def test_the_perft_command(capsys):
    assert main(["perft", "dodgem:4", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["paths"] == reference.perft(reference.start(4), 4) == 438


@pytest.mark.parametrize("n", SIZES)
def test_the_self_check_passes(n, capsys):
    assert main(["games", f"dodgem:{n}", "--check", "--games", "100"]) == 0
    assert "a game that may repeat" in capsys.readouterr().out


# --- searches that assume every game ends ----------------------------------------------------------------------


# --- positions as text -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_random_positions_write_and_read_back(n):
    game = load_game(f"dodgem:{n}")
    rng = random.Random(n)
    for _ in range(30):
        state = RulesState(game)
        for _ in range(rng.randrange(60)):
            if state.is_over():
                break
            state.play(rng.choice(state.legal_moves()))
        text = state.position
        again = RulesState.from_position(game, text)
        assert (again.words, again.to_move) == (state.words, state.to_move)
        assert again.position == text and again.record == ""


def test_perft_of_a_position_given_as_text_is_that_of_the_moves_that_reach_it(capsys):
    assert main(["perft", "dodgem:4", "3", "--moves", "a2-b2 c1-c2", "--json"]) == 0
    by_moves = json.loads(capsys.readouterr().out)
    assert main(["perft", "dodgem:4", "3", "--position", by_moves["position"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["paths"] == by_moves["paths"]
    assert by_moves["position"] == "B---/B---/-BR-/-R-R blue"


def test_render_draws_the_board_with_its_exits(tmp_path, capsys):
    path = tmp_path / "dodgem.svg"
    assert main(["render", "dodgem:3", "--moves", "a3-b3 b1-b2 b3-c3 b2-b3 c3-d3", "--svg", str(path)]) == 0
    assert path.read_text().lstrip().startswith("<")


# --- the reference's retrograde analysis -------------------------------------------------------------------------


def consistent(n: int) -> tuple[int, int, dict[str, int]]:
    """The reference's analysis of n × n, after checking that every value agrees with its successors' (a win has
    a successor lost or none, a loss only successors won, a draw no successor lost and one drawn)."""
    positions, value, successors = reference.retrograde(n)
    for at, following in enumerate(successors):
        after = {value[index] for index in following}
        expected = (reference.WIN if not following or reference.LOSS in after
                    else reference.DRAW if reference.DRAW in after else reference.LOSS)
        assert value[at] == expected, reference.text(positions[at])
    return reference.first_moves(n)


def test_3x3_is_a_first_player_win_whose_only_winning_move_is_a3_b3():
    """Winning Ways: the 3 × 3 game is a win for the first player."""
    count, value, moves = consistent(3)
    assert count == 2055  # positions reachable from the start, each side to move counted apart
    assert value == reference.WIN
    assert moves == {"a3-b3": reference.WIN, "a2-b2": reference.LOSS, "a2-a1": reference.LOSS}


def test_3x3_values_keep_the_colour_swapping_mirror():
    """A position and its mirror in the diagonal, blue and red swapped and the other side to move, have one
    value: a check of the analysis, since the rules cannot say it (no board symmetry swaps the colours)."""
    positions, value, _ = reference.retrograde(3)
    index = {position: at for at, position in enumerate(positions)}
    swap = {reference.BLUE: reference.RED, reference.RED: reference.BLUE, reference.EMPTY: reference.EMPTY}
    mirrored = 0
    for at, (board, side) in enumerate(positions):
        image = ("".join(swap[board[col * 3 + row]] for row in range(3) for col in range(3)), 1 - side)
        if image in index:
            assert value[index[image]] == value[at]
            mirrored += 1
    assert mirrored > 1000


@pytest.mark.slow
def test_4x4_is_a_draw():
    """desJardins (1996, as Wikipedia's Dodgem article reports it): 4 × 4 never ends with perfect play. About 7 s
    in plain Python."""
    count, value, moves = consistent(4)
    assert count == 395_294
    assert value == reference.DRAW
    assert moves == {"a2-b2": reference.DRAW, "a3-b3": reference.DRAW, "a4-b4": reference.DRAW,
                     "a2-a1": reference.LOSS}
