"""`gameproof tui …`: terminal user interfaces (Textual) to explore solved games and step through records."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gameproof.commands._position import position_arguments, state_from_args
from gameproof.commands.games import GAME_HELP, _state
from gameproof.commands.mnk import _game_arguments, game_from_args

from gameproof.errors import BadInput

if TYPE_CHECKING:
    from gameproof.framework.game import Game
    from gameproof.search.tablebase.query import Tablebase
    from gameproof.tui.game_view import Position
    from gameproof.tui.oracle import Oracle

#: The subcommand of `tui` and `render` that takes any declared game; the command line puts it in where a game
#: name follows at once (`gameproof tui connect4:5,4`).
GAME_SUBCOMMAND = "game"
_KEYS = "arrows + enter or a typed square (b2) or a click plays; u undo; p perfect move; q or ctrl+c quits."


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("tui", help="terminal UIs: boards coloured by proven values, an Othello viewer",
                                 description=__doc__)
    sub = parser.add_subparsers(dest="tui_command", required=True, metavar="GAME")

    mnk = sub.add_parser("mnk", help="play an m,n,k game; every empty cell shows its proven value",
                         description="An m,n,k board whose empty cells are coloured by their proven value "
                         f"(win/draw/loss for the side to move), solved by df-pn in the background. Keys: {_KEYS}")
    _game_arguments(mnk)
    position_arguments(mnk, 'moves played first, e.g. "b2 a1"')
    mnk.add_argument("--book", metavar="FILE", help="an opening book (from `gameproof mnk book build`) to answer from")
    mnk.set_defaults(handler=run_mnk)

    othello = sub.add_parser("othello", help="step through an Othello record; legal moves marked and counted",
                             description="Step through RECORD ply by ply (left/right, home/end), legal moves marked "
                             "and counted; m jumps to the ply with the most legal moves; a click or a typed square "
                             "plays a move there; p passes; q or ctrl+c quits. (`tui othello:8` plays Othello on the "
                             "game screen instead.)")
    records = othello.add_mutually_exclusive_group()
    records.add_argument("record", nargs="?", default="", metavar="RECORD", help="move record such as f5d6c3")
    records.add_argument("--record", dest="record_option", metavar="RECORD", help="the same, as an option")
    othello.set_defaults(handler=run_othello)

    game = sub.add_parser(GAME_SUBCOMMAND, help="play any declared game (`gameproof tui connect4:5,4` is short for "
                          "`gameproof tui game connect4:5,4`); every legal move shows its proven value or score",
                          description="A board of any declared game whose legal moves are coloured by their proven "
                          "value (win/draw/loss for the side to move; with --score the exact final score, coloured by "
                          "its sign), solved in the background by the game's own search or read from a --book, or "
                          "read at once from a --tablebase with each move's plies to the end (the only way to play a "
                          "game that may repeat a position, such as dodgem:3). "
                          f"Keys: {_KEYS} In games played by columns a typed column letter (c) plays; "
                          "space passes when a pass is the only move.")
    game.add_argument("game", metavar="GAME", help=GAME_HELP)
    position_arguments(game, 'moves played first, e.g. "d c d" (Connect Four) or "c4 e3"')
    game.add_argument("--score", action="store_true",
                      help="show exact final scores instead of win/draw/loss: each move's score for the side to move "
                      "under perfect play (for games that declare a score, such as othello:4, dots-boxes:2,2, kalah:3,3)")
    sources = game.add_mutually_exclusive_group()
    sources.add_argument("--book", metavar="FILE",
                         help="a book of this game (from `gameproof book build`) to answer from: an entry is shown "
                         "once it passes a re-check (interior entries against their children, leaves for consistency); "
                         "with --score, entries of a book built with scores")
    sources.add_argument("--tablebase", metavar="FILE",
                         help="a tablebase of this game (from `gameproof tablebase build`) to answer from, at once and "
                         "with no search: each move's value and plies to the end under perfect play, `p` the nearest "
                         "win or the farthest loss; with --score, its scores (a tablebase keeps them for games that "
                         "must end); for any game, those that may repeat a position included")
    game.set_defaults(handler=run_game)


def run_mnk(args: argparse.Namespace) -> int:
    from gameproof.games.mnk.book import open_book, passes_recheck
    from gameproof.games.mnk.state import MnkState

    game = game_from_args(args)
    state = state_from_args(game, args, MnkState)
    if args.book is None:
        return _play(state)
    from gameproof.tui.oracle import Oracle

    opened, _, depth = open_book(args.book, game)  # checks that the book is for this game
    opened.close()
    return _play(state, Oracle(args.book, vetting=passes_recheck(game, depth)))


def run_game(args: argparse.Namespace) -> int:
    from gameproof.tui.oracle import Oracle

    state = _state(args)
    if args.tablebase is None:
        try:
            state.game.refuse_if_repeating()  # the searches below assume every game ends; a tablebase does not
        except BadInput as error:
            raise BadInput(f"{error}, then play it with gameproof tui {args.game} --tablebase FILE") from None
    if args.score:
        state.game.require_score()
    if args.tablebase is not None:
        return _play(state, Oracle(scores=args.score, tablebase=_tablebase(args.tablebase, state.game)))
    if args.book is None:
        return _play(state, Oracle(scores=args.score))
    from gameproof.search.book_check import consistency_only, passes_recheck
    from gameproof.search.book_game import open_book

    opened, _, depth = open_book(args.book, state.game)  # checks that the book is for this game
    opened.close()
    vetting = passes_recheck(state.game, depth, consistency_only)
    return _play(state, Oracle(args.book, vetting=vetting, scores=args.score))


def _tablebase(path: str, game: Game) -> Tablebase:
    """The tablebase at `path`, which must be of `game` (by name, and for a game from a file by that file and its
    SHA-256); BadInput, one line, for another game's, or a file that is not a tablebase of the rules as they are."""
    from gameproof.search.book_game import Identity
    from gameproof.search.tablebase.query import Tablebase

    table = Tablebase(path)
    if Identity.of(table.game) != Identity.of(game):
        raise BadInput(f"{path} is a tablebase of {Identity.of(table.game)}, not of {Identity.of(game)}; build one "
                       f"with gameproof tablebase build {Identity.of(game).loading} FILE")
    return table


def _play(state: Position, oracle: Oracle | None = None) -> int:
    """Open the game screen on `state`, its values (or scores) from `oracle` (by default: the game's search alone)."""
    from gameproof.tui.app import GameproofApp
    from gameproof.tui.game_model import GameSession
    from gameproof.tui.oracle import Oracle

    oracle = oracle or Oracle()
    GameproofApp.game(GameSession(state, scores=oracle.scores, distances=oracle.distances), oracle).run()
    return 0


def run_othello(args: argparse.Namespace) -> int:
    """Open the Othello record viewer on the record in `args`."""
    from gameproof.tui.app import GameproofApp
    from gameproof.tui.othello_model import RecordViewer

    record = args.record if args.record_option is None else args.record_option
    GameproofApp.record(RecordViewer.from_record(record)).run()
    return 0
