"""``--moves`` or ``--position``: the position a command is about, as the moves from the start or as text."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gameproof.framework.game import Game
    from gameproof.framework.state import RulesState

POSITION_HELP = ("the position as text instead of moves: the board's rows top to bottom, separated by / (a "
                 "piece's character a cell, - empty), a space and the side to move, e.g. \"---/-X-/--- O\"; "
                 "Othello: its squares a1, b1, … (X, O, -) and X or O to move, as .obf files write them; Connect "
                 "Four: the columns played, e.g. 4453 (`gameproof games GAME` shows a game's); write "
                 "--position=TEXT when TEXT starts with -")


def position_arguments(parser: argparse.ArgumentParser, moves_help: str) -> None:
    """``--moves`` (help: `moves_help`) and ``--position``, of which a command takes one."""
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--moves", default="", help=moves_help)
    chosen.add_argument("--position", metavar="TEXT", help=POSITION_HELP)


def state_from_args(game: Game, args: argparse.Namespace, kind: type[RulesState] | None = None) -> RulesState:
    """The position of `game` that ``--position`` writes, else the one ``--moves`` reach from the start, as a
    `kind` (by default a RulesState); BadInput, one line, for either that names none. Says the game's remarks first
    (:func:`~gameproof.commands._output.say_remarks`)."""
    from gameproof.commands._output import say_remarks
    from gameproof.framework.state import RulesState

    say_remarks(game)
    made = kind or RulesState
    if getattr(args, "position", None) is not None:
        return made.from_position(game, args.position)
    return made(game, args.moves)
