"""Cube-and-conquer for `othello reach`: the question split over the first plies, the parts solved as jobs.

A cube fixes the first plies of the direct formula: a sequence of legal moves from the start (f5 first,
as the formula has it), or a shorter one and then a stop. Each cube is a job: the loose formula (relaxed
rules with no pass before `EARLIEST_PASS`, which holds every strict game; see `reach`) plus the cube's
literals as unit clauses, solved by CaDiCaL in its configuration for refutations within a conflict
budget; if that has a witness that passes by choice, the strict formula and the same units are solved
instead. A cube that runs past the budget is split into the cubes one ply deeper and those are solved
next. A satisfiable cube gives the witness (replayed on the rules). A refutation needs every cube
refuted, each with a DRAT proof of its formula and its units, and a check that the cubes cover every
game: the loose formula with every refuted cube negated is unsatisfiable (with its own proof). Cubes fix
moves before any pass can happen, so they mean the same in both formulas, and every strict game is a
loose one. Results are journalled, so a killed run resumes without solving a finished cube again.
"""

from __future__ import annotations

import enum
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from gameproof.answers import Status
from gameproof.atomic import partial_name
from gameproof.errors import BadInput, RunFailed
from gameproof.games.othello import rules
from gameproof.games.othello.notation import PASS, square_name
from gameproof.games.othello.reach import Replay, decode_moves, replay
from gameproof.games.othello.reach_direct import EARLIEST_PASS, F5, ReachFormula, encode_direct, encode_loose
from gameproof.logic.cnf import Cnf
from gameproof.logic.drat import ProofCheck, check_drat
from gameproof.logic.solvers import open_solver
from gameproof.search.jobs import Backend, Job, SqliteJournal, run_jobs, task_name

SOLVER = "cadical195/unsat"
STOP = "stop"


class Formula(enum.StrEnum):
    """The formula a cube is solved in."""

    LOOSE = "loose"  # relaxed rules with no pass before EARLIEST_PASS: every strict game, refuted sooner
    STRICT = "strict"


@dataclass(frozen=True)
class Cube:
    """The first plies of a game: these moves, then a stop if ``stops``."""

    moves: tuple[int, ...]
    stops: bool = False

    @property
    def key(self) -> str:
        return "".join(square_name(move) for move in self.moves) + (f"/{STOP}" if self.stops else "")

    def _chosen(self, formula: ReachFormula) -> list[int]:
        """The formula's literal for each of these plies' choices (±1 where the formula made it constant)."""
        stop = [formula.stops[len(self.moves)]] if self.stops else []
        return [formula.moves[ply][move] for ply, move in enumerate(self.moves)] + stop

    def literals(self, formula: ReachFormula) -> list[int]:
        """The formula's literals that fix these plies (constants left out)."""
        return [lit for lit in self._chosen(formula) if abs(lit) != 1]

    def possible(self, formula: ReachFormula) -> bool:
        """False when the formula itself rules the cube out (a literal that is constant false)."""
        return -1 not in self._chosen(formula)

    def split(self, formula: ReachFormula) -> list[Cube]:
        """The cubes one ply deeper: a stop here, or each legal move (none past the formula's last ply)."""
        if self.stops or len(self.moves) >= formula.plies:
            return [self]
        position = replay(list(self.moves))
        legal = rules.legal_moves(position.player, position.opponent)
        if legal == 0 and self.moves:
            raise BadInput("cubes reach a pass within their plies; use fewer --cube-plies")
        squares = [F5] if not self.moves else [s for s in range(64) if legal >> s & 1]
        children = [Cube(self.moves, stops=True)] + [Cube((*self.moves, s)) for s in squares]
        return [cube for cube in children if cube.possible(formula)]


def first_cubes(formula: ReachFormula, plies: int) -> list[Cube]:
    """Every cube of ``plies`` plies (and the shorter ones that stop)."""
    cubes = [Cube(())]
    for _ in range(min(plies, formula.plies)):
        cubes = [child for cube in cubes for child in cube.split(formula)]
    return cubes


@cache
def _formula(min_legal: int, plies: int, exact: bool = False, kind: Formula = Formula.LOOSE) -> ReachFormula:
    if kind is Formula.LOOSE:
        return encode_loose(min_legal, plies, exact)
    return encode_direct(min_legal, plies, "strict", exact=exact)


