"""CNF as a flat array of DIMACS ints, Tseitin encoding of circuits, and cardinality constraints."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence

from pysat.card import CardEnc, EncType, UnsupportedBound

from gameproof.logic.circuit import AND, INPUT, XOR, Circuit

CARD_ENCODINGS = {
    name: getattr(EncType, name)
    for name in ("pairwise", "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise", "ladder", "totalizer",
                 "mtotalizer", "kmtotalizer")
}


class Cnf:
    """Clauses stored back to back as DIMACS ints, each ended by 0 (four bytes per literal)."""

    def __init__(self, num_vars: int = 0) -> None:
        self.num_vars = num_vars
        self.num_clauses = 0
        self.literals = array("i")

    def new_var(self) -> int:
        """A fresh variable number."""
        self.num_vars += 1
        return self.num_vars

    def add_clause(self, clause: Iterable[int]) -> None:
        """Append one clause of non-zero DIMACS literals."""
        start = len(self.literals)
        self.literals.extend(clause)
        if 0 in self.literals[start:]:
            del self.literals[start:]
            raise ValueError("a clause literal cannot be 0")
        for lit in self.literals[start:]:
            self.num_vars = max(self.num_vars, abs(lit))
        self.literals.append(0)
        self.num_clauses += 1

    def clauses(self) -> Iterator[list[int]]:
        """Each clause as a list of ints."""
        flat = self.literals.tolist()
        start = 0
        for end, lit in enumerate(flat):
            if lit == 0:
                yield flat[start:end]
                start = end + 1

    def atmost(self, lits: Sequence[int], k: int, encoding: str = "seqcounter") -> None:
        """At most ``k`` of ``lits`` are true (a PySAT cardinality encoding, auxiliary variables added)."""
        self._card(CardEnc.atmost, lits, k, encoding)

    def atleast(self, lits: Sequence[int], k: int, encoding: str = "seqcounter") -> None:
        """At least ``k`` of ``lits`` are true."""
        self._card(CardEnc.atleast, lits, k, encoding)

    def exactly(self, lits: Sequence[int], k: int, encoding: str = "seqcounter") -> None:
        """Exactly ``k`` of ``lits`` are true."""
        self._card(CardEnc.equals, lits, k, encoding)

    def _card(self, build, lits: Sequence[int], k: int, encoding: str) -> None:
        if encoding not in CARD_ENCODINGS:
            raise ValueError(f"unknown cardinality encoding {encoding!r}; known: {', '.join(CARD_ENCODINGS)}")
        top = max([self.num_vars, *map(abs, lits)])
        try:
            formula = build(lits=list(lits), bound=k, top_id=top, encoding=CARD_ENCODINGS[encoding])
        except UnsupportedBound:
            raise ValueError(f"the {encoding} encoding cannot bound {len(lits)} literals by {k}; "
                             "use seqcounter or totalizer") from None
        for clause in formula.clauses:
            self.add_clause(clause)
        self.num_vars = max(self.num_vars, top, formula.nv)


class Encoding:
    """A circuit cone in CNF: the clauses plus the map from circuit variables to CNF variables."""

    def __init__(self, circuit: Circuit, cnf: Cnf, var_map: array) -> None:
        self.circuit = circuit
        self.cnf = cnf
        self.var_map = var_map
        self._true = 0

    def lit(self, lit: int) -> int:
        """The DIMACS literal for a circuit literal in the encoded cone (constants get a fixed variable)."""
        if lit <= 1:
            return self._true_var() if lit else -self._true_var()
        var = self.var_map[lit >> 1]
        if var == 0:
            raise KeyError(f"circuit literal {lit} is outside the encoded cone")
        return -var if lit & 1 else var

    def _true_var(self) -> int:
        if not self._true:
            self._true = self.cnf.new_var()
            self.cnf.add_clause([self._true])
        return self._true

    def value(self, model: set[int] | Sequence[int], lit: int) -> bool:
        """Truth of a circuit literal under a model (a set of true DIMACS literals); unencoded inputs read 0."""
        if lit <= 1:
            return bool(lit)
        var = self.var_map[lit >> 1]
        truth = var in model if var else False
        return truth != bool(lit & 1)


def tseitin(circuit: Circuit, roots: Sequence[int], polarity: bool = True) -> Encoding:
    """Encode the cone of ``roots`` so that asserting a root literal true constrains the circuit.

    With ``polarity`` (Plaisted-Greenbaum), a gate only gets the implication directions in which it is
    used: every root literal may be asserted true, never false. Without it, each gate is fully defined,
    so models correspond one to one with input assignments (useful for counting).
    """
    kind, first, second, third = circuit.kind, circuit.first, circuit.second, circuit.third
    cone = circuit.cone(roots)
    need = bytearray(len(kind))  # bit 1: the literal may be true (n -> gate), bit 2: false (gate -> n)
    if polarity:
        for lit in roots:
            need[lit >> 1] |= 2 if lit & 1 else 1
        for var in reversed(cone):
            p = need[var]
            k = kind[var]
            if not p or k == INPUT:
                continue
            a, b = first[var], second[var]
            if k == AND:
                for child in (a, b):
                    need[child >> 1] |= (p if not child & 1 else ((p & 1) << 1 | p >> 1))
            elif k == XOR:
                need[a >> 1] = need[b >> 1] = 3
            else:
                need[a >> 1] = 3
                for child in (b, third[var]):
                    need[child >> 1] |= (p if not child & 1 else ((p & 1) << 1 | p >> 1))
    else:
        for var in cone:
            need[var] = 3
    var_map = array("i", bytes(4 * len(kind)))
    for number, var in enumerate(cone, 1):
        var_map[var] = number
    out = array("i")
    add = out.extend
    for var in cone:
        k = kind[var]
        if k == INPUT:
            continue
        p = need[var]
        n = var_map[var]
        a, b = first[var], second[var]
        x = -var_map[a >> 1] if a & 1 else var_map[a >> 1]
        y = -var_map[b >> 1] if b & 1 else var_map[b >> 1]
        if k == AND:
            if p & 1:
                add((-n, x, 0, -n, y, 0))
            if p & 2:
                add((n, -x, -y, 0))
        elif k == XOR:
            if p & 1:
                add((-n, x, y, 0, -n, -x, -y, 0))
            if p & 2:
                add((n, -x, y, 0, n, x, -y, 0))
        else:
            e = third[var]
            z = -var_map[e >> 1] if e & 1 else var_map[e >> 1]
            if p & 1:
                add((-n, -x, y, 0, -n, x, z, 0))
            if p & 2:
                add((n, -x, -y, 0, n, x, -z, 0))
    cnf = Cnf(len(cone))
    cnf.literals = out
    cnf.num_clauses = out.count(0)
    return Encoding(circuit, cnf, var_map)
