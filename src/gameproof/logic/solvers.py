"""SAT solvers by name: PySAT's backends in process, and external DIMACS solvers on PATH.

``open_solver("cadical195")`` (the default; aliases such as ``cd19`` work too), ``open_solver("kissat")``,
``open_solver("ext:kissat")``, ``open_solver("race:kissat404,cadical195")`` (both at once, the first answer
wins), ``open_solver("cadical195/unsat")`` (CaDiCaL with its option set for refutations; see
`Configuration`). Every solver answers ``solve(assumptions, seconds)`` with True (satisfiable),
False (unsatisfiable) or None (the time ran out). Time limits on incremental PySAT backends are kept by
solving in conflict-budget slices (PySAT's CaDiCaL cannot be interrupted from another thread); one-shot
backends (Kissat, races, external binaries) run in child processes that are killed when the time is up.

Ctrl-C and SIGTERM end a solve as they end any other work of a command (:mod:`gameproof.interrupts`): PySAT
holds the GIL while it solves, so its calls are guarded by the native watchdog, and it is kept from catching
SIGINT itself (see :func:`_pysat_catches_sigint`).
"""

from __future__ import annotations

import enum
import functools
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pysolvers
from pysat._utils import MainThread
from pysat.solvers import NoSuchSolverError, SolverNames
from pysat.solvers import Solver as PysatSolver

from gameproof.errors import BadInput
from gameproof.forked import first_accepted
from gameproof.interrupts import guard_gil_holders, handled
from gameproof.logic.cnf import Cnf
from gameproof.atomic import atomic_output

DEFAULT_SOLVER = "cadical195"
Progress = Callable[[float, int], None]  # (elapsed seconds, conflicts so far or -1)
_ONE_SHOT = {"kissat404"}  # PySAT backends that cannot solve twice or take assumptions


class Configuration(enum.StrEnum):
    """A named option set of a configurable backend (CaDiCaL's ``--sat`` and ``--unsat``), chosen by a
    suffix: ``cadical195/unsat``."""

    SAT = "sat"  # stable mode only, cheaper elimination and subsumption
    UNSAT = "unsat"  # focused mode only, no local search

    @property
    def options(self) -> dict[str, int]:
        return _CONFIGURATION_OPTIONS[self]


_CONFIGURATION_OPTIONS = {
    Configuration.SAT: {"elimreleff": 10, "stabilizeonly": 1, "subsumereleff": 60},
    Configuration.UNSAT: {"stabilize": 0, "walk": 0},
}


def _pysat_catches_sigint() -> bool:
    """PySAT's test, at each call into its solvers and encoders, of whether to catch SIGINT itself for the call: in
    the main thread, but not where the command line handles signals. PySAT's handler jumps out of the solver and
    raises PySAT's own error (which a command would report as a failure, or read as an answer), and stays
    installed once it has jumped; there a SIGINT is taken as SIGTERM is, between two slices of a solve, or by the
    native watchdog (:func:`~gameproof.interrupts.guard_gil_holders`)."""
    return threading.current_thread() is threading.main_thread() and not handled()


MainThread.check = staticmethod(_pysat_catches_sigint)  # PySAT has no setting for it: its check, replaced


def _start_pysat(name: str, proof: bool = False) -> PysatSolver:
    """The PySAT solver for a canonical name, configured where the name asks for it."""
    backend, _, configuration = name.partition("/")
    solver = PysatSolver(name=backend, with_proof=proof)
    if configuration:
        solver.solver.configure(Configuration(configuration).options)
    return solver