def _with_clauses(cnf: Cnf, clauses: list[list[int]]) -> Cnf:
    """A copy of ``cnf`` with ``clauses`` added."""
    whole = Cnf(cnf.num_vars)
    whole.literals.extend(cnf.literals)
    whole.num_clauses = cnf.num_clauses
    for clause in clauses:
        whole.add_clause(clause)
    return whole


def solve_cube(min_legal: int, plies: int, moves: tuple[int, ...], stops: bool, conflicts: int,
               proof: str | None, exact: bool = False) -> dict[str, Any]:
    """One cube's job: "sat" with the witness's moves, "unsat" with its proof (checked), or "unknown".
    The loose formula first; the strict one if the loose one's witness passes by choice."""
    question, cube = (min_legal, plies, exact), Cube(tuple(moves), stops)
    result = _solve_cube_in(question, Formula.LOOSE, cube, conflicts, proof)
    if result["status"] == Status.SAT and not replay(result["moves"]).strict:
        loose_seconds = result["seconds"]
        result = _solve_cube_in(question, Formula.STRICT, cube, conflicts, proof)
        result["seconds"] += loose_seconds
    return result


def _solve_cube_in(question: tuple[int, int, bool], kind: Formula, cube: Cube, conflicts: int,
                   proof: str | None) -> dict[str, Any]:
    """The cube solved in the `kind` formula of `question` (N, plies, exact): its answer, moves or checked
    proof, and the solving time."""
    formula = _formula(*question, kind)
    cnf = _with_clauses(formula.cnf, [[lit] for lit in cube.literals(formula)])
    began = time.perf_counter()
    with open_solver(SOLVER, proof=proof is not None) as solver:
        solver.add(cnf)
        answer = solver.solve_within(conflicts)
        result: dict[str, Any] = {"status": Status.of(answer), "formula": kind, "seconds": time.perf_counter() - began}
        if answer:
            result["moves"] = decode_moves(formula, solver.model())
        if answer is False and proof is not None:
            solver.write_proof(proof)
    if answer is False and proof is not None:
        result.update(check_drat(cnf, proof).to_json())
    return result


#: The first cubes' plies and a cube's conflict budget: N = 34 on two workers took 3 cubes of 82–129 s
#: of CaDiCaL each at 2 plies, while 4 plies made 78 cubes each nearly as hard (docs/benchmarks.md).
CUBE_PLIES = 2
CUBE_CONFLICTS = 10_000_000


@dataclass
class CubeResult:
    """What cube-and-conquer answered, and what each part cost."""

    status: Status
    min_legal: int
    plies: int
    exact: bool = False  # games of exactly `plies` moves only
    cubes: int = 0  # cubes solved (refuted, or the one that was satisfiable)
    splits: int = 0  # cubes split again after running past the budget
    journalled: int = 0  # cube answers read back from the journal (from an earlier run) and re-checked
    witness_from_journal: bool = False  # the witness was read back from the journal (and replayed again)
    cube_seconds: float = 0.0  # solving time summed over the cubes
    wall_seconds: float = 0.0
    witness: Replay | None = None
    cube_proofs: Counter[str] = field(default_factory=Counter)  # the refuted cubes' proofs, by verdict
    coverage: ProofCheck | None = None  # the proof that the refuted cubes cover every game
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        payload = {"status": self.status, "legal_moves_wanted": self.min_legal, "plies": self.plies, "exact_plies": self.exact,
                   "cubes": self.cubes, "splits": self.splits, "journalled": self.journalled,
                   "witness_from_journal": self.witness_from_journal, "cube_seconds": round(self.cube_seconds, 3),
                   "wall_seconds": round(self.wall_seconds, 3), "record": None, "notes": self.notes}
        if self.witness is not None:
            payload.update(record=self.witness.record, legal_move_count=self.witness.legal_move_count)
        if self.coverage is not None:
            payload.update(cube_proofs=dict(self.cube_proofs), coverage=self.coverage.to_json())
        return payload


