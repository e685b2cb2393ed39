"""`gameproof othello …`: the Othello engine (placeholder until the engine lands)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("othello", help="Othello: perft, positions, reachability", description=__doc__)
    parser.add_subparsers(dest="othello_command", required=True, metavar="COMMAND")
