"""Breakthrough (gameproof.games.breakthrough) against the slow reference in breakthrough_reference.py: the
rule functions on random playouts, the longest game, perft and exact values through the engine, a
certificate, and the self-check."""

from __future__ import annotations

import json
import random
import sys
from functools import lru_cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import breakthrough_reference as reference  # noqa: E402
from engine_checks import check_perft, check_playouts  # noqa: E402
from grid_games import perft as reference_perft  # noqa: E402
from move_masks import grid_of, rule_moves  # noqa: E402

from gameproof.cli import main  # noqa: E402
from gameproof.framework.declaration import LOSS, MAX_ESTIMATE, ONGOING, WIN, Engine  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.dfpn import Options  # noqa: E402
from gameproof.search.solve import solve  # noqa: E402

VALUE_NAMES = {1: "win", -1: "loss"}


def size_of(size: str) -> tuple[int, int]:
    rows, cols = size.split(",")
    return int(rows), int(cols)


# --- the rule functions, on Python ints ------------------------------------------------------------


def test_the_start_has_two_home_rows_each_from_five_rows_and_one_below():
    assert load_game("breakthrough:5,5").rules.start() == (0b11111_11111, 0b11111_11111 << 15)
    assert load_game("breakthrough:8,8").rules.start() == (0xFFFF, 0xFFFF << 48)
    assert load_game("breakthrough:4,3").rules.start() == (0b111, 0b111 << 9)


@pytest.mark.parametrize("size", ["3,3", "3,4", "4,3", "4,4", "3,5", "5,5", "6,5", "7,4", "8,8"])
def test_the_rules_agree_with_the_reference_on_random_playouts(size):
    rows, cols = size_of(size)
    game = load_game(f"breakthrough:{size}")
    rules, board = game.rules, game.board
    most_moves = game.spec.max_moves(**game.parameters)
    rng = random.Random(size)
    for _ in range(40):
        words, side, grid, plies = rules.start(), 0, reference.start(rows, cols), 0
        while True:
            assert grid_of(board, words, "WB") == grid
            moves = rule_moves(rules, board, (side, *words))
            assert sorted(moves) == sorted(reference.moves(grid, side))
            assert len(moves) <= most_moves
            if not moves:
                assert rules.result(side, *words) == LOSS
                break
            for count in rules.estimate(side, *words):
                assert 0 <= count <= MAX_ESTIMATE
            name = rng.choice(sorted(moves))
            words = rules.play(side, *words, *moves[name])
            grid, side, plies = reference.play(grid, side, name), 1 - side, plies + 1
        assert plies <= game.max_plies


@pytest.mark.parametrize("size", ["3,3", "3,4", "4,3"])
def test_max_plies_is_the_longest_game_and_plies_left_bounds_it_from_every_position(size):
    """Every position reachable on the board, found by the reference, with the rules' words beside it."""
    game = load_game(f"breakthrough:{size}")
    rules, board = game.rules, game.board

    @lru_cache(maxsize=None)
    def longest(grid, side, words):
        lengths = [0]
        for name, (frm, to) in rule_moves(rules, board, (side, *words)).items():
            after = rules.play(side, *words, frm, to)
            lengths.append(1 + longest(reference.play(grid, side, name), 1 - side, after))
        assert max(lengths) <= rules.plies_left(side, *words), grid
        return max(lengths)

    assert longest(reference.start(*size_of(size)), 0, rules.start()) == game.max_plies


def test_the_estimate_counts_each_sides_pieces_near_its_far_row_and_the_movers_breakthroughs():
    rules = load_game("breakthrough:5,5").rules
    white = 1 << 15 | 1 << 16 | 1 << 11  # a4 and b4, one step from row 5, and b3
    black = 1 << 5 | 1 << 24  # a2, one step from row 1, and e5
    assert rules.estimate(0, white, black) == (2 * 16 + 2 * 2 + 1, 2)  # a4 and b4 can break through
    assert rules.estimate(1, white, black) == (16 + 2, 2 * 2 + 1)  # a2 can


# --- through the engine ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["4,4", "5,5", "3,5"])
def test_engine_playouts_name_and_parse_the_reference_moves(size):
    check_playouts(load_game(f"breakthrough:{size}"), reference.moves, reference.play, reference.start(*size_of(size)), size)


@pytest.mark.parametrize(("size", "depth"), [("4,4", 6), ("5,5", 4), ("8,8", 3)])
def test_perft_through_the_engine_equals_the_reference(size, depth):
    state, grid = RulesState(load_game(f"breakthrough:{size}")), reference.start(*size_of(size))
    check_perft(state, reference.moves, reference.play, grid, depth, 3)


def test_the_perft_command(capsys):
    assert main(["perft", "breakthrough:5,5", "3", "--json"]) == 0
    grid = reference.start(5, 5)
    assert json.loads(capsys.readouterr().out)["paths"] == reference_perft(reference.moves, reference.play, grid, 0, 3)


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("size", ["3,3", "3,4", "4,3", "3,5", "4,4"])
def test_solved_values_equal_minimax(size, engine):
    state = RulesState(load_game(f"breakthrough:{size}"))
    solution = solve(state, Options(tt_mb=16), with_moves=False, engine=engine)
    assert solution.value == VALUE_NAMES[reference.value(reference.start(*size_of(size)), 0)]


