"""Kani-style harnesses: plain Python functions that call ``any_uint``, ``assume``, ``verify`` and ``cover``.

Run under a symbolic context (:func:`check`), a harness builds a circuit: ``any_uint`` returns a fresh
:class:`~gameproof.logic.words.Word`, and each ``verify``/``cover`` becomes a SAT query under the
assumptions made before it. Run under a concrete context (:func:`replay`), the same function gets plain
ints, so every witness the solver finds is confirmed on ordinary Python before it is reported.

:func:`check` refuses a harness that checks nothing: one that reaches no ``verify``/``cover`` whose condition
is symbolic (built from its inputs, not a plain Python bool worked out without them) is reported as an
error, not "verified". A condition that is None (a helper that returned nothing) is refused when tracing.
"""

from __future__ import annotations

import contextvars
import enum
import inspect
import math
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gameproof.errors import BadInput
from gameproof.loading import import_file
from gameproof.logic.circuit import FALSE, TRUE, Circuit
from gameproof.logic.cnf import Cnf
from gameproof.logic.tseitin import Encoding, tseitin
from gameproof.logic.dimacs import write_dimacs
from gameproof.logic.drat import ProofCheck, check_drat, find_drat_trim, proof_json
from gameproof.logic.natural import guard, guarded_namespace
from gameproof.logic.simplify import propagate_units
from gameproof.logic.solvers import DEFAULT_SOLVER, Solver, open_solver, resolve
from gameproof.logic.untraceable import Untraceable, function_site, voided_by_refusals
from gameproof.logic.words import Bit, Word

Harness = Callable[[], Any]


class Outcome(enum.IntEnum):
    """What a check found, from best to worst; a harness reports the worst of its properties.

    As in Kani, a ``cover`` that a witness satisfies is a success and one that nothing can satisfy is the
    finding; a ``verify`` is the other way round.
    """

    VERIFIED = 0  # verify(): no input breaks it
    SATISFIED = 1  # cover(): a witness satisfies it
    UNSATISFIABLE = 2  # cover(): no input satisfies it
    COUNTEREXAMPLE = 3  # verify(): an input breaks it
    VACUOUS = 4  # the assumptions before the property can never hold
    UNKNOWN = 5  # the time budget ran out
    ERROR = 6  # the harness failed, or a witness did not replay

    @property
    def label(self) -> str:
        """The lower-case name used in JSON."""
        return self.name.lower()

    @property
    def witnessed(self) -> bool:
        """The solver found inputs that break a verify or satisfy a cover (replayed on plain ints)."""
        return self in (Outcome.SATISFIED, Outcome.COUNTEREXAMPLE)

    @property
    def refuted(self) -> bool:
        """The solver proved that no input breaks the verify or satisfies the cover (what a DRAT proof shows)."""
        return self in (Outcome.VERIFIED, Outcome.UNSATISFIABLE, Outcome.VACUOUS)


EXIT_CODES = {Outcome.VERIFIED: 0, Outcome.SATISFIED: 0, Outcome.UNSATISFIABLE: 1, Outcome.COUNTEREXAMPLE: 1,
              Outcome.VACUOUS: 1, Outcome.UNKNOWN: 3, Outcome.ERROR: 2}


class Kind(enum.StrEnum):
    """What a property asks the solver for."""

    VERIFY = "verify"  # inputs that make the condition false
    COVER = "cover"  # inputs that make the condition true

    def answer(self, found: bool) -> Outcome:
        """The outcome when the solver found such inputs (replayed), or proved there are none."""
        if self is Kind.COVER:
            return Outcome.SATISFIED if found else Outcome.UNSATISFIABLE
        return Outcome.COUNTEREXAMPLE if found else Outcome.VERIFIED


# --- contexts ------------------------------------------------------------------------------------


@dataclass
class _Property:
    kind: Kind
    message: str
    cond: int  # circuit literal
    assumed: int  # conjunction of the assumptions made before it
    symbolic: bool  # the condition was a Bit (not a plain Python bool worked out without the inputs)


