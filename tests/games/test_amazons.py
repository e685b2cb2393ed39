"""Amazons (gameproof.games.amazons): the rule functions against a slow obvious reference on random playouts,
the published setup, and the engine (perft, solve, certificate, self-check) against the reference."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from gameproof.certify.check import check_certificate
from gameproof.certify.records import Value, write_certificate
from gameproof.cli import main
from gameproof.framework.declaration import LOSS
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.certificate import certify
from gameproof.search.dfpn import Options
from gameproof.search.perft import fast_perft, perft
from gameproof.search.solve import kept_search, solve

sys.path.insert(0, str(Path(__file__).parent))
import amazons_reference as reference  # noqa: E402
from engine_checks import check_random_positions  # noqa: E402

SIZES = [(4, 4), (5, 5), (6, 5), (5, 6), (6, 4), (4, 7), (8, 8)]


def rules_of(cols: int, rows: int):
    return load_game(f"amazons:{cols},{rows}").rules


def cells(mask: int):
    """The one-bit words of a mask's cells."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def cell_name(bit: int, cols: int) -> str:
    index = bit.bit_length() - 1
    return reference.name((index // cols, index % cols))


def rule_moves(rules, words: tuple[int, ...], cols: int) -> list[str]:
    """Every complete move the rule functions allow, by name; each prefix they offer must lead to a move."""
    found = []
    for frm in cells(rules.legal(*words)):
        targets = rules.legal_to(*words, frm)
        assert targets, f"legal() offers {cell_name(frm, cols)}, legal_to() nothing"
        for to in cells(targets):
            arrows = rules.legal_arrow(*words, frm, to)
            assert arrows, f"legal_to() offers {cell_name(to, cols)}, legal_arrow() nothing"
            found += [f"{cell_name(frm, cols)}-{cell_name(to, cols)}/{cell_name(arrow, cols)}" for arrow in cells(arrows)]
    return found


def as_reference(words: tuple[int, ...], white_to_move: bool, cols: int, rows: int) -> reference.Position:
    mine, theirs, arrows = words
    white, black = (mine, theirs) if white_to_move else (theirs, mine)
    grid = []
    for r in range(rows):
        row = ""
        for c in range(cols):
            bit = 1 << (r * cols + c)
            row += (reference.WHITE if white & bit else reference.BLACK if black & bit
                    else reference.ARROW if arrows & bit else reference.EMPTY)
        grid.append(row)
    return reference.Position(tuple(grid), reference.WHITE if white_to_move else reference.BLACK)


def parts_of(move: str, cols: int) -> tuple[int, int, int]:
    frm, rest = move.split("-")
    return tuple(1 << (r * cols + c) for r, c in map(reference.cell_of, (frm, *rest.split("/"))))


def test_the_6x5_setup_is_muellers_diagram():
    """White a2 b1 e1 f2, black a4 b5 e5 f4, as drawn in "Amazons 6x5 Solution Attempt" (row 5 on top)."""
    drawn = [".B..B.", "B....B", "......", "W....W", ".W..W."]
    rules = rules_of(6, 5)
    assert as_reference(rules.start(), True, 6, 5) == reference.Position(tuple(reversed(drawn)), reference.WHITE)
    assert reference.start(6, 5).rows == tuple(reversed(drawn))


@pytest.mark.parametrize("cols, rows", SIZES)
def test_the_start_matches_the_reference(cols, rows):
    rules = rules_of(cols, rows)
    assert as_reference(rules.start(), True, cols, rows) == reference.start(cols, rows)


@pytest.mark.parametrize("cols, rows", SIZES)
def test_random_playouts_agree_with_the_reference(cols, rows):
    """At every position of random games: the same moves, the same position after each played move, a bound
    on the plies left that holds, an estimate in range, and a loss for the side that cannot move."""
    rules = rules_of(cols, rows)
    bound = rules.most_moves(cols, rows)
    rng = random.Random(f"amazons:{cols},{rows}")
    for _ in range(4 if cols * rows > 30 else 12):
        words, white_to_move, history = rules.start(), True, []
        while True:
            position = as_reference(words, white_to_move, cols, rows)
            expected = reference.moves(position)
            assert sorted(rule_moves(rules, words, cols)) == sorted(expected), history
            assert len(expected) <= bound
            assert rules.plies_left(*words) == sum(row.count(reference.EMPTY) for row in position.rows)
            assert all(0 <= count <= 0xFFFF for count in rules.estimate(*words))
            if not expected:
                assert rules.legal(*words) == 0 and rules.result(*words) == LOSS
                break
            move = rng.choice(expected)
            history.append(move)
            words = rules.play(*words, *parts_of(move, cols))
            white_to_move = not white_to_move
            assert as_reference(words, white_to_move, cols, rows) == reference.play(position, move), history
        assert len(history) <= cols * rows - 8


def test_move_counts_from_the_start():
    """Moves of the first position (and, on 6x5, Black's replies to Müller's b1-b4/b3) by the reference's count."""
    for (cols, rows), count in {(4, 4): 88, (5, 5): 260, (6, 5): 410, (6, 4): 256, (4, 7): 350}.items():
        assert len(rule_moves(rules_of(cols, rows), rules_of(cols, rows).start(), cols)) == count
        assert len(reference.moves(reference.start(cols, rows))) == count
    rules = rules_of(6, 5)
    after = rules.play(*rules.start(), *parts_of("b1-b4/b3", 6))
    assert len(rule_moves(rules, after, 6)) == len(reference.moves(reference.play(reference.start(6, 5), "b1-b4/b3")))


# --- through the engine: RulesState, perft, solve, certificates, the self-check ---------------------------

#: Move paths from the start, counted by the reference (test_the_golden_counts_are_the_references recounts them).
PERFT = {("amazons:4,4", 3): 139_500, ("amazons:5,5", 2): 50_422, ("amazons:6,5", 2): 128_094,
         ("amazons:4,7", 2): 90_206}


def size_of(name: str) -> tuple[int, int]:
    cols, rows = name.partition(":")[2].split(",")
    return int(cols), int(rows)


def test_move_names_are_the_references_and_parse_back():
    state = RulesState(load_game("amazons:5,5"))
    codes = state.legal_moves()
    assert sorted(state.move_name(code) for code in codes) == sorted(reference.moves(reference.start(5, 5)))
    assert all(state.parse_move(state.move_name(code)) == code for code in codes)
    assert state.parse_move("b1xb3/d3") == state.parse_move("b1-b3/d3")
    state.play(state.parse_move("b1-b3/d3"))
    assert state.to_move == 1 and len(state.legal_moves()) == len(
        reference.moves(reference.play(reference.start(5, 5), "b1-b3/d3")))


@pytest.mark.parametrize(("name", "depth"), list(PERFT))
def test_perft_through_the_engine_counts_what_the_reference_counts(name, depth):
    state = RulesState(load_game(name))
    assert fast_perft(state, depth) == PERFT[name, depth]
    assert perft(state, 1) == fast_perft(state, 1) == len(reference.moves(reference.start(*size_of(name))))


@pytest.mark.heavy
def test_the_golden_counts_are_the_references():
    for (name, depth), count in PERFT.items():
        assert reference.perft(reference.start(*size_of(name)), depth) == count


@pytest.mark.parametrize(("name", "plies"), [("amazons:4,4", 2), ("amazons:5,5", 9), ("amazons:5,4", 5)])
def test_solve_agrees_with_minimax_on_random_positions(name, plies):
    """Positions a few random plies in, solved with every move's value, against the reference's minimax."""
    check_random_positions(load_game(name), reference.start(*size_of(name)), reference.play, reference.wins, plies, 4)


def test_4x4_is_a_second_player_win():
    """As Müller's talk says of 4x4 (for a setup it does not draw); every first move loses."""
    solution = solve(RulesState(load_game("amazons:4,4")), Options(tt_mb=64))
    assert solution.value == "loss" and set(solution.moves.values()) == {"loss"}


@pytest.mark.heavy
def test_4x4_agrees_with_the_references_minimax():
    assert not reference.wins(reference.start(4, 4))


def test_a_4x4_certificate_is_accepted(tmp_path):
    state = RulesState(load_game("amazons:4,4"))
    certificate = certify(state, kept_search(state.game, Options(tt_mb=16)))
    assert certificate.header.value is Value.LOSS
    path = tmp_path / "amazons.cert"
    write_certificate(path, certificate.header, certificate.parts)
    report = check_certificate(str(path))
    assert report.accepted, report.finding
    assert report.value is Value.LOSS


def test_the_rules_self_check_passes(capsys):
    assert main(["games", "amazons:4,4", "--check"]) == 0
    assert main(["games", "amazons:6,5", "--check", "--games", "20"]) == 0