def test_every_first_moves_value_on_4x4_equals_minimax():
    state, grid = RulesState(load_game("breakthrough:4,4")), reference.start(4, 4)
    solution = solve(state, Options(tt_mb=16))
    values = {state.move_name(move): value for move, value in solution.moves.items()}
    assert values == {move: VALUE_NAMES[-reference.value(reference.play(grid, 0, move), 1)]
                      for move in reference.moves(grid, 0)}


def _random_line(game, rng: random.Random, most: int):
    """A random position of the 4×4 `game` after fewer than `most` plies (fewer where it ends): the engine's state
    and the reference's grid, played move for move."""
    state, grid = RulesState(game), reference.start(4, 4)
    for _ in range(rng.randrange(1, most)):
        if state.is_over():
            break
        name = rng.choice(reference.moves(grid, state.to_move))
        grid = reference.play(grid, state.to_move, name)
        state.play(state.parse_move(name))
    return state, grid


def test_random_positions_solve_to_their_minimax_value():
    game = load_game("breakthrough:4,4")
    rng = random.Random(7)
    for _ in range(8):
        state, grid = _random_line(game, rng, 8)
        if not state.is_over():
            assert solve(state, Options(tt_mb=16), with_moves=False).value == VALUE_NAMES[
                reference.value(grid, state.to_move)], state


