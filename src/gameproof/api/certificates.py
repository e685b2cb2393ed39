"""Certificates: files that prove a position's value (or exact score, or distance to the end), written by
:func:`write_certificate` and checked by :func:`check_certificate` with the game's plain-Python rules alone."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameproof.answers import Value
from gameproof.api.positions import Position, checked_position
from gameproof.api.results import JsonResult, ProgressCallback
from gameproof.api.running import Reporter, limited, options_for
from gameproof.errors import BadInput
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options


@dataclass(frozen=True)
class Certificate(JsonResult):
    """A certificate written by :func:`write_certificate`: of what, and how large."""

    path: str
    game: str
    position: str
    """The position certified, as text."""
    value: Value
    """Its value for the side to move."""
    score: int | None
    """The exact score certified (a certificate of a score), else None."""
    distance: int | None
    """The plies to the end certified (a certificate of a distance), else None."""
    records: int
    """Positions (or records, for a distance) the file holds."""
    bytes: int
    seconds: float
    """Seconds of work, compiling not counted."""
    compile_seconds: float


def write_certificate(position: Position, path: str | Path, *, score: bool = False, distance: bool = False,
                      tt_mb: float = 128.0, timeout: float | None = None,
                      progress: ProgressCallback | None = None) -> Certificate:
    """Write to `path` a certificate of `position`'s value for the side to move (as ``gameproof solve
    --certificate``): df-pn's proof, every position of it, for :func:`check_certificate` to re-check with the rules
    alone; with `score`, of its exact score (a game that declares one), with `distance`, of the plies to the end (a
    won or lost position). Unknown when `timeout` seconds of searching pass first; `progress` is told the positions
    written now and then. BadInput for a position that is over, or that no certificate can be built for."""
    if score and distance:
        raise BadInput("a certificate proves one thing: ask for score or for distance, not both")
    state = checked_position(position, "write_certificate").state.copy()
    source = position.game.source
    options = options_for(state.game, tt_mb)
    report = Reporter(progress)
    with limited(timeout) as timing:
        if distance:
            found = _write_distance(state, source, path, options, report)
        else:
            found = _write_value(state, source, path, options, score, report)
    return Certificate(str(path), state.game.name, state.position, **found, seconds=timing.seconds,
                       compile_seconds=timing.compile_seconds)


def _write_value(state: RulesState, source: str, path: str | Path, options: Options, score: bool,
                 report: Reporter) -> dict[str, Any]:
    """Write the certificate of `state`'s value, or of its exact score where `score`, by df-pn: the fields of its
    :class:`Certificate` that say what it proves and how large it is."""
    from gameproof.search.certificate import check_certifiable, write_value_certificate
    from gameproof.search.dfpn import Search

    check_certifiable(state, source)  # before any search
    game = state.game
    if score:
        from gameproof.search.score import exact_score, score_search

        exact = exact_score(state, options, with_moves=False, progress=report.counting("score: df-pn nodes")).score
        search = score_search(state, exact, options)
    else:
        exact = None
        search = Search(game.kernels, game.tables, game.max_plies, game.max_moves, options, game.max_positions)
    certificate, size = write_value_certificate(path, state, search, source=source, expect=None if exact is None
                                                else Value.DRAW, progress=report.counting("certificate positions"))
    value = certificate.header.value if exact is None else Value.of_score(exact)
    return {"value": value, "score": exact, "distance": None, "records": certificate.nodes, "bytes": size}


def _write_distance(state: RulesState, source: str, path: str | Path, options: Options,
                    report: Reporter) -> dict[str, Any]:
    """Write the certificate of `state`'s distance to the end: the fields of its :class:`Certificate`."""
    from gameproof.search.distance_certificate import write_distance_certificate

    document, written = write_distance_certificate(state, source, path, options,
                                                   report.counting("distance certificate records"))
    return {"value": Value(document["value"]), "score": None, "distance": document["plies"],
            "records": written["records"], "bytes": written["bytes"]}


@dataclass(frozen=True)
class CertificateCheck(JsonResult):
    """The verdict of :func:`check_certificate`: accepted, and what it proves; or where the proof fails."""

    path: str
    game: str
    accepted: bool
    proves: str | None
    """What it proves for the side to move at its position, in words: ``win``, ``score = -10``, ``loss in 5 plies``
    (None where rejected)."""
    value: Value | None
    """The value proven for the side to move (for a certificate of a score: of the game whose result is that side's
    score against `score_threshold`)."""
    score_threshold: int | None
    """For a certificate of a score: the first player's score it is measured against (see docs/certificates.md)."""
    distance: int | None
    """For a certificate of a distance: the plies to the end proven."""
    finding: str | None
    """Why it was rejected, naming the position where the proof fails (None where accepted)."""
    seconds: float


def check_certificate(path: str | Path, *, rules: str | Path | None = None, workers: int = 1,
                      every_image: bool | None = None, progress: ProgressCallback | None = None) -> CertificateCheck:
    """Check the certificate at `path` with the game's plain-Python rules alone (as ``gameproof certificate
    check``): every move of the claimant legal, every reply covered, every end as claimed. `rules`: where the rules
    file of a game loaded from a file is now, if it moved; `workers` processes share a large certificate's check;
    `every_image`: check each symmetric image of each position too (by default only for a game from a file).
    BadInput for a file that is not a readable certificate, or whose game does not load."""
    from gameproof.certify.check import check_certificate as check_value
    from gameproof.certify.distance_check import check_distance_document, read_distance_document

    began = time.perf_counter()
    where = str(path)
    rules_at = None if rules is None else str(rules)
    document = read_distance_document(where)
    if document is not None:
        found = check_distance_document(where, document, rules_at)
        proves = f"{found.value} in {found.plies} plies" if found.accepted else None
        return CertificateCheck(where, str(document.get("game", "")), found.accepted, proves, found.value, None,
                                found.plies, found.finding, time.perf_counter() - began)
    if workers < 1:
        raise BadInput(f"workers must be at least 1, not {workers}")
    report = Reporter(progress)
    checked = check_value(where, lambda done, total: report(done, total, "positions checked"), rules_at, workers,
                          every_image=every_image)
    proves = None if checked.value is None or checked.to_move is None else checked.header.claim(checked.to_move,
                                                                                                checked.value)
    finding = None if checked.finding is None else checked.finding.message
    return CertificateCheck(where, checked.game, checked.accepted, proves, checked.value, checked.header.threshold,
                            None, finding, checked.seconds)
