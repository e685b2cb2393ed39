"""DIMACS round trips, the solver registry, time limits, incremental solving, external solvers, DRAT."""

import io
import os
import stat
import sys
import time
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP

from gameproof.errors import BadInput
from gameproof.logic import any_uint, verify
from gameproof.logic.cnf import Cnf
from gameproof.logic.dimacs import DimacsError, read_dimacs, write_dimacs
from gameproof.logic.drat import Verdict, check_drat, read_drat
from gameproof.logic.harness import trace
from gameproof.logic.solvers import open_solver, pysat_backends, resolve


def pigeons(n: int) -> Cnf:
    cnf = Cnf()
    for clause in PHP(n).clauses:
        cnf.add_clause(clause)
    return cnf


def test_dimacs_round_trip_with_units_and_comments(tmp_path):
    cnf = pigeons(4)
    path = tmp_path / "php.cnf"
    write_dimacs(cnf, path, comments=["pigeons"], extra_units=[3, -7])
    text = path.read_text()
    assert text.startswith("c pigeons\np cnf 20 ")
    back = read_dimacs(path)
    assert list(back.clauses()) == list(cnf.clauses()) + [[3], [-7]]
    assert back.num_vars == cnf.num_vars


def test_dimacs_extreme_literals_and_empty_clause():
    cnf = Cnf()
    for clause in ([2**31 - 1, -(2**31 - 1), 1_000_000], [-9, 10], []):
        cnf.add_clause(clause)
    out = io.StringIO()
    write_dimacs(cnf, out)
    assert out.getvalue().splitlines()[1:] == ["2147483647 -2147483647 1000000 0", "-9 10 0", "0"]
    assert list(read_dimacs(io.StringIO(out.getvalue())).clauses()) == list(cnf.clauses())


def test_dimacs_writer_over_many_chunks_writes_every_clause_as_the_obvious_join():
    clauses = [[5, -70_000, 299_999], [-1], [2, 3]] * 100_000
    cnf = Cnf(300_000)
    for clause in clauses:
        cnf.add_clause(clause)
    out = io.StringIO()
    write_dimacs(cnf, out)
    expected = "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
    assert out.getvalue() == f"p cnf 300000 {len(clauses)}\n" + expected


def test_dimacs_chunks_end_on_clause_boundaries(monkeypatch):
    import gameproof.logic.dimacs as dimacs

    monkeypatch.setattr(dimacs, "_CHUNK", 5)
    cnf = pigeons(3)
    out = io.StringIO()
    write_dimacs(cnf, out)
    assert list(read_dimacs(io.StringIO(out.getvalue())).clauses()) == list(cnf.clauses())


@pytest.mark.parametrize("text, problem", [
    ("1 2 0\n", "header"),
    ("p cnf 2 2\n1 2 0\n", "clauses"),
    ("p cnf 1 1\n1 2 0\n", "exceeds"),
    ("p cnf 2 1\n1 x 0\n", "bad literal"),
    ("p cnf 2 1\n1 2\n", "terminated"),
])
def test_bad_dimacs_is_reported(text, problem):
    with pytest.raises(DimacsError, match=problem):
        read_dimacs(io.StringIO(text))


def test_registry_resolves_aliases_and_lists_known_names():
    assert resolve("cd19") == "cadical195" and resolve("kissat") == "kissat404" and resolve("g4") == "glucose4"
    assert "cadical195" in pysat_backends() and "glucose4" in pysat_backends()
    with pytest.raises(BadInput, match="known: .*cadical195"):
        resolve("minisat9000")
    with pytest.raises(BadInput, match="not found on PATH"):
        open_solver("ext:no-such-solver-binary")


@pytest.mark.parametrize("name", ["cadical195", "glucose4", "kissat404", "minisat22"])
def test_backends_agree_on_sat_and_unsat(name):
    with open_solver(name) as sat:
        sat.add(pigeons(4))
        assert sat.solve() is False
    with open_solver(name) as sat:
        cnf = Cnf()
        cnf.add_clause([1, 2])
        cnf.add_clause([-1, 2])
        sat.add(cnf)
        assert sat.solve() is True and 2 in sat.model()


@pytest.mark.parametrize("name", ["cadical195", "glucose4", "kissat404"])
def test_time_limit_gives_unknown(name):
    with open_solver(name) as sat:
        sat.add(pigeons(11))
        started = time.monotonic()
        assert sat.solve(seconds=0.3) is None
        assert time.monotonic() - started < 5


def test_incremental_assumptions():
    cnf = Cnf()
    cnf.add_clause([1, 2])
    cnf.add_clause([-1, 3])
    with open_solver() as sat:
        sat.add(cnf)
        assert sat.solve([-2]) is True and {1, 3} <= sat.model()
        assert sat.solve([-2, -3]) is False
        assert sat.solve([2, -1]) is True
    with open_solver("kissat") as sat:  # one-shot backend: assumptions become unit clauses
        sat.add(cnf)
        assert sat.solve([-2, -3]) is False and sat.solve([-2]) is True


FAKE_SOLVER = """#!{python}
import sys
from pysat.solvers import Solver
from gameproof.logic.dimacs import read_dimacs
cnf = read_dimacs(sys.argv[1])
with Solver(name="minisat22", bootstrap_with=list(cnf.clauses())) as s:
    if s.solve():
        print("s SATISFIABLE")
        print("v " + " ".join(map(str, s.get_model())) + " 0")
        sys.exit(10)
    print("s UNSATISFIABLE")
    sys.exit(20)
"""