@dataclass
class _Symbolic:
    circuit: Circuit = field(default_factory=Circuit)
    inputs: dict[str, Word | Bit] = field(default_factory=dict)
    properties: list[_Property] = field(default_factory=list)
    assumed: int = TRUE

    def fresh(self, name: str, width: int | None) -> Word | Bit:
        if width is None:
            value: Word | Bit = Bit(self.circuit, self.circuit.new_input())
        else:
            value = Word(self.circuit, [self.circuit.new_input() for _ in range(width)])
        self.inputs[name] = value
        return value

    def condition(self, cond: object, what: str) -> int:
        if isinstance(cond, Bit):
            return cond.lit
        if isinstance(cond, Word):
            raise TypeError(f"{what} needs a condition, got a Word: compare it, e.g. `x != 0`")
        if not isinstance(cond, int):  # None (a function that returned nothing), a string, a list...
            raise Untraceable(f"{what}({type(cond).__name__})", "a condition is a Bit (a comparison of "
                              "words, say) or a bool; did a function return nothing?")
        return TRUE if cond else FALSE

    def assume(self, cond: object) -> None:
        self.assumed = self.circuit.and_(self.assumed, self.condition(cond, "assume"))

    def check(self, kind: Kind, cond: object, message: str) -> None:
        lit = self.condition(cond, kind)
        self.properties.append(_Property(kind, message, lit, self.assumed, isinstance(cond, Bit)))


class _AssumptionFailed(Exception):
    """Stops a concrete replay whose inputs violate an assumption."""


@dataclass
class Event:
    """One ``verify`` or ``cover`` reached during a concrete replay."""

    kind: Kind
    message: str
    holds: bool

    @property
    def is_finding(self) -> bool:
        """What the solver searched for: a failed verify, or a satisfied cover."""
        return self.holds if self.kind is Kind.COVER else not self.holds


@dataclass
class _Concrete:
    values: Mapping[str, int]
    events: list[Event] = field(default_factory=list)

    def fresh(self, name: str, width: int | None) -> int | bool:
        value = int(self.values.get(name, 0))
        return bool(value & 1) if width is None else value & ((1 << width) - 1)

    def assume(self, cond: object) -> None:
        if not cond:
            raise _AssumptionFailed

    def check(self, kind: Kind, cond: object, message: str) -> None:
        holds = cond.value if isinstance(cond, Bit) else bool(cond)  # a constant Bit, from a reach predicate
        self.events.append(Event(kind, message, bool(holds)))


_context: contextvars.ContextVar[_Symbolic | _Concrete | None] = contextvars.ContextVar("harness", default=None)
_names: contextvars.ContextVar[set[str]] = contextvars.ContextVar("names")


def _active() -> _Symbolic | _Concrete:
    context = _context.get()
    if context is None:
        raise RuntimeError("harness functions run under `gameproof check` (logic.check) or logic.replay")
    return context


def _name(name: str | None) -> str:
    taken = _names.get()
    name = name or f"input{len(taken)}"
    if name in taken:
        raise ValueError(f"two inputs are named {name!r}")
    taken.add(name)
    return name


def any_uint(width: int, name: str | None = None) -> Any:
    """A free unsigned input of ``width`` bits: a symbolic Word when checking, an int when replaying."""
    if width < 1:
        raise ValueError("any_uint needs a width of at least 1")
    return _active().fresh(_name(name), width)


def any_bool(name: str | None = None) -> Any:
    """A free Boolean input: a symbolic Bit when checking, a bool when replaying."""
    return _active().fresh(_name(name), None)


def assume(cond: object) -> None:
    """Only consider inputs for which ``cond`` holds (from here on)."""
    _active().assume(cond)


def verify(cond: object, message: str = "") -> None:
    """Search for inputs, meeting the assumptions so far, that make ``cond`` false."""
    _active().check(Kind.VERIFY, cond, message or Kind.VERIFY.value)


def cover(cond: object, message: str = "") -> None:
    """Search for inputs, meeting the assumptions so far, that make ``cond`` true."""
    _active().check(Kind.COVER, cond, message or Kind.COVER.value)


def _run(harness: Harness, context: _Symbolic | _Concrete) -> None:
    token, names = _context.set(context), _names.set(set())
    try:
        harness()
    finally:
        _context.reset(token)
        _names.reset(names)


