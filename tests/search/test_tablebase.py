"""Tablebases built by retrograde analysis agree with plain minimax, with df-pn and alpha-beta at sampled positions,
with exact scores and distances, and with Dodgem's published values; a killed build resumes to the same file."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "games"))
import dodgem_reference  # noqa: E402

from gameproof.answers import Value  # noqa: E402
from gameproof.cli import main  # noqa: E402
from gameproof.framework.declaration import DRAW, LOSS, ONGOING, WIN  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.dfpn import Options  # noqa: E402
from gameproof.search.distance import distances  # noqa: E402
from gameproof.search.score import exact_score, unsymmetric  # noqa: E402
from gameproof.search.solve import solve  # noqa: E402
from gameproof.search.tablebase.build import build  # noqa: E402
from gameproof.search.tablebase.query import Tablebase  # noqa: E402

DOMINEERING = Path(__file__).resolve().parents[2] / "examples" / "domineering.py"
SMALL = Options(tt_mb=16)


@cache
def table_of(name: str, folder: str) -> Tablebase:
    path = Path(folder) / f"{name.replace('/', '_').replace(':', '_')}.tb"
    build(load_game(name), path)
    return Tablebase(path)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("tables"))
    return lambda name: table_of(name, folder)


def rows(table: Tablebase, count: int, seed: int = 7) -> list[RulesState]:
    """`count` positions of the table (all when it has fewer), drawn at random."""
    arrays = table.table.arrays
    picked = sorted(random.Random(seed).sample(range(table.table.size), min(count, table.table.size)))
    return [RulesState.at(table.game, tuple(int(w) for w in arrays["words"][row]), int(arrays["to_move"][row]))
            for row in picked]


def minimax(game, words: tuple[int, ...], to_move: int, seen: dict) -> tuple[int, int]:
    """(value, distance) of a position of a game that must end, by plain memoised minimax on the rules as Python
    runs them (the winner hurries, the loser delays; draws have distance -1 unless finished)."""
    at = (words, to_move)
    if at not in seen:
        state = RulesState.at(game, words, to_move)
        if state.is_over():
            outcome = game.rules.result(*game.arguments.of(words, to_move))
            seen[at] = ({WIN: 1, LOSS: -1, DRAW: 0}[outcome], 0)
        else:
            found = []
            for move in state.legal_moves():
                child = state.copy()
                child.play(move)
                value, distance = minimax(game, child.words, child.to_move, seen)
                found.append((value if child.to_move == to_move else -value, distance))
            best = max(value for value, _ in found)
            if best == 1:
                seen[at] = (1, 1 + min(d for v, d in found if v == 1))
            elif best == -1:
                seen[at] = (-1, 1 + max(d for _, d in found))
            else:
                seen[at] = (0, -1)
    return seen[at]


def test_tic_tac_toe_has_its_5478_positions_and_every_one_is_what_minimax_says(tmp_path):
    game = unsymmetric(load_game("mnk:3,3,3"))
    report = build(game, tmp_path / "ttt.tb")
    assert report.positions == 5478  # the legal positions of tic-tac-toe
    plain = Tablebase.__new__(Tablebase)  # the table of the game without symmetries, read as that game
    from gameproof.search.tablebase.table import read_table

    plain.table, plain.game, plain._searched = read_table(tmp_path / "ttt.tb"), game, game
    seen: dict = {}
    for state in rows(plain, 5478):
        worth = plain.worth(state)
        assert (worth.value.score, -1 if worth.distance is None else worth.distance) == \
            minimax(game, state.words, state.to_move, seen) or state.is_over() and worth.distance == 0, state.record
    assert build(load_game("mnk:3,3,3"), tmp_path / "ttt8.tb").positions == 765  # up to the 8 symmetries


@pytest.mark.parametrize(("name", "count"), [("connect4:4,4", 1000), (f"{DOMINEERING}:4,4", 1000),
                                             ("dots-boxes:2,2", 300), ("othello:4", 300)])
def test_values_and_move_values_equal_the_searches_at_sampled_positions(tables, name, count):
    table = tables(name)
    for index, state in enumerate(rows(table, count)):
        if state.is_over():
            continue
        answer = table.answer(state)
        solution = solve(state, SMALL, with_moves=index % 10 == 0)
        assert answer.worth.value == solution.value, state.described()
        if solution.moves:
            assert {move: worth.value for move, worth in answer.moves.items()} == solution.moves, state.described()


@pytest.mark.slow
def test_connect4_5x4_agrees_with_alpha_beta_at_sampled_positions(tables):
    table = tables("connect4:5,4")
    assert table.table.size == 1_974_174 and table.worth(RulesState(table.game)).value == Value.DRAW
    for state in rows(table, 1000):
        if not state.is_over():
            assert table.worth(state).value == solve(state, SMALL).value, state.described()


@pytest.mark.parametrize(("name", "count"), [("othello:4", 60), ("kalah:2,2", 200), ("dots-boxes:2,2", 60)])
def test_scores_are_the_exact_scores(tables, name, count):
    table = tables(name)
    assert table.worth(RulesState(table.game)).score == exact_score(RulesState(table.game), SMALL).score
    for state in rows(table, count):
        solution = exact_score(state, SMALL, with_moves=not state.is_over())
        answer = table.answer(state)
        assert answer.worth.score == solution.score, state.described()
        assert {move: worth.score for move, worth in answer.moves.items()} == solution.moves, state.described()


def test_distances_are_those_of_perfect_play(tables):
    table = tables("connect4:4,4")
    checked = 0
    for state in rows(table, 400, seed=3):
        worth = table.worth(state)
        if state.is_over() or worth.value == Value.DRAW or len(state.history) > 0 and checked > 25:
            continue
        assert distances(state, SMALL).plies == worth.distance, state.described()
        checked += 1
    assert checked > 25


@pytest.mark.parametrize("n", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_dodgem_every_position_is_what_the_reference_retrograde_says(tables, n):
    table = tables(f"dodgem:{n}")
    positions, values, _ = dodgem_reference.retrograde(n)
    assert table.table.size == len(positions)
    for position, value in zip(positions, values):
        state = RulesState.from_position(table.game, dodgem_reference.text(position))
        assert table.worth(state).value.score == value, dodgem_reference.text(position)


def test_dodgem_3x3_is_a_first_player_win_and_4x4_a_draw_as_published(tables):
    start = table_of("dodgem:3", str(Path(tables("dodgem:3").table.path).parent))
    answer = start.answer(RulesState(start.game))
    assert answer.worth.value == Value.WIN  # Winning Ways
    assert {start.game.move_name(m): w.value for m, w in answer.moves.items()} == {
        "a3-b3": Value.WIN, "a2-b2": Value.LOSS, "a2-a1": Value.LOSS}


def _progress(path: Path) -> int:
    """How far a build into `path` got: 1 once its forward pass is kept, 2 once the table is written."""
    return (path.with_name(path.name + ".work") / "positions.npz").is_file() + path.is_file()


def test_a_build_killed_after_its_forward_pass_resumes_to_the_same_file(tmp_path, killed_midway):
    whole = tmp_path / "whole.tb"
    assert main(["tablebase", "build", "dodgem:4", str(whole), "--quiet"]) == 0

    def command(attempt: int) -> list[str]:
        return [sys.executable, "-m", "gameproof", "tablebase", "build", "dodgem:4", str(tmp_path / f"t{attempt}.tb"),
                "--quiet"]

    attempt, kept = killed_midway(command, lambda attempt: _progress(tmp_path / f"t{attempt}.tb"), 1, 2)
    path = tmp_path / f"t{attempt}.tb"
    resumed = subprocess.run([*command(attempt), "--json"], capture_output=True, text=True, check=True)
    assert "positions" in json.loads(resumed.stdout)["resumed"]
    assert path.read_bytes() == whole.read_bytes()
    assert not path.with_name(path.name + ".work").exists()


def test_query_gives_every_moves_value_distance_and_score(tables, capsys):
    table = tables("othello:4")
    assert main(["tablebase", "query", str(table.table.path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["value"], answer["score"]) == ("loss", -10) and set(answer["moves"]) == {"b1", "a2", "d3", "c4"}
    assert main(["tablebase", "query", str(table.table.path), "--moves", "b1"]) == 0
    assert "for the player to move: win in" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "says"), [
    (["tablebase", "build", "nosuch:3", "{new}"], "unknown game"),
    (["tablebase", "build", "connect4:7,6", "{new}"], "exact keys"),
    (["tablebase", "build", "connect4:4,4", "{new}", "--max-positions", "1000"], "more than 1,000 positions"),
    (["tablebase", "build", "connect4:4,4", "{folder}"], "folder"),
    (["tablebase", "query", "{new}"], "no tablebase"),
    (["tablebase", "query", str(DOMINEERING)], "not a gameproof tablebase"),
    (["tablebase", "query", "{ttt}", "--position", "XX-/---/--- O"], "reachable from the start"),
])
def test_bad_input_is_one_line_and_exit_2_with_nothing_written(tables, tmp_path, capsys, argv, says):
    ttt = tables("mnk:3,3,3").table.path
    fill = {"{new}": str(tmp_path / "new.tb"), "{folder}": str(tmp_path), "{ttt}": str(ttt)}
    assert main([fill.get(word, word) for word in argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and says in captured.err, captured.err
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_a_work_folder_of_another_game_is_refused(tmp_path, capsys):
    path = tmp_path / "t.tb"
    work = path.with_name("t.tb.work")
    work.mkdir()
    (work / "game.json").write_text(json.dumps({"game": "connect4:5,4"}))
    assert main(["tablebase", "build", "connect4:4,4", str(path)]) == 2
    assert "another game" in capsys.readouterr().err and not path.exists()


def test_finished_positions_are_kept_with_their_results(tables):
    table = tables("connect4:4,4")
    arrays = table.table.arrays
    finished = np.flatnonzero((arrays["distance"][:] == 0))
    assert len(finished) > 1000
    for row in finished[:: max(1, len(finished) // 200)].tolist():
        state = RulesState.at(table.game, tuple(int(w) for w in arrays["words"][row]), int(arrays["to_move"][row]))
        outcome = table.game.rules.result(*table.game.arguments.of(state.words, state.to_move))
        assert state.is_over() and outcome != ONGOING
        assert int(arrays["value"][row]) == {WIN: 1, LOSS: -1, DRAW: 0}[outcome]


def test_the_table_of_the_positions_after_a_given_one_holds_its_exact_scores(tmp_path, capsys):
    """An endgame's table: Othello 6×6 with ten empty squares left, built from the position, its scores those that
    exact_score finds, checked by the independent checker; the table of another position resumes nothing."""
    from gameproof.certify.tablebase_check import check_tablebase

    moves = "e4 e5 d5 e3 f5 f6 d2 c5 b3 a2 a3 b2 d6 e2 b4 e6 a1 c2 b1 a4 f4 c6"
    path = tmp_path / "end.tb"
    assert main(["tablebase", "build", "othello:6", str(path), "--moves", moves, "--quiet", "--workers", "2"]) == 0
    table = Tablebase(path)
    state = RulesState(table.game, moves)
    assert table.table.header["root"] == {"words": list(state.words), "to_move": state.to_move}
    solution = exact_score(state, SMALL)
    answer = table.answer(state)
    assert answer.worth.score == solution.score and {m: w.score for m, w in answer.moves.items()} == solution.moves
    for child in rows(table, 40):
        assert table.worth(child).score == exact_score(child, SMALL, with_moves=False).score, child.described()
    assert check_tablebase(str(path)).accepted
    capsys.readouterr()
    assert main(["tablebase", "query", str(path)]) == 2  # the start is no position after the given one
    assert "reachable from the position it was built from" in capsys.readouterr().err


def test_workers_build_the_same_file(tmp_path):
    one, two = tmp_path / "one.tb", tmp_path / "two.tb"
    build(load_game("dodgem:4"), one)
    build(load_game("dodgem:4"), two, workers=2)
    assert one.read_bytes() == two.read_bytes()


@pytest.fixture(scope="module")
def endgame(tmp_path_factory) -> Path:
    """The table of Connect Four 5×4's positions after c c a (on which a search from c c ends)."""
    path = tmp_path_factory.mktemp("endgame") / "after_cca.tb"
    game = load_game("connect4:5,4")
    state = RulesState(game, "c c a")
    build(game, path, root=(state.words, state.to_move))
    return path