def test_external_solver_on_path(tmp_path, monkeypatch):
    script = tmp_path / "fakesat"
    script.write_text(FAKE_SOLVER.format(python=sys.executable))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    cnf = Cnf()
    cnf.add_clause([1, 2])
    cnf.add_clause([-1, 2])
    with open_solver("ext:fakesat") as sat:
        sat.add(cnf)
        assert sat.solve() is True and 2 in sat.model()
        assert sat.solve([-2]) is False


def rup_check(cnf: Cnf, proof: Path) -> bool:
    """A tiny DRUP checker: every added lemma must follow by unit propagation; the last is empty."""
    clauses = [list(c) for c in cnf.clauses()]

    def propagates_to_conflict(assigned: set[int]) -> bool:
        changed = True
        while changed:
            changed = False
            for clause in clauses:
                if any(lit in assigned for lit in clause):
                    continue
                open_lits = [lit for lit in clause if -lit not in assigned]
                if not open_lits:
                    return True
                if len(open_lits) == 1:
                    assigned.add(open_lits[0])
                    changed = True
        return False

    lemma: list[int] = []
    for deletion, lemma in read_drat(proof):
        if deletion:
            continue
        if not propagates_to_conflict({-lit for lit in lemma}):
            return False
        clauses.append(lemma)
    return lemma == []


def small_identity():
    x, y = any_uint(4, "x"), any_uint(4, "y")
    verify((x + y) - y == x)


def test_drat_proof_of_a_verified_harness_checks(tmp_path):
    traced = trace(small_identity)
    cnf = Cnf()
    cnf.literals.extend(traced.cnf.literals)
    cnf.num_clauses, cnf.num_vars = traced.cnf.num_clauses, traced.cnf.num_vars
    for unit in traced.export_units():
        cnf.add_clause([unit])
    with open_solver("cadical195", proof=True) as prover:
        prover.add(cnf)
        assert prover.solve() is False
        prover.write_proof(tmp_path / "p.drat")
    assert list(read_drat(tmp_path / "p.drat")) and rup_check(cnf, tmp_path / "p.drat")
    (tmp_path / "empty.drat").write_text("0\n")
    assert not rup_check(cnf, tmp_path / "empty.drat")  # unit propagation alone finds no conflict


def test_text_and_binary_drat_read_alike(tmp_path):
    (tmp_path / "text.drat").write_text("1 -2 0\nd 3 0\n-130 0\n0\n")
    # 'a', 2*1, 2*2+1, 0 / 'd', 2*3, 0 / 'a', 2*130+1 = 261 as two 7-bit groups, 0 / 'a', 0
    (tmp_path / "binary.drat").write_bytes(b"a\x02\x05\x00d\x06\x00a\x85\x02\x00a\x00")
    steps = [(False, [1, -2]), (True, [3]), (False, [-130]), (False, [])]
    assert list(read_drat(tmp_path / "text.drat")) == steps == list(read_drat(tmp_path / "binary.drat"))


def test_backends_without_proofs_say_so():
    with pytest.raises(BadInput, match="DRAT"):
        open_solver("kissat", proof=True)


def test_a_race_of_solvers_answers_like_each_of_them():
    assert resolve("race:kissat,cd19") == "race:kissat404,cadical195"
    with open_solver("race:kissat404,cadical195") as racer:
        racer.add(pigeons(5))
        assert racer.solve() is False
    satisfiable = Cnf(3)
    for clause in ([1, 2], [-1, 3], [-2, -3], [-3, -1]):
        satisfiable.add_clause(clause)
    with open_solver("race:kissat404,cadical195,glucose4") as racer:
        racer.add(satisfiable)
        assert racer.solve() is True
        model = racer.model()
        assert all(any(lit in model for lit in clause) for clause in satisfiable.clauses())
        assert racer.solve(assumptions=[1]) is False  # 1 forces 3, and then neither 2 nor 3 may hold


@pytest.mark.parametrize("name", ["race:kissat404", "race:kissat404,ext:kissat", "race:kissat404,nope"])
def test_a_race_needs_two_known_pysat_backends(name):
    with pytest.raises(BadInput):
        resolve(name)


def test_a_race_writes_no_proof():
    with pytest.raises(BadInput, match="DRAT"):
        open_solver("race:kissat404,cadical195", proof=True)


def test_cadical_configurations_are_named_by_a_suffix():
    assert resolve("cd19/unsat") == "cadical195/unsat"
    assert resolve("race:kissat,cd19/unsat") == "race:kissat404,cadical195/unsat"
    with pytest.raises(BadInput, match="takes no configuration"):
        resolve("kissat404/unsat")
    with pytest.raises(BadInput, match="unknown configuration 'fast'.*known: sat, unsat"):
        resolve("cadical195/fast")


def _conflicts(name: str, cnf: Cnf) -> int:
    with open_solver(name) as sat:
        sat.add(cnf)
        assert sat.solve() is False
        return sat.statistics()["conflicts"]


def test_a_configuration_changes_the_search_and_keeps_the_answers(tmp_path, dratify_only):
    # CaDiCaL is deterministic: the same formula, other options, another number of conflicts.
    assert _conflicts("cadical195", pigeons(8)) != _conflicts("cadical195/unsat", pigeons(8))
    for name in ("cadical195/sat", "race:kissat404,cadical195/unsat"):
        with open_solver(name) as sat:
            sat.add(pigeons(5))
            assert sat.solve() is False
    with open_solver("cadical195/unsat", proof=True) as sat:
        sat.add(pigeons(4))
        assert sat.solve() is False
        sat.write_proof(tmp_path / "php4.drat")
    assert check_drat(pigeons(4), tmp_path / "php4.drat").verdict is Verdict.VERIFIED
