"""Top-level unit propagation keeps meaning and shrinks circuits."""

import random

from gameproof.logic import Word
from gameproof.logic.circuit import Circuit, lit_value
from gameproof.logic.simplify import propagate_units, top_level_inputs


def test_bounds_fix_high_bits_and_shrink_the_multiplier():
    circuit = Circuit()
    a = Word(circuit, [circuit.new_input() for _ in range(32)])
    b = Word(circuit, [circuit.new_input() for _ in range(32)])
    asserted = ((a < 1 << 16) & (b < 1 << 16) & (a * b == 65519 * 65521)).lit
    high = {w.bits[i] >> 1: 0 for w in (a, b) for i in range(16, 32)}
    odd = {a.bits[0] >> 1: 1, b.bits[0] >> 1: 1}  # N is odd: bit 0 of the product is a0 & b0
    assert top_level_inputs(circuit, asserted) == high | odd
    smaller, mapping = propagate_units(circuit, asserted)
    assert smaller.num_gates < 0.6 * circuit.num_gates
    assert all(mapping[lit >> 1] == 0 for lit in a.bits[16:] + b.bits[16:])


def test_rebuilt_circuit_agrees_wherever_the_assertion_holds():
    rng = random.Random(7)
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(12)])
    y = Word(circuit, [circuit.new_input() for _ in range(12)])
    out = (x * y) ^ (x >> 3) + y.bit_count()
    asserted = ((x & 0xF0F) == 0x101).lit  # fixes eight bits of x
    smaller, mapping = propagate_units(circuit, asserted)
    for _ in range(50):
        xv = (rng.getrandbits(12) & ~0xF0F) | 0x101
        yv = rng.getrandbits(12)
        old = circuit.simulate({lit >> 1: (v >> i) & 1 for w, v in ((x, xv), (y, yv)) for i, lit in enumerate(w.bits)})
        new_inputs = {}
        for w, v in ((x, xv), (y, yv)):
            for i, lit in enumerate(w.bits):
                if mapping[lit >> 1] > 1:
                    new_inputs[mapping[lit >> 1] >> 1] = (v >> i) & 1
        new = smaller.simulate(new_inputs)
        for lit in out.bits:
            moved = mapping[lit >> 1] ^ (lit & 1)
            assert lit_value(old, lit) == lit_value(new, moved)
