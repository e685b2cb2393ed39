"""The results page: the small results re-checked by their certificates on every run; wrong claims caught."""

import json
from pathlib import Path

import pytest

from gameproof.answers import Value
from gameproof.cli import main
from gameproof.results import RESULTS, FirstMoves, GameValue, Size, check

PAGE = (Path(__file__).parent.parent / "docs" / "results.md").read_text()


@pytest.mark.parametrize("result", [r for r in RESULTS if r.size is Size.SMALL], ids=lambda r: r.name)
def test_small_results_hold(result):
    report = check(result)
    assert report.holds, report.problem
    certified = ("certificate" in line and "accepted" in line or "proof checked" in line
                 or "tablebase" in line and "accepted" in line
                 or "agrees, move by move (no certificate: the kernels look ahead" in line for line in report.checks)
    assert any(certified)


def test_every_result_is_on_the_page_with_its_value():
    for result in RESULTS:
        assert f"`{result.name}`" in PAGE
        if isinstance(result, GameValue):
            row = next(line for line in PAGE.splitlines() if f"`{result.name}`" in line)
            assert f"**{result.value}**" in row


def _published_rows() -> dict[str, str]:
    """The rows of the page's "Published results, reproduced" table: each result's name and its row."""
    section = PAGE.split("## Published results, reproduced", 1)[1]
    return {line.split("`")[1]: line for line in section.splitlines() if line.startswith("| `")}


def test_every_published_row_has_its_result_and_every_published_result_its_row():
    from gameproof.results import PUBLISHED

    rows = _published_rows()
    assert set(rows) == {result.name for result in PUBLISHED}
    for result in PUBLISHED:
        assert result.source and f"**{result.value}**" in rows[result.name]
        assert f"`gameproof results check {result.name}`" in rows[result.name]


@pytest.mark.parametrize("wrong", [GameValue("connect4:5,4", Value.WIN, FirstMoves.UNSOLVED, Size.SMALL),
                                   GameValue("examples/domineering.py:3,4", Value.WIN, FirstMoves.UNSOLVED,
                                             Size.SMALL),
                                   GameValue("dodgem:3", Value.WIN, ("a2-b2",), Size.SMALL)])
def test_a_wrong_published_claim_does_not_hold(wrong):
    report = check(wrong)
    assert not report.holds and report.problem.startswith("solved ")


@pytest.mark.parametrize("wrong", [GameValue("mnk-notakto:4,4,3", Value.LOSS, FirstMoves.EVERY, Size.SMALL),
                                   GameValue("mnk-notakto:4,4,3", Value.WIN, ("a1",), Size.SMALL)])
def test_a_wrong_claim_does_not_hold(wrong):
    report = check(wrong)
    assert not report.holds and "solved win" in report.problem


def test_a_value_claimed_without_its_first_moves_is_checked_by_value():
    report = check(GameValue("mnk-notakto:4,4,3", Value.WIN, FirstMoves.UNSOLVED, Size.SMALL))
    assert report.holds, report.problem
    assert "df-pn: win, not solved one by one (the value only)" in report.checks
    assert not check(GameValue("mnk-notakto:4,4,3", Value.DRAW, FirstMoves.UNSOLVED, Size.SMALL)).holds


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


@pytest.fixture
def notakto_certificate(tmp_path):
    """A certificate of Notakto 4×4 from its start, and one of the position after a1, written by `solve`."""
    start, later = tmp_path / "n44.cert", tmp_path / "n44-a1.cert"
    assert main(["solve", "mnk-notakto:4,4,3", "--quiet", "--certificate", str(start)]) == 0
    assert main(["solve", "mnk-notakto:4,4,3", "--moves", "a1", "--quiet", "--certificate", str(later)]) == 0
    return start, later


def test_a_given_certificate_is_checked_instead_of_solving_again(notakto_certificate, capsys):
    start, _ = notakto_certificate
    capsys.readouterr()
    assert main(["results", "check", "mnk-notakto:4,4,3", "--certificate", str(start), "--json"]) == 0
    [report] = json.loads(capsys.readouterr().out)["results"]
    assert report["holds"] and report["checks"][0].startswith(f"the certificate {start} (")
    assert "accepted by the independent checker: win for the first player" in report["checks"][0]


@pytest.mark.parametrize(("argv", "message"), [
    (["mnk-notakto:5,5,3", "--certificate", "{start}"], "is a certificate of mnk-notakto:4,4,3, not of mnk-notakto:5,5,3"),
    (["mnk-notakto:4,4,3", "--certificate", "{later}"], "after 'a1', not of its start"),
    (["--certificate", "{start}"], "name the one result"),
    (["othello-mobility-1", "--certificate", "{start}"], "is not a game value"),
    (["mnk-notakto:4,4,3", "--certificate", "{start}", "--workers", "0"], "--workers must be between 1 and"),
])
def test_a_certificate_of_something_else_is_refused_in_one_line(notakto_certificate, capsys, argv, message):
    start, later = notakto_certificate
    capsys.readouterr()
    assert main(["results", "check", *(a.format(start=start, later=later) for a in argv)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_a_tampered_certificate_does_not_hold(notakto_certificate, tmp_path, capsys):
    import gzip

    start, _ = notakto_certificate
    data = gzip.decompress(start.read_bytes())
    header, rest = data.split(b"\n", 1)
    forged = tmp_path / "forged.cert"
    assert b'"value":"win"' in header
    forged.write_bytes(gzip.compress(header.replace(b'"value":"win"', b'"value":"loss"') + b"\n" + rest))
    wrong = GameValue("mnk-notakto:4,4,3", Value.LOSS, FirstMoves.EVERY, Size.SMALL)
    report = check(wrong, str(forged))
    assert not report.holds and "claims loss for first (to move), but its parts prove win" in report.problem


def test_a_huge_result_is_rechecked_only_from_a_certificate(notakto_certificate, monkeypatch, capsys):
    from gameproof import results

    start, _ = notakto_certificate
    huge = GameValue("mnk-notakto:4,4,3", Value.WIN, FirstMoves.EVERY, Size.HUGE, note="a solve of hours")
    monkeypatch.setattr(results, "RESULTS", (GameValue("mnk-notakto:4,5,3", Value.WIN, ("a1", "c1", "e1", "a2", "e2",
                                                        "a3", "e3", "a4", "c4", "e4"), Size.SMALL), huge))
    capsys.readouterr()
    assert main(["results", "check", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["holds"] and document["not_rechecked"] == ["mnk-notakto:4,4,3"]
    assert [r["name"] for r in document["results"]] == ["mnk-notakto:4,5,3"]
    assert main(["results", "check", "mnk-notakto:4,4,3"]) == 2
    assert "give --certificate FILE (a solve of hours)" in capsys.readouterr().err
    assert main(["results", "check", "mnk-notakto:4,4,3", "--certificate", str(start), "--workers", "2"]) == 0


def test_every_mobility_witness_on_the_page_replays_to_its_count():
    from gameproof.certify.mobility_check import _reaches
    from gameproof.results import OthelloMobility

    for result in (r for r in RESULTS if isinstance(r, OthelloMobility)):
        row = next(line for line in PAGE.splitlines() if line.startswith(f"| `{result.name}` |"))
        witness = row.split("|")[4].strip()
        assert _reaches(witness, result.plies, result.most), (result.name, witness)
