"""`gameproof book build|query|dump|verify`: opening books of any declared game (and what `mnk book` shares)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gameproof.commands._files import Artefact, Naming, add_input, add_output
from gameproof.commands._output import exit_codes, output_file
from gameproof.commands._position import position_arguments, state_from_args
from gameproof.commands._search import (backend_arguments, backend_from_args, options_from_args, print_scores,
                                        print_values, search_arguments)
from gameproof.commands.certificate import printable

if TYPE_CHECKING:
    from gameproof.framework.game import Game
    from gameproof.framework.state import RulesState
    from gameproof.search.book import Book
    from gameproof.search.book_build import BuildReport
    from gameproof.search.book_check import Answer, LeafCheck

EXIT_MISMATCH = 1
#: `verify` found nothing wrong, but some leaves were only checked for consistency (not searched).
EXIT_NOT_SEARCHED = 3
BUILD_HELP = ("Solve every symmetry-distinct position --depth plies deep (as jobs: in --workers processes, or on "
              "Ray), then back the values up to the start. Each answer is committed at once, so a killed build "
              "resumes where it stopped; a deeper --depth on a book deepens it, keeping what it holds.")


def register(commands: argparse._SubParsersAction) -> None:
    from gameproof.commands.games import GAME_HELP

    parser = commands.add_parser("book", help="opening books of any game in SQLite: build, query, dump, verify",
                                 description="Opening books: every symmetry-distinct position D plies deep solved by "
                                 "the game's own search, shallower ones backed up from their children.")
    sub = parser.add_subparsers(dest="book_command", required=True, metavar="COMMAND")
    build = sub.add_parser("build", help="solve all positions D plies deep (resumes a partial file)",
                           description=BUILD_HELP + " The book records the game (and the file and hash of a game "
                           "declared in a file, whose later changes it refuses).")
    add_input(build, "game", reads=Naming.GAME, metavar="GAME", help=GAME_HELP)
    add_output(build, "file", writes=Artefact.BOOK, metavar="FILE", type=output_file,
               help="SQLite book file (a new one, or one to resume)")
    build.add_argument("--depth", type=int, required=True, metavar="D",
                       help="plies of the book's leaves (more than an existing book's: deepen it)")
    build_arguments(build)
    build.set_defaults(handler=run_build)

    query = sub.add_parser("query", help="value and move values of a position, from the book (search beyond it)",
                           description="The value of a position and of each of its moves, read from the book (any "
                           "symmetric position's entry serves) once that entry passes the re-check `verify` gives it "
                           "(the output says which); positions beyond the book are solved by the game's own search. "
                           "The book is only read.")
    query.add_argument("file", metavar="FILE", help="SQLite book file")
    position_arguments(query, 'moves played so far, e.g. "d c" (Connect Four) or "b2 a1"')
    _leaf_arguments(query)
    query.set_defaults(handler=run_query)

    dump = sub.add_parser("dump", help="every entry of the book",
                          description="Every entry of the book, shallowest first: record, value, how it was "
                          "proven, and each move's value. The book is only read.")
    dump.add_argument("file", metavar="FILE", help="SQLite book file")
    dump.add_argument("--json", action="store_true", help="one JSON document on stdout")
    dump.set_defaults(handler=run_dump)

    verify = sub.add_parser("verify", help="re-check every entry of a book by search",
                            description="Re-check every entry: interior entries and finished games against their "
                            "children in the book, leaves by a fresh search of the game (a table of its own, not the "
                            "build's). The book is only read.",
                            epilog=exit_codes("verified (every entry re-checked by search)", "a disagreement; "
                                              f"{EXIT_NOT_SEARCHED} consistent but not verified (--consistency-only)"))
    verify.add_argument("file", metavar="FILE", help="SQLite book file")
    _leaf_arguments(verify)
    verify.set_defaults(handler=run_verify)


def build_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a book build, the search's among them."""
    parser.add_argument("--workers", type=int,
                        help="worker processes (default 1: in this process); with Ray, workers of one CPU each "
                        "(default one per CPU of the cluster)")
    parser.add_argument("--values-only", action="store_true",
                        help="solve each leaf's value only, not each of its moves' (faster; shallower entries "
                        "still get every move's value from their children)")
    parser.add_argument("--score", action="store_true",
                        help="keep each position's exact final score and each move's too (for a game that declares "
                        "a score; slower: a score takes several searches)")
    backend_arguments(parser, "processes on this machine")
    search_arguments(parser)


def _leaf_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--consistency-only", action="store_true",
                        help="check leaves for consistency with their own move values only, without searching them "
                        "(quick, but not a verification)")
    search_arguments(parser)


def build_book(args: argparse.Namespace, game: Game, path: str) -> int:
    """Build (or resume) the book at `path` as `args` ask, and print what the build did."""
    from gameproof.commands._output import job_progress, say_remarks
    from gameproof.search.book_build import build
    say_remarks(game)
    backend = backend_from_args(args)
    with job_progress(args.quiet or args.json, "book") as progress:
        report = build(game, args.depth, path, workers=args.workers, options=options_from_args(args, game),
                       values_only=args.values_only, scores=args.score, backend=backend, address=args.address,
                       progress=progress)
    _print_summary(args, _build_summary(game, args.depth, path, report))
    return 0


