"""`solve --workers N`: threads over one table give the values of the plain solve, for both engines, and
a certificate the independent checker accepts; the lanes keep searchers of one question apart."""

import json
import sys

import numpy as np
import pytest

from gameproof.certify.check import check_certificate
from gameproof.cli import main
from gameproof.framework.declaration import Engine
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search import parallel
from gameproof.search.dfpn import Options, Search
from gameproof.search.parallel import solve_on_workers
from gameproof.search.solve import solve
from gameproof.search.tt import TranspositionTable, census

SMALL = Options(tt_mb=16)

POSITIONS = [  # (game, moves, engine): both engines, placement and movement games, passes, several words
    ("mnk-misere:4,4,3", "", Engine.DFPN),
    ("mnk:3,3,3", "b2", Engine.DFPN),
    ("connect4:5,4", "", Engine.ALPHABETA),
    ("connect4:5,4", "c", Engine.DFPN),
    ("othello:4", "", Engine.DFPN),
    ("hex:3", "", Engine.DFPN),
    ("breakthrough:4,3", "", Engine.DFPN),
    ("clobber:2,4", "", Engine.ALPHABETA),
    ("connect4:7,6", "a a a a a a b b b b b b c c c c c c g g g g g g", Engine.ALPHABETA),  # moves that end it
    ("connect4:7,6", "a a a a a a b b b b b b c c c c c c g g g g g g", Engine.DFPN),
]


@pytest.mark.parametrize("workers", [2, 3])
@pytest.mark.parametrize("with_moves", [True, False])
@pytest.mark.parametrize("game, moves, engine", POSITIONS)
def test_workers_find_the_values_of_the_plain_solve(game, moves, engine, with_moves, workers):
    state = RulesState(load_game(game), moves)
    plain = solve(state, SMALL, with_moves=with_moves, engine=engine)
    parallel = solve_on_workers(state, SMALL, workers=workers, with_moves=with_moves, engine=engine)
    assert (parallel.value, parallel.moves) == (plain.value, plain.moves)
    assert parallel.workers == workers and parallel.nodes > 0


def test_one_worker_on_the_shared_path_searches_as_the_plain_solve():
    state = RulesState(load_game("mnk-misere:4,4,3"))
    plain = solve(state, SMALL)
    alone = solve_on_workers(state, SMALL, workers=1)
    assert (alone.value, alone.moves, alone.nodes) == (plain.value, plain.moves, plain.nodes)


def test_progress_reports_nodes_the_table_census_and_the_root_numbers(monkeypatch):
    monkeypatch.setattr(parallel, "_REPORT_SECONDS", 0.02)  # many reports however loaded the machine is
    state = RulesState(load_game("mnk-misere:5,5,3"), "c3")  # millions of nodes: the root stored many times
    seen = []
    solution = solve_on_workers(state, SMALL, workers=2, with_moves=False, progress=seen.append)
    last = solution.last
    assert last.nodes == solution.nodes and last.workers == 2
    assert last.proven > 0 and last.disproven > 0 and last.proven + last.disproven + last.open <= last.capacity
    assert all(later.nodes >= earlier.nodes for earlier, later in zip(seen, seen[1:]))
    assert any(report.root is not None and min(report.root) > 0 for report in seen)


def test_census_counts_entries_by_kind():
    table = TranspositionTable(1)
    search = Search(*_kernels("mnk:3,3,3"), Options(tt_mb=1), table=table)
    state = RulesState(load_game("mnk:3,3,3"))
    search.prove(state.frames(), 0, True)
    packed = table.words[1::2]
    pn, dn = packed & np.uint64((1 << 28) - 1), (packed >> np.uint64(28)) & np.uint64((1 << 28) - 1)
    filled = packed != 0
    expected = (int((filled & (pn == 0)).sum()), int((filled & (dn == 0)).sum()))
    proven, disproven, open_ = census(table.words)
    assert (proven, disproven) == expected and proven + disproven + open_ == int(filled.sum())


def _kernels(name):
    game = load_game(name)
    return game.kernels, game.tables, game.max_plies, game.max_moves


def test_a_table_holds_lanes_for_its_searchers_only():
    with pytest.raises(ValueError, match="lanes for 1"):
        Search(*_kernels("mnk:3,3,3"), Options(lanes=2, lane=2), table=TranspositionTable(1))


def test_the_cli_solves_on_workers_writes_a_certificate_and_reports_progress_in_json(tmp_path, capsys):
    path = tmp_path / "m44.cert"
    assert main(["solve", "mnk-misere:4,4,3", "--workers", "2", "--tt-mb", "16", "--certificate", str(path),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["value"] == "loss" and report["workers"] == 2 and set(report["moves"].values()) == {"loss"}
    assert {"nodes", "nodes_per_second", "proven", "disproven", "open", "root"} <= set(report["progress"])
    checked = check_certificate(str(path))
    assert checked.accepted and checked.value.value == "loss"


@pytest.mark.parametrize("arguments, message", [
    (["--workers", "0"], "--workers must be between 1 and"),
    (["--workers", "2", "--checkpoint", "0"], "--checkpoint must be a positive number"),
    (["--journal", "{tmp}/j", "--engine", "alphabeta"], "--journal keeps a df-pn search"),
    (["--journal", "{tmp}/missing/j"], "does not exist"),
    (["--journal", "{tmp}"], "is not a file"),
    (["--journal", "{tmp}/j", "--backend", "ray"], "--journal saves the table of a solve on this machine"),
    (["--workers", "2", "--address", "127.0.0.1:1"], "--address joins a Ray cluster: give --backend ray too"),
])
def test_bad_worker_and_journal_arguments_are_one_line(tmp_path, capsys, arguments, message):
    arguments = [argument.format(tmp=tmp_path) for argument in arguments]
    assert main(["solve", "mnk:3,3,3", "--quiet", *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_the_ray_backend_without_ray_is_refused_in_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails
    assert main(["solve", "mnk:3,3,3", "--backend", "ray", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "the Ray backend needs Ray: pip install" in err and len(err.strip().splitlines()) == 1
