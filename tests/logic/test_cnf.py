"""Encodings counted against brute force at small widths."""

import itertools
from math import comb

import pytest

from gameproof.logic import Word
from gameproof.logic.circuit import Circuit
from gameproof.logic.cnf import CARD_ENCODINGS, Cnf
from gameproof.logic.tseitin import tseitin
from gameproof.logic.solvers import open_solver

RELATIONS = {
    "add": lambda x, y, w: x + y == (x ^ y) * 3 if isinstance(x, Word) else (x + y) % (1 << w) == (x ^ y) * 3 % (1 << w),
    "mul_lt": lambda x, y, w: x * y < x + 1 if isinstance(x, Word) else (x * y) % (1 << w) < (x + 1) % (1 << w),
    "shift": lambda x, y, w: (x << y) ^ (x >> 1) == y if isinstance(x, Word)
    else (((x << y) if y < w else 0) % (1 << w)) ^ (x >> 1) == y,
    "popcount": lambda x, y, w: x.bit_count() == y if isinstance(x, Word) else x.bit_count() == y,
}


def count_models(cnf: Cnf, project: list[int], assumptions=()) -> int:
    """Number of distinct assignments to ``project`` that extend to a model."""
    count = 0
    with open_solver() as sat:
        sat.add(cnf)
        while sat.solve(assumptions):
            count += 1
            model = sat.model()
            block = Cnf()
            block.add_clause([-v if v in model else v for v in project])
            sat.add(block)
    return count


@pytest.mark.parametrize("name", sorted(RELATIONS))
@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("polarity", [False, True])
def test_relation_models_match_brute_force(name, width, polarity):
    relation = RELATIONS[name]
    expected = sum(bool(relation(a, b, width)) for a in range(1 << width) for b in range(1 << width))
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(width)])
    y = Word(circuit, [circuit.new_input() for _ in range(width)])
    root = relation(x, y, width).lit
    encoding = tseitin(circuit, [root], polarity=polarity)
    inputs = [encoding.var_map[lit >> 1] for lit in x.bits + y.bits if encoding.var_map[lit >> 1]]
    free = 2 * width - len(inputs)  # inputs the relation does not depend on
    if polarity:
        counted = count_models(encoding.cnf, inputs, [encoding.lit(root)])
    else:  # a full Tseitin encoding has exactly one model per input assignment
        counted = count_models(encoding.cnf, list(range(1, encoding.cnf.num_vars + 1)), [encoding.lit(root)])
    assert counted << free == expected


@pytest.mark.parametrize("encoding", sorted(set(CARD_ENCODINGS) - {"mtotalizer"}))
@pytest.mark.parametrize("n", [1, 3, 5])
def test_cardinality_encodings_count(encoding, n):
    lits = list(range(1, n + 1))
    for k in range(n + 1):
        for kind, ok in (("atmost", lambda j: j <= k), ("atleast", lambda j: j >= k), ("exactly", lambda j: j == k)):
            cnf = Cnf(n)
            if encoding in ("pairwise", "bitwise", "ladder") and 1 < k < n - 1:
                with pytest.raises(ValueError, match="seqcounter"):  # PySAT offers these for k <= 1 only
                    getattr(cnf, kind)(lits, k, encoding=encoding)
                continue
            getattr(cnf, kind)(lits, k, encoding=encoding)
            assert count_models(cnf, lits) == sum(comb(n, j) for j in range(n + 1) if ok(j)), (kind, k)


def test_popcount_comparison_matches_cardinality_constraint():
    n = 7
    for k in range(n + 1):
        circuit = Circuit()
        x = Word(circuit, [circuit.new_input() for _ in range(n)])
        root = (x.bit_count() <= k).lit
        encoding = tseitin(circuit, [root] if root > 1 else [], polarity=False)
        cnf = encoding.cnf
        lits = [encoding.var_map[b >> 1] for b in x.bits if encoding.var_map[b >> 1]]
        if len(lits) < n:  # k == n: the comparison is constant true
            assert k == n
            continue
        card = Cnf()
        card.num_vars = cnf.num_vars
        card.atleast(lits, k + 1)
        with open_solver() as sat:  # the circuit says <= k, the PySAT encoding says > k: impossible
            sat.add(cnf)
            sat.add(card)
            assert sat.solve([encoding.lit(root)]) is False
        assert count_models(cnf, lits, [encoding.lit(root)]) == sum(comb(n, j) for j in range(k + 1))


def test_cnf_add_clause_and_iteration():
    cnf = Cnf()
    cnf.add_clause([1, -3])
    cnf.add_clause([2])
    assert list(cnf.clauses()) == [[1, -3], [2]] and cnf.num_vars == 3 and cnf.num_clauses == 2
    with pytest.raises(ValueError):
        cnf.add_clause([1, 0])
    with pytest.raises(ValueError, match="known"):
        cnf.atmost([1, 2], 1, encoding="nope")
    assert list(itertools.islice(cnf.clauses(), 5)) == [[1, -3], [2]]
