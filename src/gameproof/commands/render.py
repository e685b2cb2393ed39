"""`gameproof render …`: clean SVG drawings of boards: any declared game, Othello, m,n,k and Sudoku."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gameproof.commands._files import Artefact, Naming, add_input, add_output
from gameproof.commands._output import STDOUT, output_file_or_stdout, write_output
from gameproof.commands._position import position_arguments, state_from_args
from gameproof.commands.games import GAME_HELP, _state
from gameproof.commands.mnk import _game_arguments, game_from_args
from gameproof.commands.tui import GAME_SUBCOMMAND
from gameproof.errors import BadInput

if TYPE_CHECKING:
    from gameproof.tui.game_view import Position


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("render", help="draw a board as SVG (any declared game, othello, mnk, sudoku)",
                                 description=__doc__)
    sub = parser.add_subparsers(dest="render_command", required=True, metavar="GAME")

    game = sub.add_parser(GAME_SUBCOMMAND, help="a position of any declared game (`gameproof render connect4:5,4 "
                          "--svg F` is short for `gameproof render game connect4:5,4 --svg F`)")
    add_input(game, "game", reads=Naming.GAME, metavar="GAME", help=GAME_HELP)
    position_arguments(game, 'moves played, e.g. "d c d" (Connect Four) or "c4 e3"')
    game.add_argument("--values", action="store_true", help="tint each legal move's cell by its proven value")
    _values_arguments(game)
    _svg_argument(game)
    game.set_defaults(handler=run_game)

    othello = sub.add_parser("othello", help="the Othello position after a record, legal moves dotted")
    othello.add_argument("record", metavar="RECORD", help="move record such as f5d6c3 (passes optional)")
    othello.add_argument("--no-moves", action="store_true", help="leave out the legal-move dots")
    _svg_argument(othello)
    othello.set_defaults(handler=run_othello)

    mnk = sub.add_parser("mnk", help="an m,n,k position after some moves")
    _game_arguments(mnk)
    position_arguments(mnk, 'moves played, e.g. "b2 a1"')
    mnk.add_argument("--values", action="store_true", help="tint each empty square by its proven value (df-pn)")
    _values_arguments(mnk)
    _svg_argument(mnk)
    mnk.set_defaults(handler=run_mnk)

    sudoku = sub.add_parser("sudoku", help="a Sudoku puzzle, optionally with its solution")
    sudoku.add_argument("puzzle", metavar="PUZZLE", help="16, 81 or 256 characters, 0 or . for a blank")
    sudoku.add_argument("--solution", action="store_true", help="solve it and draw the solution's digits in blue")
    _svg_argument(sudoku)
    sudoku.set_defaults(handler=run_sudoku)


def _values_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", action="store_true", help="no progress display while --values solves")


def _proven_values(state: Position, args: argparse.Namespace) -> dict[int, str] | None:
    """Each legal move's proven value when --values asks for them (with a progress display on stderr)."""
    if not args.values or state.is_over():
        return None
    from gameproof.commands._search import search_progress
    from gameproof.search.solve import solve

    with search_progress(args.quiet) as progress:
        return solve(state, progress=progress).moves


def _svg_argument(parser: argparse.ArgumentParser) -> None:
    add_output(parser, "--svg", writes=Artefact.SVG, required=True, metavar="FILE", type=output_file_or_stdout,
               help="where to write the SVG (- for standard output)")


def _write(path: str, svg: str) -> int:
    write_output(path, svg)
    if path != STDOUT:
        print(f"wrote {path}")
    return 0


def run_game(args: argparse.Namespace) -> int:
    from gameproof.render.game_svg import game_svg

    state = _state(args)
    return _write(args.svg, game_svg(state, _proven_values(state, args)))


def run_othello(args: argparse.Namespace) -> int:
    from gameproof.games.othello.position import Position
    from gameproof.games.othello.svg import position_svg

    return _write(args.svg, position_svg(Position.from_record(args.record), show_moves=not args.no_moves))


def run_mnk(args: argparse.Namespace) -> int:
    from gameproof.games.mnk.state import MnkState
    from gameproof.render.mnk_svg import mnk_svg

    state = state_from_args(game_from_args(args), args, MnkState)
    return _write(args.svg, mnk_svg(state, _proven_values(state, args)))


def run_sudoku(args: argparse.Namespace) -> int:
    from gameproof.games.sudoku import parse, solve
    from gameproof.render.sudoku_svg import sudoku_svg

    puzzle = parse(args.puzzle)
    solution = None
    if args.solution:
        answer = solve(puzzle, limit=1)
        if answer.solution is None:
            raise BadInput("the puzzle has no solution")
        solution = parse(answer.solution)
    return _write(args.svg, sudoku_svg(puzzle, solution))
