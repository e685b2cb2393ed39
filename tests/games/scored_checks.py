"""Checks of a scored game with extra turns (perft, solve, exact scores) against its plain reference, shared by the
tests of Dots and Boxes and Kalah. A reference module gives ``perft(position, depth)``, ``moves(position)`` (move
names as the engine prints them), ``play(position, name)``, ``best_score(position)`` (for the side to move) and
positions with a ``side`` to move."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from gameproof.framework.declaration import Engine
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.perft import fast_perft, perft
from gameproof.search.score import exact_score
from gameproof.search.solve import solve

OPTIONS = Options(tt_mb=16)


def value_name(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def mover_score_after(reference: ModuleType, position: Any, move: str) -> int:
    """The final score, for the side that plays `move`, of perfect play after it."""
    after = reference.play(position, move)
    best = reference.best_score(after)
    return best if after.side == position.side else -best


def check_perft(reference: ModuleType, state: RulesState, position: Any, depth: int, python_depth: int) -> None:
    """Perft by the kernel to `depth`, and over RulesState to `python_depth`, equals the reference's."""
    for d in range(depth + 1):
        expected = reference.perft(position, d)
        assert fast_perft(state, d) == expected, d
        if d <= python_depth:
            assert perft(state, d) == expected, d


def check_solved_values(reference: ModuleType, state: RulesState, position: Any, engine: Engine) -> None:
    """The value of the position and of each move equal the reference minimax's."""
    solution = solve(state, OPTIONS, engine=engine)
    assert solution.value == value_name(reference.best_score(position))
    named = {state.move_name(move): value for move, value in solution.moves.items()}
    assert named == {move: value_name(mover_score_after(reference, position, move))
                     for move in reference.moves(position)}


def check_exact_scores(reference: ModuleType, state: RulesState, position: Any) -> None:
    """The exact score of the position and of each move equal the reference minimax's."""
    found = exact_score(state, OPTIONS)
    assert found.score == reference.best_score(position)
    named = {state.move_name(move): score for move, score in found.moves.items()}
    assert named == {move: mover_score_after(reference, position, move) for move in reference.moves(position)}