def replay(harness: Harness, inputs: Mapping[str, int]) -> list[Event]:
    """Run ``harness`` on plain ints; the verify/cover events reached while the assumptions held."""
    context = _Concrete(inputs)
    try:
        _run(harness, context)
    except _AssumptionFailed:
        pass
    return context.events


# --- checking ------------------------------------------------------------------------------------


@dataclass
class PropertyResult:
    """The answer for one ``verify`` or ``cover``."""

    kind: Kind
    message: str
    outcome: Outcome
    inputs: dict[str, int] | None = None
    detail: str = ""  # why an ERROR happened


@dataclass
class Report:
    """The answer for a whole harness."""

    outcome: Outcome
    message: str
    inputs: dict[str, int] | None
    properties: list[PropertyResult]
    variables: int = 0
    clauses: int = 0
    gates: int = 0
    encode_seconds: float = 0.0
    solve_seconds: float = 0.0
    finding_index: int | None = None  # which property the reported inputs belong to
    proof: ProofCheck | None = None  # the DRAT proof written, and its check

    def to_json(self) -> dict[str, Any]:
        """The JSON document of ``gameproof check --json``."""
        return {
            "status": self.outcome.label,
            "message": self.message,
            "inputs": self.inputs,
            "variables": self.variables,
            "clauses": self.clauses,
            "gates": self.gates,
            "encode_seconds": round(self.encode_seconds, 6),
            "solve_seconds": round(self.solve_seconds, 6),
            **proof_json(self.proof),
            "properties": [
                {"kind": p.kind.value, "message": p.message, "status": p.outcome.label, "inputs": p.inputs}
                for p in self.properties
            ],
        }


@dataclass
class Traced:
    """A harness traced into a circuit, simplified and encoded: what to solve, and how to read answers."""

    properties: list[_Property]
    encoding: Encoding
    inputs: dict[str, tuple[int, ...]]  # each named input's bits as literals of the encoded circuit
    findings: list[int]  # per property: literal true exactly on a finding
    assumed: list[int]  # per property: the assumptions before it
    any_finding: int

    @property
    def cnf(self) -> Cnf:
        """The clauses (property queries are assumptions; see :meth:`export_units`)."""
        return self.encoding.cnf

    def export_units(self) -> list[int]:
        """Unit clauses that turn the CNF into "some property has a finding"."""
        return [self.encoding.lit(self.any_finding)]

    def finding_formula(self) -> Cnf:
        """The CNF with :meth:`export_units` added: satisfiable exactly when some property has a finding."""
        formula = Cnf(self.cnf.num_vars)
        for clause in [*self.cnf.clauses(), *([unit] for unit in self.export_units())]:
            formula.add_clause(clause)
        return formula

    def decode(self, model: set[int]) -> dict[str, int]:
        """Every named input's value under a model."""
        value = self.encoding.value
        return {name: sum(1 << i for i, lit in enumerate(bits) if value(model, lit))
                for name, bits in self.inputs.items()}


def trace(harness: Harness) -> Traced:
    """Run ``harness`` symbolically and encode every property query into one CNF.

    Inputs fixed outright by the assumptions that every property shares (those before the first
    ``verify``/``cover``) become constants before encoding.
    """
    symbolic = _Symbolic()
    with voided_by_refusals():
        _run(harness, symbolic)
    circuit, props = symbolic.circuit, symbolic.properties
    findings = [circuit.and_(p.assumed, p.cond if p.kind is Kind.COVER else p.cond ^ 1) for p in props]
    any_finding = circuit.or_all(findings)
    circuit, mapping = propagate_units(circuit, props[0].assumed if props else TRUE)

    def move(lit: int) -> int:
        return mapping[lit >> 1] ^ (lit & 1)

    findings, assumed, any_finding = [move(f) for f in findings], [move(p.assumed) for p in props], move(any_finding)
    roots = findings + assumed + [any_finding]
    encoding = tseitin(circuit, roots)
    for lit in roots:  # constant roots get their variable now, before any solver copies the clauses
        encoding.lit(lit)
    inputs = {name: tuple(move(lit) for lit in ((s.lit,) if isinstance(s, Bit) else s.bits))
              for name, s in symbolic.inputs.items()}
    return Traced(props, encoding, inputs, findings, assumed, any_finding)


