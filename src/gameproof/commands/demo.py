"""`gameproof demo`: a one-minute showcase of what gameproof can do today."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, NamedTuple

from gameproof.commands._output import console

if TYPE_CHECKING:
    from rich.console import Console

RECORD_33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"
STUDY_SUDOKU = "000300090040000002100080500008009007020000030400700100003050006500000080090001000"



class Showcase(NamedTuple):
    """One step of the demo: what it shows, the command that shows it, and whether `demo --quick` runs it."""

    title: str
    argv: list[str]
    quick: bool = True


SHOWCASE = (
    Showcase("The most legal moves any reachable Othello position has: 33 (Takizawa 2023)",
             ["othello", "show", RECORD_33]),
    Showcase("SAT: a position with >= 16 legal moves within 12 plies, replayed on the engine",
             ["othello", "reach", "--legal-moves", "16", "--plies", "12"], quick=False),
    Showcase("SAT: no position with 16 legal moves within 6 plies (exit code 1 = unsat)",
             ["othello", "reach", "--legal-moves", "16", "--plies", "6"]),
    Showcase("A Sudoku from a plain Python checker: the blanks are symbolic, the counterexample is the solution",
             ["sudoku", "solve", STUDY_SUDOKU, "--method", "checker"]),
    Showcase("df-pn: misère 4x4, three in a row loses: the first player loses whatever they play",
             ["mnk", "solve", "--rows", "4", "--cols", "4", "--k", "3", "--misere"], quick=False),
    Showcase("Connect Four 5x4 from its rules in one file: alpha-beta gives every column's value",
             ["solve", "connect4:5,4", "--quiet"]),
)
#: The perft depths the demo counts to, and `demo --quick`.
PERFT_DEPTH, QUICK_PERFT_DEPTH = 11, 8


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("demo", help="a one-minute showcase", description=__doc__)
    parser.add_argument("--quick", action="store_true", help=f"a shorter showcase (perft to depth {QUICK_PERFT_DEPTH}, "
                        "without the two longest steps): a check that an installation works")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gameproof.cli import main

    out = console()
    out.rule("[bold]gameproof demo[/bold]")
    _othello_perft(out, QUICK_PERFT_DEPTH if args.quick else PERFT_DEPTH)
    shown = [step for step in SHOWCASE if step.quick or not args.quick]
    for number, step in enumerate(shown, start=2):
        out.print(f"\n[bold]{number}. {step.title}[/bold]")
        out.print(f"[dim]$ gameproof {' '.join(step.argv)}[/dim]")
        main(step.argv)
    return 0


def _othello_perft(out: Console, deepest: int) -> None:
    from rich.table import Table

    from gameproof.games.othello.perft import perft
    from gameproof.games.othello.position import Position

    out.print("\n[bold]1. Othello perft[/bold]: the rules, written once in Python, compiled with numba")
    start = Position.start()
    perft(start.player, start.opponent, 1)
    table = Table("depth", "move paths", "seconds", "leaves/s")
    for depth in range(1, deepest + 1):
        began = time.perf_counter()
        nodes = perft(start.player, start.opponent, depth)
        seconds = time.perf_counter() - began
        rate = f"{nodes / seconds / 1e6:.0f}M" if seconds > 1e-3 else ""
        table.add_row(str(depth), f"{nodes:,}", f"{seconds:.3f}", rate)
    out.print(table)