def solve_by_cubes(min_legal: int, plies: int, journal: str | Path, *, cube_plies: int = CUBE_PLIES,
                   conflicts: int = CUBE_CONFLICTS, workers: int | None = None, backend: Backend = Backend.LOCAL,
                   address: str | None = None, proof_dir: str | Path | None = None,
                   progress: Callable[[int, int, float, str], None] | None = None, exact: bool = False) -> CubeResult:
    """Is a position with ``min_legal`` legal moves reachable within ``plies`` moves (after exactly ``plies``
    moves with ``exact``)? By cubes, as jobs. ``progress`` is called after each job of a round with the jobs
    done, the round's jobs, the seconds so far and the cubes refuted, to split and open."""
    if not 1 <= cube_plies <= EARLIEST_PASS:
        raise BadInput(f"--cube-plies must be between 1 and {EARLIEST_PASS} (the earliest pass comes after "
                       f"{EARLIEST_PASS} moves)")
    if conflicts < 1:
        raise BadInput("--cube-conflicts must be positive")
    folder = None if proof_dir is None else Path(proof_dir)
    if folder is not None and not folder.is_dir():
        raise BadInput(f"--proof needs an existing folder for the cubes' proofs: {proof_dir}")
    began = time.perf_counter()
    formula = _formula(min_legal, plies, exact)
    result = CubeResult(Status.UNKNOWN, min_legal, plies, exact)
    refuted: list[Cube] = []
    cubes = first_cubes(formula, cube_plies)
    question = f"{min_legal}/{plies}/" + ("exact/" if exact else "") + "loose/"
    with SqliteJournal(journal, task_name(solve_cube)) as stored:
        while cubes:
            jobs = [Job(question + cube.key, {
                "min_legal": min_legal, "plies": plies, "moves": cube.moves, "stops": cube.stops,
                "conflicts": conflicts, "exact": exact,
                "proof": None if folder is None else str(folder / f"cube-{cube.key.replace('/', '-') or 'root'}.drat")})
                for cube in cubes]
            kept = _Rechecked(stored, _reread(stored.results(), cubes, jobs, (min_legal, plies, exact), result.notes))

            def counted(done: int, total: int, elapsed: float, earlier: int = len(refuted)) -> None:
                assert progress is not None
                now = Counter(answer.get("status") for answer in kept.fresh.values()) + Counter(
                    answer.get("status") for answer in kept.passed.values())
                progress(done, total, elapsed, f"refuted {earlier + now[Status.UNSAT]:,}  to split "
                         f"{now[Status.UNKNOWN]:,}  open {total - done:,}")

            try:
                ran = run_jobs(solve_cube, jobs, kept, backend=backend, workers=workers, address=address,
                               progress=None if progress is None else counted)
            except BaseException:  # a worker killed while it wrote a proof leaves the partial file behind
                for job in jobs:
                    if job.arguments["proof"] is not None:
                        partial_name(job.arguments["proof"]).unlink(missing_ok=True)
                raise
            result.journalled += len(jobs) - ran
            answers = kept.results()
            deeper: list[Cube] = []
            for cube, job in zip(cubes, jobs):
                answer = answers[job.key]
                if job.key not in kept.passed and (problem := _answer_problem(answer, cube, min_legal, plies, exact)):
                    raise RunFailed(f"cube {cube.key}: {problem}")  # a fresh answer: a bug, not a damaged file
                result.cube_seconds += answer["seconds"]
                status = Status(answer["status"])
                if status is Status.SAT:
                    result.status, result.cubes = status, result.cubes + 1
                    result.witness = replay(answer["moves"])
                    result.witness_from_journal = job.key in kept.passed
                    result.wall_seconds = time.perf_counter() - began
                    return result
                if status is Status.UNKNOWN:
                    children = cube.split(formula)
                    if children == [cube]:
                        result.notes.append(f"cube {cube.key} ran past the budget and cannot be split further")
                        result.wall_seconds = time.perf_counter() - began
                        return result
                    result.splits += 1
                    deeper += children
                else:
                    refuted.append(cube)
                    result.cubes += 1
                    if folder is not None:
                        result.cube_proofs[answer["proof_verdict"]] += 1
            cubes = deeper
    result.status = Status.UNSAT
    if folder is not None:
        result.coverage = _cover(formula, refuted, folder / "coverage.drat")
    result.wall_seconds = time.perf_counter() - began
    return result


class _Rechecked:
    """The journal as `run_jobs` sees it: finished are only the answers that ``passed`` their re-check (by
    key), so the others are solved again (and their rows replaced)."""

    def __init__(self, journal: SqliteJournal, passed: dict[str, Any]) -> None:
        self.journal, self.passed = journal, passed
        self.fresh: dict[str, Any] = {}  # the answers recorded in this run, by key

    def finished(self) -> set[str]:
        return set(self.passed)

    def results(self) -> dict[str, Any]:
        """The journal's results, with the re-checked answers in place of their rows."""
        return self.journal.results() | self.passed

    def record(self, key: str, result: Any, seconds: float) -> None:
        self.journal.record(key, result, seconds)
        self.fresh[key] = result


