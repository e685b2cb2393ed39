"""How long perfect play lasts (`gameproof.search.distance`, `solve --distance`) against a plain minimax written here
over RulesState on Python ints: the winner takes the fewest plies, the loser the most."""

from __future__ import annotations

import gzip
import json
import random
import signal
from pathlib import Path

import pytest

from gameproof.answers import Value
from gameproof.certify.distance_check import check_distance_certificate
from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.game import Game
from gameproof.framework.registry import games_in_file, load_game
from gameproof.framework.state import RulesState
from gameproof.interrupts import Halt, RulesBroken
from gameproof.search.dfpn import Options
from gameproof.search.distance import Outcome, distances
from gameproof.search.distance_certificate import certify_distance
from tests.test_interrupts import BUGS, FILL, FILL_RULES, _finished, _gameproof, _stopped_within_two_seconds

ROOT = Path(__file__).resolve().parents[2]
SMALL = Options(tt_mb=4)


class Reference:
    """Plain minimax with memoisation over one game's RulesState: each position's (value, plies to the end) for its
    side to move, plies None for a draw. Nothing of the searches: moves, results and the side to move come from
    the rules on Python ints."""

    def __init__(self) -> None:
        self.memo: dict[tuple[tuple[int, ...], int], Outcome] = {}

    def __call__(self, state: RulesState) -> Outcome:
        at = (state.words, state.to_move)
        if at not in self.memo:
            self.memo[at] = self._solved(state)
        return self.memo[at]

    def _solved(self, state: RulesState) -> Outcome:
        if state.is_over():
            outcome = state.outcome()
            if outcome == 0:
                return Outcome(Value.DRAW, None)
            first_won = outcome == 1
            return Outcome(Value.WIN if first_won == (state.to_move == 0) else Value.LOSS, 0)
        return best(self.moves(state).values())

    def moves(self, state: RulesState) -> dict[int, Outcome]:
        """Each legal move's outcome for the side to move at `state`, counted from `state`."""
        found = {}
        for move in state.legal_moves():
            me = state.to_move
            state.play(move)
            value, plies = self(state)
            if state.to_move != me:
                value = {Value.WIN: Value.LOSS, Value.LOSS: Value.WIN, Value.DRAW: Value.DRAW}[value]
            state.undo()
            found[move] = Outcome(value, None if plies is None else plies + 1)
        return found


def best(outcomes) -> Outcome:
    """The mover's choice: the fastest win, else a draw, else the slowest loss."""
    outcomes = list(outcomes)
    wins = [o.plies for o in outcomes if o.value is Value.WIN]
    if wins:
        return Outcome(Value.WIN, min(wins))
    if any(o.value is Value.DRAW for o in outcomes):
        return Outcome(Value.DRAW, None)
    return Outcome(Value.LOSS, max(o.plies for o in outcomes))


def positions(state: RulesState):
    """Every unfinished position reachable from `state` (each once), as copies."""
    seen = set()
    pending = [state.copy()]
    while pending:
        here = pending.pop()
        if (here.words, here.to_move) in seen or here.is_over():
            continue
        seen.add((here.words, here.to_move))
        yield here
        for move in here.legal_moves():
            child = here.copy()
            child.play(move)
            pending.append(child)


def sampled(game_name: str, count: int, seed: int, least: int = 0):
    """`count` positions of random games of at least `least` plies (random lengths) that are not over."""
    game = load_game(game_name)
    rng = random.Random(seed)
    for _ in range(count):
        state = RulesState(game)
        for _ in range(rng.randrange(least, game.max_plies)):
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
            if state.is_over():
                state.undo()
                break
        yield state


def agrees(state: RulesState, reference: Reference, with_moves: bool = True) -> None:
    solution = distances(state, SMALL, with_moves=with_moves)
    assert (solution.value, solution.plies) == reference(state), state.record
    if with_moves:
        assert solution.moves == reference.moves(state), state.record


def test_every_tic_tac_toe_position():
    reference = Reference()
    start = RulesState(load_game("mnk:3,3,3"))
    checked = 0
    for state in positions(start):
        agrees(state, reference, with_moves=checked % 7 == 0)
        checked += 1
    assert checked == 4520  # the unfinished positions of tic-tac-toe
    assert reference(start) == (Value.DRAW, None)


@pytest.mark.parametrize("name", ["examples/hexapawn.py:3,3", "examples/hexapawn.py:3,4",
                                  pytest.param("examples/hexapawn.py:4,4", marks=pytest.mark.slow),
                                  "examples/domineering.py:3,3", "examples/domineering.py:3,4",
                                  "examples/domineering.py:4,4"])
def test_every_position_of_small_games_from_files(name):
    reference = Reference()
    for state in positions(RulesState(load_game(str(ROOT / name)))):
        agrees(state, reference)


