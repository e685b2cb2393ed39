"""Checks of a game's engine (RulesState, perft, solve) against its slow reference, shared by the tests of the
games whose moves have several parts. A reference names moves as the engine prints them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from grid_games import Grid, Moves, Play
from grid_games import perft as reference_perft

from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.perft import fast_perft, perft
from gameproof.search.solve import solve


def check_playouts(game: Game, moves: Moves, play: Play, grid: Grid, seed: str, playouts: int = 10) -> None:
    """On random playouts, the engine's legal moves by name are the reference's at every position, each read
    back from its name with ``x`` for ``-``, and both games end together."""
    rng = random.Random(seed)
    for _ in range(playouts):
        state, board = RulesState(game), grid
        while not state.is_over():
            names = sorted(state.move_name(move) for move in state.legal_moves())
            assert names == sorted(moves(board, state.to_move))
            name = rng.choice(names)
            board = play(board, state.to_move, name)
            state.play(state.parse_move(name.replace("-", "x")))
        assert not moves(board, state.to_move)


def check_perft(state: RulesState, moves: Moves, play: Play, grid: Grid, depth: int, python_depth: int) -> None:
    """The compiled perft at every depth up to `depth`, and the Python perft up to `python_depth`, count what the
    reference counts."""
    for d in range(depth + 1):
        expected = reference_perft(moves, play, grid, 0, d)
        assert fast_perft(state, d) == expected, d
        if d <= python_depth:
            assert perft(state, d) == expected, d


def check_random_positions(game: Game, start: Any, play: Callable[[Any, str], Any], wins: Callable[[Any], bool],
                           plies: int, tries: int) -> None:
    """Positions `plies` random plies from `start` (fewer where a game ends), solved with every move's value,
    against the reference's minimax: `wins(position)` for the side to move, `play(position, name)`."""
    rng = random.Random(game.name)
    named = {True: "win", False: "loss"}
    for _ in range(tries):
        state, position = RulesState(game), start
        for _ in range(plies):
            if state.is_over():
                break
            move = rng.choice(state.legal_moves())
            position = play(position, state.move_name(move))
            state.play(move)
        if state.is_over():
            continue
        solution = solve(state, Options(tt_mb=16))
        assert solution.value == named[wins(position)], state.record
        for move, value in solution.moves.items():
            assert value == named[not wins(play(position, state.move_name(move)))], state.record