@pytest.mark.parametrize("engine", ["dfpn", "alphabeta"])
def test_a_search_that_probes_a_table_ends_at_its_positions_with_their_values(endgame, engine):
    from gameproof.framework.declaration import Engine

    game = load_game("connect4:5,4")
    state = RulesState(game, "c c")
    probe = Tablebase(endgame).probe(game)
    plain = solve(state, SMALL, engine=Engine(engine))
    probed = solve(state, SMALL, engine=Engine(engine), probe=probe)
    assert (probed.value, probed.moves) == (plain.value, plain.moves)
    assert probed.nodes < plain.nodes / 2  # the subtree after a is the table's


def test_a_probed_search_believes_the_table_which_is_why_tables_are_checked(endgame, tmp_path):
    """A table whose entry for the position after c c a (a win for O, to move there) says "loss" makes a probed
    search value a as a win for X; `tablebase check` rejects that table."""
    import shutil

    from gameproof.certify.tablebase_check import check_tablebase

    forged = tmp_path / "forged.tb"
    shutil.copy(endgame, forged)
    game = load_game("connect4:5,4")
    table = Tablebase(forged)
    row = table.table.row(game.key(RulesState(game, "c c a").words, RulesState(game, "c c a").to_move))
    values = table.table.arrays["value"]
    writable = np.memmap(forged, dtype=values.dtype, mode="r+", offset=values.offset, shape=values.shape)
    assert writable[row] == 1
    writable[row] = -1
    writable.flush()
    probed = solve(RulesState(game, "c c"), SMALL, probe=Tablebase(forged).probe(game))
    assert solve(RulesState(game, "c c"), SMALL).moves[RulesState(game, "c c").parse_move("a")] == Value.LOSS
    assert probed.moves[RulesState(game, "c c").parse_move("a")] == Value.WIN
    assert not check_tablebase(str(forged)).accepted


