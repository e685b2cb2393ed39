"""Hexapawn from examples/hexapawn.py, the held-out check of docs/new_game.md (written from the tutorial alone):
a movement game loaded from a file, against plain minimax over boards of characters written here."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from gameproof.cli import main
from gameproof.framework.declaration import Engine
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.perft import fast_perft
from gameproof.search.solve import solve

FILE = Path(__file__).parents[2] / "examples" / "hexapawn.py"
PAWNS = "WB"  # by side: white (0) moves up from row 1


def start(rows: int, cols: int) -> tuple[str, ...]:
    return ("W" * cols, *("." * cols for _ in range(rows - 2)), "B" * cols)


def moves(board: tuple[str, ...], side: int) -> dict[str, tuple[str, ...]]:
    """The legal moves of `side` by name (``b1-b2``, ``a1-b2``), each with the board it leads to; none once a
    pawn stands on its far row."""
    rows, cols = len(board), len(board[0])
    if "W" in board[-1] or "B" in board[0]:
        return {}
    mine, step = PAWNS[side], 1 if side == 0 else -1
    found = {}
    for r in range(rows):
        for c in range(cols):
            if board[r][c] != mine:
                continue
            for c2 in (c - 1, c, c + 1):
                if not 0 <= c2 < cols:
                    continue
                target = board[r + step][c2]
                if (c2 == c and target == ".") or (c2 != c and target == PAWNS[1 - side]):
                    grid = [list(row) for row in board]
                    grid[r][c], grid[r + step][c2] = ".", mine
                    found[f"{'abcdefgh'[c]}{r + 1}-{'abcdefgh'[c2]}{r + step + 1}"] = tuple(map("".join, grid))
    return found


@lru_cache(maxsize=None)
def wins(board: tuple[str, ...], side: int) -> bool:
    """Whether `side`, to move, wins (who cannot move loses)."""
    return any(not wins(after, 1 - side) for after in moves(board, side).values())


def perft(board: tuple[str, ...], side: int, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(after, 1 - side, depth - 1) for after in moves(board, side).values())


def named(value: bool) -> str:
    return "win" if value else "loss"


@pytest.mark.parametrize("size", ["3,3", "3,4", "4,4"])
def test_every_first_moves_value_and_perft_equal_minimax(size):
    rows, cols = map(int, size.split(","))
    state, board = RulesState(load_game(f"{FILE}:{size}")), start(rows, cols)
    solution = solve(state, Options(tt_mb=16))
    assert solution.value == named(wins(board, 0))
    assert {state.move_name(m): v for m, v in solution.moves.items()} == {
        name: named(not wins(after, 1)) for name, after in moves(board, 0).items()}
    assert [fast_perft(state, d) for d in range(1, 6)] == [perft(board, 0, d) for d in range(1, 6)]


def test_3x3_is_a_second_player_win_by_both_engines():
    state = RulesState(load_game(f"{FILE}:3,3"))
    assert {solve(state, Options(tt_mb=16), with_moves=False, engine=e).value for e in Engine} == {"loss"}


def test_a_certificate_from_the_file_is_accepted_there_and_after_a_move(tmp_path, capsys):
    certificate, moved = tmp_path / "h.cert", tmp_path / "moved" / "hexapawn.py"
    assert main(["solve", f"{FILE}:3,4", "--certificate", str(certificate), "--quiet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == named(wins(start(3, 4), 0))
    assert main(["certificate", "check", str(certificate), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["accepted"]
    moved.parent.mkdir()
    moved.write_bytes(FILE.read_bytes())
    assert main(["certificate", "check", str(certificate), "--rules", str(moved), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["accepted"]
