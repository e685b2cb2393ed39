"""`gameproof demo`: a one-minute showcase of what gameproof can do today."""

from __future__ import annotations

import argparse
import time

from rich.table import Table

from gameproof.commands._output import console

RECORD_33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("demo", help="a one-minute showcase", description=__doc__)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    out = console()
    out.rule("[bold]gameproof demo[/bold]")
    _othello_perft(out)
    _othello_33_moves(out)
    return 0


def _othello_perft(out) -> None:
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


def _othello_33_moves(out) -> None:
    from gameproof.games.othello.position import Position

    out.print("\n[bold]2. The most legal moves ever possible in Othello[/bold] (Takizawa 2023): 33, after")
    out.print(f"   {RECORD_33}")
    out.print(str(Position.from_record(RECORD_33)))
