"""Othello reachability: formula size, encode and solve time per encoding and rule set, beside the
2020 study's z3 route (the same rule functions on z3 bit-vectors, bit-blasted by z3's tactic chain).

    python bench/bench_reach.py                         # our encodings: sizes at 42 plies, a solve ladder
    python bench/bench_reach.py --z3-plies 2 4 6 8 10   # also the z3 route at those ply counts
    python bench/bench_reach.py --wanted 20 22 24 --encodings direct --rules strict --solver kissat404 --no-sizes
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from rich.console import Console
from rich.table import Table

from gameproof.games.othello import rules
from gameproof.games.othello.reach import encode, solve_reach


class Z3Word:
    """A z3 bit-vector with Python's unsigned semantics for `>>` (z3's own `>>` is arithmetic)."""

    def __init__(self, term) -> None:
        self.term = term

    @staticmethod
    def _raw(value):
        return value.term if isinstance(value, Z3Word) else value

    def __and__(self, other): return Z3Word(self.term & self._raw(other))
    __rand__ = __and__
    def __or__(self, other): return Z3Word(self.term | self._raw(other))
    __ror__ = __or__
    def __xor__(self, other): return Z3Word(self.term ^ self._raw(other))
    __rxor__ = __xor__
    def __invert__(self): return Z3Word(~self.term)
    def __add__(self, other): return Z3Word(self.term + self._raw(other))
    __radd__ = __add__
    def __sub__(self, other): return Z3Word(self.term - self._raw(other))
    def __rsub__(self, other): return Z3Word(self._raw(other) - self.term)
    def __mul__(self, other): return Z3Word(self.term * self._raw(other))
    __rmul__ = __mul__
    def __lshift__(self, amount): return Z3Word(self.term << amount)

    def __rshift__(self, amount):
        import z3

        return Z3Word(z3.LShR(self.term, amount))

    def __eq__(self, other): return self.term == self._raw(other)  # noqa: E704


def z3_2020_formula(plies: int, min_legal: int):
    """The 2020 study's formulation: relaxed rules (a pass at any ply, never ending the game), the board
    after each ply as fresh 64-bit variables, the move as a free 64-bit word constrained to one legal
    bit, every ply traced through the rule functions."""
    import z3

    player, opponent = Z3Word(z3.BitVecVal(rules.START_BLACK, 64)), Z3Word(z3.BitVecVal(rules.START_WHITE, 64))
    constraints = []
    for ply in range(plies):
        move = Z3Word(z3.BitVec(f"move{ply}", 64))
        passes = z3.Bool(f"pass{ply}")
        legal = rules.legal_moves(player, opponent)
        one_bit = z3.And(move.term != 0, (move.term & (move.term - 1)) == 0)
        constraints.append(z3.Or(passes, z3.And(one_bit, (legal.term & move.term) != 0)))
        after_player, after_opponent = rules.after_move(player, opponent, move)
        next_player, next_opponent = z3.BitVec(f"player{ply + 1}", 64), z3.BitVec(f"opponent{ply + 1}", 64)
        constraints.append(next_player == z3.If(passes, opponent.term, after_player.term))
        constraints.append(next_opponent == z3.If(passes, player.term, after_opponent.term))
        player, opponent = Z3Word(next_player), Z3Word(next_opponent)
    count = rules.popcount(rules.legal_moves(player, opponent))
    constraints.append(z3.UGE(count.term, min_legal))
    return constraints


def z3_cnf_size(plies: int, min_legal: int) -> tuple[int, int, float]:
    import z3

    began = time.perf_counter()
    goal = z3.Goal()
    goal.add(*z3_2020_formula(plies, min_legal))
    tactic = z3.Then("simplify", "bit-blast", "solve-eqs", "tseitin-cnf")
    result = tactic(goal)[0]
    seconds = time.perf_counter() - began
    atoms = set()
    for clause in result:
        for literal in clause.children() if z3.is_or(clause) else [clause]:
            atoms.add((literal.children()[0] if z3.is_not(literal) else literal).get_id())
    return len(atoms), len(result), seconds


def z3_table(plies_list: list[int], timeout: float) -> Table:
    """The z3 route at several ply counts, each built in a child process that is stopped at `timeout`."""
    table = Table(title="z3 route: the same rule functions on z3 bit-vectors, Then(simplify, bit-blast, "
                  "solve-eqs, tseitin-cnf), N = 33")
    for column in ("plies", "variables", "clauses", "build s", "ours (generic) clauses", "ours build s"):
        table.add_column(column, justify="right")
    for plies in plies_list:
        began = time.perf_counter()
        cnf, _ = encode(33, plies, "relaxed", "generic")
        ours = (f"{cnf.num_clauses:,}", f"{time.perf_counter() - began:.2f}")
        try:
            done = subprocess.run([sys.executable, __file__, "--z3-one", str(plies)], capture_output=True,
                                  text=True, timeout=timeout, check=True)
            variables, clauses, seconds = json.loads(done.stdout)
            table.add_row(str(plies), f"{variables:,}", f"{clauses:,}", f"{seconds:.1f}", *ours)
        except subprocess.TimeoutExpired:
            table.add_row(str(plies), "-", "-", f"> {timeout:.0f} (stopped)", *ours)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--z3-plies", type=int, nargs="*", default=[], help="build the z3-route CNF at these plies")
    parser.add_argument("--z3-timeout", type=float, default=600, help="seconds allowed per z3 build")
    parser.add_argument("--z3-one", type=int, help=argparse.SUPPRESS)  # child process: one z3 build
    parser.add_argument("--wanted", type=int, nargs="+", default=[10, 16, 18, 20])
    parser.add_argument("--plies", type=int, default=None, help="bound on moves for the solve ladder (default 60-N)")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--solver", default="cadical195", help="SAT backend for the ladder (e.g. kissat404)")
    parser.add_argument("--encodings", nargs="+", default=["direct", "generic"], choices=["direct", "generic"])
    parser.add_argument("--rules", nargs="+", default=["strict", "relaxed"], choices=["strict", "relaxed"])
    parser.add_argument("--no-sizes", action="store_true", help="skip the 42-ply size table")
    args = parser.parse_args()
    if args.z3_one is not None:
        print(json.dumps(z3_cnf_size(args.z3_one, 33)))
        return
    console = Console(width=220)

    if not args.no_sizes:
        console.print(size_table())
    if args.z3_plies:
        console.print(z3_table(args.z3_plies, args.z3_timeout))

    ladder = Table(title=f"Solving ({args.solver}, timeout {args.timeout:.0f} s per row)")
    for column in ("N", "encoding", "rules", "plies", "status", "variables", "clauses", "encode s", "solve s", "record"):
        ladder.add_column(column, justify="right")
    for wanted in args.wanted:
        for encoding in args.encodings:
            for rule_set in args.rules:
                result = solve_reach(wanted, args.plies, rule_set, encoding, solver=args.solver, seconds=args.timeout)
                record = result.witness.record if result.witness else ""
                ladder.add_row(str(wanted), encoding, rule_set, str(result.plies), result.status,
                               f"{result.variables:,}", f"{result.clauses:,}", f"{result.encode_seconds:.2f}",
                               f"{result.solve_seconds:.1f}", record)
                console.print(f"N={wanted} {encoding} {rule_set}: {result.status} in {result.solve_seconds:.1f} s "
                              f"at {result.plies} plies {record}",
                              style="dim")
    console.print(ladder)


def size_table() -> Table:
    sizes = Table(title="Formula size at 42 plies, N = 33 (the 2020 study's instance)")
    for column in ("encoding", "rules", "variables", "clauses", "build s"):
        sizes.add_column(column, justify="right")
    for encoding in ("direct", "generic"):
        for rule_set in ("strict", "relaxed"):
            began = time.perf_counter()
            cnf, _ = encode(33, 42, rule_set, encoding)
            sizes.add_row(encoding, rule_set, f"{cnf.num_vars:,}", f"{cnf.num_clauses:,}",
                          f"{time.perf_counter() - began:.2f}")
    return sizes


if __name__ == "__main__":
    main()
