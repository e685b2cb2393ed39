"""The direct encoding equals the rules: one-ply miters that are unsatisfiable for every board.

:mod:`~gameproof.games.othello.reach_direct` restates the Othello rules as hand-built clauses, for
speed. This module proves, by SAT, that one ply of it is exactly one ply of :mod:`rules` — for every
board, not only reachable ones. Inputs are free: the two sides' discs (disjoint, with the four centre
squares occupied, which holds at the start and is kept by every move), the choice of a square or a
stop, and under relaxed rules whether the side whose turn it is passes. The rules side is
``rules.legal_moves``, ``rules.flips`` and ``rules.after_move`` traced by :mod:`gameproof.logic`; the
encoding side is the builder's own ``turn``, ``choose``, ``reaches_and_flips`` and ``transition``.

Two questions, each a formula that must be unsatisfiable:

- :attr:`Claim.SOUND` — the encoding exactly as the reach formulas build it: some step it allows is
  not a rules step (an illegal square, a pass the rules do not force under strict rules), or it counts
  an illegal square as legal, or its flips or next board differ from the rules'.
- :attr:`Claim.COMPLETE` — the encoding with the mover's legal squares fully defined (the reach
  formulas keep only the "legal implies capturing" half, a subset of these clauses): for some rules
  step, its pass, legal squares, flips or next board differ, or one of the constraints the encoding
  adds (a move must be legal; occupied squares stay occupied; no square holds two discs) rules the
  step out, or the next board breaks the invariant above.

Together, by induction over the plies from the start position: the games the P-ply formula allows are
the rules' games of at most P moves (passes free), with the same boards and the same legal-move
counts. What the miters do not cover is argued in ``docs/othello.md``: the first move fixed to f5 (the
four openings are symmetric) and the stops pruned where too few squares can be legal.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from gameproof.games.othello import rules
from gameproof.games.othello.reach_direct import CENTRE_SQUARES, RULE_SETS, _Builder
from gameproof.logic.circuit import Circuit
from gameproof.logic.cnf import Cnf
from gameproof.logic.tseitin import tseitin
from gameproof.logic.solvers import open_solver
from gameproof.logic.words import Bit, Word, ite


class Claim(enum.Enum):
    """What a miter shows when it is unsatisfiable."""

    SOUND = "sound"
    COMPLETE = "complete"


class Square(enum.Enum):
    """A square's content in a miter's board: free, or fixed (to exercise the encoder's constant folding)."""

    FREE = "free"
    EMPTY = "empty"
    MINE = "mine"
    THEIRS = "theirs"


@dataclass
class Miter:
    """A one-ply miter: satisfiable exactly when the encoding and the rules disagree somewhere."""

    claim: Claim
    rule_set: str
    cnf: Cnf
    inputs: dict[str, list[int]]  # input name -> DIMACS literal per bit (mine, theirs, move, stop, pass)


@dataclass
class MiterResult:
    """The answer for one miter: equal (unsat), or the board where they differ."""

    claim: Claim
    rule_set: str
    equal: bool
    variables: int
    clauses: int
    seconds: float
    counterexample: dict[str, int] | None = None


class _MiterBuilder(_Builder):
    """The direct encoding's builder over a given CNF, collecting its constraints instead of adding them."""

    def __init__(self, cnf: Cnf, true: int, rule_set: str, claim: Claim) -> None:
        super().__init__(1, 0, rule_set)
        self.cnf, self.true = cnf, true
        self.full_legal = claim is Claim.COMPLETE
        self.collected: list[tuple[int, ...]] | None = [] if claim is Claim.COMPLETE else None

    def require(self, *lits: int) -> None:
        if self.collected is None:
            super().require(*lits)
        else:
            self.collected.append(lits)


def build_miter(rule_set: str, claim: Claim, board: Mapping[int, Square] | None = None) -> Miter:
    """The miter for `claim` under `rule_set`; `board` fixes some squares (the rest stay free)."""
    if rule_set not in RULE_SETS:
        raise ValueError(f"unknown rule set {rule_set!r}; choose from {', '.join(RULE_SETS)}")
    board = board or {}
    circuit = Circuit()
    mine_bits = [_square_bit(circuit, board.get(s, Square.FREE), Square.MINE) for s in range(64)]
    theirs_bits = [_square_bit(circuit, board.get(s, Square.FREE), Square.THEIRS) for s in range(64)]
    move_bits = [circuit.new_input() for _ in range(64)]
    stop_bit, pass_bit = circuit.new_input(), circuit.new_input()
    mine, theirs, move = Word(circuit, mine_bits), Word(circuit, theirs_bits), Word(circuit, move_bits)
    stop = Bit(circuit, stop_bit)
    passes = (rules.legal_moves(mine, theirs) == 0) if rule_set == "strict" else Bit(circuit, pass_bit)
    mover, other = ite(passes, theirs, mine), ite(passes, mine, theirs)
    legal = rules.legal_moves(mover, other)
    flips = rules.flips(mover, other, move)
    after_mover, after_other = rules.after_move(mover, other, move)
    next_mine, next_theirs = ite(stop, mine, after_mover), ite(stop, theirs, after_other)
    rule_words = [legal, flips, next_mine, next_theirs]
    inputs_lits = [*mine_bits, *theirs_bits, *move_bits, stop_bit, pass_bit]
    encoding = tseitin(circuit, [*inputs_lits, passes.lit, *(b for w in rule_words for b in w.bits)],
                       polarity=False)
    cnf, true = encoding.cnf, encoding.lit(1)
    lit = encoding.lit

    builder = _MiterBuilder(cnf, true, rule_set, claim)
    e_mine, e_theirs = [lit(b) for b in mine_bits], [lit(b) for b in theirs_bits]
    e_move, e_stop = [lit(b) for b in move_bits], lit(stop_bit)
    e_pass, e_mover, e_other, capture, e_legal = builder.turn(e_mine, e_theirs, ply=1)
    if rule_set == "relaxed":
        builder.clause(-e_pass, lit(pass_bit))
        builder.clause(e_pass, -lit(pass_bit))
    builder.choose(e_move, e_stop, e_legal)
    e_flips = builder.reaches_and_flips(e_other, e_move, capture)
    e_next_mine, e_next_theirs = builder.transition(e_mine, e_theirs, e_mover, e_other, e_move, e_flips, e_stop)

    # The inputs: disjoint sides, the centre occupied.
    for s in range(64):
        builder.clause(-e_mine[s], -e_theirs[s])
    for s in CENTRE_SQUARES:
        builder.clause(e_mine[s], e_theirs[s])

    r_legal, r_flips = [lit(b) for b in legal.bits], [lit(b) for b in flips.bits]
    r_next_mine, r_next_theirs = [lit(b) for b in next_mine.bits], [lit(b) for b in next_theirs.bits]
    differences = [builder.xor(e_pass, lit(passes.lit))]
    differences += [builder.xor(a, b) for a, b in zip(e_next_mine, r_next_mine)]
    differences += [builder.xor(a, b) for a, b in zip(e_next_theirs, r_next_theirs)]
    differences += [builder.xor(a, b) for a, b in zip(e_flips, r_flips)]
    if claim is Claim.SOUND:
        differences += [builder.and_([e_move[s], -r_legal[s]]) for s in range(64)]  # an illegal square played
        differences += [builder.and_([e_legal[s], -r_legal[s]]) for s in range(64)]  # or counted
    else:
        for s in range(64):  # only rules steps
            builder.clause(-e_move[s], r_legal[s])
        differences += [builder.xor(a, b) for a, b in zip(e_legal, r_legal)]
        differences += [builder.and_([-x for x in clause]) for clause in builder.collected]
        differences += [builder.and_([e_next_mine[s], e_next_theirs[s]]) for s in range(64)]
        differences += [builder.and_([-e_next_mine[s], -e_next_theirs[s]]) for s in CENTRE_SQUARES]
    cnf.add_clause([d for d in differences if d != -true] or [-true])
    names = {"mine": e_mine, "theirs": e_theirs, "move": e_move, "stop": [e_stop], "pass": [e_pass]}
    return Miter(claim, rule_set, cnf, names)


def _square_bit(circuit: Circuit, square: Square, side: Square) -> int:
    if square is Square.FREE:
        return circuit.new_input()
    return int(square is side)


def check_miter(miter: Miter, solver: str = "cadical195", proof: str | Path | None = None) -> MiterResult:
    """Solve `miter`: unsatisfiable means the encoding and the rules agree (with a DRAT proof in `proof`)."""
    started = time.perf_counter()
    with open_solver(solver, proof=proof is not None) as sat:
        sat.add(miter.cnf)
        answer = sat.solve()
        model = sat.model() if answer else set()
        if proof is not None and answer is False:
            sat.write_proof(proof)
    result = MiterResult(miter.claim, miter.rule_set, answer is False, miter.cnf.num_vars, miter.cnf.num_clauses,
                         time.perf_counter() - started)
    if answer:
        result.counterexample = {name: sum(1 << i for i, x in enumerate(lits) if x in model)
                                 for name, lits in miter.inputs.items()}
    return result
