"""`gameproof tablebase build|query|check`: every position of a game solved by retrograde analysis.

A tablebase holds every position reachable from the start (one of each class equal up to the game's
symmetries), each with its value for the side to move, the plies to the end under perfect play (the winner
hurrying, the loser delaying) and, for a game that declares a score, its exact score. It serves games that may
repeat a position (a game that never ends is a draw), which the tree searches refuse, as well as those that must
end. `check` re-checks every entry against its children with the rules alone.

Exit codes: 0 done (check: accepted), 1 check: rejected, 2 bad input (one line on stderr).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gameproof.commands._files import Artefact, Naming, add_input, add_output
from gameproof.commands._output import exit_codes, output_file
from gameproof.commands._position import position_arguments, state_from_args
from gameproof.commands._search import backend_arguments, backend_from_args, status_line

if TYPE_CHECKING:
    from gameproof.framework.state import RulesState
    from gameproof.search.tablebase.query import TableAnswer, Worth

EXIT_REJECTED = 1


def register(commands: argparse._SubParsersAction) -> None:
    from gameproof.commands.games import GAME_HELP
    from gameproof.search.tablebase import MOST_POSITIONS

    parser = commands.add_parser("tablebase", help="every position of a game solved by retrograde analysis: build, "
                                 "query, check", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="tablebase_command", required=True, metavar="COMMAND")
    build = sub.add_parser("build", help="enumerate every position reachable from the start and value them all",
                           description="Enumerate every position reachable from the start (by breadth, with the "
                           "game's compiled kernels), then value them all from the finished games back. What each "
                           "pass found is kept in FILE.work until the table is written, so a killed build resumes "
                           "after the last pass it finished.")
    add_input(build, "game", reads=Naming.GAME, metavar="GAME", help=GAME_HELP)
    add_output(build, "file", writes=Artefact.TABLEBASE, metavar="FILE", type=output_file, help="the tablebase file")
    position_arguments(build, 'build the table of the positions after these moves instead of the start\'s, e.g. '
                       '"a2-b2 b1-b2" (an endgame\'s table)')
    build.add_argument("--workers", type=int, default=1, metavar="N",
                       help="threads that expand positions (default 1); with --backend ray, N Ray workers (default "
                       "one per CPU of the cluster)")
    backend_arguments(build, "threads of this process")
    build.add_argument("--max-positions", type=int, default=MOST_POSITIONS, metavar="N",
                       help=f"stop (exit 2) past N positions (default {MOST_POSITIONS:,}: about 300 bytes each at the "
                       "peak of a build, 30 in the table)")
    build.add_argument("--json", action="store_true", help="one JSON document on stdout")
    build.add_argument("--quiet", action="store_true", help="no progress display")
    build.set_defaults(handler=run_build)

    query = sub.add_parser("query", help="a position's value, distance and score, and every move's",
                           description="The value of a position for the side to move, the plies to the end under "
                           "perfect play and the exact score where the game declares one, and the same for each "
                           "legal move, read from the table. The table is only read.")
    query.add_argument("file", metavar="FILE", help="a tablebase written by `gameproof tablebase build`")
    position_arguments(query, 'moves played from the start, e.g. "a2-b2 b1-b2"')
    query.add_argument("--json", action="store_true", help="one JSON document on stdout")
    query.set_defaults(handler=run_query)

    check = sub.add_parser("check", help="re-check every entry against its children with the rules alone",
                           description="Re-check every entry of a tablebase with the game's plain-Python rules (none "
                           "of the code that built it): its key, a finished game's result, a win's winning move one "
                           "ply nearer the end, a loss's every move, a draw's, and every score.",
                           epilog=exit_codes("accepted", "rejected (the entries that fail are named)",
                                             bad_input="an unreadable file (one line on stderr)"))
    check.add_argument("file", metavar="FILE", help="a tablebase written by `gameproof tablebase build`")
    check.add_argument("--json", action="store_true", help="one JSON document on stdout")
    check.add_argument("--quiet", action="store_true", help="no progress display")
    check.set_defaults(handler=run_check)


def run_build(args: argparse.Namespace) -> int:
    from gameproof.errors import BadInput
    from gameproof.framework.registry import load_game
    from gameproof.search.tablebase.build import build

    if args.max_positions < 1:
        raise BadInput(f"--max-positions must be at least 1, got {args.max_positions}")
    game = load_game(args.game)
    state = state_from_args(game, args)  # the start unless --moves or --position name another (remarks said)
    root = (state.words, state.to_move) if args.moves or args.position is not None else None
    with status_line(args.quiet or args.json, "tablebase: starting") as show:
        report = build(game, args.file, root=root, workers=args.workers, backend=backend_from_args(args),
                       address=args.address, most=args.max_positions, progress=show)
    summary = {"game": game.name, "file": args.file, "positions": report.positions, **report.counts,
               "bytes": report.bytes, "resumed": report.resumed,
               "seconds": {name: round(seconds, 3) for name, seconds in report.seconds.items()}}
    _print(args, summary, " ".join(f"{k}={v}" for k, v in summary.items() if k not in ("resumed", "seconds"))
           + "".join(f" {name}_seconds={seconds}" for name, seconds in summary["seconds"].items()))
    return 0


def run_query(args: argparse.Namespace) -> int:
    from gameproof.search.tablebase.query import Tablebase

    table = Tablebase(args.file)
    state = state_from_args(table.game, args)
    answer = table.answer(state)
    if args.json:
        _print(args, _answer_json(state, answer), "")
        return 0
    from gameproof.commands._output import console

    out = console()
    names = state.game.spec.player_names
    out.print(f"{state.game.name}  {state.described()}  to move: {names[state.to_move]}  (tablebase)", markup=False)
    out.print(str(state), markup=False)
    out.print(f"for the player to move: [bold]{_worth_text(answer.worth)}[/bold]")
    for move, worth in sorted(answer.moves.items(), key=lambda item: _order(item[1])):
        out.print(f"  {state.move_name(move):<8} {_worth_text(worth)}", markup=False)
    return 0


def run_check(args: argparse.Namespace) -> int:
    from gameproof.certify.tablebase_check import check_tablebase

    with status_line(args.quiet or args.json, "tablebase check: starting") as show:
        report = check_tablebase(args.file, progress=show)
    if args.json:
        _print(args, report.to_json(), "")
        return 0 if report.accepted else EXIT_REJECTED
    from gameproof.commands._output import console
    from gameproof.commands.certificate import printable

    out = console()
    for problem in report.problems:
        out.print(f"problem: {printable(problem)}", markup=False)
    verdict = "[bold green]ACCEPTED[/]" if report.accepted else "[bold red]REJECTED[/]"
    out.print(f"{verdict}: {report.summary()}")
    return 0 if report.accepted else EXIT_REJECTED


def _answer_json(state: RulesState, answer: TableAnswer) -> dict[str, Any]:
    return {"game": state.game.name, "played": state.record, "position": state.position,
            "to_move": state.game.spec.player_names[state.to_move], **_worth_json(answer.worth),
            "moves": {state.move_name(move): _worth_json(worth) for move, worth in answer.moves.items()}}


def _worth_json(worth: Worth) -> dict[str, Any]:
    found = {"value": worth.value.value, "distance": worth.distance}
    return found if worth.score is None else found | {"score": worth.score}


def _worth_text(worth: Worth) -> str:
    """``win in 7``, ``loss in 12, score -10``, ``draw``."""
    text = worth.value.value if worth.distance is None else f"{worth.value.value} in {worth.distance}"
    return text if worth.score is None else f"{text}, score {worth.score:+d}"


def _order(worth: Worth) -> tuple[int, int]:
    """Best first: wins soonest, then draws, then losses latest (and by score where there is one)."""
    distance = worth.distance or 0
    by_value = {"win": (0, distance), "draw": (1, 0), "loss": (2, -distance)}[worth.value.value]
    return (by_value[0], -(worth.score or 0), by_value[1])


def _print(args: argparse.Namespace, summary: dict[str, Any], line: str) -> None:
    if args.json:
        from gameproof.commands._output import print_json

        print_json(summary)
        return
    from gameproof.commands._output import console

    console().print(line, markup=False)
