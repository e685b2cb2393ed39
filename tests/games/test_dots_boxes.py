"""Dots and Boxes (gameproof.games.dots_boxes) against the slow reference in dots_boxes_reference.py: the words and
moves on random playouts, extra turns, final scores, perft, exact values and scores, and the self-check."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import dots_boxes_reference as reference  # noqa: E402

from gameproof.cli import main  # noqa: E402
from gameproof.errors import BadInput  # noqa: E402
from gameproof.framework.declaration import DRAW, LOSS, WIN, Engine, Symmetry  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.selfcheck import self_check  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.dfpn import Options  # noqa: E402
from scored_checks import check_exact_scores, check_perft, check_solved_values, value_name  # noqa: E402
from gameproof.search.score import exact_score  # noqa: E402
from gameproof.search.solve import solve  # noqa: E402

#: Boards the reference's minimax solves in well under a second.
SMALL = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3)]


def game_of(rows: int, cols: int):
    return load_game(f"dots-boxes:{rows},{cols}")


def words_of(position: reference.Position) -> tuple[int, int, int]:
    """The words the module's docstring describes for a reference position: lines drawn (and the corner dots
    while the second player is to move), the first player's boxes, the second player's."""
    width = 2 * position.cols + 1
    last = (2 * position.rows + 1) * width - 1

    def bit(row: int, col: int) -> int:
        return 1 << (row * width + col)

    lines = 0
    for kind, r, c in position.drawn:
        lines |= bit(2 * r, 2 * c + 1) if kind == "h" else bit(2 * r + 1, 2 * c)
    if position.side == 1:
        lines |= 1 | 1 << (width - 1) | 1 << (last - width + 1) | 1 << last
    boxes = [0, 0]
    for r, row in enumerate(position.owners):
        for c, owner in enumerate(row):
            if owner is not None:
                boxes[owner] |= bit(2 * r + 1, 2 * c + 1)
    return lines, boxes[0], boxes[1]


# --- the rules, on Python ints and through RulesState ---------------------------------------------------


def test_the_start_is_empty_and_the_first_player_moves():
    rules = game_of(2, 2).rules
    assert rules.start() == (0, 0, 0)
    assert rules.to_move(*rules.start()) == 0
    assert bin(rules.legal(*rules.start())).count("1") == 12


@pytest.mark.parametrize("size", ["4,4", "2,6", "3,5"])
def test_a_grid_past_64_cells_is_refused(size):
    with pytest.raises(BadInput, match="more than 64"):
        load_game(f"dots-boxes:{size}")


def test_completing_a_box_moves_again_and_two_boxes_at_once_count_two():
    state = RulesState(game_of(1, 2))
    for name in ("b1", "b3", "a2", "e2", "d1", "d3"):  # every line but the middle one, alternating sides
        state.play(state.parse_move(name))
    assert state.to_move == 0
    state.play(state.parse_move("c2"))  # the middle line closes both boxes
    assert state.is_over() and state.to_move == 0
    assert state.game.rules.score(*state.words) == 2
    assert state.outcome() == 1


def test_the_mover_keeps_the_turn_after_a_box_and_loses_it_after_a_plain_line():
    state = RulesState(game_of(1, 1), "b1 a2 c2")
    assert state.to_move == 1
    state.play(state.parse_move("b3"))
    assert state.is_over() and state.to_move == 1 and state.outcome() == -1


@pytest.mark.parametrize("size", [(1, 1), (1, 2), (2, 1), (2, 2), (3, 3), (2, 4), (3, 4), (4, 3), (1, 10)])
def test_random_games_agree_with_the_reference_move_by_move(size):
    game = game_of(*size)
    rules = game.rules
    rng = random.Random(str(size))
    for _ in range(20):
        state, position = RulesState(game), reference.start(*size)
        while True:
            assert state.words == words_of(position)
            assert state.to_move == position.side == rules.to_move(*state.words)
            names = sorted(state.move_name(move) for move in state.legal_moves())
            assert names == sorted(reference.moves(position))
            assert rules.plies_left(*state.words) == len(names)
            assert state.is_over() == reference.is_over(position)
            if state.is_over():
                break
            name = rng.choice(names)
            state.play(state.parse_move(name))
            position = reference.play(position, name)
        score = reference.boxes_ahead(position)
        assert rules.score(*state.words) == score
        assert rules.result(*state.words) == (WIN if score > 0 else LOSS if score < 0 else DRAW)
        assert len(state.history) == game.max_plies


@pytest.mark.parametrize(("size", "games"), [("2,2", 300), ("1,3", 300), ("2,3", 300), ("3,3", 60)])
def test_the_self_check_passes(size, games):
    game = load_game(f"dots-boxes:{size}")
    report = self_check(game, games)
    assert report.longest == game.max_plies
    square = size.split(",")[0] == size.split(",")[1]
    assert len(game.symmetries) == (8 if square else 4)


def test_the_self_check_command():
    assert main(["games", "dots-boxes:2,2", "--check", "--games", "50"]) == 0


def test_the_symmetries_keep_the_corner_mark():
    game = game_of(2, 3)
    corners = {0, 6, 28, 34}
    for symmetry in game.symmetries:
        assert {game.board.permutation(symmetry)[cell] for cell in corners} == corners
    assert Symmetry.TRANSPOSE not in game.symmetries


# --- through the engine ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "depth"), [((1, 1), 4), ((1, 2), 7), ((2, 2), 5), ((3, 3), 3)])
def test_perft_follows_the_reference(size, depth):
    state, position = RulesState(game_of(*size)), reference.start(*size)
    check_perft(reference, state, position, depth, 3)


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("size", SMALL)
def test_solved_values_equal_the_reference_minimax(size, engine):
    state, position = RulesState(game_of(*size)), reference.start(*size)
    check_solved_values(reference, state, position, engine)


@pytest.mark.parametrize("size", SMALL)
def test_exact_scores_equal_the_reference_minimax(size):
    state, position = RulesState(game_of(*size)), reference.start(*size)
    check_exact_scores(reference, state, position)


def test_exact_scores_after_random_openings_equal_the_reference():
    """Positions a few random lines into 2×2, either side to move, some with boxes already taken."""
    game = game_of(2, 2)
    rng = random.Random("openings")
    for _ in range(6):
        state, position = RulesState(game), reference.start(2, 2)
        for _ in range(rng.randrange(3, 9)):
            name = rng.choice(reference.moves(position))
            state.play(state.parse_move(name))
            position = reference.play(position, name)
        found = exact_score(state, Options(tt_mb=16))
        assert found.score == reference.best_score(position), state.record
        assert solve(state, Options(tt_mb=16), with_moves=False).value == value_name(found.score)


@pytest.mark.heavy
def test_3x3_is_a_loss_by_three_as_published():
    """David Wilson's "Dots-and-Boxes Analysis Results": the second player wins the 3×3 game by 3 (55 s)."""
    found = exact_score(RulesState(game_of(3, 3)), Options(tt_mb=256), with_moves=False)
    assert found.score == -3


def test_an_answer_confirmed_by_certificates_gives_a_box_taking_moves_child_its_own_value():
    """Confirmation certifies each move's child with the value for the side to move there: the mover's own after a
    box (it moves again), its opposite after a plain line."""
    from gameproof.search.confirm import confirmed_by_certificates
    from gameproof.search.tt import TranspositionTable

    game = load_game("dots-boxes:1,2")
    state = RulesState(game, "b1 a2 b3")  # c2 closes the left box: the second player, to move, moves again
    after = {state.move_name(m): RulesState(game, f"{state.record} {state.move_name(m)}").to_move
             for m in state.legal_moves()}
    assert state.to_move == 1 and after == {"c2": 1, "d1": 0, "e2": 0, "d3": 0}
    solution = solve(state, Options(tt_mb=16), with_moves=True)
    why: list[str] = []
    confirmed = confirmed_by_certificates(state, "dots-boxes:1,2", solution, TranspositionTable(16, game.max_positions),
                                          Options(tt_mb=16), 1, None, why.append)
    assert confirmed is not None, why
