"""`gameproof results check`: re-check the results page (docs/results.md) by each result's certificate."""

from __future__ import annotations

import argparse
import textwrap

from gameproof.commands._output import exit_codes


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("results", help="re-check the results page (docs/results.md)", description=__doc__)
    sub = parser.add_subparsers(dest="results_command", required=True, metavar="COMMAND")
    check = sub.add_parser(
        "check", help="re-check every result (or those named) by its certificate",
        description=textwrap.fill(
            "Re-solve each result, write its certificate and have the independent checker accept it (game values: "
            "the pure-Python certificate checker, plain minimax on small boards, the mirror argument on even misère "
            "boards; Othello: the witness replayed and the next value refuted with a checked DRAT proof).", 79),
        epilog=_result_names() + "\n\n" + exit_codes("every result holds", "some result does not hold (named)"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("names", nargs="*", metavar="NAME", help="results to check (default: all; named below)")
    check.add_argument("--small", action="store_true", help="only the quick ones (those `make test` checks)")
    check.add_argument("--json", action="store_true", help="one JSON document on stdout")
    check.set_defaults(handler=run_check)


def _result_names() -> str:
    """The names `results check` takes, wrapped without breaking a name at its hyphens."""
    from gameproof.results import RESULTS

    names = " ".join(result.name for result in RESULTS)
    return textwrap.fill(f"results: {names}", 79, break_on_hyphens=False, break_long_words=False)


def run_check(args: argparse.Namespace) -> int:
    from gameproof.commands._output import console, print_json
    from gameproof.errors import BadInput
    from gameproof.results import RESULTS, Size, check

    known = {result.name: result for result in RESULTS}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        raise BadInput(f"no result {unknown[0]!r}; known: {', '.join(known)}")
    chosen = [known[name] for name in args.names] or [r for r in RESULTS if not args.small or r.size is Size.SMALL]
    out = None if args.json else console()
    checks = []
    for result in chosen:
        report = check(result)
        checks.append(report)
        if out is not None:
            verdict = "holds" if report.holds else f"DOES NOT HOLD: {report.problem}"
            out.print(f"{report.name}: {verdict} ({report.seconds:.1f} s)")
            for line in report.checks:
                out.print(f"  {line}")
    if args.json:
        print_json({"holds": all(c.holds for c in checks),
                    "results": [{"name": c.name, "holds": c.holds, "checks": c.checks, "problem": c.problem,
                                 "seconds": round(c.seconds, 3)} for c in checks]})
    return 0 if all(c.holds for c in checks) else 1
