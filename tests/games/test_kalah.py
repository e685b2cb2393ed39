"""Kalah (gameproof.games.kalah) against the slow reference in kalah_reference.py: the word and moves on random
playouts, extra turns, captures, the end of the game, the bound on its length, perft, exact values and scores,
and the self-check."""

from __future__ import annotations

import random
import sys
from functools import lru_cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import kalah_reference as reference  # noqa: E402

from gameproof.cli import main  # noqa: E402
from gameproof.errors import BadInput  # noqa: E402
from gameproof.framework.declaration import DRAW, LOSS, WIN, Engine  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.selfcheck import self_check  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.dfpn import Options  # noqa: E402
from scored_checks import check_exact_scores, check_perft, check_solved_values, value_name  # noqa: E402
from gameproof.search.score import exact_score  # noqa: E402
from gameproof.search.solve import solve  # noqa: E402

#: Kalah(p, s) that the reference's minimax solves in well under a second.
SMALL = [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)]


def game_of(pits: int, seeds: int):
    return load_game(f"kalah:{pits},{seeds}")


def word_of(position: reference.Position) -> int:
    """The word the module's docstring describes for a reference position: the counts of the pits and the
    first player's store, B bits each in board order, and the mark of the second player to move."""
    p, board = position.pits, position.board
    bits = (sum(board)).bit_length()
    word = sum(count << (place * bits) for place, count in enumerate(board[: 2 * p + 1]))
    return word | (position.side << ((2 * p + 1) * bits))


def played(pits: int, seeds: int, moves: str) -> tuple[RulesState, reference.Position]:
    """The engine's position and the reference's after `moves`."""
    state, position = RulesState(game_of(pits, seeds)), reference.start(pits, seeds)
    for name in moves.split():
        state.play(state.parse_move(name))
        position = reference.play(position, name)
    return state, position


# --- the rules, on Python ints and through RulesState ---------------------------------------------------


def test_the_start_holds_the_seeds_and_the_first_player_moves():
    rules = game_of(3, 3).rules  # 18 seeds: counts of 5 bits, 8 columns
    word = rules.start()[0]
    assert word == sum(3 << (5 * column) for column in (0, 1, 2, 4, 5, 6))
    assert rules.to_move(word) == 0
    assert rules.legal(word) == 1 | 1 << 5 | 1 << 10


@pytest.mark.parametrize(("size", "why"), [("6,4", "does not fit"), ("4,6", "plies"), ("5,4", "does not fit")])
def test_a_game_too_large_or_too_long_is_refused(size, why):
    with pytest.raises(BadInput, match=why):
        load_game(f"kalah:{size}")


def test_a_last_seed_in_the_store_moves_again():
    state, _ = played(3, 3, "a1")  # a: 3 seeds to b, c and the store
    assert state.to_move == 0
    state.play(state.parse_move("b1"))  # b: 4 seeds to c, the store, e and f
    assert state.to_move == 1


def test_a_last_seed_in_an_own_empty_pit_captures_the_pit_facing_it():
    state, position = played(2, 1, "b1 a1")  # b's seed to the store, again; a's seed to b, empty, facing d's
    assert position.board == (0, 0, 3, 0, 1, 0)
    assert state.words == (word_of(position),)
    assert not state.is_over() and state.to_move == 1


def test_the_side_to_move_without_seeds_ends_the_game_and_the_other_side_stores_its_own():
    """After b1 the first player's pits are empty, but the second player is to move and has seeds: the game goes
    on (where a rule that ends the game when either side is empty would stop it); once the first player is to
    move without seeds, it ends, and the second player's seed left in e goes to its store."""
    state, position = played(2, 1, "a1 e1 d1 b1")
    assert not state.is_over() and state.to_move == 1
    state.play(state.parse_move("e1"))
    state.play(state.parse_move("d1"))
    position = reference.play(reference.play(position, "e1"), "d1")
    assert position.board == (0, 0, 1, 0, 1, 2) and position.side == 0
    assert state.is_over() and state.to_move == 0
    assert state.game.rules.score(*state.words) == -2  # 1 against 2 + 1
    assert state.outcome() == -1


@pytest.mark.parametrize("size", [(1, 1), (2, 2), (3, 3), (4, 4), (4, 5), (5, 3), (6, 1), (7, 1), (2, 10), (1, 20)])
def test_random_games_agree_with_the_reference_move_by_move(size):
    game = game_of(*size)
    rules = game.rules
    rng = random.Random(str(size))
    for _ in range(20):
        state, position = RulesState(game), reference.start(*size)
        bounds = []
        while True:
            assert state.words == (word_of(position),)
            assert state.to_move == position.side == rules.to_move(*state.words)
            names = sorted(state.move_name(move) for move in state.legal_moves())
            assert names == sorted(reference.moves(position))
            assert state.is_over() == reference.is_over(position)
            bounds.append(rules.plies_left(*state.words))
            if state.is_over():
                break
            name = rng.choice(names)
            state.play(state.parse_move(name))
            position = reference.play(position, name)
        mine, theirs = reference.final_stores(position)
        if position.side == 1:
            mine, theirs = theirs, mine
        assert rules.score(*state.words) == mine - theirs
        assert rules.result(*state.words) == (WIN if mine > theirs else LOSS if mine < theirs else DRAW)
        assert bounds[0] == game.max_plies
        assert all(later < earlier for earlier, later in zip(bounds, bounds[1:]))  # down by one or more a ply


@pytest.mark.parametrize("size", [(2, 2), (2, 3), (3, 2), (1, 6)])
def test_plies_left_bounds_the_longest_game_from_every_reachable_position(size):
    game = game_of(*size)
    rules = game.rules

    @lru_cache(maxsize=None)
    def longest(position: reference.Position) -> int:
        word = word_of(position)
        length = max((1 + longest(reference.play(position, move)) for move in reference.moves(position)), default=0)
        assert length <= rules.plies_left(word), position
        return length

    assert longest(reference.start(*size)) <= game.max_plies


@pytest.mark.parametrize("size", ["2,2", "3,3", "4,4", "6,1", "3,10"])
def test_the_self_check_passes(size):
    report = self_check(load_game(f"kalah:{size}"), 300)
    assert report.symmetries == ("identity",)


def test_the_self_check_command():
    assert main(["games", "kalah:3,3", "--check", "--games", "50"]) == 0


# --- through the engine ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "depth"), [((2, 2), 10), ((3, 3), 8), ((4, 3), 7), ((6, 1), 8)])
def test_perft_follows_the_reference(size, depth):
    state, position = RulesState(game_of(*size)), reference.start(*size)
    check_perft(reference, state, position, depth, 4)


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
    """Positions a few random moves into Kalah(3, 3), either side to move, with seeds already stored."""
    game = game_of(3, 3)
    rng = random.Random("openings")
    for _ in range(6):
        state, position = RulesState(game), reference.start(3, 3)
        for _ in range(rng.randrange(2, 8)):
            if reference.is_over(position):
                break
            name = rng.choice(reference.moves(position))
            state.play(state.parse_move(name))
            position = reference.play(position, name)
        if state.is_over():
            continue
        found = exact_score(state, Options(tt_mb=16))
        assert found.score == reference.best_score(position), state.record
        assert solve(state, Options(tt_mb=16), with_moves=False).value == value_name(found.score)
