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
    assert any("certificate" in line and "accepted" in line for line in report.checks)


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
