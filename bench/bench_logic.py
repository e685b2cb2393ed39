"""Bit-blasting speed and CNF size: gameproof.logic against z3's tactic chain, on the same formulas.

Each formula is written once, over an abstract backend, and built twice: as gameproof Words traced into a
circuit and Tseitin-encoded, and as z3 bit-vectors run through
``Then('simplify', 'bit-blast', 'solve-eqs', 'tseitin-cnf')`` (the chain of the 2020 Othello study).
Times cover building the formula and producing the CNF in memory. Also measures the DIMACS writer.

Run: .venv/bin/python bench/bench_logic.py [--quick]    (needs `pip install z3-solver`)
"""

from __future__ import annotations

import argparse
import io
import time

import z3

from gameproof.logic import Word, ite
from gameproof.logic.circuit import Circuit
from gameproof.logic.cnf import tseitin
from gameproof.logic.dimacs import write_dimacs

M64 = 0xFFFF_FFFF_FFFF_FFFF
NOT_A = 0xFEFE_FEFE_FEFE_FEFE
NOT_H = 0x7F7F_7F7F_7F7F_7F7F


class Ours:
    """gameproof.logic: Words over one circuit; constraints are Bits."""

    name = "gameproof"

    def __init__(self) -> None:
        self.circuit = Circuit()
        self.constraints: list[int] = []

    def var(self, name: str, width: int) -> Word:
        return Word(self.circuit, [self.circuit.new_input() for _ in range(width)])

    def const(self, value: int, width: int) -> Word:
        return Word.constant(value, width)

    def require(self, cond) -> None:
        self.constraints.append(cond.lit)

    shr = staticmethod(lambda x, k: x >> k)
    ite = staticmethod(ite)
    popcount = staticmethod(lambda x: x.bit_count())
    both = staticmethod(lambda a, b: a & b)
    ult = staticmethod(lambda a, b: a < b)

    def cnf_size(self) -> tuple[int, int]:
        root = self.circuit.and_all(self.constraints)
        cnf = tseitin(self.circuit, [root]).cnf
        self.cnf = cnf
        return cnf.num_vars, cnf.num_clauses + 1  # plus the unit clause asserting the root


class Z3:
    """z3 bit-vectors and the tactic chain."""

    name = "z3"
    CHAIN = ("simplify", "bit-blast", "solve-eqs", "tseitin-cnf")

    def __init__(self) -> None:
        self.goal = z3.Goal()

    def var(self, name: str, width: int):
        return z3.BitVec(name, width)

    def const(self, value: int, width: int):
        return z3.BitVecVal(value, width)

    def require(self, cond) -> None:
        self.goal.add(cond)

    shr = staticmethod(z3.LShR)
    ite = staticmethod(z3.If)
    both = staticmethod(z3.And)
    ult = staticmethod(z3.ULT)

    @staticmethod
    def popcount(x):
        width = x.size()
        return sum(z3.ZeroExt(width - 1, z3.Extract(i, i, x)) for i in range(width))

    def cnf_size(self) -> tuple[int, int]:
        result = z3.Then(*self.CHAIN)(self.goal)
        header = result[0].dimacs().split("\n", 1)[0].split()
        return int(header[2]), int(header[3])


# --- formulas, each over a backend -------------------------------------------------------------------


def factoring(b, n: int = 65519 * 65521) -> None:
    """32-bit a * b == N with 1 < a, b < 2**16."""
    x, y = b.var("a", 32), b.var("b", 32)
    for v in (x, y):
        b.require(b.both(b.ult(1, v), b.ult(v, 1 << 16)))
    b.require(x * y == n)


def multiplier64(b) -> None:
    """A 64-bit multiplier: x * y == z."""
    b.require(b.var("x", 64) * b.var("y", 64) == b.var("z", 64))


