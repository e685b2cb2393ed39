"""`gameproof certificate check FILE`: verify a certificate of a game value with the game's rules alone.

Certificates are written by `gameproof solve GAME --certificate FILE`. The checker replays the game's
plain-Python rules on every position of the file (nothing of the search that built it) and reports the
value it proves for the side to move at the root. A certificate of a point of Othello's mobility curve
(`gameproof othello mobility P --certificate FILE`) is checked by replaying its witness and counting every
game again on the rules (gameproof.certify.mobility_check).

Exit codes: 0 accepted, 1 rejected (the position where the proof fails is named), 2 a file that cannot
be read as a certificate, or names an unknown game.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gameproof.commands._files import Artefact, add_output
from gameproof.commands._output import exit_codes, output_file
from gameproof.commands._search import status_line
from gameproof.errors import BadInput

if TYPE_CHECKING:
    from gameproof.certify.check import Report
    from gameproof.framework.state import RulesState
    from gameproof.search.certificate import Certificate

EXIT_REJECTED = 1
MOST_CHECK_WORKERS = 64


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("certificate", help="check a certificate of a game value (written by solve --certificate)",
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="certificate_command", required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="verify a certificate with the game's rules alone",
                           description="Verify a certificate with the game's plain-Python rules: every claimant "
                           "move legal, every reply covered, every leaf a proper end, the root the claimed position.",
                           epilog=exit_codes("accepted: the value is proven", "rejected (the position and the reason "
                                             "are named)", bad_input="an unreadable or malformed file (one line on "
                                             "stderr)"))
    check.add_argument("file", metavar="FILE", help="a certificate written by `gameproof solve GAME --certificate FILE` "
                       "(or `gameproof othello mobility P --certificate FILE`)")
    check.add_argument("--rules", metavar="FILE", help="where the rules file of a game loaded from a file is now "
                       "(by default the path the certificate gives; it must hold what it held then)")
    check.add_argument("--workers", type=int, default=1, metavar="N",
                       help="share the check of each part of 262,144 positions or more among N processes "
                       f"(default 1; at most {MOST_CHECK_WORKERS})")
    check.add_argument("--every-image", action="store_true",
                       help="check each symmetric image of each position too, for a built-in game as for a game "
                       "from a file (where it is always done): no declared symmetry trusted (about as many times "
                       "slower as a position has images)")
    check.add_argument("--json", action="store_true", help="one JSON document on stdout")
    check.add_argument("--quiet", action="store_true", help="no progress display")
    check.set_defaults(handler=run_check)


def certificate_argument(parser: argparse.ArgumentParser) -> None:
    add_output(parser, "--certificate", writes=Artefact.CERTIFICATE, metavar="FILE", type=output_file,
               help="also write a certificate of the value (gzip), for `gameproof certificate check FILE`; a "
               "certificate of another game or position there is refused unless --force")


def refuse_another_question(path: str, state: RulesState, force: bool) -> None:
    """BadInput, unless `force`, when the file at `path` is a certificate of another game or position than
    `state`'s (writing there would lose that answer; one of the same question may be replaced)."""
    from pathlib import Path

    from gameproof.certify.records import CertificateReader

    if force or not Path(path).is_file() or Path(path).stat().st_size == 0:
        return
    with CertificateReader(path) as reader:
        header = reader.header
    if (header.game, header.position, header.moves) != (state.game.name, state.root, tuple(state.history)):
        played = printable(header.played)
        theirs = f"after {played or '(start)'}" if header.position is None else (
            "at a position given" + (f" then {played}" if played else ""))
        raise BadInput(f"--certificate {path} is a certificate of {printable(header.game)} {theirs}, not of "
                       f"{state.game.name} ({state.described()}): give another file, or --force to replace it")


def run_check(args: argparse.Namespace) -> int:
    from gameproof.certify.check import check_certificate
    from gameproof.certify.distance_check import read_distance_document
    from gameproof.certify.mobility_check import read_mobility_document

    if not 1 <= args.workers <= MOST_CHECK_WORKERS:
        raise BadInput(f"--workers must be between 1 and {MOST_CHECK_WORKERS}, got {args.workers}")
    distance = read_distance_document(args.file)
    if distance is not None:
        return _check_distance(args, distance)
    mobility = read_mobility_document(args.file)
    if mobility is not None:
        return _check_mobility(args, mobility)
    with status_line(args.quiet or args.json, "checking the certificate") as show:
        def progress(checked: int, total: int) -> None:
            if show is not None:
                show(f"checked {checked:,} of {total:,} positions")

        report = check_certificate(args.file, progress, args.rules, args.workers,
                                   every_image=True if args.every_image else None)
    if args.json:
        from gameproof.commands._output import print_json

        print_json(report.to_json())
    else:
        _print_report(report, args.rules)
    return 0 if report.accepted else EXIT_REJECTED