def _reread(rows: dict[str, Any], cubes: list[Cube], jobs: list[Job], question: tuple[int, int, bool],
            notes: list[str]) -> dict[str, Any]:
    """The journal's answers for these cubes that pass the checks a fresh answer gets, by job key: a witness
    replayed (:func:`_answer_problem`), a refutation's proof, where one is asked for, present and checked
    again. Each answer not used is named in ``notes``."""
    passed = {}
    for cube, job in zip(cubes, jobs):
        if job.key not in rows:
            continue
        answer = rows[job.key]
        problem = _answer_problem(answer, cube, *question)
        proof = job.arguments["proof"]
        if problem is None and proof is not None and answer["status"] == Status.UNSAT:
            answer, problem = _proof_checked_again(answer, question, cube, Path(proof))
        if problem is None:
            passed[job.key] = answer
        else:
            notes.append(f"the journal's answer for cube {cube.key or '(start)'} is not used ({problem}): solved again")
    return passed


def _answer_problem(answer: Any, cube: Cube, min_legal: int, plies: int, exact: bool) -> str | None:
    """What makes ``answer`` unusable as the answer of ``cube`` to the question (N, plies, exact), or None:
    its shape, and for "sat" its witness replayed under the strict rules: legal, at least N legal moves at
    the end, within (exactly, with ``exact``) the plies, and in the cube (its moves first, then a stop if
    the cube stops)."""
    if not isinstance(answer, dict):
        return "not a JSON object"
    seconds = answer.get("seconds")
    if type(seconds) not in (int, float) or not 0 <= seconds < float("inf"):
        return "no solving time"
    if answer.get("status") not in tuple(Status):
        return "no status"
    if answer["status"] != Status.SAT:
        return None
    moves = answer.get("moves")
    if not isinstance(moves, list) or not all(type(move) is int and 0 <= move <= PASS for move in moves):
        return "a witness that is not a list of moves"
    if len(moves) > 2 * plies + 1:  # each ply a pass at most and a move, and a pass at the end
        return f"a witness of {len(moves)} moves and passes, more than {plies} plies hold"
    try:
        witness = replay(moves)
    except ValueError as error:
        return f"the witness is illegal: {error}"
    squares = tuple(move for move in moves if move != PASS)
    if not witness.strict:
        return f"the witness {witness.record} passes while a move exists"
    if witness.legal_move_count < min_legal:
        return f"the witness {witness.record} replays to {witness.legal_move_count} legal moves, not {min_legal}"
    if len(squares) > plies or (exact and len(squares) != plies):
        return f"the witness {witness.record} is {len(squares)} moves long, not {'exactly' if exact else 'at most'} {plies}"
    if squares[:len(cube.moves)] != cube.moves or (cube.stops and len(squares) != len(cube.moves)):
        return f"the witness {witness.record} is not in the cube"
    return None


def _proof_checked_again(answer: dict[str, Any], question: tuple[int, int, bool], cube: Cube,
                         proof: Path) -> tuple[dict[str, Any], str | None]:
    """A journalled refutation with its proof file checked again against the cube's formula: the answer with
    the new verdict, and what is wrong (a formula not named, no proof file, a proof the checker rejects)."""
    if answer.get("formula") not in tuple(Formula):
        return answer, "no formula named"
    if not proof.is_file():
        return answer, f"its proof {proof} is missing"
    formula = _formula(*question, Formula(answer["formula"]))
    check = check_drat(_with_clauses(formula.cnf, [[lit] for lit in cube.literals(formula)]), str(proof))
    if check.accepted is False:
        return answer, f"its proof {proof} is rejected"
    return answer | check.to_json(), None


def _cover(formula: ReachFormula, cubes: list[Cube], proof: Path) -> ProofCheck:
    """Refute the formula with every cube negated (so the cubes cover every game); the proof and its check."""
    covering = _with_clauses(formula.cnf, [[-lit for lit in cube.literals(formula)] or [-1] for cube in cubes])
    with open_solver(SOLVER, proof=True) as solver:
        solver.add(covering)
        if solver.solve() is not False:
            raise RunFailed("the refuted cubes do not cover every game")
        solver.write_proof(proof)
    return check_drat(covering, proof)
