"""`gameproof reach GAME --plies P --where FILE.py::PREDICATE`: is a position where the predicate holds
reachable within P moves? The game's own rules traced into SAT; a witness replayed on the engine."""

from __future__ import annotations

import argparse

from gameproof.commands._files import Artefact, Naming, add_input, add_output
from gameproof.commands._output import exit_codes, output_file, time_limit
from gameproof.commands._position import POSITION_HELP



def _assignment(text: str) -> tuple[str, int]:
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME=INTEGER, got {text!r}")
    try:
        return name, int(value, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected NAME=INTEGER, got {text!r}") from None


def register(commands: argparse._SubParsersAction) -> None:
    from gameproof.commands.games import GAME_HELP

    reach = commands.add_parser(
        "reach", help="is a position where a predicate holds reachable within P moves? (SAT, any game)",
        description="The game's rule functions run on symbolic words P moves deep (passes are free) and a SAT "
        "solver looks for a game that ends where PREDICATE(*words, to_move) holds: plain Python over the "
        "position's words from the side to move's view, as the rules are written (it may choose values with "
        "gameproof.logic.any_uint and restrict them with assume). Words are unsigned 64-bit ints whose arithmetic "
        "wraps (w - 1 of 0 is 2**64 - 1); what the tracer cannot follow exactly (`is`, str(w), w < 0, a "
        "predicate that returns None) is refused with its file and line. A witness is replayed on the "
        "concrete engine before it is printed.",
        epilog=exit_codes("sat: a game found, replayed on the engine", "unsat: none within P moves", unknown=True, proof=True))
    add_input(reach, "game", reads=Naming.GAME, metavar="GAME", help=GAME_HELP)
    reach.add_argument("--plies", type=int, required=True, metavar="P", help="the most moves played (passes not counted)")
    reach.add_argument("--position", metavar="TEXT", help="start from this position rather than the game's start: "
                       + POSITION_HELP.removeprefix("the position as text instead of moves: "))
    add_input(reach, "--where", reads=Naming.FUNCTION, required=True, metavar="FILE.py::PREDICATE",
              help="the predicate on the final position")
    reach.add_argument("--set", type=_assignment, action="append", default=[], metavar="NAME=INT",
                       help="a keyword argument for the predicate (repeatable)")
    reach.add_argument("--solver", default="cadical195", help="a PySAT backend, ext:BINARY or race:A,B (default cadical195)")
    reach.add_argument("--timeout", type=time_limit, metavar="S", help="give up after S seconds of solving")
    add_output(reach, "--proof", writes=Artefact.DRAT, metavar="OUT.drat", type=output_file,
               help="write a DRAT proof of a refutation and check it (exit code 4 if rejected)")
    add_output(reach, "--dimacs", writes=Artefact.DIMACS, metavar="OUT.cnf", type=output_file,
               help="also write the formula in DIMACS")
    reach.add_argument("--json", action="store_true", help="one JSON document on stdout")
    reach.set_defaults(handler=run_reach)


def run_reach(args: argparse.Namespace) -> int:
    from gameproof.commands._output import proof_exit_code, say_remarks
    from gameproof.framework.diagram import parse_position
    from gameproof.framework.reach import solve_reach
    from gameproof.framework.registry import load_game
    from gameproof.logic.harness import load_harness

    game = load_game(args.game)
    say_remarks(game)
    start = None if args.position is None else parse_position(game, args.position)
    predicate = load_harness(args.where)
    result = solve_reach(game, args.plies, predicate, args.solver, args.timeout, args.dimacs, args.proof,
                         dict(args.set), start)
    if args.json:
        from gameproof.commands._output import print_json

        print_json(result.to_json())
    else:
        from gameproof.commands._output import console, formula_size, print_proof

        out = console()
        given = "" if result.start is None else f" from {result.start}"
        out.print(f"{result.status}: {args.where} within {args.plies} moves of {game.name}{given} "
                  f"({formula_size(result)})", markup=False)
        if result.final is not None:
            out.print(f"moves: {' '.join(result.moves or []) or '(none)'}")
            chosen = result.to_json()["choices"]
            if chosen:
                out.print("choices: " + " ".join(f"{k}={v}" for k, v in chosen.items()))
            out.print(str(result.final))
        print_proof(out, result.proof)
    return proof_exit_code(result.status.exit_code, result.proof)
