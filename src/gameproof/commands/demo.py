"""`gameproof demo`: a short showcase of what gameproof can do today."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("demo", help="a one-minute showcase", description=__doc__)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gameproof.commands._output import console

    out = console()
    out.print("[bold]gameproof demo[/bold]")
    return 0
