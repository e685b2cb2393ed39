"""The results page: the small results re-checked by their certificates on every run; wrong claims caught."""

import json
from pathlib import Path

import pytest

from gameproof.answers import Value
from gameproof.cli import main
from gameproof.results import RESULTS, GameValue, Size, check

PAGE = (Path(__file__).parent.parent / "docs" / "results.md").read_text()


@pytest.mark.parametrize("result", [r for r in RESULTS if r.size is Size.SMALL], ids=lambda r: r.name)
def test_small_results_hold(result):
    report = check(result)
    assert report.holds, report.problem
    certified = ("certificate" in line and "accepted" in line or "proof checked" in line for line in report.checks)
    assert any(certified)


def test_every_result_is_on_the_page_with_its_value():
    for result in RESULTS:
        assert f"`{result.name}`" in PAGE
        if isinstance(result, GameValue):
            row = next(line for line in PAGE.splitlines() if f"`{result.name}`" in line)
            assert f"**{result.value}**" in row


@pytest.mark.parametrize("wrong", [GameValue("mnk-notakto:4,4,3", Value.LOSS, None, Size.SMALL),
                                   GameValue("mnk-notakto:4,4,3", Value.WIN, ("a1",), Size.SMALL)])
def test_a_wrong_claim_does_not_hold(wrong):
    report = check(wrong)
    assert not report.holds and "solved win" in report.problem


def test_cli_checks_the_small_ones_and_refuses_unknown_names(capsys):
    assert main(["results", "check", "mnk-notakto:4,4,3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["holds"] is True
    assert main(["results", "check", "mnk:9,9,9"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def _most_after_exactly(moves: int) -> int:
    """Brute force: the most legal moves of the side to move over every position after exactly `moves` moves."""
    from gameproof.games.othello import rules

    def turn(player, opponent):
        return (opponent, player) if rules.legal_moves(player, opponent) == 0 else (player, opponent)

    frontier = {(rules.START_BLACK, rules.START_WHITE)}
    for _ in range(moves):
        following = set()
        for player, opponent in map(lambda board: turn(*board), frontier):
            legal = rules.legal_moves(player, opponent)
            following |= {rules.after_move(player, opponent, 1 << s) for s in range(64) if legal >> s & 1}
        frontier = following
    return max(rules.popcount(rules.legal_moves(*turn(p, o))) for p, o in frontier)


def test_othello_mobility_agrees_with_brute_force_on_the_first_plies():
    from gameproof.results import OthelloMobility

    claimed = {r.plies: r.most for r in RESULTS if isinstance(r, OthelloMobility) and r.plies <= 5}
    assert claimed == {plies: _most_after_exactly(plies) for plies in claimed}


def test_large_mobility_refutations_run_as_cube_jobs_with_every_proof_checked():
    from gameproof.results import Check, _refuted_by_cubes

    refuted = Check("after exactly 4 moves", False)
    assert _refuted_by_cubes(refuted, 10, 4) is True  # 9 is the most after 4 moves
    assert "every cube's DRAT proof and the coverage proof checked by" in refuted.checks[-1]
    reachable = Check("after exactly 4 moves", False)
    assert _refuted_by_cubes(reachable, 9, 4) is False and reachable.problem.startswith("9 legal moves: sat")
