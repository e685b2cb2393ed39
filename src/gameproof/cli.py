"""The `gameproof` command: one entry point, a subcommand per capability."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from gameproof import __version__
from gameproof.commands import check, demo, games, mnk, othello, reach, render, sudoku, tui
from gameproof.errors import BadInput

COMMAND_MODULES = (games, othello, mnk, demo, check, sudoku, render, tui, reach)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors become one clear line (exit 2) instead of a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        if message.endswith("expected one argument"):
            message += " (a value that starts with '-' needs the --option=VALUE form)"
        raise BadInput(f"{message} (see `{self.prog} --help`)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gameproof",
        description="Answer hard questions about games and puzzles: rules in Python, reasoning by SAT and search.",
    )
    parser.add_argument("--version", action="version", version=f"gameproof {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 2 bad input; commands define others)."""
    try:
        args = build_parser().parse_args(argv)
        return args.handler(args)
    except BadInput as error:
        print(f"gameproof: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gameproof: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
