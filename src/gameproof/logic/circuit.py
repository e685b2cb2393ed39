"""A hash-consed Boolean circuit of AND, XOR and ITE gates over AIGER-style integer literals.

A literal is ``2 * var + negated``. Variable 0 is the constant: literal 0 is false, literal 1 is true.
Every other variable is an input or a gate, numbered in creation order, so children always come before
their parents. Gates are normalised (inputs sorted, negations pushed to the output) and looked up in a
table before creation, so each distinct sub-term exists once; operations on constants fold away.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

FALSE = 0
TRUE = 1

INPUT = 0
AND = 1
XOR = 2
ITE = 3

_SHIFT = 32  # literals are packed into table keys 32 bits apiece


def negate(lit: int) -> int:
    """The complement of a literal."""
    return lit ^ 1


class Circuit:
    """Gates stored column-wise (kind, first, second, third input per variable) with structural hashing."""

    def __init__(self) -> None:
        self.kind: list[int] = [INPUT]
        self.first: list[int] = [0]
        self.second: list[int] = [0]
        self.third: list[int] = [0]
        self.input_vars: list[int] = []
        self._and: dict[int, int] = {}
        self._xor: dict[int, int] = {}
        self._ite: dict[int, int] = {}

    @property
    def num_vars(self) -> int:
        """Variables allocated so far, the constant included."""
        return len(self.kind)

    @property
    def num_gates(self) -> int:
        """Gates (not inputs) allocated so far."""
        return len(self.kind) - 1 - len(self.input_vars)

    def _new(self, kind: int, a: int, b: int, c: int) -> int:
        var = len(self.kind)
        self.kind.append(kind)
        self.first.append(a)
        self.second.append(b)
        self.third.append(c)
        return var << 1

    def new_input(self) -> int:
        """A fresh free input; returns its positive literal."""
        lit = self._new(INPUT, 0, 0, 0)
        self.input_vars.append(lit >> 1)
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
        lit = self._and.get(key)
        if lit is None:
            lit = self._and[key] = self._new(AND, a, b, 0)
        return lit

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
        lit = self._xor.get(key)
        if lit is None:
            lit = self._xor[key] = self._new(XOR, a, b, 0)
        return lit ^ flip

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
        lit = self._ite.get(key)
        if lit is None:
            lit = self._ite[key] = self._new(ITE, c, t, e)
        return lit ^ flip

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

    def cone(self, roots: Iterable[int]) -> list[int]:
        """Variables that the literals ``roots`` depend on (inputs and gates), in ascending order."""
        kind, first, second, third = self.kind, self.first, self.second, self.third
        seen = bytearray(len(kind))
        stack = [lit >> 1 for lit in roots]
        while stack:
            var = stack.pop()
            if var == 0 or seen[var]:
                continue
            seen[var] = 1
            k = kind[var]
            if k:
                stack.append(first[var] >> 1)
                stack.append(second[var] >> 1)
                if k == ITE:
                    stack.append(third[var] >> 1)
        return [var for var in range(1, len(kind)) if seen[var]]

    def simulate(self, inputs: Mapping[int, int], lanes: int = 1) -> list[int]:
        """Values of every variable, bit-parallel: ``inputs`` maps input variables to ``lanes``-bit ints.

        Lane ``j`` of each result is the value under the assignment formed by lane ``j`` of the inputs.
        Inputs not given are 0. Index the result by variable; use :func:`lit_value` for literals.
        """
        ones = (1 << lanes) - 1
        kind, first, second, third = self.kind, self.first, self.second, self.third
        value = [0] * len(kind)
        for var in range(1, len(kind)):
            k = kind[var]
            if k == INPUT:
                value[var] = inputs.get(var, 0) & ones
                continue
            a = first[var]
            b = second[var]
            va = value[a >> 1] ^ (ones if a & 1 else 0)
            vb = value[b >> 1] ^ (ones if b & 1 else 0)
            if k == AND:
                value[var] = va & vb
            elif k == XOR:
                value[var] = va ^ vb
            else:
                e = third[var]
                ve = value[e >> 1] ^ (ones if e & 1 else 0)
                value[var] = (va & vb) | (~va & ve & ones)
        return value


def lit_value(values: Sequence[int], lit: int, lanes: int = 1) -> int:
    """The (bit-parallel) value of ``lit`` given the per-variable ``values`` from :meth:`Circuit.simulate`."""
    return values[lit >> 1] ^ (((1 << lanes) - 1) if lit & 1 else 0)