class Solver:
    """A SAT solver holding a growing set of clauses."""

    name: str

    def add(self, cnf: Cnf) -> None:
        """Add every clause of ``cnf``."""
        raise NotImplementedError

    def solve(self, assumptions: Sequence[int] = (), seconds: float | None = None,
              progress: Progress | None = None) -> bool | None:
        """True if satisfiable under ``assumptions``, False if not, None if ``seconds`` ran out.

        ``progress(elapsed_seconds, conflicts)`` is called now and then while solving, where the
        backend allows it (conflicts are -1 when it does not report them).
        """
        raise NotImplementedError

    def model(self) -> set[int]:
        """The true literals of the last satisfying assignment."""
        raise NotImplementedError

    def statistics(self) -> dict[str, int]:
        """The backend's counters so far (conflicts, decisions, ...): empty where it keeps none."""
        return {}

    def write_proof(self, path: str | Path) -> None:
        """Write the DRAT proof of the last unsatisfiable answer (solve without assumptions), whole or not at
        all (:func:`~gameproof.atomic.atomic_output`)."""
        raise BadInput(f"solver {self.name} does not emit DRAT proofs; use {DEFAULT_SOLVER}")

    def close(self) -> None:
        """Release the solver."""

    def __enter__(self) -> Solver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class IncrementalSolver(Solver):
    """A PySAT backend kept in process: clauses and learned clauses persist between calls."""

    def __init__(self, name: str, proof: bool = False) -> None:
        self.name = name
        try:
            self._solver = _start_pysat(name, proof)
        except NotImplementedError as error:
            raise BadInput(f"solver {name}: {error}") from None
        self._proof = proof

    def add(self, cnf: Cnf) -> None:
        add = self._solver.add_clause
        for clause in cnf.clauses():
            add(clause)

    def solve(self, assumptions: Sequence[int] = (), seconds: float | None = None,
              progress: Progress | None = None) -> bool | None:
        guard_gil_holders()
        if seconds is None and progress is None:
            return self._solver.solve(assumptions=list(assumptions))
        # Solve in conflict-budget slices: between slices the time limit is checked, progress is
        # reported, and Ctrl-C (KeyboardInterrupt) gets through.
        began = time.monotonic()
        deadline = None if seconds is None else began + seconds
        budget = 1000
        while True:
            started = time.monotonic()
            if deadline is not None and started >= deadline:
                return None
            try:
                self._solver.conf_budget(budget)
                answer = self._solver.solve_limited(assumptions=list(assumptions))
            except NotImplementedError:
                raise BadInput(f"solver {self.name} cannot take a time limit; use {DEFAULT_SOLVER}") from None
            if answer is not None:
                return answer
            if progress is not None:
                progress(time.monotonic() - began, int(self._solver.accum_stats().get("conflicts", -1)))
            if time.monotonic() - started < 0.1:
                budget *= 2

    def statistics(self) -> dict[str, int]:
        return dict(self._solver.accum_stats() or {})

    def solve_within(self, conflicts: int) -> bool | None:
        """Solve with a budget of about ``conflicts`` conflicts: None when it runs out (deterministic)."""
        guard_gil_holders()
        self._solver.conf_budget(conflicts)
        return self._solver.solve_limited()

    def model(self) -> set[int]:
        return set(self._solver.get_model() or ())

    def write_proof(self, path: str | Path) -> None:
        if not self._proof:
            raise ValueError("open the solver with proof=True to get a proof")
        backend = self._solver.solver
        with atomic_output(path) as partial:
            if getattr(backend, "prfile", None) is not None and hasattr(pysolvers, "flushpr"):
                # CaDiCaL traces a binary DRAT proof into a file: copy it as it is (drat-trim reads binary
                # proofs), rather than turning a proof of many gigabytes into text in memory.
                pysolvers.flushpr(backend.prfp)
                backend.prfile.seek(0)
                with open(partial, "wb") as out:
                    shutil.copyfileobj(backend.prfile, out)
                return
            lines = self._solver.get_proof() or []
            partial.write_text("".join(f"{line}\n" for line in lines), encoding="ascii")

    def close(self) -> None:
        self._solver.delete()


class OneShotSolver(Solver):
    """A solver started afresh for every call, on all clauses plus the assumptions as unit clauses."""

    def __init__(self, name: str, proof: bool = False) -> None:
        self.name = name
        self._cnf = Cnf()
        self._model: set[int] = set()
        self._proof_path = tempfile.mkstemp(suffix=".drat")[1] if proof else None

    def add(self, cnf: Cnf) -> None:
        self._cnf.literals.extend(cnf.literals)
        self._cnf.num_clauses += cnf.num_clauses
        self._cnf.num_vars = max(self._cnf.num_vars, cnf.num_vars)

    def model(self) -> set[int]:
        return self._model

    def write_proof(self, path: str | Path) -> None:
        if self._proof_path is None:
            raise ValueError("open the solver with proof=True to get a proof")
        with atomic_output(path) as partial:
            shutil.copyfile(self._proof_path, partial)

    def close(self) -> None:
        if self._proof_path is not None and os.path.exists(self._proof_path):
            os.unlink(self._proof_path)


def _solve_alone(name: str, cnf: Cnf, units: list[int]) -> tuple[bool | None, list[int] | None]:
    solver = _start_pysat(name)
    for clause in cnf.clauses():
        solver.add_clause(clause)
    for unit in units:
        solver.add_clause([unit])
    answer = solver.solve()
    return answer, solver.get_model() if answer else None


def _race(names: Sequence[str], cnf: Cnf, units: list[int], seconds: float | None,
          progress: Progress | None) -> tuple[bool | None, list[int] | None]:
    """Solve in one forked child per backend; the first answer wins and the others are stopped."""
    tasks = [functools.partial(_solve_alone, name, cnf, units) for name in names]
    answered, _ = first_accepted(tasks, seconds=seconds, progress=progress)
    return answered or (None, None)


class RaceSolver(OneShotSolver):
    """PySAT backends run side by side on the same clauses, each in a forked child (so a time limit
    can stop them): ``kissat404`` alone, or a race such as ``race:kissat404,cadical195``, where the first
    answer wins. A race uses one core per backend."""

    def __init__(self, name: str, proof: bool = False) -> None:
        if proof:
            raise BadInput(f"solver {name} does not emit DRAT proofs in PySAT; use ext:kissat or cadical195")
        super().__init__(name)
        self.members = name.split(":", 1)[1].split(",") if name.startswith("race:") else [name]

    def solve(self, assumptions: Sequence[int] = (), seconds: float | None = None,
              progress: Progress | None = None) -> bool | None:
        answer, model = _race(self.members, self._cnf, list(assumptions), seconds, progress)
        self._model = set(model or ())
        return answer


