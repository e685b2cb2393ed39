"""Hex (gameproof.games.hex): the rule functions against a slow obvious reference (random playouts on every
size, every position of the smallest boards), and the engine (perft, solve, render) against the reference."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from gameproof.framework.declaration import LOSS
from gameproof.framework.registry import load_game

sys.path.insert(0, str(Path(__file__).parent))
import hex_reference as reference  # noqa: E402

SIZES = range(2, 12)


def rules_of(n: int):
    return load_game(f"hex:{n}").rules


def layer(lo: int, hi: int) -> int:
    return lo | hi << 64


def as_reference(rules, words: tuple[int, int, int, int], to_move: int) -> reference.Position:
    black, white = layer(*words[:2]), layer(*words[2:])
    n, stride = rules.N, rules.STRIDE
    grid = tuple("".join(reference.BLACK if black >> (r * stride + c) & 1 else reference.WHITE
                         if white >> (r * stride + c) & 1 else reference.EMPTY for c in range(n)) for r in range(n))
    return reference.Position(grid, (reference.BLACK, reference.WHITE)[to_move])


def rule_moves(rules, words, to_move: int) -> list[str]:
    """The cells legal() offers, by name."""
    mask = layer(*rules.legal(to_move, *words))
    n, stride = rules.N, rules.STRIDE
    return [reference.name((r, c)) for r in range(n) for c in range(n) if mask >> (r * stride + c) & 1]


def cell_words(rules, move: str) -> tuple[int, int]:
    """The one-hot mask of a cell as its two words."""
    bit = (int(move[1:]) - 1) * rules.STRIDE + ord(move[0]) - ord("a")
    return (1 << bit) & 0xFFFF_FFFF_FFFF_FFFF, (1 << bit) >> 64


def check_position(rules, words, to_move: int) -> list[str]:
    """The rules and the reference agree at this position; its moves."""
    position = as_reference(rules, words, to_move)
    expected = reference.moves(position)
    assert rule_moves(rules, words, to_move) == expected, position
    assert all(0 <= count <= rules.N for count in rules.estimate(to_move, *words))
    if not expected:
        assert reference.has_won(position, (reference.WHITE, reference.BLACK)[to_move])
        assert rules.result(to_move, *words) == LOSS
    return expected


def test_every_board_takes_two_words_a_layer():
    for n in SIZES:
        game = load_game(f"hex:{n}")
        assert game.board.words == 2 and len(game.rules.start()) == 4
        assert sorted(game.spec.move_order(n)) == sorted(game.board.cells)


@pytest.mark.parametrize("n", SIZES)
def test_random_playouts_agree_with_the_reference(n):
    rules = rules_of(n)
    rng = random.Random(f"hex:{n}")
    for _ in range(10 if n < 8 else 3):
        words, to_move, history = rules.start(), 0, []
        while moves := check_position(rules, words, to_move):
            move = rng.choice(moves)
            history.append(move)
            position = as_reference(rules, words, to_move)
            words = rules.play(to_move, *words, *cell_words(rules, move))
            to_move = 1 - to_move
            assert as_reference(rules, words, to_move) == reference.play(position, move), history
        assert len(history) <= n * n


@pytest.mark.parametrize("n", [2, 3])
def test_every_position_of_the_smallest_boards_agrees(n):
    rules = rules_of(n)
    seen = set()

    def visit(words, to_move):
        if (words, to_move) in seen:
            return
        seen.add((words, to_move))
        for move in check_position(rules, words, to_move):
            visit(rules.play(to_move, *words, *cell_words(rules, move)), 1 - to_move)

    visit(rules.start(), 0)
    assert len(seen) > 3 ** (n * n) // 20


def test_a_chain_across_the_word_boundary_joins():
    """On 11x11 rows 6 and 7 straddle bit 64: black's column f, white's row 6, each joined only across it."""
    rules = rules_of(11)
    black = [f"f{row}" for row in range(1, 12)]
    white = [f"{col}6" for col in "abcdeghijk"]  # row 6 but for f6, black's
    words, to_move = rules.start(), 0
    for move in [m for pair in zip(black, white + ["a1"]) for m in pair][:-1]:
        words = rules.play(to_move, *words, *cell_words(rules, move))
        to_move = 1 - to_move
    assert rules.legal(to_move, *words) == (0, 0)
    assert reference.has_won(as_reference(rules, words, to_move), reference.BLACK)