@pytest.mark.parametrize(("argv", "says"), [
    (["--workers", "2"], "does not take --workers"),
    (["--certificate", "{tmp}/c.cert"], "does not take --certificate"),
    (["--score"], "does not take --score"),
])
def test_solve_with_a_tablebase_refuses_what_it_cannot_do_in_one_line(endgame, tmp_path, capsys, argv, says):
    command = ["solve", "connect4:5,4", "--moves", "c c", "--tablebase", str(endgame),
               *(word.replace("{tmp}", str(tmp_path)) for word in argv)]
    assert main(command) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and says in captured.err
    assert not (tmp_path / "c.cert").exists()


def test_solve_refuses_a_table_of_another_game_or_one_built_without_the_declared_symmetries(endgame, tmp_path, capsys):
    assert main(["solve", "connect4:4,4", "--tablebase", str(endgame)]) == 2
    assert "not of connect4:4,4" in capsys.readouterr().err
    table = tmp_path / "dom.tb"
    assert main(["tablebase", "build", f"{DOMINEERING}:3,3", str(table), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["solve", f"{DOMINEERING}:3,3", "--tablebase", str(table)]) == 2
    assert "declares symmetries that its table was built without" in capsys.readouterr().err


def test_solve_says_it_probed(endgame, capsys):
    assert main(["solve", "connect4:5,4", "--moves", "c c", "--tablebase", str(endgame), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["value"] == "draw" and answer["tablebase"] == str(endgame)


def test_a_damaged_pass_in_the_work_folder_is_one_line_and_nothing_is_written(tmp_path, capsys, monkeypatch):
    from gameproof.search.tablebase import passes

    path = tmp_path / "t.tb"

    def killed(*_):
        raise KeyboardInterrupt  # as a kill after the forward pass was kept

    with monkeypatch.context() as patched:
        patched.setattr(passes, "graph", killed)
        with pytest.raises(KeyboardInterrupt):
            build(load_game("mnk:3,3,3"), path)
    kept = tmp_path / "t.tb.work" / "positions.npz"
    kept.write_bytes(b"not a zip")
    assert main(["tablebase", "build", "mnk:3,3,3", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be read" in err and "to build anew" in err and not path.exists()
