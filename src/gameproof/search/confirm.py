"""Answers of a search confirmed by certificates that the independent checker accepts.

A solve resumed from a journal's table, which anyone could have forged, is confirmed so; and so is a solve of
a game from a user's file that declares symmetries: the search's table merges positions by them, and only the
checker, which checks every image of every position it accepts, shows that none of them was false where the
answer relied on it (docs/trust.md, "What a certificate relies on").
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from gameproof.answers import to_mover
from gameproof.errors import BadInput
from gameproof.framework.declaration import RulesError
from gameproof.framework.registry import is_builtin
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options, Search
from gameproof.search.exact import Solution, final_value
from gameproof.search.tt import TranspositionTable

if TYPE_CHECKING:
    from gameproof.framework.game import Game
    from gameproof.search.certificate import Certificate


def relies_on_declared_symmetries(state: RulesState) -> bool:
    """Whether a solve of `state` merges positions by symmetries that no test of gameproof's checks: those a game
    from a user's file declares."""
    return declares_unchecked_symmetries(state.game)


def declares_unchecked_symmetries(game: Game) -> bool:
    """Whether `game` is a user file's that declares symmetries (which no test of gameproof's checks)."""
    return len(game.symmetries) > 1 and not is_builtin(game.spec)


def confirm_symmetries(state: RulesState, loading: str, solution: Solution, table: TranspositionTable | None,
                       options: Options, workers: int = 1, confirming: Callable[[str], None] | None = None) -> None:
    """Where :func:`relies_on_declared_symmetries`, confirm the solution by checked certificates: a RulesError, one
    line naming the symmetry and the position, where one is rejected (only rules that break what they declare
    make a solve's answer fail its proof). `table`: the solve's df-pn table (None: a fresh one); `loading`: the
    game as a checker loads it (``FILE.py:PARAMS``)."""
    if not relies_on_declared_symmetries(state):
        return
    game = state.game
    if game.spec.lookahead:
        raise BadInput(f"{game.name}: a game from a file that declares symmetries has its answers confirmed by "
                       "certificates, which cannot show what lookahead assumes: declare no symmetries, or no lookahead")
    why: list[str] = []
    certifying = table if table is not None else TranspositionTable(options.tt_mb, game.max_positions)
    if confirmed_by_certificates(state, loading, solution, certifying, options, workers, confirming, why.append) is None:
        reason = why[0] if why else "a certificate of the answer was rejected"
        named = re.search(r"the (declared )?symmetry ", reason)
        raise RulesError(f"{game.name}: the answer does not hold up: {reason[named.start():] if named else reason} "
                         "(a symmetry the game declares is false somewhere its proof goes: declare only symmetries "
                         "that its rules keep everywhere)")


def confirmed_by_certificates(state: RulesState, loading: str, solution: Solution, table: TranspositionTable,
                              options: Options, workers: int, confirming: Callable[[str], None] | None,
                              rejected: Callable[[str], None] = lambda why: None) -> tuple[str, Certificate] | None:
    """How the answer `solution` of a solve of `state` was confirmed, and the certificate of the position's value
    that did it: that certificate, and one of each distinct child's when the moves' values were asked, each
    accepted by the independent checker (on `workers` processes) with the value found; None when one is not, and
    `rejected` is told why. ``confirming`` is told now and then how far the certificates are.
    Children are told apart by their words, not by keys that merge them by symmetry (which may be what is false)."""
    from gameproof.certify.check import check_certificate
    from gameproof.certify.records import write_certificate
    from gameproof.search.certificate import certify, check_certifiable

    try:  # a game that no name loads (declared through the API, or after the first in its file) is given itself
        check_certifiable(state, loading)
        named = True
    except BadInput:
        named = False

    game = state.game
    search = Search(game.kernels, game.tables, game.max_plies, game.max_moves, replace(options, lanes=1, lane=1),
                    game.max_positions, table=table)
    claims = [(state, solution.value)]
    seen: set[tuple[tuple[int, ...], int]] = set()
    for move, value in solution.moves.items():
        child = state.copy()
        child.play(move)
        value = to_mover(value, child.to_move != state.to_move)  # the child's value for its side to move
        if child.is_over():
            if final_value(child) is not value:
                rejected(f"the game is over after {state.move_name(move)}, and its result is not the value found")
                return None
        elif (child.words, child.to_move) not in seen:
            seen.add((child.words, child.to_move))
            claims.append((child, value))
    root_certificate = None
    with tempfile.TemporaryDirectory(prefix="gameproof-confirm-") as folder:
        for index, (position, value) in enumerate(claims):
            which = f"confirming the answer: certificate {index + 1} of {len(claims)}"

            def built(positions: int, reproved: int) -> None:
                if confirming is not None:
                    confirming(f"{which}, {positions:,} positions written" + (f", {reproved:,} df-pn nodes proving "
                                                                               "again" if reproved else ""))

            def checked(done: int, total: int) -> None:
                if confirming is not None:
                    confirming(f"{which}, {done:,} of {total:,} positions checked")

            try:
                certificate = certify(position, search, built, source=loading, named=named)
            except RuntimeError as error:  # the table claims a proof that cannot be read back
                rejected(str(error))
                return None
            path = Path(folder) / f"{index}.cert"
            write_certificate(path, certificate.header, certificate.parts)
            report = check_certificate(str(path), checked, workers=workers, game=None if named else game)
            if not report.accepted or report.value is not value:
                rejected(f"{report.finding.message} (at {report.finding.position})"
                         if report.finding is not None and report.finding.position else
                         report.finding.message if report.finding is not None else
                         f"a checked certificate proves {report.value.value if report.value else 'no value'} "
                         f"({position.described()}), where the search found {value.value}")
                return None
            if index == 0:
                root_certificate = certificate
            else:
                certificate.close()  # its records, in temporary files, are not needed once checked
    return f"{len(claims)} certificate{'s' * (len(claims) > 1)} accepted by the independent checker", root_certificate