def _require_checks(harness: Harness, props: list[_Property]) -> None:
    """Untraceable unless some verify()/cover() got a symbolic condition: otherwise the harness checks nothing."""
    if not props:
        raise Untraceable(f"harness {getattr(harness, '__name__', '?')!r}", "it reached no verify() or cover(), so it "
                          "checks nothing", function_site(harness))
    if not any(p.symbolic for p in props):
        raise Untraceable(f"harness {getattr(harness, '__name__', '?')!r}", "no verify() or cover() it reached was "
                          "given a symbolic condition (each got a plain Python bool, worked out without its inputs), "
                          "so it checks nothing", function_site(harness))


def check(harness: Harness, solver: str = DEFAULT_SOLVER, seconds: float | None = None,
          dimacs: str | Path | None = None, proof: str | Path | None = None) -> Report:
    """Check every property of ``harness``; witnesses are replayed concretely before they are reported.

    ``dimacs`` receives the formula "some property has a finding" (satisfiable exactly when some
    verify() fails or some cover() is satisfied); ``proof`` receives a DRAT refutation of that formula
    when it is unsatisfiable, checked by :func:`~gameproof.logic.drat.check_drat` (``Report.proof``).
    """
    if proof is not None:
        find_drat_trim()  # a checker named but missing fails before solving
    harness = guard(harness)
    started = time.perf_counter()
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        with _time_limit(seconds):
            traced = trace(harness)
        _require_checks(harness, traced.properties)
    except _TimeUp:
        return Report(Outcome.UNKNOWN, "time limit reached while tracing the harness", None, [])
    except Untraceable as error:
        return Report(Outcome.ERROR, f"cannot trace: {error}", None, [])
    except RecursionError:
        return Report(Outcome.ERROR, "cannot trace: recursion on a symbolic value is not traced (an `if` on a symbolic "
                      "condition runs both branches, so a recursive call under it never stops): recurse on plain "
                      "ints only", None, [])
    except (Exception, SystemExit) as error:  # the harness itself is broken (or exits): report it, do not crash
        return Report(Outcome.ERROR, f"harness failed while tracing: {type(error).__name__}: {error}", None, [])
    encode_seconds = time.perf_counter() - started
    if dimacs is not None:
        write_dimacs(traced.cnf, dimacs, comments=[f"gameproof check: {getattr(harness, '__name__', 'harness')}",
                                                   "satisfiable iff some verify() fails or cover() holds"],
                     extra_units=traced.export_units())
    results: list[PropertyResult] = []
    solve_started = time.perf_counter()
    with open_solver(solver) as sat:
        sat.add(traced.cnf)
        for index, prop in enumerate(traced.properties):
            results.append(_check_property(harness, traced, sat, index, prop, deadline))
    report = _summarise(results)
    if proof is not None and all(result.outcome.refuted for result in results):
        if _write_proof(traced, solver, proof, deadline):
            report.proof = check_drat(traced.finding_formula(), proof)
    report.variables, report.clauses = traced.cnf.num_vars, traced.cnf.num_clauses
    report.gates = traced.encoding.circuit.num_gates
    report.encode_seconds, report.solve_seconds = encode_seconds, time.perf_counter() - solve_started
    return report