def test_hexapawn_and_domineering_lengths():
    """Known ends: 3x3 hexapawn is a second-player win; Domineering 2x2 a win for the vertical player in one ply."""
    assert distances(RulesState(load_game(str(ROOT / "examples/hexapawn.py:3,3"))), SMALL).value is Value.LOSS
    won = distances(RulesState(load_game(str(ROOT / "examples/domineering.py:2,2"))), SMALL)
    assert (won.value, won.plies) == (Value.WIN, 1)


def test_connect4_sampled_positions():
    reference = Reference()
    agrees(RulesState(load_game("connect4:4,4")), reference)
    for state in sampled("connect4:4,4", 40, seed=4):
        agrees(state, reference)
    reference = Reference()
    for state in sampled("connect4:5,4", 30, seed=5, least=8):
        agrees(state, reference)


def test_connect4_6x4_lasts_the_published_24_plies():
    """Every first move of 6x4 loses, the last cell filled by the winner (the published table's 24)."""
    solution = distances(RulesState(load_game("connect4:6,4")), Options(tt_mb=64))
    assert (solution.value, solution.plies) == (Value.LOSS, 24)
    assert set(solution.moves.values()) == {Outcome(Value.LOSS, 24)}


@pytest.mark.parametrize("name", ["dots-boxes:1,2", "dots-boxes:2,2", "kalah:2,2", "kalah:2,1"])
def test_every_position_of_games_with_extra_turns(name):
    """A move that leaves the same side to move: its child's value is not negated, and its plies count."""
    reference = Reference()
    extra_turns = 0
    for state in positions(RulesState(load_game(name))):
        agrees(state, reference)
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            extra_turns += child.to_move == state.to_move
    assert extra_turns > 0


@pytest.mark.heavy
def test_connect4_5x4_start():
    """Plain minimax over all 3.9 million positions of 5x4 (about two minutes)."""
    agrees(RulesState(load_game("connect4:5,4")), Reference())


def test_a_finished_game_is_0_plies_from_its_end():
    won = RulesState(load_game("mnk:3,3,3"), "a1 a2 b1 b2 c1")
    solution = distances(won, SMALL)
    assert (solution.value, solution.plies, solution.moves) == (Value.LOSS, 0, {})
    drawn = distances(RulesState(load_game("mnk:3,3,3"), "a1 b2 c3 b1 b3 a3 c1 c2 a2"), SMALL)
    assert (drawn.value, drawn.plies) == (Value.DRAW, None)


