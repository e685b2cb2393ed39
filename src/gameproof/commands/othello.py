"""`gameproof othello …`: perft, positions, and reachability by SAT for Othello."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gameproof.commands._files import Artefact, add_output
from gameproof.commands._output import (
    STDOUT, console, exit_codes, formula_size, job_progress, output_file, output_file_or_stdout, print_json,
    print_proof, progress_bar, PROOF_REJECTED, progress_console, proof_exit_code, time_limit, write_output,
)
from gameproof.commands._search import backend_arguments, backend_from_args
from gameproof.errors import BadInput


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("othello", help="Othello: perft, positions, reach (SAT), reachable, equivalence, "
                                 "cubes", description=__doc__)
    sub = parser.add_subparsers(dest="othello_command", required=True, metavar="COMMAND")

    perft = sub.add_parser(
        "perft",
        help="count move paths from the start position",
        description="Count move paths of DEPTH plies from the start (numba kernel, bulk counting at the last ply).",
    )
    perft.add_argument("depth", type=int, metavar="DEPTH", help="plies to count, 0 to 60 (perft 11: 212,258,216 paths)")
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
    perft.add_argument("--quiet", action="store_true", help="no progress bar (shown from depth 11 on a terminal)")
    perft.set_defaults(handler=run_perft)

    show = sub.add_parser(
        "show",
        help="show a position, its legal moves and disc counts",
        description="Show the position after RECORD (e.g. f5d6c3), or one given by --board/--to-move "
        "or --player/--opponent hex bitboards.",
    )
    show.add_argument("record", nargs="?", metavar="RECORD", help="move record such as f5d6c3 (passes optional)")
    _add_position_arguments(show)
    add_output(show, "--svg", writes=Artefact.SVG, metavar="FILE", type=output_file_or_stdout,
               help="also write an SVG drawing of the position (--svg - prints only the drawing, on stdout)")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    show.set_defaults(handler=run_show)

    reach = sub.add_parser(
        "reach",
        help="is a position with at least N legal moves reachable? (SAT)",
        description="Ask a SAT solver whether a position with at least N legal moves is reachable from the "
        "start within P moves (passes in between are free in the direct encoding). A witness is replayed on the concrete engine before it is printed.",
        epilog=exit_codes("sat: a position found, replayed on the engine", "unsat: none within the bound", unknown=True, proof=True),
    )
    goal = reach.add_mutually_exclusive_group(required=True)
    goal.add_argument("--legal-moves", type=int, metavar="N",
                      help="a position where the side to move has at least N legal moves (33 is the most "
                      "reachable; 34 is refuted)")
    goal.add_argument("--flips", type=int, metavar="N",
                      help="a position where some legal move flips at least N discs (direct encoding, strict rules; "
                      "default bound 59 moves: every position with an empty square)")
    reach.add_argument("--rules", choices=("strict", "relaxed"), default="strict",
                       help="strict: real Othello (pass only when no move); relaxed: passes allowed anytime")
    reach.add_argument("--plies", type=int, metavar="P",
                       help="bound on moves played (default: 60 - N, complete: N legal moves need N empty "
                       "squares); the generic encoding counts passes as plies too")
    reach.add_argument("--exact", action="store_true",
                       help="a position after exactly P moves (--plies; direct encoding): the most legal moves "
                       "at each ply")
    reach.add_argument("--encoding", choices=("direct", "generic"), default="direct",
                       help="direct: per-square formulas built for the solver; generic: the engine's own "
                       "rule functions traced into a circuit")
    add_output(reach, "--dimacs", writes=Artefact.DIMACS, metavar="OUT.cnf", type=output_file,
               help="also write the formula in DIMACS")
    reach.add_argument("--no-search", action="store_true",
                       help="answer by the formulas alone, without first looking for a witness by a beam search "
                       "on the engine (the default with the direct encoding)")
    _add_solver_arguments(reach)
    reach.set_defaults(handler=run_reach)

    reachable = sub.add_parser(
        "reachable",
        help="is this exact position reachable from the start? (SAT)",
        description="Prove an exact position reachable (with a record that replays to it) or unreachable "
        "(necessary conditions, then a SAT refutation over every game with the right number of moves).",
        epilog=exit_codes("reachable: a record replays to it", "unreachable", unknown=True, proof=True),
    )
    _add_position_arguments(reachable)
    _add_solver_arguments(reachable)
    reachable.set_defaults(handler=run_reachable)

    equivalence = sub.add_parser(
        "equivalence",
        help="prove the direct reach encoding equal to the rules for every board (SAT)",
        description="Build one-ply miters between the direct encoding used by `othello reach` and the rules "
        "(rules.legal_moves, flips, after_move traced into a circuit) over every board, every move choice and "
        "every pass, and refute them: sound (every step the encoding allows is a rules step, with the same "
        "flips and next board) and complete (every rules step is allowed).",
        epilog=exit_codes("every miter refuted: the encoding equals the rules", "a board where they differ",
                          proof=True),
    )
    equivalence.add_argument("--rules", choices=("strict", "relaxed", "both"), default="both",
                             help="the rule set(s) to check (default both)")
    equivalence.add_argument("--proof", metavar="DIR",
                             help="write each refutation's DRAT proof into DIR (an existing folder) and check it")
    equivalence.add_argument("--json", action="store_true", help="print one JSON object")
    equivalence.set_defaults(handler=run_equivalence)

    cubes = sub.add_parser(
        "cubes",
        help="`reach --legal-moves` by cube-and-conquer: parts solved as jobs, on workers or Ray",
        description="Split the reach question (direct encoding, strict rules) over the first plies into cubes, "
        "solve each as a job (CaDiCaL within a conflict budget; a cube past it is split one ply deeper), "
        "journal each answer in SQLite so that a killed run resumes, and answer sat with the first witness or "
        "unsat when every cube is refuted. With --proof, each cube's DRAT proof and a proof that the cubes "
        "cover every game are written and checked.",
        epilog=exit_codes("sat: a witness, replayed on the engine", "unsat: every cube refuted", unknown=True,
                          proof=True),
    )
    cubes.add_argument("--legal-moves", type=int, required=True, metavar="N",
                       help="a position with at least N legal moves")
    cubes.add_argument("--plies", type=int, metavar="P", help="bound on moves played (default 60 - N: complete)")
    cubes.add_argument("--exact", action="store_true",
                       help="after exactly P moves (passes free), not at most P: needs --plies")
    add_output(cubes, "--journal", writes=Artefact.JOURNAL, required=True, metavar="FILE",
               help="SQLite journal of the cubes' answers (created, or resumed)")
    # The defaults are cubes.CUBE_PLIES and CUBE_CONFLICTS (not imported here: --help stays light).
    cubes.add_argument("--cube-plies", type=int, metavar="K", help="plies fixed by a first cube (default 2)")
    cubes.add_argument("--cube-conflicts", type=int, metavar="C",
                       help="conflicts a cube may take before it is split (default 10000000)")
    cubes.add_argument("--workers", type=int,
                       help="worker processes (default 2); with Ray, workers of one CPU each (default one per CPU "
                       "of the cluster)")
    backend_arguments(cubes, "processes on this machine")
    cubes.add_argument("--proof", metavar="DIR", help="write and check every cube's DRAT proof and the coverage proof in DIR")
    cubes.add_argument("--json", action="store_true", help="print one JSON object")
    cubes.add_argument("--quiet", action="store_true", help="no progress on stderr")
    cubes.set_defaults(handler=run_cubes)

    mobility = sub.add_parser(
        "mobility",
        help="the most legal moves after exactly P moves, every game played out (the mobility curve)",
        description="Play every game of exactly P moves from the start (passes free, as `reach --exact` counts "
        "them) and report the most legal moves the side to move can have at the end, with a game that reaches "
        "them, replayed on the rules. Positions after the first P - 4 moves are searched once each (transpositions "
        "and the start's symmetric images merged). About 1 s for P = 11, 50 s for P = 13 on two threads, "
        "about 8 times longer a move after.",
        epilog=exit_codes("the most legal moves (with --check, counted again alike)",
                          "--check: the independent count or the witness disagrees"),
    )
    mobility.add_argument("plies", type=int, metavar="P", help="moves played, 0 to 16")
    mobility.add_argument("--threads", type=int, default=1, help="search the kept positions in parallel (default 1)")
    mobility.add_argument("--check", action="store_true",
                          help="count again with the independent checker (the rules on Python ints, no search code; "
                          "on --threads processes): about 10 minutes for P = 11, 7 times as long a move more")
    add_output(mobility, "--certificate", writes=Artefact.CERTIFICATE, metavar="FILE", type=output_file,
               help="also write a certificate of the answer (gzip: the claim and its witness), which `gameproof "
               "certificate check FILE` checks by counting every game again with the independent checker")
    mobility.add_argument("--json", action="store_true", help="print one JSON object")
    mobility.add_argument("--quiet", action="store_true", help="no progress on stderr")
    mobility.set_defaults(handler=run_mobility)


def _add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--solver", default=None,
                        help="a PySAT backend, NAME/unsat or NAME/sat (CaDiCaL's option sets), ext:BINARY or "
                        "race:A,B; by default Kissat and CaDiCaL side by side on two cores (docs/othello.md), "
                        "cadical195/unsat with --proof, since neither a race nor PySAT's Kissat writes a DRAT proof")
    parser.add_argument("--timeout", type=time_limit, metavar="S", help="give up after S seconds of solving")
    add_output(parser, "--proof", writes=Artefact.DRAT, metavar="OUT.drat", type=output_file,
               help="write a DRAT proof of a refutation and check it (exit code 4 if rejected)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress display")


def _add_position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", help="64 characters a1..h8 row-major: X black, O white, - empty "
                        "(write --board=... when it starts with -)")
    parser.add_argument("--player", metavar="HEX", help="bitboard of the side to move, in hex")
    parser.add_argument("--opponent", metavar="HEX", help="bitboard of the other side, in hex")
    parser.add_argument("--to-move", default=None, metavar="COLOUR",
                        help="who moves in the position given by --board or --player/--opponent: black or white "
                        "(default black; --player is the side to move)")


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
    if args.divide or (args.depth >= 11 and not (args.json or args.quiet) and sys.stderr.isatty()):
        divide = _divide_with_progress(start, args.depth, args.convention, args.threads, quiet=args.json or args.quiet)
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


def run_mobility(args: argparse.Namespace) -> int:
    from gameproof.games.othello.mobility import MOST_PLIES, most_legal_moves

    if not 0 <= args.plies <= MOST_PLIES:
        raise BadInput(f"P must be between 0 and {MOST_PLIES}, got {args.plies} (past {MOST_PLIES} moves the positions "
                       "to keep outgrow memory; `othello reach --legal-moves N --plies P --exact` asks by SAT)")
    if args.threads < 1:
        raise BadInput(f"--threads must be at least 1, got {args.threads}")
    from gameproof.certify.mobility_check import MOST_CHECKED_PLIES

    if (args.check or args.certificate is not None) and args.plies > MOST_CHECKED_PLIES:
        raise BadInput(f"--check and --certificate: the independent count checks at most {MOST_CHECKED_PLIES} moves "
                       "(it keeps every position a move before the end in memory)")
    began = time.perf_counter()
    with job_progress(args.quiet or args.json, f"mobility after {args.plies} moves") as update:
        report = None if update is None else \
            (lambda done, total: update(done, total, time.perf_counter() - began, "kept positions searched"))
        peak = most_legal_moves(args.plies, args.threads, report)
    answer = peak.to_json()
    if args.certificate is not None:
        from gameproof.games.othello.mobility import write_certificate

        write_certificate(peak, args.certificate)
        answer["certificate"] = args.certificate
    if args.check:
        from gameproof.certify.mobility_check import check_mobility

        counted = check_mobility(args.plies, peak.witness.record, min(args.threads, os.cpu_count() or 1))
        answer["check"] = {"most_legal_moves": counted.most, "witness_reaches": counted.witness_reaches,
                           "holds": counted.holds(peak.most), "seconds": round(counted.seconds, 3)}
    if args.json:
        print_json(answer)
    else:
        out = console()
        out.print(f"after exactly {args.plies} moves: at most {peak.most} legal moves; witness "
                  f"{peak.witness.record or '(the start)'} (replayed); {peak.kept:,} distinct positions after "
                  f"{peak.kept_plies} moves searched to the end in {peak.seconds:.1f} s")
        if args.certificate is not None:
            out.print(f"certificate: {args.certificate} (check it with `gameproof certificate check`)", markup=False)
        if args.check:
            verdict = "agrees" if answer["check"]["holds"] else "DISAGREES"
            out.print(f"independent checker (the rules on Python ints): {verdict}, at most {counted.most} legal moves, "
                      f"the witness {'reaches' if counted.witness_reaches else 'does not reach'} them "
                      f"({counted.seconds:.1f} s)")
    return 0 if not args.check or answer["check"]["holds"] else 1


def _divide_with_progress(start, depth: int, convention: str, threads: int, quiet: bool) -> dict[str, int]:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from gameproof.games.othello.perft import perft_divide

    columns = (TextColumn("perft {task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with progress_bar(*columns, quiet=quiet) as progress:
        task = progress.add_task(str(depth), total=len(start.legal_moves()))
        return perft_divide(start, depth, convention, lambda move, count: progress.advance(task), threads)


def _position_from_args(args: argparse.Namespace):
    from gameproof.games.othello.notation import parse_hex_bitboard
    from gameproof.games.othello.position import Position

    record = vars(args).get("record")  # `reachable` takes no record
    given = [record is not None, args.board is not None, args.player is not None or args.opponent is not None]
    if sum(given) != 1:
        ways = "RECORD, --board," if "record" in vars(args) else "--board"
        raise BadInput(f"give one position: {ways} or --player with --opponent")
    if record is not None:
        if args.to_move is not None:
            raise BadInput("--to-move goes with --board or --player/--opponent, not with a record")
        return Position.from_record(record)
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
    if args.svg == STDOUT and args.json:
        raise BadInput("--svg - and --json would both print on stdout; write the drawing to a file")
    position = _position_from_args(args)
    if args.svg:
        from gameproof.games.othello.svg import position_svg

        write_output(args.svg, position_svg(position))
        if args.svg == STDOUT:
            return 0
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
        if args.exact:
            raise BadInput("--exact goes with --legal-moves, not --flips")
        return _run_flips(args)
    if args.proof and args.plies is None:
        print("gameproof: note: with --proof the complete formula is solved at once, without the quick stage "
              "or the second core, to refute it; finding a witness can take far longer (leave out --proof for that)",
              file=sys.stderr)
    with _solving_status(f">= {args.legal_moves} legal moves ({args.rules} rules)", args.json or args.quiet) as progress:
        result = solve_reach(
            args.legal_moves, args.plies, args.rules, args.encoding, args.solver, args.timeout, args.dimacs,
            args.proof, progress, exact=args.exact, search=not args.no_search,
        )
    payload = result.to_json()
    if args.json:
        print_json(payload)
    else:
        out = console()
        bound = "after exactly" if result.exact else "within"
        out.print(f"{result.status}: >= {result.min_legal} legal moves {bound} {result.plies} moves "
                  f"({result.rule_set} rules; {_answered_by(result)})")
        if result.witness is not None:
            from gameproof.games.othello.position import Position

            out.print(f"record: {result.witness.record}")
            color = "black" if result.witness.black_to_move else "white"
            out.print(str(Position.from_bitboards(result.witness.player, result.witness.opponent, color)))
        print_proof(out, result.proof)
        for note in result.notes:
            out.print(f"note: {note}")
    return proof_exit_code(result.status.exit_code, result.proof)


def _answered_by(result) -> str:
    """How a reach answer was found: by the beam search (its width and time), or by a formula (its size, times)."""
    from gameproof.games.othello.reach import BEAM

    if result.solver.startswith(f"{BEAM}:"):
        return f"found by a beam search of width {result.solver.split(':')[1]} in {result.solve_seconds:.2f} s"
    return formula_size(result)


def _run_flips(args: argparse.Namespace) -> int:
    from gameproof.games.othello.reach import solve_flips

    if args.encoding != "direct" or args.rules != "strict" or args.dimacs:
        raise BadInput("--flips takes the direct encoding and strict rules, without --dimacs")
    with _solving_status(f"a move flipping >= {args.flips} discs", args.json or args.quiet) as progress:
        result = solve_flips(args.flips, args.plies, args.solver, args.timeout, args.proof, progress,
                             search=not args.no_search)
    if args.json:
        print_json(result.to_json())
    else:
        out = console()
        out.print(f"{result.status}: a legal move flipping >= {result.min_flips} discs within {result.plies} moves "
                  f"({_answered_by(result)})")
        if result.witness is not None:
            from gameproof.games.othello.notation import square_name
            from gameproof.games.othello.position import Position

            color = "black" if result.witness.black_to_move else "white"
            out.print(f"record: {result.witness.record}, then {color} plays {square_name(result.square)} "
                      f"flipping {result.flipped}")
            out.print(str(Position.from_bitboards(result.witness.player, result.witness.opponent, color)))
        print_proof(out, result.proof)
    return proof_exit_code(result.status.exit_code, result.proof)


@contextmanager
def _solving_status(what: str, quiet: bool) -> Iterator[Callable[[float, int], None] | None]:
    """A spinner on stderr showing elapsed time and conflicts while a SAT solver runs (none when quiet)."""
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
    with _solving_status("is this position reachable?", args.json or args.quiet) as progress:
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
    return proof_exit_code(result.status.exit_code, result.proof)


def run_equivalence(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gameproof.games.othello.equivalence import Claim, build_miter, check_miter
    from gameproof.logic.drat import ProofCheck, check_drat

    folder = Path(args.proof) if args.proof else None
    if folder is not None and not folder.is_dir():
        raise BadInput(f"--proof needs an existing folder: {args.proof}")
    rule_sets = ("strict", "relaxed") if args.rules == "both" else (args.rules,)
    rows: list[dict] = []
    checks: dict[int, ProofCheck] = {}
    for rule_set in rule_sets:
        for claim in Claim:
            miter = build_miter(rule_set, claim)
            proof = None if folder is None else folder / f"othello-{rule_set}-{claim.value}.drat"
            result = check_miter(miter, proof=proof)
            row = {"rules": rule_set, "claim": claim.value, "equal": result.equal, "variables": result.variables,
                   "clauses": result.clauses, "solve_seconds": round(result.seconds, 3)}
            if result.counterexample is not None:
                row["counterexample"] = {name: f"{value:#x}" for name, value in result.counterexample.items()}
            if proof is not None and result.equal:
                checks[len(rows)] = check_drat(miter.cnf, proof)
                row.update(checks[len(rows)].to_json())
            rows.append(row)
    if args.json:
        print_json({"miters": rows, "equal": all(row["equal"] for row in rows)})
    else:
        out = console()
        for index, row in enumerate(rows):
            verdict = "equal (unsat)" if row["equal"] else f"DIFFERENT: {row['counterexample']}"
            out.print(f"{row['rules']:7} {row['claim']:8} {verdict}; {row['variables']:,} variables, "
                      f"{row['clauses']:,} clauses, {row['solve_seconds']:.2f} s")
            print_proof(out, checks.get(index))
    code = 0 if all(row["equal"] for row in rows) else 1
    return max([code, *(proof_exit_code(code, check) for check in checks.values())])


def run_cubes(args: argparse.Namespace) -> int:
    from gameproof.games.othello.cubes import CUBE_CONFLICTS, CUBE_PLIES, solve_by_cubes
    from gameproof.games.othello.reach import default_plies

    if not 1 <= args.legal_moves <= 60:
        raise BadInput(f"the number of legal moves must be between 1 and 60, got {args.legal_moves}")
    plies = default_plies(args.legal_moves) if args.plies is None else args.plies
    if not 1 <= plies <= 60:
        raise BadInput(f"--plies must be between 1 and 60, got {plies}")
    backend = backend_from_args(args)
    if args.exact and args.plies is None:
        raise BadInput("exactly P moves (--exact) needs --plies")
    workers = 2 if args.workers is None and args.backend == "local" else args.workers
    with job_progress(args.quiet or args.json, "cubes") as progress:
        result = solve_by_cubes(args.legal_moves, plies, args.journal,
                                cube_plies=CUBE_PLIES if args.cube_plies is None else args.cube_plies,
                                conflicts=CUBE_CONFLICTS if args.cube_conflicts is None else args.cube_conflicts,
                                workers=workers, backend=backend,
                                address=args.address, proof_dir=args.proof, progress=progress, exact=args.exact)
    if args.json:
        print_json(result.to_json())
    else:
        out = console()
        bound = "after exactly" if result.exact else "within"
        out.print(f"{result.status}: >= {result.min_legal} legal moves {bound} {result.plies} moves; {result.cubes} cubes "
                  f"({result.splits} split again), {result.cube_seconds:.1f} s of solving in {result.wall_seconds:.1f} s")
        if result.witness is not None:
            kept = " (read back from the journal, replayed again)" if result.witness_from_journal else ""
            out.print(f"record: {result.witness.record}{kept}")
        if result.journalled:
            out.print(f"from the journal {args.journal}: {result.journalled} cube answers, re-checked as fresh ones are",
                      markup=False, soft_wrap=True)
        if result.coverage is not None:
            verdicts = ", ".join(f"{count} {verdict}" for verdict, count in sorted(result.cube_proofs.items()))
            out.print(f"cube proofs: {verdicts}")
            print_proof(out, result.coverage)
        for note in result.notes:
            out.print(f"note: {note}", markup=False, soft_wrap=True)
    code = proof_exit_code(result.status.exit_code, result.coverage)
    if result.cube_proofs.get("rejected"):
        print("gameproof: a cube's DRAT proof was REJECTED: the refutation is not confirmed", file=sys.stderr)
        return PROOF_REJECTED
    return code

