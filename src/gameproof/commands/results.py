"""`gameproof results check`: re-check the results page (docs/results.md) by each result's certificate."""

from __future__ import annotations

import argparse
import textwrap

from gameproof.commands._output import exit_codes
from gameproof.commands.certificate import MOST_CHECK_WORKERS


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
    check.add_argument("--certificate", metavar="FILE", help="for the one game value named: check this certificate "
                       "of it (written by `gameproof solve GAME --certificate FILE`) instead of solving again; "
                       "a huge result is re-checked only so")
    check.add_argument("--workers", type=int, default=1, metavar="N",
                       help="processes that share the check of --certificate (default 1)")
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
    if args.certificate is not None and len(args.names) != 1:
        raise BadInput("--certificate: name the one result it is a certificate of")
    if not 1 <= args.workers <= MOST_CHECK_WORKERS:
        raise BadInput(f"--workers must be between 1 and {MOST_CHECK_WORKERS}, got {args.workers}")
    chosen = [known[name] for name in args.names] or [r for r in RESULTS if r.size is Size.SMALL
                                                      or r.size is Size.LARGE and not args.small]
    passed_over = [] if args.names else [r for r in RESULTS if r not in chosen and r.size is Size.HUGE]
    out = None if args.json else console()
    checks = []
    for result in chosen:
        report = check(result, args.certificate, args.workers)
        checks.append(report)
        if out is not None:
            verdict = "holds" if report.holds else f"DOES NOT HOLD: {report.problem}"
            out.print(f"{report.name}: {verdict} ({report.seconds:.1f} s)")
            for line in report.checks:
                out.print(f"  {line}")
    for result in passed_over:
        if out is not None:
            out.print(f"{result.name}: not re-checked here ({result.note}): `gameproof results check {result.name} "
                      "--certificate FILE` checks a certificate of it", markup=False)
    if args.json:
        print_json({"holds": all(c.holds for c in checks),
                    "results": [{"name": c.name, "holds": c.holds, "checks": c.checks, "problem": c.problem,
                                 "seconds": round(c.seconds, 3)} for c in checks],
                    "not_rechecked": [result.name for result in passed_over]})
    return 0 if all(c.holds for c in checks) else 1
