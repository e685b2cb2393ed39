"""The mobility curve by enumeration against the SAT-proven points and a plain reference on the rules."""

import gzip
import json
import random

import numpy as np
import pytest

from gameproof.certify.mobility_check import _start_symmetries, check_mobility
from gameproof.cli import main
from gameproof.games.othello import rules
from gameproof.games.othello.mobility import _most, most_legal_moves, start_symmetries
from gameproof.games.othello.notation import PASS
from gameproof.games.othello.reach import replay
from gameproof.results import RESULTS, OthelloMobility

# The curve's points each proven by SAT: a witness replayed and one more refuted with a checked DRAT proof
# (docs/results.md), P = 1 .. 10.
PROVEN = {result.plies: result.most for result in RESULTS
          if isinstance(result, OthelloMobility) and result.plies <= 10}


def _plain_most(player: int, opponent: int, depth: int) -> int:
    """The reference: every game played on the rules (Python ints), no position kept, no symmetry."""
    moves = rules.legal_moves(player, opponent)
    if moves == 0:
        if rules.legal_moves(opponent, player) == 0:
            return 0
        return _plain_most(opponent, player, depth)
    if depth == 0:
        return rules.popcount(moves)
    return max(_plain_most(*rules.after_move(player, opponent, 1 << square), depth - 1)
               for square in range(64) if moves >> square & 1)


def _random_position(rng: random.Random, plies: int) -> tuple[int, int]:
    player, opponent = rules.START_BLACK, rules.START_WHITE
    for _ in range(plies):
        moves = rules.legal_moves(player, opponent)
        if moves == 0:
            if rules.legal_moves(opponent, player) == 0:
                break
            player, opponent = opponent, player
            continue
        square = rng.choice([s for s in range(64) if moves >> s & 1])
        player, opponent = rules.after_move(player, opponent, 1 << square)
    return player, opponent


@pytest.mark.parametrize("plies", sorted(PROVEN))
def test_the_enumeration_finds_each_sat_proven_point(plies):
    peak = most_legal_moves(plies, threads=2)
    assert peak.most == PROVEN[plies]
    assert peak.witness.strict
    assert sum(move != PASS for move in peak.witness.moves) == plies
    assert rules.popcount(rules.legal_moves(peak.witness.player, peak.witness.opponent)) == peak.most


@pytest.mark.parametrize("plies", range(0, 7))
def test_the_enumeration_equals_plain_play_from_the_start(plies):
    assert most_legal_moves(plies).most == _plain_most(rules.START_BLACK, rules.START_WHITE, plies)


def test_the_kernel_equals_plain_play_from_positions_deep_in_games():
    """Midgame and endgame positions, where passes and games that end early come up."""
    rng = random.Random(11)
    stop = np.zeros(1, dtype=np.int64)
    checked = 0
    for _ in range(60):
        player, opponent = _random_position(rng, rng.randrange(8, 58))
        if rules.legal_moves(player, opponent) == 0:
            continue
        depth = rng.randrange(0, 4)
        assert int(_most(np.uint64(player), np.uint64(opponent), np.int64(depth), stop)) == \
            _plain_most(player, opponent, depth), (hex(player), hex(opponent), depth)
        checked += 1
    assert checked > 40


def test_the_start_symmetries_map_the_rules_onto_themselves():
    permutations = start_symmetries()
    assert len(permutations) == 4 and list(permutations[0]) == list(range(64))

    def moved(bits, permutation):
        return sum(1 << int(permutation[s]) for s in range(64) if bits >> s & 1)

    rng = random.Random(5)
    for _ in range(40):
        player, opponent = _random_position(rng, rng.randrange(0, 40))
        for permutation in permutations:
            assert moved(rules.legal_moves(player, opponent), permutation) == \
                rules.legal_moves(moved(player, permutation), moved(opponent, permutation))


def test_the_witness_of_a_kept_level_undoes_its_symmetries():
    """After 11 moves the kept positions are seven moves deep, reached through symmetric images."""
    peak = most_legal_moves(11, threads=2)
    assert peak.kept_plies == 7 and peak.most == 20
    game = replay(peak.witness.moves)
    assert game.strict and rules.popcount(rules.legal_moves(game.player, game.opponent)) == 20


def test_the_command_prints_json_and_refuses_bad_input(capsys):
    assert main(["othello", "mobility", "9", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["most_legal_moves"] == PROVEN[9] and answer["plies"] == 9
    assert answer["kept_plies"] == 5 and answer["kept_positions"] > 0
    for bad in (["61"], ["-1"], ["9", "--threads", "0"]):
        assert main(["othello", "mobility", *bad]) == 2
        refused = capsys.readouterr()
        assert refused.out == "" and refused.err.count("\n") == 1 and "Traceback" not in refused.err


@pytest.mark.parametrize("plies", range(0, 9))
def test_the_independent_checker_counts_the_same(plies):
    peak = most_legal_moves(plies)
    counted = check_mobility(plies, peak.witness.record)
    assert counted.most == peak.most and counted.witness_reaches and counted.holds(peak.most)
    assert not counted.holds(peak.most + 1) and not counted.holds(peak.most - 1)


@pytest.mark.parametrize(("witness", "why"), [
    ("f5d6c5f4e3", "one move short of 6"),
    ("f5d6c5f4e3f6", "a game of 6 moves, but not the most"),
    ("f5d6c5f4e3f6a1", "a1 is not legal there"),
    ("f5pad6c5f4e3f6", "a pass that was not forced"),
    ("f5d6c5f4e3zz", "not a record"),
])
def test_the_independent_checker_refuses_a_witness_that_does_not_reach_the_count(witness, why):
    assert check_mobility(6, witness).witness_reaches is False, why


def test_the_independent_checker_finds_the_same_four_symmetries():
    assert len(_start_symmetries()) == len(start_symmetries()) == 4


def test_the_command_checks_with_the_independent_checker(capsys):
    assert main(["othello", "mobility", "7", "--check", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["check"] == {**answer["check"], "most_legal_moves": PROVEN[7], "witness_reaches": True,
                               "holds": True}


def test_a_mobility_certificate_is_accepted_and_a_wrong_claim_rejected(tmp_path, capsys):
    path = tmp_path / "m7.cert"
    assert main(["othello", "mobility", "7", "--certificate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["certificate"] == str(path)
    assert main(["certificate", "check", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["accepted"] and report["most_legal_moves"] == PROVEN[7] and report["witness_reaches"]
    document = json.loads(gzip.decompress(path.read_bytes()))
    for forged, expected in (({"most_legal_moves": PROVEN[7] + 1}, 1), ({"most_legal_moves": PROVEN[7] - 1}, 1),
                             ({"witness": "f5d6c5f4e3f6d3"}, 1), ({"plies": "7"}, 2), ({"witness": 7}, 2)):
        other = tmp_path / "forged.cert"
        other.write_bytes(gzip.compress(json.dumps(document | forged).encode()))
        assert main(["certificate", "check", str(other), "--json"]) == expected, forged
        capsys.readouterr()


def test_a_certificate_past_what_the_count_can_hold_is_refused_in_one_line(tmp_path, capsys):
    forged = tmp_path / "m40.cert"
    forged.write_bytes(gzip.compress(json.dumps({"format": "gameproof-othello-mobility-certificate-1", "plies": 40,
                                                 "most_legal_moves": 33, "witness": "f5"}).encode()))
    assert main(["certificate", "check", str(forged)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["othello", "mobility", "13", "--check"]) == 2
