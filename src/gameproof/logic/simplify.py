"""Top-level unit propagation: inputs fixed by an asserted conjunction become constants.

``assume(a < 1 << 16)`` on a 32-bit ``a`` asserts that bits 16..31 are zero. Rebuilding the circuit
with those inputs replaced by constants lets hash-consing and constant folding shrink everything that
depends on them (a 32-bit multiplier becomes a 16-bit one), which a CNF-level unit clause would not.
"""

from __future__ import annotations

from collections.abc import Mapping

from gameproof.logic.circuit import AND, INPUT, ITE, XOR, XOR3, Circuit


def top_level_inputs(circuit: Circuit, lit: int) -> dict[int, int]:
    """Inputs that ``lit`` being true fixes directly: its top-level AND conjuncts that are input literals,
    as {input variable: constant literal}."""
    gates = circuit.gates
    fixed: dict[int, int] = {}
    stack = [lit]
    seen = set()
    while stack:
        lit = stack.pop()
        if lit in seen or lit <= 1:
            continue
        seen.add(lit)
        kind, a, b, _ = gates[2 * (lit & -2) : 2 * (lit & -2) + 4]
        if kind == AND and not lit & 1:
            stack += (a, b)
        elif kind == INPUT:
            fixed[lit >> 1] = 1 - (lit & 1)
    return fixed


def substitute(circuit: Circuit, fixed: Mapping[int, int]) -> tuple[Circuit, list[int]]:
    """A new circuit with the input variables in ``fixed`` replaced by constant literals, and the map from
    every old variable to its new literal (apply as ``mapping[lit >> 1] ^ (lit & 1)``)."""
    new = Circuit()
    and_, xor, ite, xor3, maj, new_input = new.and_, new.xor, new.ite, new.xor3, new.maj, new.new_input
    gates = circuit.gates
    mapping = [0] * circuit.num_vars
    columns = zip(range(1, circuit.num_vars), gates[4::4], gates[5::4], gates[6::4], gates[7::4])
    for var, kind, a, b, c in columns:
        if kind == AND:
            mapping[var] = and_(mapping[a >> 1] ^ (a & 1), mapping[b >> 1] ^ (b & 1))
        elif kind == INPUT:
            mapping[var] = fixed[var] if var in fixed else new_input()
        elif kind == XOR:
            mapping[var] = xor(mapping[a >> 1] ^ (a & 1), mapping[b >> 1] ^ (b & 1))
        else:
            x, y, z = mapping[a >> 1] ^ (a & 1), mapping[b >> 1] ^ (b & 1), mapping[c >> 1] ^ (c & 1)
            mapping[var] = ite(x, y, z) if kind == ITE else xor3(x, y, z) if kind == XOR3 else maj(x, y, z)
    return new, mapping


def propagate_units(circuit: Circuit, asserted: int) -> tuple[Circuit, list[int]]:
    """Fix the inputs that ``asserted`` forces at top level, rebuild, and repeat until nothing new is
    fixed. Returns the final circuit and the map from the original variables to its literals."""
    mapping = list(range(0, 2 * circuit.num_vars, 2))
    while True:
        fixed = top_level_inputs(circuit, asserted)
        if not fixed:
            return circuit, mapping
        circuit, step = substitute(circuit, fixed)
        mapping = [step[lit >> 1] ^ (lit & 1) for lit in mapping]
        asserted = step[asserted >> 1] ^ (asserted & 1)
