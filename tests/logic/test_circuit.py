"""Gate normalisation and folding are sound: random gate soups agree with truth tables."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.logic import Bit, ite
from gameproof.logic.circuit import FALSE, TRUE, Circuit, lit_value

LANES = 16  # all assignments of four inputs
ONES = (1 << LANES) - 1
REFERENCE = {
    "and_": lambda a, b, c: a & b,
    "or_": lambda a, b, c: a | b,
    "xor": lambda a, b, c: a ^ b,
    "ite": lambda a, b, c: (a & b) | (~a & c & ONES),
    "xor3": lambda a, b, c: a ^ b ^ c,
    "maj": lambda a, b, c: (a & b) | (a & c) | (b & c),
}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_gates_match_truth_tables(seed):
    rng = random.Random(seed)
    circuit = Circuit()
    inputs = [circuit.new_input() for _ in range(4)]
    truth = {FALSE: 0, TRUE: ONES}
    for i, lit in enumerate(inputs):
        truth[lit] = sum(((lane >> i) & 1) << lane for lane in range(LANES))
    for lit in list(truth):
        truth[lit ^ 1] = truth[lit] ^ ONES
    pool = list(truth)
    for _ in range(60):
        name = rng.choice(sorted(REFERENCE))
        args = [rng.choice(pool) for _ in range(3)]
        arity = 3 if name in ("ite", "xor3", "maj") else 2
        lit = getattr(circuit, name)(*args[:arity])
        expected = REFERENCE[name](*(truth[a] for a in args))
        assert truth.setdefault(lit, expected) == expected, (name, args)
        truth[lit ^ 1] = expected ^ ONES
        pool += [lit, lit ^ 1]
    values = circuit.simulate({lit >> 1: truth[lit] for lit in inputs}, LANES)
    for lit, table in truth.items():
        assert lit_value(values, lit, LANES) == table


def test_bit_operators_match_python_bools():
    circuit = Circuit()
    p, q = Bit(circuit, circuit.new_input()), Bit(circuit, circuit.new_input())
    cases = {
        "and": (p & q, lambda a, b: a and b), "or": (p | q, lambda a, b: a or b),
        "xor": (p ^ q, lambda a, b: a != b), "not": (~p, lambda a, b: not a),
        "eq": (p == q, lambda a, b: a == b), "ne": (p != q, lambda a, b: a != b),
        "mix": ((p & True) | (q ^ False) | (False & q), lambda a, b: a or b),
        "ite": (ite(p, q, ~q), lambda a, b: b if a else not b),
    }
    values = circuit.simulate({p.lit >> 1: 0b1010, q.lit >> 1: 0b1100}, 4)
    for name, (bit, reference) in cases.items():
        got = lit_value(values, bit.lit, 4)
        want = sum(reference(bool(0b1010 >> k & 1), bool(0b1100 >> k & 1)) << k for k in range(4))
        assert got == want, name
