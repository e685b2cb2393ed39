"""`gameproof render …`: clean drawings of boards, as SVG or PNG: any declared game, Othello, m,n,k and Sudoku.

The format is the output file's suffix (board.svg, board.png) or --format's; a PNG is the SVG rasterised at twice
its size, with the same text.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from gameproof.atomic import atomic_output
from gameproof.commands._files import Artefact, Naming, add_input, add_output
from gameproof.commands._output import STDOUT, output_file_or_stdout
from gameproof.commands._position import position_arguments, state_from_args
from gameproof.commands.games import GAME_HELP, _state
from gameproof.commands.mnk import _game_arguments, game_from_args
from gameproof.commands.tui import GAME_SUBCOMMAND
from gameproof.errors import BadInput
from gameproof.render.formats import ImageFormat

if TYPE_CHECKING:
    from gameproof.tui.game_view import Position

#: Draws the board that a subcommand's arguments describe: an SVG document.
Drawer = Callable[[argparse.Namespace], str]


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("render", help="draw a board as SVG or PNG (any declared game, othello, mnk, "
                                 "sudoku)", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="render_command", required=True, metavar="GAME")

    game = sub.add_parser(GAME_SUBCOMMAND, help="a position of any declared game (`gameproof render connect4:5,4 "
                          "--out F` is short for `gameproof render game connect4:5,4 --out F`)")
    add_input(game, "game", reads=Naming.GAME, metavar="GAME", help=GAME_HELP)
    position_arguments(game, 'moves played, e.g. "d c d" (Connect Four) or "c4 e3"')
    game.add_argument("--values", action="store_true", help="tint each legal move's cell by its proven value")
    _values_arguments(game)
    _output_arguments(game)
    game.set_defaults(handler=_rendering(draw_game))

    othello = sub.add_parser("othello", help="the Othello position after a record, legal moves dotted")
    othello.add_argument("record", metavar="RECORD", help="move record such as f5d6c3 (passes optional)")
    othello.add_argument("--no-moves", action="store_true", help="leave out the legal-move dots")
    _output_arguments(othello)
    othello.set_defaults(handler=_rendering(draw_othello))

    mnk = sub.add_parser("mnk", help="an m,n,k position after some moves")
    _game_arguments(mnk)
    position_arguments(mnk, 'moves played, e.g. "b2 a1"')
    mnk.add_argument("--values", action="store_true", help="tint each empty square by its proven value (df-pn)")
    _values_arguments(mnk)
    _output_arguments(mnk)
    mnk.set_defaults(handler=_rendering(draw_mnk))

    sudoku = sub.add_parser("sudoku", help="a Sudoku puzzle, optionally with its solution")
    sudoku.add_argument("puzzle", metavar="PUZZLE", help="16, 81 or 256 characters, 0 or . for a blank")
    sudoku.add_argument("--solution", action="store_true", help="solve it and draw the solution's digits in blue")
    _output_arguments(sudoku)
    sudoku.set_defaults(handler=_rendering(draw_sudoku))


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


def _output_arguments(parser: argparse.ArgumentParser) -> None:
    add_output(parser, "--out", "-o", "--svg", dest="out", writes=Artefact.DRAWING, required=True, metavar="FILE",
               type=output_file_or_stdout, help="where to write the drawing: FILE.svg or FILE.png, the format by the "
               "suffix unless --format says; - for standard output (SVG unless --format png). --svg is an older "
               "name of --out")
    parser.add_argument("--format", choices=[image.value for image in ImageFormat],
                        help="the drawing's format, whatever the file's suffix")


def _rendering(draw: Drawer) -> Callable[[argparse.Namespace], int]:
    """A subcommand's handler: the output's format found first (bad input before any solving), then the board drawn
    and written in it."""

    def run(args: argparse.Namespace) -> int:
        image = _format(args)
        svg = draw(args)
        if args.out == STDOUT:
            _print(image, svg)
        else:
            drawing = image.encode(svg)
            with atomic_output(args.out) as partial:  # whole or not at all
                partial.write_bytes(drawing)
            print(f"wrote {args.out}")
        return 0

    return run


def _format(args: argparse.Namespace) -> ImageFormat:
    """--format's, else the output file's suffix's; SVG on standard output."""
    if args.format:
        return ImageFormat(args.format)
    return ImageFormat.SVG if args.out == STDOUT else ImageFormat.of_file(args.out)


def _print(image: ImageFormat, svg: str) -> None:
    """Write the drawing on standard output: SVG as text, PNG as bytes."""
    if image is ImageFormat.SVG:
        sys.stdout.write(svg)
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(image.encode(svg))
    sys.stdout.buffer.flush()


def draw_game(args: argparse.Namespace) -> str:
    from gameproof.render.game_svg import game_svg

    state = _state(args)
    return game_svg(state, _proven_values(state, args))


def draw_othello(args: argparse.Namespace) -> str:
    from gameproof.games.othello.position import Position
    from gameproof.games.othello.svg import position_svg

    return position_svg(Position.from_record(args.record), show_moves=not args.no_moves)


def draw_mnk(args: argparse.Namespace) -> str:
    from gameproof.games.mnk.state import MnkState
    from gameproof.render.mnk_svg import mnk_svg

    state = state_from_args(game_from_args(args), args, MnkState)
    return mnk_svg(state, _proven_values(state, args))


def draw_sudoku(args: argparse.Namespace) -> str:
    from gameproof.games.sudoku import parse, solve
    from gameproof.render.sudoku_svg import sudoku_svg

    puzzle = parse(args.puzzle)
    solution = None
    if args.solution:
        answer = solve(puzzle, limit=1)
        if answer.solution is None:
            raise BadInput("the puzzle has no solution")
        solution = parse(answer.solution)
    return sudoku_svg(puzzle, solution)
