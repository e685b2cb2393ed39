"""Perft against published golden counts (tests/data/othello_perft.txt)."""

from pathlib import Path

import pytest

from gameproof.games.othello.perft import perft, perft_divide
from gameproof.games.othello.position import Position

GOLDEN = Path(__file__).parent.parent / "data" / "othello_perft.txt"
IN_SUITE_MAX_DEPTH = 11  # deeper counts run under the `slow` marker or in bench/


def _golden():
    for line in GOLDEN.read_text().splitlines():
        if line and not line.startswith("#"):
            convention, depth, count = line.split()
            marks = [pytest.mark.slow] if int(depth) > IN_SUITE_MAX_DEPTH else []
            if int(depth) > 12:
                marks = [pytest.mark.skip(reason="bench only: minutes on two cores")]
            yield pytest.param(convention, int(depth), int(count), marks=marks, id=f"{convention}-{depth}")


@pytest.mark.parametrize(("convention", "depth", "expected"), list(_golden()))
def test_perft_matches_published_counts(convention, depth, expected):
    start = Position.start()
    got = perft(start.player, start.opponent, depth, convention)
    if got != expected and depth <= 9:
        divide = perft_divide(start, depth, convention)
        pytest.fail(f"perft({depth}, {convention}) = {got}, expected {expected}; divide: {divide}")
    assert got == expected


def test_divide_sums_to_total_and_handles_a_forced_pass():
    start = Position.start()
    assert sum(perft_divide(start, 6).values()) == perft(start.player, start.opponent, 6)
    # White's only disc is boxed in: white must pass while black can still play.
    board = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--"
    must_pass = Position(board, "white")
    assert must_pass.legal_moves() == [64]
    for convention in ("edax", "bik", "nopass"):
        divide = perft_divide(must_pass, 2, convention)
        assert list(divide) == ["pa"]
        assert divide["pa"] == perft(must_pass.player, must_pass.opponent, 2, convention)


def test_finished_game_counts_per_convention():
    over = Position("X" * 64, "white")
    assert over.is_over()
    assert [perft(over.player, over.opponent, 3, c) for c in ("edax", "bik", "nopass")] == [0, 1, 1]
    assert perft(over.player, over.opponent, 0) == 1


def test_bad_arguments():
    with pytest.raises(ValueError, match="convention"):
        perft(0, 0, 1, "chess")
    with pytest.raises(ValueError, match="depth"):
        perft(0, 0, -1)


@pytest.mark.parametrize("convention", ["edax", "bik", "nopass"])
def test_threaded_perft_matches_the_single_thread_count(convention):
    start = Position.start()
    for depth in (3, 5, 9, 10):
        single = perft(start.player, start.opponent, depth, convention)
        assert perft(start.player, start.opponent, depth, convention, threads=2) == single


def test_threaded_perft_splits_through_passes_and_finished_games():
    # White must pass here; two plies later the game can end. Every convention must agree per thread count.
    board = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--"
    position = Position(board, "white")
    for convention in ("edax", "bik", "nopass"):
        for depth in (5, 6):
            single = perft(position.player, position.opponent, depth, convention)
            assert perft(position.player, position.opponent, depth, convention, threads=2) == single