def adders(b) -> None:
    """Sixteen 64-bit words summed in sequence, minus a 64-bit word, equal to a constant."""
    total = b.var("w0", 64)
    for i in range(1, 16):
        total = total + b.var(f"w{i}", 64)
    b.require(total - b.var("d", 64) == 0x0123_4567_89AB_CDEF)


DIRECTIONS = (
    lambda b, x: (x << 1) & NOT_A, lambda b, x: b.shr(x, 1) & NOT_H,
    lambda b, x: (x << 8) & M64, lambda b, x: b.shr(x, 8),
    lambda b, x: (x << 9) & NOT_A, lambda b, x: (x << 7) & NOT_H,
    lambda b, x: b.shr(x, 7) & NOT_A, lambda b, x: b.shr(x, 9) & NOT_H,
)


def _run(b, start, through, direction):
    x = direction(b, start) & through
    for _ in range(5):
        x = x | (direction(b, x) & through)
    return x


def bitboard(b, plies: int = 6) -> None:
    """Othello-style bitboard plies: legal moves by shifts and masks in 8 directions, a free one-hot
    move that must be legal, flips, and a popcount at the end."""
    player = b.const(0x0000_0008_1000_0000, 64)
    opponent = b.const(0x0000_0010_0800_0000, 64)
    for ply in range(plies):
        empty = ~(player | opponent) & M64
        legal = b.const(0, 64)
        for direction in DIRECTIONS:
            legal = legal | (direction(b, _run(b, player, opponent, direction)) & empty)
        move = b.var(f"m{ply}", 64)
        b.require(b.both((move & ((move - 1) & M64)) == 0, (move & legal) != 0))
        flips = b.const(0, 64)
        for direction in DIRECTIONS:
            run = _run(b, move, opponent, direction)
            flips = flips | b.ite((direction(b, run) & player) != 0, run, b.const(0, 64))
        player, opponent = opponent & ~flips, player | move | flips
    b.require(b.ult(10, b.popcount(opponent)))


FORMULAS = {"factoring-32": factoring, "multiplier-64": multiplier64, "adders-64x16": adders,
            "bitboard-6ply": bitboard}
QUICK = {"factoring-32": factoring, "adders-64x16": adders}


def measure(backend_class, formula) -> tuple[float, int, int]:
    started = time.perf_counter()
    backend = backend_class()
    formula(backend)
    variables, clauses = backend.cnf_size()
    return time.perf_counter() - started, variables, clauses


def dimacs_rate(clauses_wanted: int = 2_000_000) -> tuple[int, float]:
    """Clauses per second written by the DIMACS writer (to memory), on bitboard plies."""
    backend = Ours()
    plies = 6
    bitboard(backend, plies)
    backend.cnf_size()
    cnf = backend.cnf
    out = io.StringIO()
    started = time.perf_counter()
    written = 0
    while written < clauses_wanted:
        write_dimacs(cnf, out)
        written += cnf.num_clauses
        out.seek(0)
        out.truncate()
    return written, written / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two small formulas only")
    args = parser.parse_args()
    formulas = QUICK if args.quick else FORMULAS
    print(f"z3 {z3.get_version_string()}; chain {', '.join(Z3.CHAIN)}")
    header = f"{'formula':<15}{'ours s':>9}{'z3 s':>9}{'speed-up':>10}{'ours vars':>11}{'z3 vars':>10}" \
             f"{'ours clauses':>14}{'z3 clauses':>12}"
    print(header)
    print("-" * len(header))
    for name, formula in formulas.items():
        ours = measure(Ours, formula)
        theirs = measure(Z3, formula)
        print(f"{name:<15}{ours[0]:>9.3f}{theirs[0]:>9.3f}{theirs[0] / ours[0]:>9.1f}x{ours[1]:>11,}{theirs[1]:>10,}"
              f"{ours[2]:>14,}{theirs[2]:>12,}")
    written, rate = dimacs_rate(500_000 if args.quick else 2_000_000)
    print(f"DIMACS writer: {written:,} clauses at {rate / 1e6:.2f} M clauses/s")


if __name__ == "__main__":
    main()
