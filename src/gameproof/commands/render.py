"""`gameproof render …`: clean SVG drawings of boards: any declared game, Othello, m,n,k and Sudoku."""

from __future__ import annotations

import argparse
from pathlib import Path

from gameproof.commands._output import writable_path
from gameproof.commands.games import GAME_HELP, _state
from gameproof.commands.mnk import _game_arguments, game_from_args
from gameproof.commands.tui import GAME_SUBCOMMAND
from gameproof.errors import BadInput


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("render", help="draw a board as SVG (any declared game, othello, mnk, sudoku)",
                                 description=__doc__)
    sub = parser.add_subparsers(dest="render_command", required=True, metavar="GAME")

    game = sub.add_parser(GAME_SUBCOMMAND, help="a position of any declared game (`gameproof render connect4:5,4 "
                          "--svg F` is short for `gameproof render game connect4:5,4 --svg F`)")
    game.add_argument("game", metavar="GAME", help=GAME_HELP)
    game.add_argument("--moves", default="", help='moves played, e.g. "d c d" (Connect Four) or "c4 e3"')
    game.add_argument("--values", action="store_true", help="tint each legal move's cell by its proven value")
    _svg_argument(game)
    game.set_defaults(handler=run_game)

    othello = sub.add_parser("othello", help="the Othello position after a record, legal moves dotted")
    othello.add_argument("record", metavar="RECORD", help="move record such as f5d6c3 (passes optional)")
    othello.add_argument("--no-moves", action="store_true", help="leave out the legal-move dots")
    _svg_argument(othello)
    othello.set_defaults(handler=run_othello)

    mnk = sub.add_parser("mnk", help="an m,n,k position after some moves")
    _game_arguments(mnk)
    mnk.add_argument("--moves", default="", help='moves played, e.g. "b2 a1"')
    mnk.add_argument("--values", action="store_true", help="tint each empty square by its proven value (df-pn)")
    _svg_argument(mnk)
    mnk.set_defaults(handler=run_mnk)

    sudoku = sub.add_parser("sudoku", help="a Sudoku puzzle, optionally with its solution")
    sudoku.add_argument("puzzle", metavar="PUZZLE", help="16, 81 or 256 characters, 0 or . for a blank")
    sudoku.add_argument("--solution", action="store_true", help="solve it and draw the solution's digits in blue")
    _svg_argument(sudoku)
    sudoku.set_defaults(handler=run_sudoku)


def _svg_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--svg", required=True, metavar="FILE", help="where to write the SVG")


def _write(path: Path, svg: str) -> int:
    try:
        path.write_text(svg, encoding="utf-8")
    except OSError as error:
        raise BadInput(f"cannot write {path}: {error.strerror}") from None
    print(f"wrote {path}")
    return 0


def run_game(args: argparse.Namespace) -> int:
    from gameproof.render.game_svg import game_svg
    from gameproof.search.solve import solve

    out = writable_path(args.svg)
    state = _state(args)
    values = solve(state).moves if args.values and not state.is_over() else None
    return _write(out, game_svg(state, values))


def run_othello(args: argparse.Namespace) -> int:
    from gameproof.games.othello.position import Position
    from gameproof.games.othello.svg import position_svg

    out = writable_path(args.svg)
    return _write(out, position_svg(Position.from_record(args.record), show_moves=not args.no_moves))


def run_mnk(args: argparse.Namespace) -> int:
    from gameproof.games.mnk.state import MnkState
    from gameproof.render.mnk_svg import mnk_svg
    from gameproof.search.solve import solve

    out = writable_path(args.svg)
    state = MnkState(game_from_args(args), args.moves)
    values = solve(state).moves if args.values and not state.is_over() else None
    return _write(out, mnk_svg(state, values))


def run_sudoku(args: argparse.Namespace) -> int:
    from gameproof.games.sudoku import parse, solve
    from gameproof.render.sudoku_svg import sudoku_svg

    out = writable_path(args.svg)
    puzzle = parse(args.puzzle)
    solution = None
    if args.solution:
        answer = solve(puzzle, limit=1)
        if answer.solution is None:
            raise BadInput("the puzzle has no solution")
        solution = parse(answer.solution)
    return _write(out, sudoku_svg(puzzle, solution))