def _build_summary(game: Game, depth: int, path: str, report: BuildReport) -> dict[str, Any]:
    """What a build did, by name; ``deepened_from`` only for a book it deepened."""
    deepened = {} if report.deepened_from is None else {"deepened_from": report.deepened_from}
    return {"game": game.name, "depth": depth, **deepened, "db": path, "solved": report.solved,
            "already_there": report.skipped, "entries": report.entries, "nodes": report.nodes,
            "seconds": round(report.seconds, 3), "wall_seconds": round(report.wall_seconds, 3)}


def _print_summary(args: argparse.Namespace, summary: dict[str, Any]) -> None:
    if args.json:
        from gameproof.commands._output import print_json

        print_json(summary)
    else:
        from gameproof.commands._output import console

        console().print(" ".join(f"{k}={v}" for k, v in summary.items()))


def print_answer(args: argparse.Namespace, state: RulesState, answer: Answer) -> int:
    """A query's answer, as JSON or for people."""
    from gameproof.search.book_check import named_moves

    checked = None if answer.checked is None else answer.checked.value
    moves = named_moves(state, answer.moves)
    scores = named_moves(state, answer.move_scores)
    if args.json:
        from gameproof.commands._output import print_json

        found = {"game": state.game.name, "played": state.record, "position": state.position, "value": answer.value,
                 "moves": moves, "source": answer.source, "checked": checked}
        print_json(found if answer.score is None else found | {"score": answer.score, "move_scores": scores})
        return 0
    from gameproof.commands._output import console

    out = console()
    source = answer.source if checked is None else f"{answer.source}, entry re-checked {checked}"
    print_values(out, f"{state.game.name}  {state.described()}  ({source})", state, answer.value, moves)
    if answer.score is not None:
        print_scores(out, answer.score, scores)
    return 0


def print_dump(args: argparse.Namespace, opened: Book, game: Game, depth: int) -> int:
    """Every entry of a book, moves by name, as JSON or a line each."""
    from gameproof.framework.state import RulesState
    from gameproof.search.book_check import named_moves

    start = RulesState(game)  # names a move by its number alone, wherever it is played
    with opened:
        entries = [entry.as_json() | {"moves": named_moves(start, entry.moves)}
                   | ({} if entry.score is None else {"move_scores": named_moves(start, entry.move_scores)})
                   for entry in opened.entries()]
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"game": game.name, "depth": depth, "entries": entries})
        return 0
    from gameproof.commands._output import console

    out = console()
    for entry in entries:
        scores = entry.get("move_scores", {})
        moves = " ".join(f"{name}:{v}" + (f"({scores[name]:+d})" if name in scores else "")
                         for name, v in entry["moves"].items())
        score = "" if "score" not in entry else f" {entry['score']:+d}"
        line = f"{entry['record'] or '(start)':<20} {entry['value'] + score:<8} {entry['method']:<8} {moves}"
        out.print(printable(line), markup=False)
    return 0


def print_verdict(args: argparse.Namespace, summary: dict[str, Any], code: int, not_verified: str,
                  verified: str) -> int:
    """A verification's summary line, its problems and its verdict (`not_verified`: why, for exit 3)."""
    from gameproof.commands._output import console, print_json

    verdict = {0: "verified", EXIT_MISMATCH: "mismatch", EXIT_NOT_SEARCHED: "consistent, not verified"}[code]
    if args.json:
        print_json(summary | {"verdict": verdict})
        return code
    out = console()
    out.print(" ".join(f"{k}={v}" for k, v in summary.items() if k not in ("dfpn", "minimax", "problems")), markup=False)
    for problem in summary.get("problems", []):
        out.print(f"problem: {printable(problem)}", markup=False)
    if code == EXIT_MISMATCH:
        out.print("[bold red]MISMATCH[/bold red]")
    elif code == EXIT_NOT_SEARCHED:
        out.print(f"[bold yellow]NOT VERIFIED[/]: {not_verified}")
    else:
        out.print(verified)
    return code


def _leaf_check(args: argparse.Namespace, game: Game) -> LeafCheck:
    from gameproof.search import book_check

    return book_check.consistency_only if args.consistency_only else book_check.by_search(options_from_args(args, game))


def run_build(args: argparse.Namespace) -> int:
    from gameproof.framework.registry import load_game

    return build_book(args, load_game(args.game), args.file)


def run_query(args: argparse.Namespace) -> int:
    from gameproof.search import book_check
    from gameproof.search.book_game import open_book

    opened, game, depth = open_book(args.file)
    with opened:
        state = state_from_args(game, args)
        answer = book_check.query(opened, state, depth, _leaf_check(args, game), options_from_args(args, game))
    return print_answer(args, state, answer)


def run_dump(args: argparse.Namespace) -> int:
    from gameproof.search.book_game import open_book

    return print_dump(args, *open_book(args.file))


def run_verify(args: argparse.Namespace) -> int:
    from gameproof.search import book_check
    from gameproof.search.book_check import Recheck
    from gameproof.search.book_game import open_book

    opened, game, depth = open_book(args.file)
    with opened:
        report = book_check.verify(opened, game, depth, _leaf_check(args, game))
    summary = {"game": game.name, "by_children": report.counts[Recheck.BY_CHILDREN],
               "by_search": report.counts[Recheck.BY_SEARCH], "consistent_only": report.counts[Recheck.CONSISTENT_ONLY],
               "problems": report.problems}
    code = EXIT_MISMATCH if report.problems else 0 if report.searched else EXIT_NOT_SEARCHED
    return print_verdict(args, summary, code, f"consistent, but {summary['consistent_only']} leaves were only "
                         "checked against their own move values, not searched (--consistency-only)",
                         "verified: every entry re-checked by search")
