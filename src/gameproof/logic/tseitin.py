"""Tseitin encoding of circuits: the cone of some root literals as CNF (a numba kernel), and its variable map."""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

from gameproof.logic.circuit import AND, INPUT, ITE, MAJ, XOR, XOR3, Circuit
from gameproof.logic.cnf import Cnf


class Encoding:
    """A circuit cone in CNF: the clauses plus the map from circuit variables to CNF variables."""

    def __init__(self, circuit: Circuit, cnf: Cnf, var_map: np.ndarray) -> None:
        self.circuit = circuit
        self.cnf = cnf
        self.var_map = var_map
        self._true = 0

    def lit(self, lit: int) -> int:
        """The DIMACS literal for a circuit literal in the encoded cone (constants get a fixed variable)."""
        if lit <= 1:
            return self._true_var() if lit else -self._true_var()
        var = int(self.var_map[lit >> 1])
        if var == 0:
            raise KeyError(f"circuit literal {lit} is outside the encoded cone")
        return -var if lit & 1 else var

    def _true_var(self) -> int:
        if not self._true:
            self._true = self.cnf.new_var()
            self.cnf.add_clause([self._true])
        return self._true

    def value(self, model: set[int], lit: int) -> bool:
        """Truth of a circuit literal under a model (a set of true DIMACS literals); unencoded inputs read 0."""
        if lit <= 1:
            return bool(lit)
        var = int(self.var_map[lit >> 1])
        truth = var in model if var else False
        return truth != bool(lit & 1)


def tseitin(circuit: Circuit, roots: Sequence[int], polarity: bool = True) -> Encoding:
    """Encode the cone of ``roots`` so that asserting a root literal true constrains the circuit.

    With ``polarity`` (Plaisted-Greenbaum), a gate only gets the implication directions in which it is
    used: every root literal may be asserted true, never false. Without it, each gate is fully defined,
    so models correspond one to one with input assignments (useful for counting). CNF variables are
    numbered 1.. in circuit order over the cone only.
    """
    lits = np.array([lit for lit in roots if lit > 1], dtype=np.int64)
    var_map, flat, num_vars = _tseitin_kernel(circuit.gate_array(), lits, polarity)
    cnf = Cnf(int(num_vars))
    cnf.literals.frombytes(flat.tobytes())
    cnf.num_clauses = int(np.count_nonzero(flat == 0))
    return Encoding(circuit, cnf, var_map)


@numba.njit(cache=True)
def _emit2(out, size, a, b):  # pragma: no cover - compiled
    out[size] = a
    out[size + 1] = b
    out[size + 2] = 0
    return size + 3


@numba.njit(cache=True)
def _emit3(out, size, a, b, c):  # pragma: no cover - compiled
    out[size] = a
    out[size + 1] = b
    out[size + 2] = c
    out[size + 3] = 0
    return size + 4


@numba.njit(cache=True)
def _emit4(out, size, a, b, c, d):  # pragma: no cover - compiled
    out[size] = a
    out[size + 1] = b
    out[size + 2] = c
    out[size + 3] = d
    out[size + 4] = 0
    return size + 5


@numba.njit(
    numba.types.Tuple((numba.int32[:], numba.int32[:], numba.int64))(
        numba.int64[:, ::1], numba.int64[:], numba.boolean),
    cache=True,
)
def _tseitin_kernel(gates, roots, polarity):  # pragma: no cover - compiled
    kind = gates[:, 0]
    first = gates[:, 1]
    second = gates[:, 2]
    third = gates[:, 3]
    n = gates.shape[0]
    need = np.zeros(n, np.uint8)  # bit 1: literal may be true (n -> gate); bit 2: may be false (gate -> n)
    for lit in roots:
        if polarity:
            need[lit >> 1] |= np.uint8(2 if lit & 1 else 1)
        else:
            need[lit >> 1] = np.uint8(3)
    for var in range(n - 1, 0, -1):  # children precede parents, so one backward sweep finds the cone
        p = need[var]
        k = kind[var]
        if p == 0 or k == INPUT:
            continue
        swapped = np.uint8(((p & 1) << 1) | (p >> 1))
        a = first[var]
        b = second[var]
        e = third[var]
        if k == XOR or k == XOR3:  # parity needs every input in both directions
            need[a >> 1] = np.uint8(3)
            need[b >> 1] = np.uint8(3)
            if k == XOR3:
                need[e >> 1] = np.uint8(3)
            continue
        if k == ITE:  # the condition in both directions, the branches as the gate
            need[a >> 1] = np.uint8(3)
        else:
            need[a >> 1] |= swapped if a & 1 else p
        need[b >> 1] |= swapped if b & 1 else p
        if k != AND:
            need[e >> 1] |= swapped if e & 1 else p
    var_map = np.zeros(n, np.int32)
    count = 0
    total = 0  # DIMACS ints to emit: per kind, for each direction in use
    for var in range(1, n):
        p = np.int64(need[var])  # widen before arithmetic: uint8 sums wrap when run without the JIT
        if p:
            count += 1
            var_map[var] = count
            k = kind[var]
            if k == AND:
                total += (6 if p & 1 else 0) + (4 if p & 2 else 0)
            elif k != INPUT:
                total += (20 if k == XOR3 else 12 if k == MAJ else 8) * ((p & 1) + (p >> 1))
    out = np.empty(total, np.int32)
    size = 0
    for var in range(1, n):
        p = need[var]
        k = kind[var]
        if p == 0 or k == INPUT:
            continue
        v = var_map[var]
        a = first[var]
        b = second[var]
        x = -var_map[a >> 1] if a & 1 else var_map[a >> 1]
        y = -var_map[b >> 1] if b & 1 else var_map[b >> 1]
        if k == AND:
            if p & 1:
                size = _emit2(out, size, -v, x)
                size = _emit2(out, size, -v, y)
            if p & 2:
                size = _emit3(out, size, v, -x, -y)
        elif k == XOR:
            if p & 1:
                size = _emit3(out, size, -v, x, y)
                size = _emit3(out, size, -v, -x, -y)
            if p & 2:
                size = _emit3(out, size, v, -x, y)
                size = _emit3(out, size, v, x, -y)
        else:
            e = third[var]
            z = -var_map[e >> 1] if e & 1 else var_map[e >> 1]
            if k == ITE:
                if p & 1:
                    size = _emit3(out, size, -v, -x, y)
                    size = _emit3(out, size, -v, x, z)
                if p & 2:
                    size = _emit3(out, size, v, -x, -y)
                    size = _emit3(out, size, v, x, -z)
            elif k == MAJ:
                if p & 1:
                    size = _emit3(out, size, -v, x, y)
                    size = _emit3(out, size, -v, x, z)
                    size = _emit3(out, size, -v, y, z)
                if p & 2:
                    size = _emit3(out, size, v, -x, -y)
                    size = _emit3(out, size, v, -x, -z)
                    size = _emit3(out, size, v, -y, -z)
            else:  # XOR3: v is true exactly when an odd number of x, y, z are
                if p & 1:
                    size = _emit4(out, size, -v, x, y, z)
                    size = _emit4(out, size, -v, x, -y, -z)
                    size = _emit4(out, size, -v, -x, y, -z)
                    size = _emit4(out, size, -v, -x, -y, z)
                if p & 2:
                    size = _emit4(out, size, v, -x, -y, -z)
                    size = _emit4(out, size, v, -x, y, z)
                    size = _emit4(out, size, v, x, -y, z)
                    size = _emit4(out, size, v, x, y, -z)
    if size != total:
        raise AssertionError("Tseitin clause count disagrees with its size estimate")
    return var_map, out[:size], count