class ExternalSolver(OneShotSolver):
    """A DIMACS solver binary on PATH (``ext:kissat``, ``ext:cadical``...) speaking SAT-competition output."""

    def __init__(self, name: str, proof: bool = False) -> None:
        binary = name.split(":", 1)[1]
        self._path = shutil.which(binary)
        if not binary or self._path is None:
            raise BadInput(f"external solver {binary!r} not found on PATH")
        super().__init__(name, proof)

    def solve(self, assumptions: Sequence[int] = (), seconds: float | None = None,
              progress: Progress | None = None) -> bool | None:
        from gameproof.logic.dimacs import write_dimacs  # numba: loaded only to write a formula

        with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as handle:
            write_dimacs(self._cnf, handle, extra_units=assumptions)
        command = [self._path, handle.name] + ([self._proof_path] if self._proof_path else [])
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=seconds)
        except subprocess.TimeoutExpired:
            return None
        finally:
            os.unlink(handle.name)
        status, model = _parse_competition_output(done.stdout)
        if status is None and not any(line.startswith("s ") for line in done.stdout.splitlines()):
            said = " ".join(done.stderr.split())[:200]
            raise BadInput(f"solver {self.name} exited with code {done.returncode} without an answer"
                           + (f": {said}" if said else ""))
        self._model = model
        return status


def _parse_competition_output(text: str) -> tuple[bool | None, set[int]]:
    """Status and model from SAT-competition output (``s SATISFIABLE`` and ``v`` lines)."""
    status = None
    model: set[int] = set()
    for line in text.splitlines():
        if line.startswith("s "):
            word = line[2:].strip()
            status = True if word == "SATISFIABLE" else False if word == "UNSATISFIABLE" else None
        elif line.startswith("v "):
            model.update(lit for lit in map(int, line[2:].split()) if lit > 0)
    return status, model


@functools.cache
def pysat_backends() -> tuple[str, ...]:
    """The PySAT backends that this PySAT build can actually start."""
    names = []
    for name in sorted(vars(SolverNames)):
        if name.startswith("_"):
            continue
        try:
            PysatSolver(name=name).delete()
        except (NoSuchSolverError, NotImplementedError, ImportError, OSError):
            continue
        names.append(name)
    return tuple(names)


@functools.cache
def configurable(backend: str) -> bool:
    """Whether a PySAT backend takes a `Configuration` (its options are CaDiCaL's)."""
    if not backend.startswith("cadical"):
        return False
    solver = PysatSolver(name=backend)
    try:
        return callable(getattr(solver.solver, "configure", None))
    finally:
        solver.delete()


def resolve(name: str) -> str:
    """The canonical solver name for ``name`` or an alias; BadInput listing the known names otherwise."""
    if name.startswith("ext:"):
        return name
    if "/" in name and not name.startswith("race:"):
        backend, _, configuration = name.partition("/")
        canonical = resolve(backend)
        if configuration not in [member.value for member in Configuration]:
            known = ", ".join(Configuration)
            raise BadInput(f"unknown configuration {configuration!r} in solver {name!r}; known: {known}")
        if not configurable(canonical):
            raise BadInput(f"solver {backend} takes no configuration; {', '.join(_configurable())} do")
        return f"{canonical}/{configuration}"
    if name.startswith("race:"):
        members = [resolve(member) for member in name.split(":", 1)[1].split(",") if member]
        if len(members) < 2 or any(member.startswith(("ext:", "race:")) for member in members):
            raise BadInput(f"a race names two or more PySAT backends, such as race:kissat404,cadical195; got {name!r}")
        return "race:" + ",".join(members)
    for canonical in pysat_backends():
        if name == canonical or name in getattr(SolverNames, canonical):
            return canonical
    known = ", ".join(pysat_backends())
    raise BadInput(f"unknown solver {name!r}; known: {known}, ext:BINARY for a DIMACS solver on PATH, "
                   "race:A,B to run several at once, or NAME/unsat (NAME/sat) to configure one")


def _configurable() -> list[str]:
    return [backend for backend in pysat_backends() if configurable(backend)]


def open_solver(name: str = DEFAULT_SOLVER, proof: bool = False) -> Solver:
    """Start the solver called ``name``; with ``proof``, it records a DRAT proof."""
    canonical = resolve(name)
    if canonical.startswith("ext:"):
        return ExternalSolver(canonical, proof)
    if canonical in _ONE_SHOT or canonical.startswith("race:"):
        return RaceSolver(canonical, proof)
    return IncrementalSolver(canonical, proof)
