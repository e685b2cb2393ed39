"""`gameproof mnk …`: solve m,n,k games (normal, misère, Notakto) exactly with df-pn; opening books."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gameproof.answers import Value, Variant
from gameproof.commands._files import Artefact, add_output
from gameproof.commands._output import exit_codes, output_file
from gameproof.commands._position import position_arguments, state_from_args
from gameproof.commands._search import search_arguments
from gameproof.commands.book import BUILD_HELP, EXIT_MISMATCH, EXIT_NOT_SEARCHED, build_arguments
from gameproof.commands.certificate import certificate_argument
from gameproof.errors import BadInput

if TYPE_CHECKING:
    from gameproof.games.mnk.state import MnkGame


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("mnk", help="m,n,k games: exact values by df-pn, opening books", description=__doc__)
    sub = parser.add_subparsers(dest="mnk_command", required=True, metavar="COMMAND")

    solve = sub.add_parser("solve", help="exact value of a position and of each move", description="Exact value (win/draw/loss for the player to move) and the value of every legal move.")
    _game_arguments(solve)
    position_arguments(solve, 'moves played so far, e.g. "b2 a1"')
    solve.add_argument("--value-only", action="store_true", help="skip the value of each move (faster when the mover wins)")
    certificate_argument(solve)
    search_arguments(solve)
    solve.set_defaults(handler=run_solve)

    book = sub.add_parser("book", help="opening books in SQLite: build, query, dump", description="Opening books: every symmetry-distinct position D plies deep solved, shallower ones backed up.")
    book_sub = book.add_subparsers(dest="book_command", required=True, metavar="COMMAND")
    build = book_sub.add_parser("build", help="solve all positions D plies deep (resumes a partial file)",
                                description=BUILD_HELP)
    _game_arguments(build)
    add_output(build, "--db", writes=Artefact.BOOK, required=True, type=output_file,
               help="SQLite book file (a new one, or one to resume)")
    build.add_argument("--depth", type=int, required=True, metavar="D",
                       help="plies of the book's leaves (at most the board's squares; more than an existing "
                       "book's: deepen it)")
    build_arguments(build)
    build.set_defaults(handler=run_book_build)
    query = book_sub.add_parser("query", help="value and move values of a position, from the book (df-pn beyond it)",
                                description="The value of a position and of each of its moves, read from the book "
                                "(any symmetric position's entry serves) once that entry passes the re-check `verify` "
                                "gives it (the output says which); positions beyond the book are solved by df-pn. "
                                "The book is only read.")
    query.add_argument("--db", required=True, help="SQLite book file")
    position_arguments(query, 'moves played so far, e.g. "b2 a1"')
    query.add_argument("--max-empty", type=int, default=12,
                       help="re-check a leaf entry by plain minimax when it has at most this many empty squares, "
                       "else for consistency only (default 12)")
    query.add_argument("--json", action="store_true", help="one JSON document on stdout")
    query.set_defaults(handler=run_book_query)
    dump = book_sub.add_parser("dump", help="every entry of the book",
                               description="Every entry of the book, shallowest first: record, value, how it was "
                               "proven, and each move's value. The book is only read.")
    dump.add_argument("--db", required=True, help="SQLite book file")
    dump.add_argument("--json", action="store_true", help="one JSON document on stdout")
    dump.set_defaults(handler=run_book_dump)

    verify = sub.add_parser("verify", help="re-check a book, or df-pn against plain minimax on one position",
                            description="With --db: re-check every book entry (interior entries against their children, "
                                        "leaves by plain minimax; leaves with more than --max-empty empty squares only "
                                        "for consistency with their own move values, which is not a verification). "
                                        "With a game: compare df-pn with plain minimax on the position.",
                            epilog=exit_codes("verified (every entry re-checked by search)", "a disagreement; "
                                              f"{EXIT_NOT_SEARCHED} consistent but not verified (some leaves only "
                                              "checked for consistency: raise --max-empty)"))
    verify.add_argument("--db", help="SQLite book file to re-check")
    _game_arguments(verify, required=False)
    position_arguments(verify, "moves played so far (without --db)")
    verify.add_argument("--max-empty", type=int, default=12, help="plain minimax only on positions with at most this many empty squares (default 12)")
    verify.add_argument("--json", action="store_true", help="one JSON document on stdout")
    verify.set_defaults(handler=run_verify)


def _game_arguments(parser: argparse.ArgumentParser, required: bool = True) -> None:
    parser.add_argument("--rows", type=int, required=required, help="board rows (R·C ≤ 64)")
    parser.add_argument("--cols", type=int, required=required, help="board columns")
    parser.add_argument("--k", type=int, required=required, help="stones in a row that end the game")
    variant = parser.add_mutually_exclusive_group()
    variant.add_argument("--misere", action="store_const", const=Variant.MISERE, dest="variant", help="k in a row loses")
    variant.add_argument("--notakto", action="store_const", const=Variant.NOTAKTO, dest="variant",
                         help="one shared mark; k in a row loses")
    parser.set_defaults(variant=Variant.NORMAL)


def game_from_args(args: argparse.Namespace) -> MnkGame:
    from gameproof.games.mnk.state import MnkGame

    return MnkGame(args.rows, args.cols, args.k, args.variant)


def run_solve(args: argparse.Namespace) -> int:
    from gameproof.commands._search import options_from_args
    from gameproof.commands.games import solve_and_report
    from gameproof.games.mnk.state import MnkState

    game = game_from_args(args)
    options_from_args(args, game)  # a bad option is refused before the game's remarks are said: one line
    return solve_and_report(state_from_args(game, args, MnkState), args)


def run_book_build(args: argparse.Namespace) -> int:
    from gameproof.commands.book import build_book

    return build_book(args, game_from_args(args), args.db)


def run_book_query(args: argparse.Namespace) -> int:
    from gameproof.commands.book import print_answer
    from gameproof.games.mnk import book
    from gameproof.games.mnk.state import MnkState

    opened, game, depth = book.open_book(args.db)
    with opened:
        state = state_from_args(game, args, MnkState)
        answer = book.query(opened, state, depth, max_empty=args.max_empty)
    return print_answer(args, state, answer)


def run_book_dump(args: argparse.Namespace) -> int:
    from gameproof.commands.book import print_dump
    from gameproof.games.mnk import book

    return print_dump(args, *book.open_book(args.db))


def run_verify(args: argparse.Namespace) -> int:
    from gameproof.commands.book import print_verdict

    if args.db:
        from gameproof.games.mnk import book
        from gameproof.search.book_check import Recheck

        opened, game, depth = book.open_book(args.db)
        with opened:
            report = book.verify(opened, game, depth, max_empty=args.max_empty)
        summary = {"game": game.name, "by_children": report.counts[Recheck.BY_CHILDREN],
                   "by_minimax": report.counts[Recheck.BY_MINIMAX],
                   "consistent_only": report.counts[Recheck.CONSISTENT_ONLY], "problems": report.problems}
        code = EXIT_MISMATCH if report.problems else 0 if report.searched else EXIT_NOT_SEARCHED
    else:
        if None in (args.rows, args.cols, args.k):
            raise BadInput("give --db FILE, or --rows, --cols and --k")
        from gameproof.games.mnk import reference
        from gameproof.games.mnk.state import MnkState
        from gameproof.search.solve import solve

        state = state_from_args(game_from_args(args), args, MnkState)
        empty = state.marks().count("-")
        if empty > args.max_empty:
            raise BadInput(f"{empty} empty squares: plain minimax would take too long (raise --max-empty to insist)")
        solution = solve(state)
        dfpn = {state.move_name(m): v for m, v in solution.moves.items()}
        g = state.game
        plain = {} if state.is_over() else {state.move_name(m): Value.of_score(v) for m, v in reference.move_values(state.marks(), g.rows, g.cols, g.k, g.variant).items()}
        code = 0 if dfpn == plain else EXIT_MISMATCH
        summary = {"game": g.name, "played": state.record, "position": state.position, "value": solution.value, "agree": code == 0, "dfpn": dfpn, "minimax": plain}
    return print_verdict(args, summary, code, f"consistent, but {summary.get('consistent_only')} leaves (more than "
                         f"{args.max_empty} empty squares) were only checked against their own move values, not "
                         "searched; raise --max-empty to search them",
                         "verified: every entry re-checked by search" if args.db else "verified")
