"""Othello reachability by SAT: is a position with at least N legal moves reachable from the start?

Every witness is replayed on the concrete engine, and its legal-move count re-checked, before it is
reported. The bound is on moves (disc placements): a position with N legal moves has N empty squares,
so at most 60 - N moves were played. Passes cost nothing in the direct encoding (each ply is a move by
whichever side has the turn, after any pass), so that bound is complete: "unsat" at the default bound
means no game, with any number of passes, reaches such a position. `plies` overrides the bound (the
formula always covers every shorter game as well). The generic encoding traces the engine's rules ply
by ply and counts a pass as a ply.

Without `plies` (and without a proof to write), a witness is first looked for among short games
without passes (`short_plies`: N + 4 moves, at most 60 - N; at most 600 s, or half the time limit),
where the formula is small and solvers find one far faster. The direct encoding asks for games of
exactly that many moves (no ply may stop: a smaller formula still); the generic one keeps its
passes and its shorter games. Only if that stage is unsat or runs out of its time slice is
the complete formula solved. "unsat" is only ever answered by a complete formula.

A strict question is refuted on a loose formula (direct encoding, staged or with a proof): passes
allowed from `EARLIEST_PASS` on whether the side has a move or not. It covers every strict game (no
side is without a move before that), has no capture chains to decide passes, and solvers refute it
far sooner; its witness answers only if it passes where the rules force it, and otherwise the strict
formula is solved. By default two lanes run side by side, one core each: Kissat on the quick stage
and then the complete formula, CaDiCaL (configured for refutations) on the loose formula and then
the complete one; the first answer that settles the question counts.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from gameproof.answers import Reachability, Status
from gameproof.errors import BadInput
from gameproof.games.othello import rules
from gameproof.games.othello.notation import PASS, square_name
from gameproof.forked import first_accepted
from gameproof.games.othello.reach_direct import (
    EARLIEST_PASS,
    RULE_SETS,
    FinalPosition,
    ReachFormula,
    encode_direct,
    encode_flips,
    encode_loose,
)
from gameproof.framework.declaration import MAX_REACH_PLIES
from gameproof.logic.cnf import Cnf
from gameproof.logic.drat import ProofCheck, check_drat, find_drat_trim, proof_json
from gameproof.logic.solvers import DEFAULT_SOLVER, Progress, open_solver, resolve
from gameproof.search.beam import beam_search

# Kissat is usually the faster at finding games here, CaDiCaL (in its configuration for refutations)
# at refuting: by default each has a core, Kissat on the formulas that find, CaDiCaL on those that refute,
# and the first answer counts; for one formula alone both race on it.
FINDING_SOLVER = "kissat404"
REFUTING_SOLVER = "cadical195/unsat"
FINDING_RACE = "race:kissat404,cadical195"
SHORT_EXTRA_PLIES = 4
SHORT_STAGE_SECONDS = 600.0
ENCODINGS = ("direct", "generic")
BEAM = "beam"  # the `encoding` of an answer found by the beam search rather than by a formula


def default_plies(min_legal: int) -> int:
    """The bound on moves used when none is given (see the module docstring)."""
    return max(60 - min_legal, 0)


def short_plies(min_legal: int) -> int:
    """The ply bound of the first, quick stage when no bound is given (never above `default_plies`)."""
    return min(default_plies(min_legal), min_legal + SHORT_EXTRA_PLIES)


@dataclass
class Replay:
    """A move sequence played on the concrete engine."""

    moves: list[int]
    player: int
    opponent: int
    black_to_move: bool
    strict: bool  # every pass was forced (no legal square) and every square move was legal

    @property
    def record(self) -> str:
        return "".join(square_name(move) for move in self.moves)

    @property
    def legal_move_count(self) -> int:
        return rules.popcount(rules.legal_moves(self.player, self.opponent))

    @property
    def discs_placed(self) -> int:
        """Moves that placed a disc (passes left out)."""
        return sum(move != PASS for move in self.moves)


def replay(moves: list[int]) -> Replay:
    """Play `moves` (squares or PASS) from the start; passes are allowed even when a move exists, but
    then the game is marked as not strictly legal. Raises ValueError on an illegal square move."""
    player, opponent, strict = rules.START_BLACK, rules.START_WHITE, True
    for ply, move in enumerate(moves):
        legal = rules.legal_moves(player, opponent)
        if move == PASS:
            strict = strict and legal == 0 and rules.legal_moves(opponent, player) != 0
            player, opponent = opponent, player
            continue
        if not legal >> move & 1:
            raise ValueError(f"ply {ply + 1}: {square_name(move)} is not a legal move")
        player, opponent = rules.after_move(player, opponent, 1 << move)
    return Replay(list(moves), player, opponent, len(moves) % 2 == 0, strict)


@dataclass
class ReachResult:
    """The answer to one reachability question."""

    status: Status
    min_legal: int
    plies: int
    rule_set: str
    encoding: str
    solver: str
    variables: int
    clauses: int
    encode_seconds: float
    solve_seconds: float
    witness: Replay | None = None
    proof: ProofCheck | None = None  # the DRAT proof of a refutation, and its check
    passes: bool = True  # whether the formula that answered covers games with passes
    exact: bool = False  # whether it covers games of exactly `plies` moves only
    formula: str = ""  # the games the formula that answered covers, in words
    decided: bool = True  # whether the answer settles the question (not a stage's "unsat" before the last)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        payload = {
            "status": self.status,
            "legal_moves_wanted": self.min_legal,
            "plies": self.plies,
            "passes_allowed": self.passes,
            "exact_plies": self.exact,
            "formula": self.formula,
            "rules": self.rule_set,
            "encoding": self.encoding,
            "solver": self.solver,
            "record": None,
            "ply": None,
            "legal_move_count": None,
            "variables": self.variables,
            "clauses": self.clauses,
            "encode_seconds": round(self.encode_seconds, 3),
            "solve_seconds": round(self.solve_seconds, 3),
            "notes": self.notes,
        }
        if self.witness is not None:
            payload.update(
                record=self.witness.record,
                ply=len(self.witness.moves),
                legal_move_count=self.witness.legal_move_count,
                to_move="black" if self.witness.black_to_move else "white",
                strict_rules=self.witness.strict,
            )
        return payload | proof_json(self.proof)


def encode(min_legal: int, plies: int, rule_set: str, encoding: str, passes: bool = True, exact: bool = False,
           loose: bool = False) -> tuple[Cnf, Callable[[set[int]], list[int]]]:
    """The formula in the chosen encoding, and how to read a model back as a move sequence. Without
    `passes` (direct encoding only) it covers only games that never pass; with `exact` (direct only), only
    games of exactly `plies` moves; `loose` (direct only): `encode_loose` instead of `rule_set`."""
    if encoding == "direct":
        formula = (encode_loose(min_legal, plies, exact) if loose
                   else encode_direct(min_legal, plies, rule_set, passes=passes, exact=exact))
        return formula.cnf, lambda model: decode_moves(formula, model)
    from gameproof.games.othello import reach_generic  # the tracer and numba: loaded only for this encoding
    from gameproof.logic.harness import trace

    traced = trace(reach_generic.reach_harness(min_legal, plies, rule_set))
    for unit in traced.export_units():
        traced.cnf.add_clause([unit])
    return traced.cnf, lambda model: reach_generic.decode_moves(traced.decode(model), plies)


def decode_moves(formula: ReachFormula, model: set[int]) -> list[int]:
    """The move sequence a model chooses, up to its first stop (a pass before a move where it has one,
    and at the end when the count is the other side's). A stop keeps the board as its turn began, so a
    pass at a stopped ply is read from the final turn instead."""
    moves: list[int] = []
    for ply in range(formula.plies):
        if formula.stops[ply] in model:
            break
        if formula.passes[ply] in model:
            moves.append(PASS)
        moves.append(next(s for s in range(64) if formula.moves[ply][s] in model))
    if formula.final_pass in model:
        moves.append(PASS)
    return moves


def solve_reach(
    min_legal: int,
    plies: int | None = None,
    rule_set: str = "strict",
    encoding: str = "direct",
    solver: str | None = None,
    seconds: float | None = None,
    dimacs: str | Path | None = None,
    proof: str | Path | None = None,
    progress: Progress | None = None,
    exact: bool = False,
    search: bool = True,
) -> ReachResult:
    """Is a position with at least `min_legal` legal moves reachable within `plies` plies (after exactly
    `plies` moves with `exact`)? With `search` (direct encoding, no `dimacs` to write), a beam search on the
    concrete rules looks for a witness first (`search_witness`); the formulas answer what it does not find."""
    began = time.perf_counter()
    if not 0 <= min_legal <= 60:
        raise BadInput(f"the number of legal moves must be between 0 and 60, got {min_legal}")
    if rule_set not in RULE_SETS:
        raise BadInput(f"unknown rule set {rule_set!r}; choose from {', '.join(RULE_SETS)}")
    if encoding not in ENCODINGS:
        raise BadInput(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
    if exact and (plies is None or encoding != "direct"):
        raise BadInput("exactly P moves (--exact) needs --plies and the direct encoding")
    if solver is not None:
        resolve(solver)  # an unknown name fails before anything is solved
    staged = plies is None and dimacs is None and proof is None
    plies = default_plies(min_legal) if plies is None else plies
    if not 0 <= plies <= MAX_REACH_PLIES:
        raise BadInput(f"plies must be between 0 and {MAX_REACH_PLIES}, got {plies}")
    question = Question(min_legal, rule_set, encoding, seconds, dimacs, proof)
    if search and dimacs is None and encoding == "direct":
        found = search_witness(min_legal, plies, rule_set, exact, seconds)
        if found is not None:
            return found
        if seconds is not None:
            question = replace(question, seconds=max(seconds - (time.perf_counter() - began), 0.0))
    lanes = _lanes(question, plies, exact, staged, solver)
    if len(lanes) == 1:
        return _run_lane(question, lanes[0], progress)
    tasks = [functools.partial(_run_lane, question, lane, None) for lane in lanes]
    decided, finished = first_accepted(tasks, lambda result: result.decided, progress=progress)
    return decided or finished[-1]


def search_witness(min_legal: int, plies: int, rule_set: str = "strict", exact: bool = False,
                   seconds: float | None = None) -> ReachResult | None:
    """A game of at most (`exact`: exactly) `plies` moves that reaches `min_legal` legal moves, found by a beam
    search over positions ranked by their legal-move count (:func:`~gameproof.search.beam.beam_search`), or
    None (also when `seconds` run out). Its games are strict (a side passes only without a move), so they answer
    either rule set."""
    began = time.perf_counter()
    found = beam_search(_START, _children, _mobility, lambda state: _mobility(state) >= min_legal, plies, exact,
                        seconds=seconds)
    if found is None:
        return None
    witness = replay(list(found.steps))
    placed = witness.discs_placed
    if witness.legal_move_count < min_legal or not witness.strict or placed > plies or (exact and placed != plies):
        raise AssertionError(f"beam witness {witness.record} does not replay to the question")
    bound = "exactly" if exact else "at most"
    return ReachResult(Status.SAT, min_legal, plies, rule_set, BEAM, f"{BEAM}:{found.width}", 0, 0, 0.0,
                       time.perf_counter() - began, witness, exact=exact,
                       formula=f"games of {bound} {plies} moves, searched by a beam of width {found.width}")


#: The beam's start: (the side to move's discs, the other side's, the legal moves of the side to move).
_START = (rules.START_BLACK, rules.START_WHITE, rules.legal_moves(rules.START_BLACK, rules.START_WHITE))


def _mobility(state: tuple[int, int, int]) -> int:
    """The legal-move count of a beam state (player, opponent, player's legal moves)."""
    return rules.popcount(state[2])


def _children(state: tuple[int, int, int]):
    """Each move of a beam state with the state after it (and after a forced pass, which the steps record)."""
    player, opponent, legal = state
    while legal:
        move = legal & -legal
        legal ^= move
        mover, other = rules.after_move(player, opponent, move)
        following = rules.legal_moves(mover, other)
        back = 0 if following else rules.legal_moves(other, mover)
        square = move.bit_length() - 1
        if back:
            yield (square, PASS), (other, mover, back)
        else:
            yield (square,), (mover, other, following)


@dataclass(frozen=True)
class Stage:
    """One formula of a staged search: games of at most (or `exact`ly) `plies` moves, with or without
    passes; `loose`: passes allowed from `EARLIEST_PASS` on whether forced or not (more games than the
    rules allow: its refutation answers a strict question, its witness only if it never passes by
    choice); `final`: its refutation answers the question."""

    plies: int
    passes: bool
    exact: bool = False
    loose: bool = False
    final: bool = True

    def describe(self) -> str:
        bound = "exactly" if self.exact else "at most"
        if not self.passes:
            return f"games of {bound} {self.plies} moves without a pass"
        free = f" where a side may pass from move {EARLIEST_PASS + 1} on, with or without a move"
        return f"games of {bound} {self.plies} moves" + (free if self.loose else "")

    def encode(self, question: Question) -> tuple[Cnf, Callable[[set[int]], list[int]]]:
        """This stage's formula for `question`."""
        return encode(question.min_legal, self.plies, question.rule_set, question.encoding, self.passes, self.exact,
                      self.loose)

    def decides(self, result: ReachResult) -> bool:
        """Whether `result` (of this stage's formula) answers the question."""
        if result.status is Status.SAT:
            return not self.loose or result.witness.strict
        return result.status is Status.UNSAT and self.final


@dataclass(frozen=True)
class Question:
    """What one reachability question fixes for every stage that answers it."""

    min_legal: int
    rule_set: str
    encoding: str
    seconds: float | None
    dimacs: str | Path | None
    proof: str | Path | None


Lane = list[tuple[Stage, str]]  # stages solved one after another on one core, each by the solver named


def _lanes(question: Question, plies: int, exact: bool, staged: bool, solver: str | None) -> list[Lane]:
    """The stages to solve, in one lane or two side by side. A quick stage of short games without passes
    (staged only) finds most witnesses; a strict question is then refuted on the loose formula (with a
    proof, or staged), which solvers refute far sooner, and the strict formula follows only if the loose
    one has a witness that passes by choice."""
    direct, proof = question.encoding == "direct", question.proof
    complete = Stage(plies, passes=True, exact=exact)
    closing = [complete]
    if question.rule_set == "strict" and direct and plies >= EARLIEST_PASS and (staged or proof is not None):
        closing.insert(0, Stage(plies, passes=True, exact=exact, loose=True))
    quick, short = [], short_plies(question.min_legal)
    if staged and (direct or short < plies):
        # Witnesses are found far faster in a small formula: short games, and (direct) exactly that
        # many moves, none of them after a pass.
        quick = [Stage(short, passes=not direct, exact=direct, final=False)]
    if solver is not None:
        return [[(stage, solver) for stage in [*quick, *closing]]]
    if proof is not None:
        return [[(stage, REFUTING_SOLVER) for stage in closing]]
    if not staged:
        return [[(complete, FINDING_RACE)]]
    # One core finds (Kissat, the quick stage, then the complete formula); the other refutes (CaDiCaL
    # on the loose formula, or the complete one).
    finding = [(stage, FINDING_SOLVER) for stage in [*quick, complete]]
    refuting = [(closing[0], REFUTING_SOLVER), *((stage, DEFAULT_SOLVER) for stage in closing[1:])]
    return [finding, refuting]


def _run_lane(question: Question, lane: Lane, progress: Progress | None) -> ReachResult:
    """Solve the lane's stages in turn until one answers the question (or the last has run)."""
    began = time.perf_counter()
    notes, encode_total, solve_total = [], 0.0, 0.0
    for index, (stage, solver) in enumerate(lane):
        last = index == len(lane) - 1
        seconds = question.seconds
        left = None if seconds is None else max(seconds - (time.perf_counter() - began), 0.0)
        budget = left if stage.final else min(SHORT_STAGE_SECONDS, SHORT_STAGE_SECONDS if left is None else left / 2)
        result = _solve_once(question, stage, solver, budget, progress)
        encode_total += result.encode_seconds
        solve_total += result.solve_seconds
        result.decided = stage.decides(result)
        if result.decided or last:
            break
        found = " (a witness that passes by choice)" if result.status is Status.SAT else ""
        notes.append(f"{stage.describe()}: {result.status}{found} after {result.solve_seconds:.1f} s; "
                     f"then {lane[index + 1][0].describe()}")
    result.encode_seconds, result.solve_seconds = encode_total, solve_total
    result.notes[:0] = notes
    return result


def _solve_once(question: Question, stage: Stage, solver: str, seconds: float | None,
                progress: Progress | None) -> ReachResult:
    began = time.perf_counter()
    plies, rule_set, final = stage.plies, question.rule_set, stage.final
    cnf, decode = stage.encode(question)
    encode_seconds = time.perf_counter() - began
    if question.dimacs is not None:
        from gameproof.logic.dimacs import write_dimacs  # numba: loaded only to write a formula

        write_dimacs(cnf, question.dimacs)
    solved = _solve_cnf(cnf, solver, seconds, question.proof if final else None, progress)
    result = ReachResult(
        Status.of(solved.answer), question.min_legal, plies, rule_set, question.encoding,
        solved.solver, cnf.num_vars, cnf.num_clauses, encode_seconds, solved.seconds,
        proof=solved.proof, passes=stage.passes, exact=stage.exact, formula=stage.describe(),
    )
    if solved.answer:
        result.witness = replay(decode(solved.model))
        if result.witness.legal_move_count < question.min_legal:
            raise AssertionError(f"witness {result.witness.record} replays to too few legal moves")
        if stage.exact and result.witness.discs_placed != plies:
            raise AssertionError(f"witness {result.witness.record} does not have exactly {plies} moves")
        if rule_set == "relaxed" and not result.witness.strict:
            result.notes.append("the witness passes while a move exists: legal only under relaxed rules")
    elif solved.answer is False and stage.loose:
        result.notes.append(f"refuted for {stage.describe()}: strict games, where a side passes only "
                            "without a move, are among them")
    return result


@dataclass
class _Solved:
    """One solver run: the answer, the model when satisfiable, and the proof of a refutation."""

    answer: bool | None
    model: set[int]
    solver: str
    seconds: float
    proof: ProofCheck | None


def _solve_cnf(cnf: Cnf, solver: str | None, seconds: float | None, proof: str | Path | None,
               progress: Progress | None) -> _Solved:
    """Solve `cnf` (by default CaDiCaL with a proof to write, else Kissat and CaDiCaL racing); on a
    refutation with `proof`, write the DRAT proof and check it."""
    solver = solver or (DEFAULT_SOLVER if proof is not None else FINDING_RACE)
    if proof is not None:
        find_drat_trim()  # a checker named but missing fails before solving
    with open_solver(solver, proof=proof is not None) as backend:
        backend.add(cnf)
        began = time.perf_counter()
        answer = backend.solve(seconds=seconds, progress=progress)
        elapsed = time.perf_counter() - began
        model = backend.model() if answer else set()
        refuted_with_proof = answer is False and proof is not None
        if refuted_with_proof:
            backend.write_proof(proof)
        name = backend.name
    return _Solved(answer, model, name, elapsed, check_drat(cnf, proof) if refuted_with_proof else None)


#: The most discs one move can flip off the centre: a corner move along a row, a column and a diagonal.
MOST_FLIPS = 18


@dataclass
class FlipsResult:
    """The answer to "is a position reachable where some legal move flips at least N discs?"."""

    status: Status
    min_flips: int
    plies: int
    solver: str
    variables: int
    clauses: int
    encode_seconds: float
    solve_seconds: float
    witness: Replay | None = None
    square: int | None = None  # the witness's move that flips them
    flipped: int | None = None
    proof: ProofCheck | None = None  # the DRAT proof of a refutation, and its check

    def to_json(self) -> dict:
        return {"status": self.status, "flips_wanted": self.min_flips, "plies": self.plies, "solver": self.solver,
                "record": self.witness.record if self.witness else None,
                "to_move": None if self.witness is None else "black" if self.witness.black_to_move else "white",
                "move": None if self.square is None else square_name(self.square), "flipped": self.flipped,
                "variables": self.variables, "clauses": self.clauses,
                "encode_seconds": round(self.encode_seconds, 3), "solve_seconds": round(self.solve_seconds, 3),
                **proof_json(self.proof)}


def solve_flips(min_flips: int, plies: int | None = None, solver: str | None = None, seconds: float | None = None,
                proof: str | Path | None = None, progress: Progress | None = None, passes: bool = True,
                search: bool = True) -> FlipsResult:
    """Is a position reachable within `plies` moves (default 59: every game with an empty square left) where
    some legal move flips at least `min_flips` discs? The witness is replayed and its flips counted. With
    `search`, a beam search over positions ranked by their best move's flips looks for one first (up to
    `MOST_FLIPS`, the most any move can flip); the formula answers what it does not find."""
    if not 1 <= min_flips <= 64:
        raise BadInput(f"the number of flipped discs must be between 1 and 64, got {min_flips}")
    plies = 59 if plies is None else plies
    if not 0 <= plies <= 59:
        raise BadInput(f"plies must be between 0 and 59, got {plies}")
    began = time.perf_counter()
    if search and min_flips <= MOST_FLIPS:
        found = beam_search(_START, _children, _most_flips, lambda state: _most_flips(state) >= min_flips, plies,
                            seconds=seconds)
        if found is not None:
            witness = replay(list(found.steps))
            square = _best_flip(witness.player, witness.opponent)[1]
            result = FlipsResult(Status.SAT, min_flips, plies, f"{BEAM}:{found.width}", 0, 0, 0.0,
                                 time.perf_counter() - began)
            return _with_flips_witness(result, witness, square)
        if seconds is not None:
            seconds = max(seconds - (time.perf_counter() - began), 0.0)
        began = time.perf_counter()
    formula = encode_flips(min_flips, plies, passes)
    encoded = time.perf_counter() - began
    solved = _solve_cnf(formula.cnf, solver, seconds, proof, progress)
    result = FlipsResult(Status.of(solved.answer), min_flips, plies,
                         solved.solver, formula.cnf.num_vars, formula.cnf.num_clauses, encoded, solved.seconds,
                         proof=solved.proof)
    if solved.answer:
        witness = replay(decode_moves(formula, solved.model))
        square = next(s for s in range(64) if formula.chosen[s] in solved.model)
        result = _with_flips_witness(result, witness, square)
    return result


def _with_flips_witness(result: FlipsResult, witness: Replay, square: int) -> FlipsResult:
    """`result` with its witness and the move that flips, checked on the engine: a strict game, a legal move,
    at least the discs asked for."""
    flipped = rules.popcount(rules.flips(witness.player, witness.opponent, 1 << square))
    if not (witness.strict and rules.legal_moves(witness.player, witness.opponent) >> square & 1
            and flipped >= result.min_flips and witness.discs_placed <= result.plies):
        raise AssertionError(f"witness {witness.record} {square_name(square)} does not replay to {result.min_flips} flips")
    result.witness, result.square, result.flipped = witness, square, flipped
    return result


def _best_flip(player: int, opponent: int) -> tuple[int, int]:
    """(the most discs a legal move flips, the lowest square of such a move); (0, -1) without a move."""
    best, square, legal = 0, -1, rules.legal_moves(player, opponent)
    while legal:
        move = legal & -legal
        legal ^= move
        flipped = rules.popcount(rules.flips(player, opponent, move))
        if flipped > best:
            best, square = flipped, move.bit_length() - 1
    return best, square


def _most_flips(state: tuple[int, int, int]) -> int:
    """The most discs a legal move of a beam state flips."""
    return _best_flip(state[0], state[1])[0]


CENTRE = 0x0000_0018_1800_0000  # d4, e4, d5, e5


def connected_to_centre(occupied: int) -> bool:
    """Whether every disc is 8-connected to the centre through other discs (true of every reachable board)."""
    region = occupied & CENTRE
    while True:
        grown = region
        for step in (rules.step_east, rules.step_west, rules.step_north, rules.step_south, rules.step_north_east,
                     rules.step_north_west, rules.step_south_east, rules.step_south_west):
            grown |= step(region, 1) & occupied
        if grown == region:
            return region == occupied
        region = grown


@dataclass
class ReachableResult:
    """Whether one exact position is reachable from the start."""

    status: Reachability
    reason: str
    plies: int = 0
    variables: int = 0
    clauses: int = 0
    encode_seconds: float = 0.0
    solve_seconds: float = 0.0
    witness: Replay | None = None
    proof: ProofCheck | None = None  # the DRAT proof of a refutation, and its check

    def to_json(self) -> dict:
        payload = {
            "status": self.status,
            "reason": self.reason,
            "record": self.witness.record if self.witness else None,
            "plies": self.plies,
            "variables": self.variables,
            "clauses": self.clauses,
            "encode_seconds": round(self.encode_seconds, 3),
            "solve_seconds": round(self.solve_seconds, 3),
        }
        return payload | proof_json(self.proof)


def solve_reachable(
    black: int,
    white: int,
    black_to_move: bool,
    solver: str | None = None,
    seconds: float | None = None,
    proof: str | Path | None = None,
    progress: Progress | None = None,
) -> ReachableResult:
    """Is this exact position reachable under strict rules? A record, or a refutation.

    Cheap necessary conditions come first (the centre is never empty; every disc is connected to the
    centre). Then SAT: the disc count fixes the number of moves (discs - 4), and passes are free in
    the direct encoding, so one formula covers every game that could end here.
    """
    occupied = black | white
    if black & white:
        raise BadInput("a square holds both a black and a white disc")
    if occupied & CENTRE != CENTRE:
        return ReachableResult(Reachability.UNREACHABLE, "a centre square is empty, but the centre is never emptied")
    if not connected_to_centre(occupied):
        return ReachableResult(Reachability.UNREACHABLE, "some disc is not connected to the centre; every move is adjacent to a disc")
    moves = rules.popcount(occupied) - 4
    final = FinalPosition(black, white, black_to_move)
    began = time.perf_counter()
    formula = encode_direct(0, moves, "strict", final)
    encode_seconds = time.perf_counter() - began
    solved = _solve_cnf(formula.cnf, solver, seconds, proof, progress)
    sizes = dict(plies=moves, variables=formula.cnf.num_vars, clauses=formula.cnf.num_clauses,
                 encode_seconds=encode_seconds, solve_seconds=solved.seconds)
    if solved.answer is None:
        return ReachableResult(Reachability.UNKNOWN, "the time limit ran out", **sizes)
    if solved.answer is False:
        return ReachableResult(Reachability.UNREACHABLE, f"SAT refutation: no game of {moves} moves ends here",
                               proof=solved.proof, **sizes)
    witness = replay(decode_moves(formula, solved.model))
    if witness.black_to_move != black_to_move:
        witness = replay([*witness.moves, PASS])  # the side with the turn has no move: the other side's turn
    if (witness.player, witness.opponent) != ((black, white) if black_to_move else (white, black)) or (
        witness.black_to_move != black_to_move
    ):
        raise AssertionError(f"witness {witness.record} does not replay to the position")
    return ReachableResult(Reachability.REACHABLE, f"reached after {len(witness.moves)} plies", witness=witness, **sizes)