def _check_distance(args: argparse.Namespace, document: dict[str, Any]) -> int:
    """`certificate check` of a distance certificate: the rules file it names must hold what it held (its sha256)."""
    from gameproof.certify.distance_check import check_distance_document

    game = str(document.get("game", ""))
    report = check_distance_document(args.file, document, args.rules)
    verdict = {"certificate": args.file, "game": game, "accepted": report.accepted, "value": report.value,
               "distance": report.plies, "records": report.records, "finding": report.finding}
    if args.json:
        from gameproof.commands._output import print_json

        print_json(verdict)
    else:
        from gameproof.commands._output import console

        out = console()
        if report.accepted:
            out.print(f"[bold green]ACCEPTED[/]: {_shown(game)}: {report.value} in {report.plies} plies for the side to "
                      f"move ({report.records:,} records)")
        else:
            out.print(f"[bold red]REJECTED[/]: {_shown(str(report.finding))}", soft_wrap=True)
    return 0 if report.accepted else EXIT_REJECTED


def _check_mobility(args: argparse.Namespace, document: dict[str, Any]) -> int:
    """`certificate check` of an Othello mobility certificate: its witness replayed and every game counted again by
    the independent checker, on `--workers` processes."""
    from gameproof.certify.mobility_check import check_mobility_document

    with status_line(args.quiet or args.json, "counting every game again") as show:
        counted = check_mobility_document(args.file, document, args.workers, show)
    claimed = document["most_legal_moves"]
    accepted = counted.holds(claimed)
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"certificate": args.file, "game": "othello", "accepted": accepted, "plies": counted.plies,
                    "claimed": claimed, "most_legal_moves": counted.most, "witness_reaches": counted.witness_reaches,
                    "positions": counted.positions, "seconds": round(counted.seconds, 3)})
    else:
        from gameproof.commands._output import console

        said = f"the most legal moves after exactly {counted.plies} moves"
        if accepted:
            console().print(f"[bold green]ACCEPTED[/]: othello: {said} is {claimed} (every game counted again, "
                            f"{counted.positions:,} positions a move before the end; the witness reaches them; "
                            f"{counted.seconds:.1f} s)")
        else:
            found = "" if counted.witness_reaches else "; the witness does not reach the claimed count"
            console().print(f"[bold red]REJECTED[/]: othello: {said} is {counted.most}, not {claimed}{found}")
    return 0 if accepted else EXIT_REJECTED


def _print_report(report: Report, rules_at: str | None) -> None:
    """The report for people; `rules_at`: where the rules file of a game loaded from a file was read (--rules), if
    not where the certificate says."""
    from gameproof.commands._output import console

    out = console()
    names = report.names
    where = f"after {_shown(report.played) or '(start)'}" if report.position is None else (
        f"at position {_shown(report.position)}" + (f" then {_shown(report.played)}" if report.played else ""))
    out.print(f"certificate {_shown(report.path)}: {_shown(report.game)} {where}",
              soft_wrap=True)
    rules = report.header.rules_file
    if rules is not None:
        moved = ("" if rules_at in (None, rules.path)
                 else f" (given by --rules; the certificate names {_shown(rules.path)})")
        out.print(f"  rules: {_shown(rules_at or rules.path)}{moved}, whose content has the certificate's sha256 "
                  f"{rules.sha256}", soft_wrap=True)
    for part in report.parts:
        out.print(f"  part: {names[part.part.claimant]} {report.header.part_claim(part.part)}: {part.checked:,} of "
                  f"{part.part.nodes:,} positions "
                  f"checked in {part.seconds:.2f} s")
    if report.finding is None:
        out.print(f"[bold green]ACCEPTED[/]: {report.header.claim(report.to_move, report.value)} for "
                  f"{names[report.to_move]} (to move), "
                  f"checked in {report.seconds:.2f} s")
        return
    out.print(f"[bold red]REJECTED[/]: {_shown(report.finding.message)}", soft_wrap=True)
    if report.finding.board is not None:
        out.print(report.finding.board, markup=False)
        out.print(f"position: {report.finding.position}", markup=False)


def printable(text: str) -> str:
    """``text`` (from a file, or naming one) with every character that is not printable (ANSI escapes, line
    breaks, lone surrogates) written as its Python escape, so that it prints as one line of its own text."""
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in text)


def _shown(text: str) -> str:
    """``text`` from a file :func:`printable`, and its rich markup escaped."""
    from rich.markup import escape

    return escape(printable(text))


def describe_certificate(path: str, certificate: Certificate, size: int) -> dict[str, Any]:
    """What `solve --certificate` wrote, for its output."""
    return {"path": path, "value": certificate.header.value.value, "nodes": certificate.nodes, "bytes": size,
            **({} if certificate.header.threshold is None else {"score_threshold": certificate.header.threshold}),
            "parts": [part.to_json() for part, _ in certificate.parts], "seconds": round(certificate.seconds, 3)}
