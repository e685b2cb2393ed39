"""`gameproof othello …`: perft, positions, and reachability by SAT for Othello."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gameproof.commands._output import (console, formula_size, print_json, print_proof, progress_console,
                                        proof_exit_code)
from gameproof.errors import BadInput


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("othello", help="Othello: perft, positions", description=__doc__)
    sub = parser.add_subparsers(dest="othello_command", required=True, metavar="COMMAND")

    perft = sub.add_parser(
        "perft",
        help="count move paths from the start position",
        description="Count move paths of DEPTH plies from the start (numba kernel, bulk counting at the last ply).",
    )
    perft.add_argument("depth", type=int, metavar="DEPTH")
    perft.add_argument(
        "--convention",
        choices=("edax", "bik", "nopass"),
        default="edax",
        help="edax: a pass is a ply, finished games not counted (OEIS A124004); "
        "bik: finished games are leaves; nopass: a pass is not a ply",
    )
    perft.add_argument("--divide", action="store_true", help="also print the count below each first move")
    perft.add_argument("--threads", type=int, default=1, help="count subtrees in parallel (default 1)")
    perft.add_argument("--json", action="store_true", help="print one JSON object")
    perft.set_defaults(handler=run_perft)

    show = sub.add_parser(
        "show",
        help="show a position, its legal moves and disc counts",
        description="Show the position after RECORD (e.g. f5d6c3), or one given by --board/--to-move "
        "or --player/--opponent hex bitboards.",
    )
    show.add_argument("record", nargs="?", metavar="RECORD", help="move record such as f5d6c3 (passes optional)")
    _add_position_arguments(show)
    show.add_argument("--svg", metavar="FILE", help="also write an SVG drawing of the position")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    show.set_defaults(handler=run_show)

    reach = sub.add_parser(
        "reach",
        help="is a position with at least N legal moves reachable? (SAT)",
        description="Ask a SAT solver whether a position with at least N legal moves is reachable from the "
        "start within P moves (passes in between are free in the direct encoding). A witness is replayed on the "
        "concrete engine before it is printed. Exit 0 sat, 1 unsat, 3 unknown (time limit), 4 the --proof was "
        "rejected by its checker.",
    )
    goal = reach.add_mutually_exclusive_group(required=True)
    goal.add_argument("--legal-moves", type=int, metavar="N", help="a position with at least N legal moves")
    goal.add_argument("--flips", type=int, metavar="N",
                      help="a position where some legal move flips at least N discs (direct encoding, strict rules; "
                      "default bound 59 moves: every position with an empty square)")
    reach.add_argument("--rules", choices=("strict", "relaxed"), default="strict",
                       help="strict: real Othello (pass only when no move); relaxed: passes allowed anytime")
    reach.add_argument("--plies", type=int, metavar="P",
                       help="bound on moves played (default: 60 - N, complete: N legal moves need N empty "
                       "squares); the generic encoding counts passes as plies too")
    reach.add_argument("--encoding", choices=("direct", "generic"), default="direct",
                       help="direct: per-square formulas built for the solver; generic: the engine's own "
                       "rule functions traced into a circuit")
    reach.add_argument("--dimacs", metavar="OUT.cnf", help="also write the formula in DIMACS")
    _add_solver_arguments(reach)
    reach.set_defaults(handler=run_reach)

    reachable = sub.add_parser(
        "reachable",
        help="is this exact position reachable from the start? (SAT)",
        description="Prove an exact position reachable (with a record that replays to it) or unreachable "
        "(necessary conditions, then a SAT refutation over every game with the right number of moves). "
        "Exit 0 reachable, 1 unreachable, 3 unknown, 4 the --proof was rejected by its checker.",
    )
    _add_position_arguments(reachable)
    _add_solver_arguments(reachable)
    reachable.set_defaults(handler=run_reachable, record=None)


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if seconds <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return seconds


def _add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--solver", default=None,
                        help="a PySAT backend, ext:BINARY or race:A,B (default race:kissat404,cadical195, both "
                        "at once on two cores; cadical195 with --proof, since neither a race nor PySAT's "
                        "Kissat writes a DRAT proof)")
    parser.add_argument("--timeout", type=_positive_seconds, metavar="S", help="give up after S seconds of solving")
    parser.add_argument("--proof", metavar="OUT.drat",
                        help="write a DRAT proof of a refutation and check it (exit code 4 if rejected)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _add_position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", help="64 characters a1..h8 row-major: X black, O white, - empty "
                        "(write --board=... when it starts with -)")
    parser.add_argument("--player", metavar="HEX", help="bitboard of the side to move, in hex")
    parser.add_argument("--opponent", metavar="HEX", help="bitboard of the other side, in hex")
    parser.add_argument("--to-move", default=None, help="black or white (default black)")


def run_perft(args: argparse.Namespace) -> int:
    from gameproof.games.othello.perft import perft
    from gameproof.games.othello.position import Position

    if not 0 <= args.depth <= 60:
        raise BadInput(f"depth must be between 0 and 60, got {args.depth}")
    if args.threads < 1:
        raise BadInput(f"--threads must be at least 1, got {args.threads}")
    start = Position.start()
    perft(start.player, start.opponent, 6, threads=args.threads)  # load the compiled kernels before timing
    began = time.perf_counter()
    divide = None
    if args.divide or (args.depth >= 11 and not args.json and sys.stderr.isatty()):
        divide = _divide_with_progress(start, args.depth, args.convention, args.threads, quiet=args.json)
        nodes = sum(divide.values())
    else:
        nodes = perft(start.player, start.opponent, args.depth, args.convention, args.threads)
    seconds = time.perf_counter() - began
    result = {
        "depth": args.depth,
        "convention": args.convention,
        "threads": args.threads,
        "nodes": nodes,
        "seconds": round(seconds, 6),
        "leaves_per_second": round(nodes / seconds) if seconds > 0 else None,
    }
    if args.divide:
        result["divide"] = divide
    if args.json:
        print_json(result)
        return 0
    out = console()
    if args.divide:
        for move, count in divide.items():
            out.print(f"{move}: {count}")
    rate = f"{nodes / seconds / 1e6:.1f}M leaves/s" if seconds > 0 else ""
    out.print(f"perft({args.depth}, {args.convention}) = {nodes}  [{seconds:.3f} s, {rate}]")
    return 0


def _divide_with_progress(start, depth: int, convention: str, threads: int, quiet: bool) -> dict[str, int]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from gameproof.games.othello.perft import perft_divide

    columns = (TextColumn("perft {task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=progress_console(), transient=True, disable=quiet) as progress:
        task = progress.add_task(str(depth), total=len(start.legal_moves()))
        return perft_divide(start, depth, convention, lambda move, count: progress.advance(task), threads)


def _position_from_args(args: argparse.Namespace):
    from gameproof.games.othello.notation import parse_hex_bitboard
    from gameproof.games.othello.position import Position

    given = [args.record is not None, args.board is not None, args.player is not None or args.opponent is not None]
    if sum(given) != 1:
        raise BadInput("give exactly one of RECORD, --board, or --player with --opponent")
    if args.record is not None:
        if args.to_move is not None:
            raise BadInput("--to-move goes with --board or --player/--opponent, not with a record")
        return Position.from_record(args.record)
    if args.board is not None:
        return Position(args.board, args.to_move or "black")
    if args.player is None or args.opponent is None:
        raise BadInput("--player and --opponent go together")
    return Position.from_bitboards(
        parse_hex_bitboard(args.player), parse_hex_bitboard(args.opponent), args.to_move or "black"
    )


def position_summary(position) -> dict:
    """The JSON description of a position used by `othello show`."""
    from gameproof.games.othello.notation import format_hex_bitboard, square_name

    black, white = position.disc_counts()
    mask = position.legal_move_mask()
    moves = [square_name(s) for s in range(64) if mask >> s & 1]
    return {
        "to_move": position.color,
        "legal_move_count": len(moves),
        "legal_moves": moves,
        "board": position.board,
        "player": format_hex_bitboard(position.player),
        "opponent": format_hex_bitboard(position.opponent),
        "discs": {"black": black, "white": white},
        "game_over": position.is_over(),
    }


def run_show(args: argparse.Namespace) -> int:
    position = _position_from_args(args)
    if args.svg:
        from gameproof.games.othello.svg import position_svg

        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(position_svg(position))
        except OSError as error:
            raise BadInput(f"cannot write {args.svg}: {error.strerror}") from None
    if args.json:
        print_json(position_summary(position))
    else:
        out = console()
        out.print(str(position))
        summary = position_summary(position)
        out.print("legal moves: " + (" ".join(summary["legal_moves"]) or "none"))
    return 0


def run_reach(args: argparse.Namespace) -> int:
    from gameproof.games.othello.reach import solve_reach

    if args.flips is not None:
        return _run_flips(args)
    with _solving_status(f">= {args.legal_moves} legal moves ({args.rules} rules)", args.json) as progress:
        result = solve_reach(
            args.legal_moves, args.plies, args.rules, args.encoding, args.solver, args.timeout, args.dimacs,
            args.proof, progress,
        )
    payload = result.to_json()
    if args.json:
        print_json(payload)
    else:
        out = console()
        out.print(f"{result.status}: >= {result.min_legal} legal moves within {result.plies} moves "
                  f"({result.rule_set} rules; {formula_size(result)})")
        if result.witness is not None:
            from gameproof.games.othello.position import Position

            out.print(f"record: {result.witness.record}")
            color = "black" if result.witness.black_to_move else "white"
            out.print(str(Position.from_bitboards(result.witness.player, result.witness.opponent, color)))
        print_proof(out, result.proof)
        for note in result.notes:
            out.print(f"note: {note}")
    return proof_exit_code({"sat": 0, "unsat": 1, "unknown": 3}[result.status], result.proof)


def _run_flips(args: argparse.Namespace) -> int:
    from gameproof.games.othello.reach import solve_flips

    if args.encoding != "direct" or args.rules != "strict" or args.dimacs:
        raise BadInput("--flips takes the direct encoding and strict rules, without --dimacs")
    with _solving_status(f"a move flipping >= {args.flips} discs", args.json) as progress:
        result = solve_flips(args.flips, args.plies, args.solver, args.timeout, args.proof, progress)
    if args.json:
        print_json(result.to_json())
    else:
        out = console()
        out.print(f"{result.status}: a legal move flipping >= {result.min_flips} discs within {result.plies} moves "
                  f"({formula_size(result)})")
        if result.witness is not None:
            from gameproof.games.othello.notation import square_name
            from gameproof.games.othello.position import Position

            color = "black" if result.witness.black_to_move else "white"
            out.print(f"record: {result.witness.record}, then {color} plays {square_name(result.square)} "
                      f"flipping {result.flipped}")
            out.print(str(Position.from_bitboards(result.witness.player, result.witness.opponent, color)))
        print_proof(out, result.proof)
    return proof_exit_code({"sat": 0, "unsat": 1, "unknown": 3}[result.status], result.proof)


@contextmanager
def _solving_status(what: str, quiet: bool) -> Iterator[Callable[[float, int], None] | None]:
    """A spinner on stderr showing elapsed time and conflicts while a SAT solver runs (none with --json)."""
    if quiet:
        yield None
        return
    with progress_console().status(f"solving: {what}", spinner="dots") as status:
        def show(elapsed: float, conflicts: int) -> None:
            counted = f", {conflicts:,} conflicts" if conflicts >= 0 else ""
            status.update(f"solving: {what} [{elapsed:.0f} s{counted}]")

        yield show


def run_reachable(args: argparse.Namespace) -> int:
    from gameproof.games.othello.reach import solve_reachable

    position = _position_from_args(args)
    with _solving_status("is this position reachable?", args.json) as progress:
        result = solve_reachable(
            position.black, position.white, position.color == "black", args.solver,
            args.timeout, args.proof, progress,
        )
    if args.json:
        print_json(result.to_json())
    else:
        out = console()
        out.print(f"{result.status}: {result.reason}")
        if result.witness is not None:
            out.print(f"record: {result.witness.record}")
        if result.variables:
            out.print(f"{result.plies} moves, {result.variables:,} variables, {result.clauses:,} clauses; "
                      f"encoded in {result.encode_seconds:.2f} s, solved in {result.solve_seconds:.2f} s")
        print_proof(out, result.proof)
    return proof_exit_code({"reachable": 0, "unreachable": 1, "unknown": 3}[result.status], result.proof)
