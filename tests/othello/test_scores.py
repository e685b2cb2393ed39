"""Exact Othello endgame scores against a published suite: the FForum positions as edax ships them
(tests/data/othello_fforum.txt), each with the exact final disc difference after each of its moves."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from gameproof.framework.declaration import Engine
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.games.othello.board_text import parse_board_text
from gameproof.search.dfpn import Options
from gameproof.search.score import exact_score

SUITE = Path(__file__).parents[1] / "data" / "othello_fforum.txt"
OPTIONS = Options(tt_mb=256)


@dataclass(frozen=True)
class Problem:
    board: str  # the 64 squares and the side to move
    moves: dict[str, int]  # the file's moves with their exact scores for the side to move

    @property
    def empties(self) -> int:
        return self.board.split()[0].count("-")

    @property
    def score(self) -> int:
        return max(self.moves.values())

    def state(self) -> RulesState:
        game = load_game("othello:8")
        (black, white), side = parse_board_text(game, self.board)
        return RulesState.at(game, (black, white) if side == 0 else (white, black), side)


def problems() -> list[Problem]:
    found = []
    for line in SUITE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            board, *moves = (field.strip() for field in line.split(";") if field.strip())
            found.append(Problem(board, {move.split(":")[0].lower(): int(move.split(":")[1]) for move in moves}))
    return found


def test_the_suite_holds_what_the_acceptance_asks() -> None:
    sizes = [problem.empties for problem in problems()]
    assert len(sizes) >= 30 and sum(14 <= size <= 20 for size in sizes) == len(sizes)


@pytest.mark.parametrize("problem", [p for p in problems() if p.empties == 14], ids=lambda p: p.board[:12])
def test_14_empties_every_move_scored_as_published(problem: Problem) -> None:
    state = problem.state()
    solution = exact_score(state, OPTIONS, engine=Engine.ALPHABETA)
    assert solution.score == problem.score
    scored = {state.move_name(move): score for move, score in solution.moves.items()}
    assert {move: scored[move] for move in problem.moves} == problem.moves
    best = {move for move, score in scored.items() if score == solution.score}
    assert best == {move for move, score in problem.moves.items() if score == problem.score}


@pytest.mark.parametrize("problem", [p for p in problems() if 15 <= p.empties <= 16], ids=lambda p: p.board[:12])
def test_15_and_16_empties_scored_as_published(problem: Problem) -> None:
    assert exact_score(problem.state(), OPTIONS, engine=Engine.ALPHABETA, with_moves=False).score == problem.score


@pytest.mark.parametrize("problem", [p for p in problems() if p.empties == 15][:3], ids=lambda p: p.board[:12])
def test_df_pn_scores_as_published_too(problem: Problem) -> None:
    assert exact_score(problem.state(), OPTIONS, engine=Engine.DFPN, with_moves=False).score == problem.score


@pytest.mark.heavy
@pytest.mark.parametrize("problem", [p for p in problems() if p.empties >= 17], ids=lambda p: p.board[:12])
def test_17_to_20_empties_scored_as_published(problem: Problem) -> None:
    assert exact_score(problem.state(), OPTIONS, engine=Engine.ALPHABETA, with_moves=False).score == problem.score
