"""`gameproof check FILE.py::FUNCTION`: prove a harness's verify() properties and find witnesses for its cover()s.

As in Kani, a verify() is verified (exit 0) or broken by a counterexample (exit 1); a cover() is satisfied
by a witness (exit 0) or proven unsatisfiable, no input can make it true (exit 1). A harness reports its
worst property.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from gameproof.commands._files import Artefact, Naming, add_input, add_output
from gameproof.commands._output import exit_codes, output_file, time_limit

if TYPE_CHECKING:
    from gameproof.logic.harness import Report


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "check", help="verify a harness with a SAT solver (Kani-style)", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=exit_codes("every verify() verified and every cover() satisfied", "a verify() counterexample, a "
                          "cover() proven unsatisfiable, or assumptions that never hold (vacuous)",
                          unknown=True, bad_input="bad input, or a harness that fails or whose witness does not "
                          "replay (one line on stderr)", proof=True),
    )
    add_input(parser, "target", reads=Naming.FUNCTION, metavar="FILE.py::FUNCTION",
              help="the harness function to check")
    parser.add_argument("--solver", help="SAT backend: a PySAT name or alias, or ext:BINARY (default cadical195)")
    parser.add_argument("--timeout", type=time_limit, metavar="S",
                        help="give up after S seconds, tracing included (status unknown)")
    add_output(parser, "--dimacs", writes=Artefact.DIMACS, metavar="OUT.cnf", type=output_file,
               help="write the CNF (satisfiable iff some verify() fails or some cover() holds)")
    add_output(parser, "--proof", writes=Artefact.DRAT, metavar="OUT.drat", type=output_file,
               help="write a DRAT proof when no verify() fails and no cover() holds, and check it")
    add_output(parser, "--playback", writes=Artefact.PLAYBACK, metavar="TEST.py", type=output_file,
               help="write a pytest file that replays the witness")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gameproof.commands._output import proof_exit_code
    from gameproof.logic.harness import EXIT_CODES, check_harness
    from gameproof.logic.playback import write_playback

    report, solver = check_harness(args.target, args.solver, args.timeout, args.dimacs, args.proof)
    playback = None
    if args.playback and report.finding_index is not None and report.outcome.witnessed:
        prop = report.properties[report.finding_index]
        harness_file, _, function = args.target.rpartition("::")
        write_playback(args.playback, harness_file, function, report.inputs or {}, report.finding_index,
                       prop.kind, prop.message)
        playback = args.playback
    if args.json:
        from gameproof.commands._output import print_json

        payload = report.to_json()
        payload["solver"] = solver
        payload["playback"] = playback
        print_json(payload)
    else:
        _print_report(report, solver, playback)
    if args.proof and report.proof is None:
        print(f"gameproof: no proof written to {args.proof}: nothing to refute, or the time ran out", file=sys.stderr)
    return proof_exit_code(EXIT_CODES[report.outcome], report.proof)


def _print_report(report: "Report", solver: str, playback: str | None) -> None:
    from gameproof.commands._output import console, print_proof
    from gameproof.logic.harness import Outcome

    out = console()
    colour = {Outcome.VERIFIED: "green", Outcome.SATISFIED: "green", Outcome.VACUOUS: "yellow",
              Outcome.UNKNOWN: "yellow"}.get(report.outcome, "red")
    out.print(f"[bold {colour}]{report.outcome.label}[/]: {report.message}")
    for name, value in (report.inputs or {}).items():
        out.print(f"  {name} = {value} ({value:#x})")
    for prop in report.properties:
        out.print(f"  {prop.outcome.label:<14} {prop.kind} {prop.message!r}")
    if report.variables:
        out.print(f"[dim]{report.gates} gates, {report.variables} variables, {report.clauses} clauses; "
                  f"encoded in {report.encode_seconds:.3f} s, solved by {solver} in {report.solve_seconds:.3f} s[/]")
    print_proof(out, report.proof)
    if playback:
        out.print(f"playback test written to {playback}")
