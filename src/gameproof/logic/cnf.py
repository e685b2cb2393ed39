"""CNF as a flat array of DIMACS ints, and cardinality constraints (circuits to CNF: :mod:`gameproof.logic.tseitin`)."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence

from pysat.card import CardEnc, EncType, UnsupportedBound

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
        """Append one clause of non-zero DIMACS literals (a clause that is refused leaves the CNF as it was)."""
        lits = array("i", clause)  # whole or not at all: a literal that is no 32-bit int fails here
        if 0 in lits:
            raise ValueError("a clause literal cannot be 0")
        if lits:
            self.num_vars = max(self.num_vars, max(lits), -min(lits))
        self.literals.extend(lits)
        self.literals.append(0)
        self.num_clauses += 1

    def clauses(self) -> Iterator[list[int]]:
        """Each clause as a list of ints."""
        flat = self.literals.tolist()
        end_of = flat.index
        start = 0
        while start < len(flat):
            end = end_of(0, start)
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
        lits = [int(lit) for lit in lits]
        top = max([self.num_vars, *map(abs, lits)])
        try:
            formula = build(lits=lits, bound=k, top_id=top, encoding=CARD_ENCODINGS[encoding])
        except UnsupportedBound:
            raise ValueError(f"the {encoding} encoding cannot bound {len(lits)} literals by {k}; "
                             "use seqcounter or totalizer") from None
        for clause in formula.clauses:
            self.add_clause(clause)
        self.num_vars = max(self.num_vars, top, formula.nv)
