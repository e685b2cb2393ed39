"""Bit-blasting speed and CNF size: gameproof.logic against z3's tactic chain, on the same formulas.

Each formula is written once, over an abstract backend, and built twice: as gameproof Words traced into a
circuit and Tseitin-encoded, and as z3 bit-vectors run through
``Then('simplify', 'bit-blast', 'solve-eqs', 'tseitin-cnf')`` (the chain of the 2020 Othello study).
Times cover building the formula and producing the CNF in memory. Also measures the DIMACS writer.

Run: .venv/bin/python bench/bench_logic.py [--quick]    (needs `pip install z3-solver`)
"""

from __future__ import annotations

import argparse
import functools
import io
import time

import z3

from gameproof.logic import Word, ite
from gameproof.logic.circuit import Circuit
from gameproof.logic.tseitin import tseitin
from gameproof.logic.dimacs import write_dimacs
from gameproof.logic.simplify import propagate_units

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
        circuit, mapping = propagate_units(self.circuit, root)
        root = mapping[root >> 1] ^ (root & 1)
        cnf = tseitin(circuit, [root]).cnf
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
            "bitboard-2ply": functools.partial(bitboard, plies=2),
            "bitboard-3ply": functools.partial(bitboard, plies=3),
            "bitboard-4ply": functools.partial(bitboard, plies=4)}
QUICK = {"factoring-32": factoring, "adders-64x16": adders}


def measure(backend_class, formula, repeats: int) -> tuple[float, int, int]:
    """Best time of ``repeats`` builds (formula plus CNF), with the CNF's variables and clauses."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        backend = backend_class()
        formula(backend)
        variables, clauses = backend.cnf_size()
        best = min(best, time.perf_counter() - started)
    return best, variables, clauses


def othello_reach(plies: int = 42) -> str:
    """The generic Othello reachability formula (the engine's own rules traced; no z3 twin exists)."""
    from gameproof.games.othello.reach_generic import reach_harness
    from gameproof.logic.harness import trace

    started = time.perf_counter()
    traced = trace(reach_harness(33, plies))
    seconds = time.perf_counter() - started
    return (f"othello-reach-{plies}ply (engine rules traced, harness with {plies} free moves): {seconds:.2f} s, "
            f"{traced.encoding.circuit.num_gates:,} gates, {traced.cnf.num_vars:,} variables, "
            f"{traced.cnf.num_clauses:,} clauses")


def stage_rates(plies: int = 20) -> str:
    """Gates traced per second and clauses encoded per second, on a long bitboard formula (ours only)."""
    started = time.perf_counter()
    backend = Ours()
    bitboard(backend, plies)
    root = backend.circuit.and_all(backend.constraints)
    traced = time.perf_counter()
    circuit, mapping = propagate_units(backend.circuit, root)
    simplified = time.perf_counter()
    cnf = tseitin(circuit, [mapping[root >> 1] ^ (root & 1)]).cnf
    encoded = time.perf_counter()
    gates = backend.circuit.num_gates
    return (f"bitboard-{plies}ply: traced {gates:,} gates in {traced - started:.3f} s "
            f"({gates / (traced - started) / 1e3:.0f} k gates/s); unit propagation {simplified - traced:.3f} s; "
            f"Tseitin {cnf.num_clauses:,} clauses in {encoded - simplified:.3f} s "
            f"({cnf.num_clauses / (encoded - simplified) / 1e6:.1f} M clauses/s)")


def dimacs_rate(clauses_wanted: int = 2_000_000) -> tuple[int, float]:
    """Clauses per second written by the DIMACS writer (to memory), on bitboard plies."""
    backend = Ours()
    bitboard(backend, plies=6)
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
        ours = measure(Ours, formula, repeats=5)
        theirs = measure(Z3, formula, repeats=1 if "ply" in name else 3)
        print(f"{name:<15}{ours[0]:>9.3f}{theirs[0]:>9.3f}{theirs[0] / ours[0]:>9.1f}x{ours[1]:>11,}{theirs[1]:>10,}"
              f"{ours[2]:>14,}{theirs[2]:>12,}")
    print(othello_reach(10 if args.quick else 42))
    print(stage_rates(6 if args.quick else 20))
    written, rate = dimacs_rate(500_000 if args.quick else 2_000_000)
    print(f"DIMACS writer: {written:,} clauses at {rate / 1e6:.2f} M clauses/s")


if __name__ == "__main__":
    main()