def test_a_certificate_of_4x3_is_accepted(tmp_path, capsys):
    path = tmp_path / "breakthrough.cert"
    assert main(["solve", "breakthrough:4,3", "--certificate", str(path), "--json"]) == 0
    value = VALUE_NAMES[reference.value(reference.start(4, 3), 0)]
    assert json.loads(capsys.readouterr().out)["value"] == value
    assert main(["certificate", "check", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["accepted"] and checked["value"] == value


def test_the_self_check_passes():
    assert main(["games", "breakthrough:5,5", "--check", "--games", "100"]) == 0


@pytest.mark.heavy
def test_5x5_is_a_second_player_win_with_every_first_move_and_an_accepted_certificate(tmp_path, capsys):
    """The published result (retrograde analysis, 2006): on 5×5 with two home rows each, black wins.
    About 20 minutes on 2 cores: df-pn 158M nodes in 660 s, the certificate (6.2M positions) 100 s, its
    check 370 s."""
    path = tmp_path / "breakthrough-5x5.cert"
    assert main(["solve", "breakthrough:5,5", "--certificate", str(path), "--tt-mb", "4096", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["value"] == "loss" and answer["to_move"] == "white"
    assert sorted(answer["moves"]) == sorted(reference.moves(reference.start(5, 5), 0))
    assert set(answer["moves"].values()) == {"loss"}
    assert main(["certificate", "check", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["accepted"] and checked["value"] == "loss"


# --- decided: the unstoppable runner (a value known without search) ---------------------------------------

RESULT_VALUES = {WIN: 1, LOSS: -1}


def random_grid(rng: random.Random, rows: int, cols: int, side: int):
    """A random board (not necessarily reachable) on which the game is not over with `side` to move, and its words."""
    while True:
        cells = [[reference.EMPTY] * cols for _ in range(rows)]
        for r in range(rows):
            for c in range(cols):
                roll = rng.random()
                if roll < 0.2:
                    cells[r][c] = reference.WHITE
                elif roll < 0.4:
                    cells[r][c] = reference.BLACK
        grid = tuple(tuple(row) for row in cells)
        if reference.moves(grid, side):
            white = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols) if grid[r][c] == reference.WHITE)
            black = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols) if grid[r][c] == reference.BLACK)
            return grid, (white, black)


@pytest.mark.parametrize("size, count", [("3,3", 400), ("3,4", 400), ("4,3", 400), ("3,5", 300), ("4,4", 300),
                                         ("5,3", 150)])
def test_decided_never_claims_a_value_that_minimax_refutes_on_random_boards(size, count):
    """Boards of random pieces, reachable or not, either side to move: every value `decided` claims is the value of
    plain minimax on the reference's own rules, and it claims some of each kind."""
    rows, cols = size_of(size)
    rules = load_game(f"breakthrough:{size}").rules
    rng = random.Random(f"decided {size}")
    claimed = {WIN: 0, LOSS: 0, ONGOING: 0}
    for _ in range(count):
        side = rng.randrange(2)
        grid, words = random_grid(rng, rows, cols, side)
        known = rules.decided(side, *words)
        claimed[known] += 1
        if known != ONGOING:
            assert RESULT_VALUES[known] == reference.value(grid, side), (grid, side, known)
    assert claimed[WIN] and claimed[LOSS] and claimed[ONGOING], claimed


def _plain_search(game):
    """A df-pn search of `game` with `decided` off: every game played to its real end."""
    from gameproof.framework.derived import without_decided
    from gameproof.search.dfpn import Search

    return Search(game.kernels, without_decided(game.tables), game.max_plies, game.max_moves, Options(tt_mb=16),
                  game.max_positions)


@pytest.mark.parametrize("size, games, least", [("4,4", 60, 0), ("4,5", 40, 2), ("5,4", 40, 4), ("5,5", 30, 10)])
def test_decided_agrees_with_a_search_without_it_on_random_games(size, games, least):
    """Positions of random games: where `decided` claims a value, df-pn with `decided` off (to the real ends of the
    games) proves the same; and both engines with it on solve the position to the value df-pn finds without it."""
    from gameproof.search.exact import solve as exact_solve

    game = load_game(f"breakthrough:{size}")
    rules = game.rules
    plain = _plain_search(game)
    rng = random.Random(f"race {size}")
    claims = 0
    for number in range(games):
        state = RulesState(game)
        for ply in range(game.max_plies):
            if state.is_over():
                break
            if ply >= least:
                known = rules.decided(state.to_move, *state.words)
                if known != ONGOING or (number % 8 == 0 and ply % 3 == 0):
                    truth = exact_solve(game.kernels, plain.tables, state.frames(), max_depth=game.max_plies,
                                        max_moves=game.max_moves, with_moves=False, search=plain).value
                    if known != ONGOING:
                        claims += 1
                        assert truth.value == VALUE_NAMES[RESULT_VALUES[known]], (state, known)
                    else:
                        for engine in Engine:
                            assert solve(state, Options(tt_mb=16), with_moves=False, engine=engine).value == truth, (
                                state, engine)
            state.play(rng.choice(state.legal_moves()))
    assert claims > 10


@pytest.mark.parametrize("engine", list(Engine))
def test_random_positions_solve_to_their_minimax_value_with_both_engines(engine):
    game = load_game("breakthrough:4,4")
    rng = random.Random(f"engines {engine.value}")
    for _ in range(12):
        state, grid = _random_line(game, rng, 10)
        if not state.is_over():
            solution = solve(state, Options(tt_mb=16), engine=engine)
            assert solution.value == VALUE_NAMES[reference.value(grid, state.to_move)], state
            for move, value in solution.moves.items():
                after = reference.play(grid, state.to_move, state.move_name(move))
                assert value == VALUE_NAMES[-reference.value(after, 1 - state.to_move)], (state, move)


def test_decided_is_on_for_value_searches_and_off_where_real_ends_are_needed():
    """The value searches use it; certificates, distances, scores and tablebases get tables with it off; a game that
    does not declare it has it off everywhere (its calls are pruned from the kernels)."""
    from gameproof.framework.derived import INFO_DECIDED, without_decided
    from gameproof.search.distance import search_tables
    from gameproof.search.tablebase.passes import lookahead_free

    for name in ("breakthrough:4,4", "hex:3"):
        game = load_game(name)
        assert game.has_decided and game.tables[1][INFO_DECIDED] == 1
        assert without_decided(game.tables)[1][INFO_DECIDED] == 0 and game.tables[1][INFO_DECIDED] == 1
        assert search_tables(RulesState(game))[0][1][INFO_DECIDED] == 0
        assert lookahead_free(game)[1][INFO_DECIDED] == 0
    for name in ("connect4:4,4", "mnk:3,3,3", "clobber:3,3", "othello:4"):
        other = load_game(name)
        assert not other.has_decided and other.tables[1][INFO_DECIDED] == 0
        assert (without_decided(other.tables) is other.tables) == (not other.has_bound)  # Connect Four's bound


def test_distances_play_on_past_a_decided_position():
    """`solve --distance` counts the real plies to the end: equal to plain minimax's on 4×3, from the start and from
    positions where `decided` would end the search at once."""
    from gameproof.search.distance import distances
    from tests.search.test_distance import Reference

    game = load_game("breakthrough:4,3")
    plain = Reference()
    start = RulesState(game)
    assert distances(start, Options(tt_mb=4)).plies == plain(start).plies
    rng = random.Random("distances")
    seen = 0
    for _ in range(40):
        state = RulesState(game)
        while not state.is_over():
            if game.rules.decided(state.to_move, *state.words) != ONGOING:
                solution = distances(state, Options(tt_mb=4))
                assert (solution.value, solution.plies) == plain(state), state
                assert solution.moves == plain.moves(state), state
                seen += 1
            state.play(rng.choice(state.legal_moves()))
    assert seen > 10


@pytest.mark.parametrize("size", ["4,4", pytest.param("5,3", marks=pytest.mark.slow)])
def test_certificates_are_built_with_decided_off_and_accepted(size, tmp_path, capsys):
    """A solve with `decided` on, then its certificate from the same table: the checker trusts no race, so the
    certificate plays every game on to its real end, and is accepted."""
    path = tmp_path / "breakthrough.cert"
    assert main(["solve", f"breakthrough:{size}", "--certificate", str(path), "--json"]) == 0
    value = VALUE_NAMES[reference.value(reference.start(*size_of(size)), 0)]
    assert json.loads(capsys.readouterr().out)["value"] == value
    assert main(["certificate", "check", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["accepted"] and checked["value"] == value