def test_cli_json_and_text(capsys):
    assert main(["solve", "mnk:3,3,3", "--moves", "a1 b1 b2", "--distance", "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["value"], report["distance"]) == ("loss", 4)
    assert report["moves"]["c3"] == {"value": "loss", "distance": 4}
    assert report["moves"]["a2"] == {"value": "loss", "distance": 2}
    assert main(["solve", "mnk:3,3,3", "--moves", "a1 b1 b2", "--distance", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "loss in 4 plies" in out
    assert main(["solve", "mnk:3,3,3", "--distance", "--quiet"]) == 0
    assert "draw" in capsys.readouterr().out


@pytest.mark.parametrize("extra", [["--workers", "2"], ["--backend", "ray"], ["--journal", "j.journal"],
                                   ["--engine", "dfpn"], ["--score"]])
def test_cli_refuses_what_distance_does_not_do(extra, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "mnk:3,3,3", "--distance", "--quiet", *extra]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "--distance" in error[0]
    assert not list(tmp_path.iterdir())


def test_cli_writes_a_distance_certificate_that_certificate_check_reads(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "mnk:3,3,3", "--moves", "b2 a2", "--distance", "--value-only", "--quiet",
                 "--certificate", "d.cert"]) == 0
    capsys.readouterr()
    assert main(["certificate", "check", "d.cert", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["accepted"], report["value"], report["distance"]) == (True, "win", 5)
    document = json.loads(gzip.decompress(Path("d.cert").read_bytes()))
    Path("longer.cert").write_bytes(gzip.compress(json.dumps(document | {"plies": 7}).encode()))
    assert main(["certificate", "check", "longer.cert"]) == 1
    assert "REJECTED" in capsys.readouterr().out
    assert main(["solve", "mnk:3,3,3", "--distance", "--quiet", "--certificate", "draw.cert"]) == 2
    assert "a draw" in capsys.readouterr().err and not Path("draw.cert").exists()


def test_a_distance_certificate_of_a_changed_rules_file_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("hexapawn.py").write_text((ROOT / "examples" / "hexapawn.py").read_text())
    assert main(["solve", "hexapawn.py:3,3", "--distance", "--value-only", "--quiet", "--certificate", "h.cert"]) == 0
    assert main(["certificate", "check", "h.cert"]) == 0
    Path("hexapawn.py").write_text(Path("hexapawn.py").read_text() + "# a comment\n")
    capsys.readouterr()
    assert main(["certificate", "check", "h.cert"]) == 2
    assert "the rules file changed" in capsys.readouterr().err


@pytest.mark.parametrize("bug, fault", [("occupied", Halt.UNCHANGED), ("unchanged", Halt.UNCHANGED),
                                        ("bad_result", Halt.UNKNOWN_RESULT), ("never_ends", Halt.NO_MOVE),
                                        ("too_long", Halt.TOO_LONG)])
def test_rules_with_a_bug_are_named_in_one_line(bug, fault, tmp_path, capsys):
    summary, rules = BUGS[bug]
    path = tmp_path / f"{bug}.py"
    path.write_text(FILL.format(name=bug.replace("_", "-"), summary=summary, **(FILL_RULES | rules)))
    state = RulesState(Game(games_in_file(path)[0], {}))  # no self-check: the search meets the bug
    with pytest.raises(RulesBroken) as raised:
        distances(state, SMALL)
    assert raised.value.fault is fault and raised.value.game == state.game.name
    assert main(["solve", str(path), "--distance", "--quiet"]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and error[0].startswith("gameproof: error: ")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_long_distance_search_within_two_seconds(signum):
    nearly_full = ["--moves", "a a a a a a b b b b b b c c c c c c g g g g g g", "--quiet"]
    assert _finished(_gameproof("solve", "connect4:7,6", "--distance", *nearly_full))[0] == 0  # compiled, cached
    run = _gameproof("solve", "connect4:7,6", "--distance", "--value-only", "--quiet")
    assert _stopped_within_two_seconds(run, signum, after=2.0) == ["gameproof: interrupted"]


# --- certificates of the plies, checked by gameproof.certify.distance_check -------------------------------------


def certified(name: str, moves: str = "") -> tuple[RulesState, dict]:
    """A position and its distance certificate, as JSON reads it back."""
    state = RulesState(load_game(name), moves)
    return state, json.loads(json.dumps(certify_distance(state, SMALL, source=name)))


@pytest.mark.parametrize("name, moves", [("mnk:3,3,3", "a1 b1 b2"), ("connect4:4,4", "a b b b"), ("kalah:2,2", ""),
                                         ("dots-boxes:2,2", ""), ("examples/hexapawn.py:3,3", "")])
def test_distance_certificates_are_accepted(name, moves):
    if name.startswith("examples/"):
        name = str(ROOT / name)
    state, document = certified(name, moves)
    report = check_distance_certificate(document)
    expected = Reference()(state)
    assert report.accepted, report.finding
    assert (report.value, report.plies) == expected
    assert report.records == len(document["wins"]) + len(document["holds"])


def test_a_certificate_proves_no_other_length():
    state, document = certified("connect4:4,4", "a b b b")
    assert (document["value"], document["plies"]) == ("loss", 12)
    for plies in (11, 13):
        report = check_distance_certificate(document | {"plies": plies})
        assert not report.accepted and "root" in report.finding
    assert not check_distance_certificate(document | {"value": "win"}).accepted
    assert not check_distance_certificate(document | {"value": "draw"}).accepted


def test_a_tampered_record_is_found():
    _, document = certified("connect4:4,4", "a b b b")
    for side in ("wins", "holds"):
        dropped = document | {side: document[side][:-1]}  # the last record written: one that others rely on
        assert not check_distance_certificate(dropped).accepted
        root = [row[:2] for row in document[side]].index([document["words"], document["to_move"]])
        hurried = [list(row) for row in document[side]]
        hurried[root][2] += -1 if side == "wins" else 1  # the root's budget one ply too good for its side: false
        finding = check_distance_certificate(document | {side: hurried}).finding
        assert finding is not None and side in finding
    chosen = next(row for row in document["wins"] if row[3] is not None)
    moved = [row if row is not chosen else [*row[:3], 63] for row in document["wins"]]
    assert "not legal" in check_distance_certificate(document | {"wins": moved}).finding


def test_nothing_to_certify_for_a_draw_or_a_finished_game():
    with pytest.raises(BadInput, match="draw"):
        certify_distance(RulesState(load_game("mnk:3,3,3")), SMALL)
    with pytest.raises(BadInput, match="over"):
        certify_distance(RulesState(load_game("mnk:3,3,3"), "a1 a2 b1 b2 c1"), SMALL)
    assert not check_distance_certificate({"format": "something else"}).accepted
    assert "malformed" in check_distance_certificate({"format": "gameproof-distance-certificate-1"}).finding
