"""`gameproof tui …`: terminal user interfaces (Textual) to explore solved games and step through records."""

from __future__ import annotations

import argparse
from pathlib import Path

from gameproof.commands.mnk import _game_arguments, game_from_args
from gameproof.errors import BadInput


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("tui", help="terminal UIs: m,n,k boards coloured by proven values, an Othello viewer",
                                 description=__doc__)
    sub = parser.add_subparsers(dest="tui_command", required=True, metavar="GAME")

    mnk = sub.add_parser("mnk", help="play an m,n,k game; every empty cell shows its proven value",
                         description="An m,n,k board whose empty cells are coloured by their proven value "
                         "(win/draw/loss for the side to move), solved by df-pn in the background. "
                         "Keys: arrows + enter or a typed square (b2) or a click plays; u undo; p perfect move; q quit.")
    _game_arguments(mnk)
    mnk.add_argument("--moves", default="", help='moves played first, e.g. "b2 a1"')
    mnk.add_argument("--book", metavar="FILE", help="an opening book (from `gameproof mnk book build`) to answer from")
    mnk.set_defaults(handler=run_mnk)

    othello = sub.add_parser("othello", help="step through an Othello record; legal moves marked and counted",
                             description="Step through RECORD ply by ply (left/right, home/end), legal moves marked "
                             "and counted; m jumps to the ply with the most legal moves; a click or a typed square "
                             "plays a move there; p passes; q quits.")
    othello.add_argument("record", nargs="?", default="", metavar="RECORD", help="move record such as f5d6c3")
    othello.set_defaults(handler=run_othello)


def run_mnk(args: argparse.Namespace) -> int:
    from gameproof.games.mnk.book import open_book
    from gameproof.tui.mnk_app import MnkApp
    from gameproof.tui.mnk_model import MnkSession, Oracle

    game = game_from_args(args)
    if args.book is not None:
        if not Path(args.book).is_file():
            raise BadInput(f"no book at {args.book}")
        opened, _, _ = open_book(args.book, game)  # checks that the book is for this game
        opened.close()
    MnkApp(MnkSession(game, args.moves), Oracle(args.book)).run()
    return 0


def run_othello(args: argparse.Namespace) -> int:
    from gameproof.tui.othello_app import OthelloApp
    from gameproof.tui.othello_model import RecordViewer

    OthelloApp(RecordViewer.from_record(args.record)).run()
    return 0
