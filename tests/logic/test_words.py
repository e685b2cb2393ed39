"""Differential tests: every symbolic operator agrees with Python ints modulo 2**width.

Each example builds the operator over fresh inputs, then evaluates the circuit bit-parallel on many random
input pairs at once (one lane per pair) and compares every lane with Python; a sample is also pinned by
unit assumptions and solved with SAT, decoding the result from the model.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.logic import (
    Bit,
    SymbolicBoolError,
    Word,
    ashr,
    concat,
    extract,
    ite,
    popcount,
    sext,
    sge,
    sgt,
    sle,
    slt,
    zext,
)
from gameproof.logic.circuit import Circuit, lit_value
from gameproof.logic.tseitin import tseitin
from gameproof.logic.solvers import open_solver


def signed(v, w):
    return v - (1 << w) if v >> (w - 1) & 1 else v


# name: (symbolic(x, y), python(a, b, w)); results are Words or Bits, Python results ints or bools.
BINARY = {
    "and": (lambda x, y: x & y, lambda a, b, w: a & b),
    "or": (lambda x, y: x | y, lambda a, b, w: a | b),
    "xor": (lambda x, y: x ^ y, lambda a, b, w: a ^ b),
    "invert": (lambda x, y: ~x, lambda a, b, w: ~a),
    "add": (lambda x, y: x + y, lambda a, b, w: a + b),
    "sub": (lambda x, y: x - y, lambda a, b, w: a - b),
    "neg": (lambda x, y: -x, lambda a, b, w: -a),
    "mul": (lambda x, y: x * y, lambda a, b, w: a * b),
    "shl_var": (lambda x, y: x << y, lambda a, b, w: a << b if b < w else 0),
    "shr_var": (lambda x, y: x >> y, lambda a, b, w: a >> b),
    "eq": (lambda x, y: x == y, lambda a, b, w: a == b),
    "ne": (lambda x, y: x != y, lambda a, b, w: a != b),
    "lt": (lambda x, y: x < y, lambda a, b, w: a < b),
    "le": (lambda x, y: x <= y, lambda a, b, w: a <= b),
    "gt": (lambda x, y: x > y, lambda a, b, w: a > b),
    "ge": (lambda x, y: x >= y, lambda a, b, w: a >= b),
    "slt": (slt, lambda a, b, w: signed(a, w) < signed(b, w)),
    "sle": (sle, lambda a, b, w: signed(a, w) <= signed(b, w)),
    "sgt": (sgt, lambda a, b, w: signed(a, w) > signed(b, w)),
    "sge": (sge, lambda a, b, w: signed(a, w) >= signed(b, w)),
    "ite": (lambda x, y: ite(x[0], y, x), lambda a, b, w: b if a & 1 else a),
    "popcount": (lambda x, y: popcount(x), lambda a, b, w: a.bit_count()),
    "bit_count": (lambda x, y: x.bit_count() + y, lambda a, b, w: a.bit_count() + b),
    "ashr_3": (lambda x, y: ashr(x, 3), lambda a, b, w: signed(a, w) >> 3),
    "zext_concat": (lambda x, y: concat(extract(x, x.width - 1, x.width // 2), Word.constant(0, x.width // 2)),
                    lambda a, b, w: (a >> (w // 2)) << (w // 2)),
    "sext_low": (lambda x, y: extract(sext(x, 2 * x.width), 2 * x.width - 1, x.width),
                 lambda a, b, w: (1 << w) - 1 if a >> (w - 1) else 0),
    "int_mix": (lambda x, y: (3 & x) + (x - 1) * 5 - (7 ^ y) + (x | 0x55) + (1 - y),
                lambda a, b, w: (3 & a) + (a - 1) * 5 - (7 ^ b) + (a | 0x55) + (1 - b)),
    "bitboard": (lambda x, y: ((x << 1) & 0xFEFEFEFEFEFEFEFE) | (x & ((0 - x) & 0xFFFFFFFFFFFFFFFF))
                 | ((y >> (x.width - 1)) - 1),
                 lambda a, b, w: ((a << 1) & 0xFEFEFEFEFEFEFEFE) | (a & -a) | ((b >> (w - 1)) - 1)),
}
LANES = 24


def _python(name, a, b, w):
    if name in ("zext_concat", "sext_low") and w < 2:
        return None
    value = BINARY[name][1](a, b, w)
    return int(value) & ((1 << w) - 1) if not isinstance(value, bool) else value


def _build(name, w):
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(w)])
    y = Word(circuit, [circuit.new_input() for _ in range(w)])
    return circuit, x, y, BINARY[name][0](x, y)


def _simulate(circuit, x, y, result, pairs):
    inputs = {}
    for word, index in ((x, 0), (y, 1)):
        for i, lit in enumerate(word.bits):
            inputs[lit >> 1] = sum(((pair[index] >> i) & 1) << lane for lane, pair in enumerate(pairs))
    values = circuit.simulate(inputs, len(pairs))
    lits = (result.lit,) if isinstance(result, Bit) else result.bits
    out = []
    for lane in range(len(pairs)):
        bits = [(lit_value(values, lit, len(pairs)) >> lane) & 1 for lit in lits]
        value = sum(bit << i for i, bit in enumerate(bits))
        out.append(bool(value) if isinstance(result, Bit) else value)
    return out


def _solve(circuit, x, y, result, a, b):
    lits = (result.lit,) if isinstance(result, Bit) else result.bits
    pinned = [lit ^ (1 - ((v >> i) & 1)) for word, v in ((x, a), (y, b)) for i, lit in enumerate(word.bits)]
    encoding = tseitin(circuit, [lit for lit in lits if lit > 1] + pinned, polarity=False)
    with open_solver() as sat:
        sat.add(encoding.cnf)
        assert sat.solve([encoding.lit(p) for p in pinned if p > 1]) is True
        model = sat.model()
    value = sum(encoding.value(model, lit) << i for i, lit in enumerate(lits))
    return bool(value) if isinstance(result, Bit) else value


@pytest.mark.parametrize("name", sorted(BINARY))
@settings(max_examples=12, deadline=None)
@given(width=st.integers(1, 64), seed=st.integers(0, 2**32))
def test_operator_matches_python(name, width, seed):
    if name in ("zext_concat", "sext_low") and width < 2:
        return
    rng = random.Random(seed)
    edge = [0, 1, (1 << width) - 1, 1 << (width - 1)]
    pairs = [(rng.choice(edge), rng.choice(edge)) for _ in range(4)]
    pairs += [(rng.getrandbits(width), rng.getrandbits(width)) for _ in range(LANES - 4)]
    if name in ("shl_var", "shr_var"):
        pairs = [(a, rng.randrange(width + 2) if i % 2 else b) for i, (a, b) in enumerate(pairs)]
        pairs = [(a, b & ((1 << width) - 1)) for a, b in pairs]
    circuit, x, y, result = _build(name, width)
    expected = [_python(name, a, b, width) for a, b in pairs]
    assert _simulate(circuit, x, y, result, pairs) == expected
    a, b = pairs[rng.randrange(len(pairs))]
    assert _solve(circuit, x, y, result, a, b) == _python(name, a, b, width)


def test_shift_amount_of_another_width():
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(8)])
    s = Word(circuit, [circuit.new_input() for _ in range(5)])
    pairs = [(a, s_) for a in (0x81, 0xFF, 0x35) for s_ in range(32)]
    values = _simulate(circuit, x, s, x << s, pairs)
    assert values == [(a << s_) & 0xFF for a, s_ in pairs]


def test_constants_fold_and_masks_are_free():
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(64)])
    assert (x & 0xFFFF_FFFF_FFFF_FFFF).bits == x.bits
    assert (x | 0).bits == x.bits and (x ^ 0).bits == x.bits and (x + 0).bits == x.bits
    shifted = (x << 1) & 0xFEFEFEFEFEFEFEFE
    assert circuit.num_gates == 0, "constant shifts and masks are wiring"
    assert shifted.bits[0] == 0 and shifted.bits[8] == 0 and shifted.bits[9] == x.bits[8]
    assert (Word.constant(6, 8) * 7).value == 42
    assert (Word.constant(3, 4) - 5).value == 14
    assert (x - x).value == 0 and (x ^ x).value == 0
    assert circuit.num_gates == 0


def test_identical_terms_are_built_once():
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(16)])
    y = Word(circuit, [circuit.new_input() for _ in range(16)])
    first = (x * y + (x ^ y)).bits
    gates = circuit.num_gates
    assert (x * y + (y ^ x)).bits == first
    assert circuit.num_gates == gates


def test_comparisons_above_the_width_follow_python():
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(8)])
    assert (x < 256).value is True and (x == 256).value is False
    assert (x > 300).value is False and (x != 300).value is True


def test_bool_of_symbolic_values_says_what_to_write():
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(8)])
    with pytest.raises(SymbolicBoolError, match="ite"):
        bool(x)
    with pytest.raises(SymbolicBoolError, match="`&` `|` `~`"):
        if x == 3:
            pass
    with pytest.raises(SymbolicBoolError):
        (x == 1) and (x == 2)  # noqa: B015


def test_width_mismatch_and_bad_mixing_are_errors():
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(8)])
    y = Word(circuit, [circuit.new_input() for _ in range(16)])
    with pytest.raises(ValueError, match="width mismatch"):
        x + y
    with pytest.raises(TypeError, match="zext"):
        x & x[0]
    with pytest.raises(TypeError, match="Word.constant"):
        1 << x
    with pytest.raises(ValueError, match="different circuits"):
        other = Circuit()
        x + Word(other, [other.new_input() for _ in range(8)])
    assert zext(x[0], 8).width == 8


def test_plain_python_fallbacks():
    assert ite(True, 1, 2) == 1 and ite(0, 1, 2) == 2
    assert popcount(0b1011) == 3
    assert extract(0xABCD, 11, 4) == 0xBC
    assert slt(0xFF, 0, width=8) is True
    assert ashr(0x80, 4, width=8) == 0xF8
