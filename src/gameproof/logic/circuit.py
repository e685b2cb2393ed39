"""A hash-consed Boolean circuit of AND, XOR, ITE, XOR3 and MAJ gates over AIGER-style integer literals.

A literal is ``2 * var + negated``. Variable 0 is the constant: literal 0 is false, literal 1 is true.
Every other variable is an input or a gate, numbered in creation order, so children always come before
their parents. Gates are normalised (inputs sorted, negations pushed to the output) and looked up in a
table before creation, so each distinct sub-term exists once; operations on constants fold away.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

FALSE = 0
TRUE = 1

INPUT = 0
AND = 1
XOR = 2
ITE = 3
XOR3 = 4
MAJ = 5

_SHIFT = 32  # literals are packed into table keys 32 bits apiece


def _sorted3(a: int, b: int, c: int) -> tuple[int, int, int]:
    """Three ints in increasing order (inputs are normalised that way before a gate is looked up)."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a, b, c


class Circuit:
    """Gates in one flat list, four ints per variable (kind, first, second, third input), hash-consed.

    A flat list of ints keeps node creation to one append and converts to a numpy array in one call
    (:meth:`gate_array`) for the encoders.
    """

    def __init__(self) -> None:
        self.gates: list[int] = [INPUT, 0, 0, 0]
        self.input_vars: list[int] = []
        self._and: dict[int, int] = {}
        self._xor: dict[int, int] = {}
        self._ite: dict[int, int] = {}
        self._xor3: dict[int, int] = {}
        self._maj: dict[int, int] = {}

    @property
    def num_vars(self) -> int:
        """Variables allocated so far, the constant included."""
        return len(self.gates) >> 2

    @property
    def num_gates(self) -> int:
        """Gates (not inputs) allocated so far."""
        return self.num_vars - 1 - len(self.input_vars)

    def gate_array(self) -> np.ndarray:
        """The gates as an ``(num_vars, 4)`` int64 array: kind, first, second, third input literal."""
        return np.array(self.gates, dtype=np.int64).reshape(-1, 4)

    def new_input(self) -> int:
        """A fresh free input; returns its positive literal."""
        var = len(self.gates) >> 2
        self.gates += (INPUT, 0, 0, 0)
        self.input_vars.append(var)
        return var << 1

    def _intern(self, table: dict[int, int], key: int, kind: int, a: int, b: int, c: int) -> int:
        """The gate stored under ``key`` in ``table``, created (as ``kind`` over a, b, c) if it is new."""
        lit = table.get(key)
        if lit is None:
            lit = table[key] = len(self.gates) >> 1
            self.gates += (kind, a, b, c)
        return lit

    def and_(self, a: int, b: int) -> int:
        """Literal for ``a AND b``."""
        if a > b:
            a, b = b, a
        if a <= 1:
            return b if a else FALSE
        if a == b:
            return a
        if a ^ b == 1:
            return FALSE
        key = a << _SHIFT | b
        return self._intern(self._and, key, AND, a, b, 0)

    def or_(self, a: int, b: int) -> int:
        """Literal for ``a OR b``."""
        return self.and_(a ^ 1, b ^ 1) ^ 1

    def xor(self, a: int, b: int) -> int:
        """Literal for ``a XOR b``."""
        flip = (a ^ b) & 1
        a &= -2
        b &= -2
        if a > b:
            a, b = b, a
        if a == 0:
            return b ^ flip
        if a == b:
            return flip
        key = a << _SHIFT | b
        return self._intern(self._xor, key, XOR, a, b, 0) ^ flip

    def ite(self, c: int, t: int, e: int) -> int:
        """Literal for ``t if c else e``."""
        if c <= 1:
            return t if c else e
        if c & 1:
            c, t, e = c ^ 1, e, t
        if t == e:
            return t
        if t ^ e == 1:
            return self.xor(c, e)
        if t <= 1 or t == c:
            return self.or_(c, e) if t else self.and_(c ^ 1, e)
        if t == c ^ 1:
            return self.and_(c ^ 1, e)
        if e <= 1 or e == c ^ 1:
            return self.or_(c ^ 1, t) if e else self.and_(c, t)
        if e == c:
            return self.and_(c, t)
        flip = t & 1
        t ^= flip
        e ^= flip
        key = (c << _SHIFT | t) << _SHIFT | e
        return self._intern(self._ite, key, ITE, c, t, e) ^ flip

    def xor3(self, a: int, b: int, c: int) -> int:
        """Literal for ``a XOR b XOR c`` (the sum of a full adder)."""
        flip = (a ^ b ^ c) & 1
        a &= -2
        b &= -2
        c &= -2
        a, b, c = _sorted3(a, b, c)
        if a == 0:
            return self.xor(b, c) ^ flip
        if a == b:
            return c ^ flip
        if b == c:
            return a ^ flip
        key = (a << _SHIFT | b) << _SHIFT | c
        return self._intern(self._xor3, key, XOR3, a, b, c) ^ flip

    def maj(self, a: int, b: int, c: int) -> int:
        """Literal for the majority of ``a``, ``b``, ``c`` (the carry of a full adder)."""
        a, b, c = _sorted3(a, b, c)
        if a <= 1:
            return self.or_(b, c) if a else self.and_(b, c)
        if a == b or b == c:
            return b
        if a ^ b == 1:
            return c
        if b ^ c == 1 or a ^ c == 1:
            return a if b ^ c == 1 else b
        flip = 1 if (a & 1) + (b & 1) + (c & 1) >= 2 else 0  # store with at most one input negated
        if flip:
            a, b, c = a ^ 1, b ^ 1, c ^ 1
        key = (a << _SHIFT | b) << _SHIFT | c
        return self._intern(self._maj, key, MAJ, a, b, c) ^ flip

    def and_all(self, lits: Iterable[int]) -> int:
        """Literal for the conjunction of ``lits`` (true when empty), built as a balanced tree."""
        return self._tree(self.and_, list(lits), TRUE)

    def or_all(self, lits: Iterable[int]) -> int:
        """Literal for the disjunction of ``lits`` (false when empty), built as a balanced tree."""
        return self._tree(self.or_, list(lits), FALSE)

    @staticmethod
    def _tree(op, lits: list[int], empty: int) -> int:
        if not lits:
            return empty
        while len(lits) > 1:
            paired = [op(lits[i], lits[i + 1]) for i in range(0, len(lits) - 1, 2)]
            if len(lits) & 1:
                paired.append(lits[-1])
            lits = paired
        return lits[0]

    def simulate(self, inputs: Mapping[int, int], lanes: int = 1) -> list[int]:
        """Values of every variable, bit-parallel: ``inputs`` maps input variables to ``lanes``-bit ints.

        Lane ``j`` of each result is the value under the assignment formed by lane ``j`` of the inputs.
        Inputs not given are 0. Index the result by variable; use :func:`lit_value` for literals.
        """
        ones = (1 << lanes) - 1
        gates = self.gates
        value = [0] * self.num_vars
        for var in range(1, self.num_vars):
            k, a, b, e = gates[4 * var : 4 * var + 4]
            if k == INPUT:
                value[var] = inputs.get(var, 0) & ones
                continue
            va = value[a >> 1] ^ (ones if a & 1 else 0)
            vb = value[b >> 1] ^ (ones if b & 1 else 0)
            if k == AND:
                value[var] = va & vb
            elif k == XOR:
                value[var] = va ^ vb
            else:
                ve = value[e >> 1] ^ (ones if e & 1 else 0)
                if k == ITE:
                    value[var] = (va & vb) | (~va & ve & ones)
                elif k == XOR3:
                    value[var] = va ^ vb ^ ve
                else:
                    value[var] = (va & vb) | (va & ve) | (vb & ve)
        return value


def lit_value(values: Sequence[int], lit: int, lanes: int = 1) -> int:
    """The (bit-parallel) value of ``lit`` given the per-variable ``values`` from :meth:`Circuit.simulate`."""
    return values[lit >> 1] ^ (((1 << lanes) - 1) if lit & 1 else 0)
