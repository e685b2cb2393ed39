"""Questions for a SAT solver: :func:`reach` (is a position where a predicate holds reachable?) and :func:`check`
(a Kani-style harness: verify() and cover() properties)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gameproof.answers import Status
from gameproof.api.positions import Game, Position, checked_position
from gameproof.api.running import check_timeout
from gameproof.framework.reach import ReachResult, solve_reach
from gameproof.logic.drat import ProofCheck
from gameproof.logic.harness import Outcome, Report, check_harness, load_harness
from gameproof.logic.solvers import DEFAULT_SOLVER

Predicate = Callable[..., Any]


@dataclass(frozen=True)
class ReachReport:
    """What :func:`reach` found: a game that ends where the predicate holds (sat), none (unsat), or no answer in
    time (unknown)."""

    status: Status
    """sat, unsat or unknown."""
    moves: list[str] | None
    """The witness's moves by name (sat only), replayed on the concrete engine."""
    final: Position | None
    """The position the witness ends at (sat only)."""
    choices: dict[str, int]
    """The values the predicate chose with ``any_uint`` (sat only)."""
    proof: ProofCheck | None
    """The DRAT proof written of an unsat answer, and its checker's verdict (with ``proof=``)."""
    found: ReachResult = field(repr=False, compare=False)
    """The engine's own answer, with the formula's size and times."""

    def to_json(self) -> dict[str, Any]:
        """The document ``gameproof reach --json`` prints."""
        return self.found.to_json()


def reach(start: Game | Position, where: Predicate | str, plies: int, *, parameters: dict[str, int] | None = None,
          solver: str = DEFAULT_SOLVER, timeout: float | None = None, proof: str | Path | None = None,
          dimacs: str | Path | None = None) -> ReachReport:
    """Is a position where `where` holds reachable within `plies` moves from `start` (a game's start, or a position)?
    The rules traced into SAT, as ``gameproof reach``: `where` is a predicate ``where(*words, to_move)`` in the style
    of the rules (or ``"FILE.py::NAME"``), given `parameters` as keyword arguments. Status unknown when `timeout`
    seconds pass first; `proof` writes and checks a DRAT proof of an unsat answer, `dimacs` the formula."""
    check_timeout(timeout)
    game = start if isinstance(start, Game) else checked_position(start, "reach").game
    state = None if isinstance(start, Game) else start.state
    begins = None if state is None or (state.root is None and not state.history) else (state.words, state.to_move)
    predicate = load_harness(where) if isinstance(where, str) else where
    found = solve_reach(game.framework, plies, predicate, solver, timeout, dimacs, proof, parameters, begins)
    final = None if found.final is None else game.wrap(found.final)
    return ReachReport(found.status, found.moves, final, found.to_json()["choices"], found.proof, found)


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check` found for a harness: its worst property's outcome, and every property's."""

    outcome: Outcome
    """The worst property's outcome (verified, a counterexample, a witness, vacuous, unknown...)."""
    message: str
    """That outcome in a sentence."""
    inputs: dict[str, int] | None
    """The inputs of the counterexample or witness found, replayed on plain ints."""
    proof: ProofCheck | None
    """The DRAT proof written (with ``proof=``), and its checker's verdict."""
    report: Report = field(repr=False, compare=False)
    """The engine's own report: each property, the formula's size and times."""
    solver: str = DEFAULT_SOLVER
    """The SAT solver that answered."""

    def to_json(self) -> dict[str, Any]:
        """The document ``gameproof check --json`` prints (without ``playback``)."""
        return self.report.to_json() | {"solver": self.solver}


def check(harness: Callable[[], Any] | str, *, solver: str | None = None, timeout: float | None = None,
          proof: str | Path | None = None, dimacs: str | Path | None = None) -> CheckReport:
    """Check a harness, as ``gameproof check``: a function (or ``"FILE.py::FUNCTION"``) that makes symbolic inputs
    with ``any_uint``, restricts them with ``assume`` and states ``verify``/``cover`` properties
    (:mod:`gameproof.logic`). Outcome unknown when `timeout` seconds pass first, tracing included; `proof` writes
    and checks a DRAT proof where nothing is found, `dimacs` the formula. BadInput for a harness that cannot run."""
    check_timeout(timeout)
    report, chosen = check_harness(harness, solver, timeout, dimacs, proof)
    return CheckReport(report.outcome, report.message, report.inputs, report.proof, report, chosen)
