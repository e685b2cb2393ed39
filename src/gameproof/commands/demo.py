"""`gameproof demo`: a one-minute showcase of what gameproof can do today."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from gameproof.commands._output import console

if TYPE_CHECKING:
    from rich.console import Console

RECORD_33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"
STUDY_SUDOKU = "000300090040000002100080500008009007020000030400700100003050006500000080090001000"

# (what it shows, the command that shows it)
SHOWCASE = (
    ("The most legal moves any reachable Othello position has: 33 (Takizawa 2023)",
     ["othello", "show", RECORD_33]),
    ("SAT: a position with >= 16 legal moves within 12 plies, replayed on the engine",
     ["othello", "reach", "--legal-moves", "16", "--plies", "12"]),
    ("SAT: no position with 16 legal moves within 6 plies (exit code 1 = unsat)",
     ["othello", "reach", "--legal-moves", "16", "--plies", "6"]),
    ("A Sudoku from a plain Python checker: the blanks are symbolic, the counterexample is the solution",
     ["sudoku", "solve", STUDY_SUDOKU, "--method", "checker"]),
    ("df-pn: misère 4x4, three in a row loses: the first player loses whatever they play",
     ["mnk", "solve", "--rows", "4", "--cols", "4", "--k", "3", "--misere"]),
    ("Connect Four 5x4 from its rules in one file: alpha-beta gives every column's value",
     ["solve", "connect4:5,4", "--quiet"]),
)


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("demo", help="a one-minute showcase", description=__doc__)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gameproof.cli import main

    out = console()
    out.rule("[bold]gameproof demo[/bold]")
    _othello_perft(out)
    for number, (title, argv) in enumerate(SHOWCASE, start=2):
        out.print(f"\n[bold]{number}. {title}[/bold]")
        out.print(f"[dim]$ gameproof {' '.join(argv)}[/dim]")
        main(argv)
    return 0


def _othello_perft(out: Console) -> None:
    from rich.table import Table

    from gameproof.games.othello.perft import perft
    from gameproof.games.othello.position import Position

    out.print("\n[bold]1. Othello perft[/bold]: the rules, written once in Python, compiled with numba")
    start = Position.start()
    perft(start.player, start.opponent, 1)
    table = Table("depth", "move paths", "seconds", "leaves/s")
    for depth in range(1, 12):
        began = time.perf_counter()
        nodes = perft(start.player, start.opponent, depth)
        seconds = time.perf_counter() - began
        rate = f"{nodes / seconds / 1e6:.0f}M" if seconds > 1e-3 else ""
        table.add_row(str(depth), f"{nodes:,}", f"{seconds:.3f}", rate)
    out.print(table)