class _TimeUp(BaseException):
    """Raised into a harness being traced when the time limit runs out (a BaseException, so that a harness's
    own ``except Exception`` does not swallow it)."""


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Interrupt the block with :class:`_TimeUp` after ``seconds`` (a SIGALRM timer; only in the main thread,
    where Python delivers signals; elsewhere, or without a limit, the block runs to its end)."""
    if seconds is None or not math.isfinite(seconds) or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise _TimeUp

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def _check_property(harness: Harness, traced: Traced, sat: Solver, index: int, prop: _Property,
                    deadline: float | None) -> PropertyResult:
    lit = traced.encoding.lit
    answer = sat.solve([lit(traced.findings[index])], _remaining(deadline))
    if answer is None:
        return PropertyResult(prop.kind, prop.message, Outcome.UNKNOWN)
    if answer:
        inputs = traced.decode(sat.model())
        try:
            events = replay(harness, inputs)
        except (Exception, SystemExit) as error:
            return PropertyResult(prop.kind, prop.message, Outcome.ERROR, inputs,
                                  f"replaying the witness on plain ints raised {type(error).__name__}: {error}")
        if len(events) <= index or not events[index].is_finding:
            return PropertyResult(prop.kind, prop.message, Outcome.ERROR, inputs,
                                  "the solver's witness does not replay on plain ints (symbolic words wrap "
                                  "modulo 2**width; Python ints do not)")
        return PropertyResult(prop.kind, prop.message, prop.kind.answer(found=True), inputs)
    feasible = sat.solve([lit(traced.assumed[index])], _remaining(deadline))
    if feasible is None:
        return PropertyResult(prop.kind, prop.message, Outcome.UNKNOWN)
    return PropertyResult(prop.kind, prop.message, prop.kind.answer(found=False) if feasible else Outcome.VACUOUS)


def _write_proof(traced: Traced, solver: str, path: str | Path, deadline: float | None) -> bool:
    """Refute "some property has a finding" with a proof-logging solver, into `path`; False on timeout."""
    with open_solver(solver, proof=True) as prover:
        prover.add(traced.finding_formula())
        if prover.solve((), _remaining(deadline)) is not False:
            return False
        prover.write_proof(path)
        return True


_SAYS = {
    Outcome.SATISFIED: "witness found",
    Outcome.UNSATISFIABLE: "no input that meets the assumptions before it satisfies it",
    Outcome.COUNTEREXAMPLE: "counterexample found",
    Outcome.VACUOUS: "the assumptions before it can never hold",
    Outcome.UNKNOWN: "time limit reached",
}


def _summarise(results: list[PropertyResult]) -> Report:
    """The harness's answer: its worst property, with that property's inputs."""
    worst = max(results, key=lambda r: r.outcome)
    index = results.index(worst)
    if worst.outcome is Outcome.VERIFIED:
        message = f"all {len(results)} properties hold"
    else:
        said = worst.detail if worst.outcome is Outcome.ERROR else _SAYS[worst.outcome]
        message = f"{worst.kind} {worst.message!r}: {said}"
    if worst.outcome is Outcome.SATISFIED and len(results) > 1:
        message += f"; all {len(results)} properties succeed"
    return Report(worst.outcome, message, worst.inputs, results,
                  finding_index=index if worst.inputs is not None else None)


# --- loading harness files -----------------------------------------------------------------------


def load_harness(spec: str) -> Harness:
    """The function named by ``FILE.py::FUNCTION``, from its module's :func:`guarded_namespace`; BadInput (one
    line) when it cannot be loaded."""
    path_text, sep, function = spec.rpartition("::")
    if not sep and spec.endswith(".py"):  # a file without its function: name the ones it has
        path_text, sep, function = spec, "::", ""
    if not sep or not path_text:
        raise BadInput(f"expected FILE.py::FUNCTION, got {spec!r}")
    module = import_file(path_text)
    harness = guarded_namespace(module).get(function) if function else None
    if not callable(harness):
        defined = sorted(name for name, value in vars(module).items() if inspect.isfunction(value)
                         and value.__module__ == module.__name__ and not name.startswith("_"))
        which = f"has no function {function!r}" if function else "names no function: give FILE.py::FUNCTION"
        raise BadInput(f"{path_text} {which}; its functions: {', '.join(defined) or 'none'}")
    return harness


def check_harness(harness: Harness | str, solver: str | None = None, seconds: float | None = None,
                  dimacs: str | Path | None = None, proof: str | Path | None = None) -> tuple[Report, str]:
    """:func:`check` of `harness` (a function, or ``FILE.py::FUNCTION`` for :func:`load_harness`) by the solver that
    `solver` names (by default :data:`DEFAULT_SOLVER`): the report, and the solver's own name. BadInput, one line,
    when that solver cannot log the proof asked for, or when the harness cannot run at all."""
    chosen = resolve(solver or DEFAULT_SOLVER)
    if proof is not None:
        open_solver(chosen, proof=True).close()  # fail now if this backend cannot log proofs
    function = load_harness(harness) if isinstance(harness, str) else harness
    report = check(function, solver=chosen, seconds=seconds, dimacs=dimacs, proof=proof)
    if report.outcome is Outcome.ERROR and not report.properties:
        raise BadInput(report.message)
    return report, chosen
