"""Exact scores (`solve --score`, gameproof.search.score) and extra turns, against plain minimax on Python ints."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from gameproof.answers import Value
from gameproof.certify.check import check_certificate
from gameproof.certify.records import write_certificate
from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.declaration import Engine, RulesError
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.certificate import certify
from gameproof.search.dfpn import Search
from gameproof.search.perft import fast_perft, perft
from gameproof.search.score import exact_score, final_score
from gameproof.search.solve import solve
PAIRS = (Path(__file__).parents[2] / "examples" / "pairs.py").read_text()

ENGINES = (Engine.DFPN, Engine.ALPHABETA)
#: Scores found by the reference minimax: game name -> (words, side to move) -> score for the side to move.
_SCORES: dict[str, dict[tuple[tuple[int, ...], int], int]] = {}


def reference(state: RulesState) -> tuple[int, Value]:
    """(score, value) for the side to move under perfect play, by plain memoised minimax over the rules on Python
    ints: each side maximises its own score; a child where the same side moves again is not negated."""
    game = state.game
    known = _SCORES.setdefault(game.name, {})

    def best(words: tuple[int, ...], to_move: int) -> int:
        if (words, to_move) not in known:
            here = RulesState.at(game, words, to_move)
            if here.is_over():
                known[words, to_move] = final_score(here)
            else:
                scores = []
                for move in here.legal_moves():
                    here.play(move)
                    below = best(here.words, here.to_move)
                    scores.append(below if here.to_move == to_move else -below)
                    here.undo()
                known[words, to_move] = max(scores)
        return known[words, to_move]

    score = best(state.words, state.to_move)
    return score, Value.WIN if score > 0 else Value.LOSS if score < 0 else Value.DRAW


def reference_moves(state: RulesState) -> dict[int, int]:
    moves = {}
    for move in state.legal_moves():
        state.play(move)
        score, _ = reference(state)
        moves[move] = score if state.to_move == state._earlier[-1][1] else -score
        state.undo()
    return moves


def random_positions(name: str, count: int, most: int, seed: int = 7) -> list[RulesState]:
    game, rng, positions = load_game(name), random.Random(seed), []
    while len(positions) < count:
        state = RulesState(game)
        for _ in range(rng.randrange(most + 1)):
            if state.is_over():
                break
            state.play(rng.choice(state.legal_moves()))
        if not state.is_over():
            positions.append(state)
    return positions


@pytest.fixture
def pairs(tmp_path: Path):
    def write(text: str = PAIRS, name: str = "pairs.py") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return write


@pytest.mark.parametrize("engine", ENGINES)
def test_othello_4x4_scores_as_minimax(engine: Engine) -> None:
    state = RulesState(load_game("othello:4"))
    solution = exact_score(state, engine=engine)
    assert solution.score == reference(state)[0] == -10  # a 3-13 loss, the last 0 empty square to the winner
    assert solution.moves == reference_moves(state)
    for position in random_positions("othello:4", 6, 8):
        assert exact_score(position, engine=engine, with_moves=False).score == reference(position)[0]


def test_othello_score_gives_empty_squares_to_the_winner() -> None:
    game = load_game("othello:4")
    assert game.rules.score(0b111, 0b1000) == 2 + 12  # 3 - 1, and the 12 empty squares
    assert game.rules.score(0b1, 0b1110) == -2 - 12
    assert game.rules.score(0b11, 0b1100) == 0


@pytest.mark.parametrize("cols", [4, 6])
def test_extra_turns_follow_the_position(pairs, cols: int) -> None:
    game = load_game(f"{pairs()}:{cols}")
    state = RulesState(game)
    score, value = reference(state)
    for engine in ENGINES:
        assert exact_score(state, engine=engine).score == score
        assert exact_score(state, engine=engine).moves == reference_moves(state)
        solved = solve(state, engine=engine)
        assert solved.value is value
        assert solved.moves == {move: Value.WIN if s > 0 else Value.LOSS if s < 0 else Value.DRAW
                                for move, s in reference_moves(state).items()}


def test_extra_turns_in_perft(pairs) -> None:
    game = load_game(f"{pairs()}:6")
    state = RulesState(game, "a1 c1 b1")  # the first player completes a pair: it moves again
    assert state.to_move == 0
    for depth in range(1, 5):
        assert fast_perft(state, depth) == perft(state, depth)  # the kernel against RulesState's moves


def test_pairs_values_need_the_extra_turns(pairs) -> None:
    """A search that took every child for the other side's would value the game otherwise (so the tests above catch
    one that alternates sides): the first player must open a pair, which the second completes."""
    state = RulesState(load_game(f"{pairs()}:6"))

    def alternating(state: RulesState) -> int:
        if state.is_over():
            return final_score(state) * (1 if state.to_move == len(state.history) % 2 else -1)
        scores = []
        for move in state.legal_moves():
            state.play(move)
            scores.append(-alternating(state))
            state.undo()
        return max(scores)

    assert reference(state)[0] == -2
    assert alternating(state) != -2


def test_score_certificate_accepted_and_a_moved_threshold_rejected(tmp_path: Path) -> None:
    game = load_game("othello:4")
    state = RulesState(game, "b1")
    score = reference(state)[0]
    threshold = score if state.to_move == 0 else -score
    search = Search(game.kernels, game.scored_tables(threshold), game.max_plies, game.max_moves)
    certificate = certify(state, search)
    assert certificate.header.threshold == threshold and certificate.header.value is Value.DRAW
    path = tmp_path / "o4.cert"
    write_certificate(str(path), certificate.header, certificate.parts)
    report = check_certificate(str(path))
    assert report.accepted and report.header.claim(report.to_move, report.value) == f"score = {score}"
    lines = gzip.decompress(path.read_bytes()).split(b"\n", 1)
    header = json.loads(lines[0])
    for moved in (threshold - 1, threshold + 1):
        header["score_threshold"] = moved
        tampered = tmp_path / f"moved{moved}.cert"
        tampered.write_bytes(gzip.compress(json.dumps(header).encode() + b"\n" + lines[1]))
        assert not check_certificate(str(tampered)).accepted


def test_solve_score_cli(capsys, tmp_path: Path) -> None:
    certificate = tmp_path / "o4.cert"
    assert main(["solve", "othello:4", "--score", "--json", "--certificate", str(certificate)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score"] == -10 and set(out["moves"].values()) == {-10}
    assert out["certificate"]["score_threshold"] == -10
    assert main(["certificate", "check", str(certificate)]) == 0
    assert "ACCEPTED: score = -10 for black" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "mnk:3,3,3", "--score"], "mnk:3,3,3 declares no score"),
    (["solve", "othello:4", "--score", "--workers", "2"], "does not take --workers"),
    (["solve", "othello:4", "--score", "--journal", "j"], "does not take --journal"),
])
def test_solve_score_refusals(capsys, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_score_against_the_result_is_refused(pairs) -> None:
    wrong = pairs(PAIRS.replace("return mine - theirs", "return theirs - mine"), "wrong_sign.py")
    with pytest.raises(RulesError, match="score\\(\\) returned .* where result\\(\\) says"):
        load_game(wrong)


def test_a_side_to_move_other_than_0_or_1_is_refused(pairs) -> None:
    wrong = pairs(PAIRS.replace("return 1 if mark != 0 else 0", "return 2 if mark != 0 else 0"),
                  "wrong_turn.py")
    with pytest.raises(RulesError, match="to_move\\(\\) returned 2, not 0 or 1"):
        load_game(wrong)


def test_to_move_needs_absolute_words(pairs) -> None:
    with pytest.raises((TypeError, BadInput), match="perspective=False"):
        load_game(pairs(PAIRS.replace("perspective=False,", ""), "perspective.py"))


def test_extra_turn_certificates_are_checked(pairs, tmp_path: Path) -> None:
    """Certificates of a game with extra turns, of its value and of its exact score, are accepted; the checker
    follows the side to move that the rules give."""
    game = load_game(f"{pairs()}:6")
    state = RulesState(game)
    score = reference(state)[0]
    for name, tables, value in (("value", game.tables, Value.LOSS), ("score", game.scored_tables(score), Value.DRAW)):
        certificate = certify(state, Search(game.kernels, tables, game.max_plies, game.max_moves), source=pairs())
        assert certificate.header.value is value
        path = tmp_path / f"{name}.cert"
        write_certificate(str(path), certificate.header, certificate.parts)
        report = check_certificate(str(path))
        assert report.accepted, report.finding


def first_moves_again(first, second, mark, to_move):
    """The first player holds a1 and b1, the second c1, and the first is to move (it completed the pair)."""
    return (first == 3) & (second == 4) & (to_move == 0)


def test_reach_follows_extra_turns(pairs) -> None:
    from gameproof.framework.reach import solve_reach
    from gameproof.answers import Status

    game = load_game(f"{pairs()}:4")
    found = solve_reach(game, 3, first_moves_again, "cadical195")
    assert found.status is Status.SAT and found.final.record in ("a1 c1 b1", "b1 c1 a1") and found.final.to_move == 0
    assert solve_reach(game, 2, first_moves_again, "cadical195").status is Status.UNSAT


def test_a_score_is_searched_without_lookahead() -> None:
    """Lookahead calls a move lost when the other side can then win at once: a win is not a score below a threshold,
    so score questions are asked without it (with it, this search ran away below any score)."""
    import dataclasses

    from gameproof.framework.game import Game

    looking = Game(dataclasses.replace(load_game("othello:4").spec, lookahead=True), {"n": 4})
    state = RulesState(looking, "b1 a1")
    score = reference(RulesState(load_game("othello:4"), "b1 a1"))[0]
    for engine in ENGINES:
        assert exact_score(state, engine=engine, with_moves=False).score == score


def test_a_score_threshold_on_a_game_without_a_score_is_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "m.cert"
    assert main(["solve", "mnk:3,3,3", "--moves", "b2 a1", "--certificate", str(path), "--quiet"]) == 0
    header, rest = gzip.decompress(path.read_bytes()).split(b"\n", 1)
    tampered = tmp_path / "scored.cert"
    tampered.write_bytes(gzip.compress(json.dumps(json.loads(header) | {"score_threshold": 0}).encode() + b"\n" + rest))
    capsys.readouterr()
    assert main(["certificate", "check", str(tampered)]) == 2
    err = capsys.readouterr().err
    assert "declares no score" in err and len(err.strip().splitlines()) == 1


def test_the_score_of_a_finished_game_without_one_is_refused() -> None:
    with pytest.raises(BadInput, match="declares no score"):
        exact_score(RulesState(load_game("mnk:3,3,3"), "a1 a2 b1 b2 c1"))
