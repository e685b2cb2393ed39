"""The public Python API, ``import gameproof as gp`` (docs/api.md): the same answers as the commands, moves and
position text that round-trip, errors of the types it promises, results that round-trip through JSON."""

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import gameproof as gp
from gameproof.cli import main

ROOT = Path(__file__).parent.parent
GUIDE = (ROOT / "docs" / "api.md").read_text()


def cli_json(capsys, *argv: str, code: int = 0) -> dict:
    """The JSON document a command prints (its exit code checked to be `code`)."""
    assert main([*argv, "--json"]) == code
    return json.loads(capsys.readouterr().out)


def round_trips(document: dict) -> bool:
    return json.loads(json.dumps(document)) == document


# --- the module ------------------------------------------------------------------------------------------------------

def test_importing_gameproof_loads_neither_numba_nor_the_api():
    code = ("import sys, gameproof; assert 'numba' not in sys.modules, 'numba'; "
            "assert 'gameproof.api.positions' not in sys.modules, 'api'; print(gameproof.__version__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == gp.__version__


def test_the_acceptance_one_liner_prints_the_value():
    code = "import gameproof as gp; g = gp.load_game('connect4:5,4'); print(gp.solve(g.start()).value)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "draw"


def test_every_public_name_has_a_docstring_and_a_place_in_the_guide():
    for name in gp.__all__:
        assert f"`{name}" in GUIDE.partition("## Reference")[2], f"{name} is not in docs/api.md's reference"
        if name == "__version__":
            continue
        value = getattr(gp, name)
        assert inspect.getdoc(value), f"{name} has no docstring"
        if inspect.isclass(value) and value.__module__.startswith("gameproof.api"):
            for attribute, member in vars(value).items():
                if not attribute.startswith("_") and (callable(member) or isinstance(member, (property, classmethod))):
                    assert inspect.getdoc(getattr(value, attribute)), f"{name}.{attribute} has no docstring"


def test_dir_lists_the_public_names_and_unknown_names_are_attribute_errors():
    assert set(gp.__all__) <= set(dir(gp))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        gp.nothing  # noqa: B018


# --- games and positions ---------------------------------------------------------------------------------------------

def test_a_game_by_name_or_by_keyword_is_the_same_game():
    game = gp.load_game("connect4:5,4")
    assert game == gp.load_game("connect4", width=5, height=4) == gp.load_game("connect4:5", height=4)
    assert hash(game) == hash(gp.load_game("connect4", width=5, height=4))
    assert (game.name, game.parameters, game.players) == ("connect4:5,4", {"width": 5, "height": 4}, ("X", "O"))
    assert game != gp.load_game("connect4") and game.engine is gp.Engine.ALPHABETA
    assert "connect4" in gp.game_names() and gp.load_game("othello:4").has_score
    assert gp.load_game("dodgem").may_repeat and not game.may_repeat


def test_a_game_from_a_rules_file_keeps_the_text_it_was_loaded_from():
    game = gp.load_game(str(ROOT / "examples" / "domineering.py"), rows=3, cols=4)
    assert game.name == "domineering:3,4" and game.source.endswith("domineering.py:rows=3,cols=4")


@pytest.mark.parametrize("name", ["connect4:5,4", "mnk:3,3,3", "othello:4", "kalah", "amazons:4,4", "dodgem",
                                  "breakthrough:4,4", "dots-boxes:1,2"])
def test_moves_by_name_and_by_code_round_trip_and_play_alike(name):
    position = gp.load_game(name).start()
    for _ in range(6):
        if position.is_over():
            break
        assert [position.move_code(name) for name in position.legal_moves] == position.legal_codes
        assert [position.move_name(code) for code in position.legal_codes] == position.legal_moves
        by_name, by_code = position.copy(), position.copy()
        by_name.play(position.legal_moves[-1])
        by_code.play(position.legal_codes[-1])
        assert by_name == by_code != position
        position.play(position.legal_moves[len(position.legal_moves) // 2])


@pytest.mark.parametrize(("name", "moves"), [("connect4:5,4", "d c d c"), ("mnk:3,3,3", "b2 a1 c3"),
                                             ("othello:4", "b1 a1"), ("kalah", "a1"), ("amazons:4,4", ""),
                                             ("dodgem", "a2-b2")])
def test_position_text_round_trips(name, moves):
    game = gp.load_game(name)
    position = game.start(moves=moves)
    again = game.position(position.text)
    assert again == position and again.text == position.text and again.to_move == position.to_move
    assert again.played == "" and position.played == " ".join(moves.split())
    assert str(again) == str(position) and position._repr_svg_().startswith("<svg")


def test_play_undo_copy_and_results_as_python_chess_has_them():
    game = gp.load_game("mnk:3,3,3")
    position = game.start()
    assert (position.to_move, position.player, position.result()) == (0, "X", gp.Result.ONGOING)
    twin = position.copy()
    position.play("b2")
    position.play(0)  # a1 by its code
    assert position.played == "b2 a1" and twin.played == "" and twin == game.start()
    assert position.undo() == "a1" and position.played == "b2"
    for moves, result in (("a1 b1 a2 b2 a3", "1-0"), ("b1 a1 c1 a2 c2 a3", "0-1"),
                          ("b1 b2 c1 a1 c3 c2 a2 b3 a3", "1/2-1/2")):
        ended = game.start(moves=moves)
        assert ended.is_over() and ended.result() == result and ended.legal_moves == []
    assert "mnk:3,3,3" in repr(position) and "gp.load_game('mnk:3,3,3')" == repr(game)


def test_bad_input_is_bad_input_with_one_sentence():
    game = gp.load_game("connect4:5,4")
    cases = [lambda: gp.load_game("conect4"), lambda: gp.load_game("connect4", widht=5),
             lambda: gp.load_game("connect4:5,4", width=5), lambda: game.start(moves="d d d d d"),
             lambda: game.start().play("z"), lambda: game.start().play(63), lambda: game.start().play(1.5),
             lambda: game.start().undo(), lambda: gp.load_game("mnk:3,3,3").position("--/--- X"),
             lambda: gp.solve(game.start(), engine="minimax"), lambda: gp.solve(game.start(), timeout=-1),
             lambda: gp.solve(game.start(), timeout=True), lambda: gp.solve(game.start(), score=True, workers=2),
             lambda: gp.solve(game.start(), distance=True, engine="dfpn"), lambda: gp.solve(game.start(), score=True),
             lambda: gp.solve(gp.load_game("dodgem").start()), lambda: gp.perft(game.start(), 99),
             lambda: gp.perft(game.start(), -1), lambda: gp.solve(game), lambda: gp.reach("connect4", print, 1)]
    for case in cases:
        with pytest.raises(gp.BadInput) as raised:
            case()
        assert "\n" not in str(raised.value) and str(raised.value)
    assert issubclass(gp.RulesError, gp.BadInput) and issubclass(gp.BadInput, ValueError)
    assert issubclass(gp.Interrupted, KeyboardInterrupt) and issubclass(gp.Unknown, Exception)


# --- solving ---------------------------------------------------------------------------------------------------------

def test_values_are_the_commands_values(capsys):
    game = gp.load_game("connect4:5,4")
    solution = gp.solve(game.start())
    expected = cli_json(capsys, "solve", "connect4:5,4", "--quiet")
    assert solution.value == expected["value"] == "draw" and solution.moves == expected["moves"]
    assert solution.source is gp.Source.ALPHABETA and solution.nodes > 0
    assert solution.seconds >= 0 and solution.compile_seconds is not None and solution.compile_seconds >= 0
    assert gp.solve(gp.load_game("mnk:3,3,3").start(), value_only=True).value is gp.Value.DRAW
    assert gp.solve(game.start(), engine="dfpn", value_only=True).value is gp.Value.DRAW
    one, two = gp.solve(game.start(moves="c")), gp.solve(game.start(moves="c"), workers=2)
    assert (two.value, two.moves) == (one.value, one.moves)


@pytest.mark.parametrize("name", ["othello:4", "kalah"])
def test_scores_are_the_commands_scores(capsys, name):
    solution = gp.solve(gp.load_game(name).start(), score=True)
    expected = cli_json(capsys, "solve", name, "--score", "--quiet")
    assert solution.score == expected["score"] and solution.move_scores == expected["moves"]
    assert solution.value == gp.Value.of_score(solution.score)
    assert solution.moves == {move: gp.Value.of_score(score) for move, score in solution.move_scores.items()}


def test_distances_are_the_commands_distances(capsys):
    solution = gp.solve(gp.load_game("mnk:3,3,3").start(moves="b2 a2"), distance=True, score=False)
    expected = cli_json(capsys, "solve", "mnk:3,3,3", "--moves", "b2 a2", "--distance", "--quiet")
    assert (solution.value, solution.distance) == (expected["value"], expected["distance"]) == ("win", 5)
    assert solution.move_distances == {move: each["distance"] for move, each in expected["moves"].items()}
    both = gp.solve(gp.load_game("othello:4").start(moves="b1 a1"), score=True, distance=True)
    assert both.score is not None and both.distance is not None and set(both.move_scores) == set(both.move_distances)


def test_perft_is_the_commands_perft(capsys):
    game = gp.load_game("connect4:5,4")
    assert gp.perft(game.start(), 6) == cli_json(capsys, "perft", "connect4:5,4", "6")["paths"] == 15500
    assert gp.perft(game.start(moves="d"), 0) == 1
    assert gp.perft(gp.load_game("mnk:3,3,3").start(), 9, count_finished=True) == 255168


def test_a_timeout_raises_unknown():
    with pytest.raises(gp.Unknown, match="within 0.2 s"):
        gp.solve(gp.load_game("connect4").start(), timeout=0.2)
    with pytest.raises(gp.Unknown):
        gp.perft(gp.load_game("connect4").start(), 16, timeout=0.2)


def test_results_round_trip_through_json(tmp_path):
    game = gp.load_game("mnk:3,3,3")
    documents = [gp.solve(game.start(moves="b2")).to_json(),
                 gp.solve(gp.load_game("othello:4").start(), score=True, distance=True).to_json(),
                 gp.write_certificate(game.start(moves="b2"), tmp_path / "m.cert").to_json(),
                 gp.check_certificate(tmp_path / "m.cert").to_json(),
                 gp.Progress(3, None, 0.5, "nodes").to_json()]
    for document in documents:
        assert round_trips(document)
    assert documents[0]["value"] == "draw" and documents[0]["source"] == "dfpn"
    assert documents[1]["score"] == -10 and documents[3]["accepted"] is True


# --- certificates, books, tablebases ---------------------------------------------------------------------------------

def test_certificates_of_values_scores_and_distances_are_checked(tmp_path, monkeypatch):
    from gameproof.certify import check as check_module

    game = gp.load_game("mnk:3,3,3")
    written = gp.write_certificate(game.start(moves="b2 a2"), tmp_path / "v.cert")
    assert (written.value, written.records > 0, written.bytes > 0) == (gp.Value.WIN, True, True)
    checked = gp.check_certificate(tmp_path / "v.cert")
    assert (checked.accepted, checked.proves, checked.value, checked.finding) == (True, "win", gp.Value.WIN, None)
    scored = gp.write_certificate(gp.load_game("othello:4").start(), str(tmp_path / "s.cert"), score=True)
    assert (scored.score, scored.value) == (-10, gp.Value.LOSS)
    assert gp.check_certificate(tmp_path / "s.cert").proves == "score = -10"
    quick = gp.write_certificate(game.start(moves="b2 a2"), tmp_path / "d.cert", distance=True)
    assert quick.distance == 5 and gp.check_certificate(tmp_path / "d.cert").proves == "win in 5 plies"
    monkeypatch.setattr(check_module, "_PROGRESS_EVERY", 8)  # a call every 8 positions, not every 65,536
    seen = []
    assert gp.check_certificate(tmp_path / "v.cert", progress=seen.append).accepted
    assert seen and all(each.total == written.records and 0 < each.done <= each.total for each in seen)
    with pytest.raises(gp.BadInput):
        gp.write_certificate(game.start(moves="a1 b1 a2 b2 a3"), tmp_path / "over.cert")
    with pytest.raises(gp.BadInput):
        gp.write_certificate(game.start(), tmp_path / "x.cert", score=True, distance=True)
    with pytest.raises(gp.BadInput):
        gp.check_certificate(tmp_path / "nothing.cert")


def test_a_book_answers_as_the_command_does(tmp_path, capsys):
    game = gp.load_game("connect4:5,4")
    book = gp.Book.build(game, tmp_path / "c.db", 2)
    assert (book.game, book.depth, len(book)) == (game, 2, 17) and "17 entries" in repr(book)
    answer = book.query(game.start(moves="c"))
    expected = cli_json(capsys, "book", "query", str(tmp_path / "c.db"), "--moves", "c")
    assert (answer.source, answer.value, answer.moves) == ("book", expected["value"], expected["moves"])
    assert book.query(game.start(moves="c c c")).source is gp.Source.ALPHABETA
    verified = book.verify()
    assert verified.accepted and verified.searched and round_trips(verified.to_json())
    with pytest.raises(gp.BadInput):
        book.query(gp.load_game("mnk:3,3,3").start())


def test_a_tablebase_answers_as_the_command_does(tmp_path, capsys):
    seen = []
    table = gp.Tablebase.build(gp.load_game("dodgem"), tmp_path / "d.tb", progress=seen.append)
    assert len(table) == 2055 and seen and all(each.done is None for each in seen)
    answer = table.query(table.game.start())
    expected = cli_json(capsys, "tablebase", "query", str(tmp_path / "d.tb"))
    assert (answer.value, answer.distance) == (expected["value"], expected["distance"])
    assert answer.move_distances == {move: each["distance"] for move, each in expected["moves"].items()}
    checked = table.check()
    assert checked.accepted and checked.positions == 2055 and round_trips(checked.to_json())
    endgame = gp.Tablebase.build(table.game.start(moves="a2-b2"), tmp_path / "e.tb")
    assert 0 < len(endgame) < len(table)

    def stop(progress):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        gp.Tablebase.build(gp.load_game("dodgem"), tmp_path / "stopped.tb", progress=stop)


# --- SAT -------------------------------------------------------------------------------------------------------------

def column_a_full(player, opponent, to_move):
    """connect4:5,4: column a (bits 0..3 of a word) full."""
    return ((player | opponent) & 0b1111) == 0b1111


def test_reach_answers_as_the_command_does(capsys, tmp_path):
    game = gp.load_game("connect4:5,4")
    assert gp.reach(game, column_a_full, 3).status is gp.Status.UNSAT
    found = gp.reach(game, column_a_full, 4)
    assert found.status is gp.Status.SAT and found.moves.count("a") == 4 and found.final.legal_moves[0] == "b"
    assert round_trips(found.to_json()) and found.to_json()["status"] == "sat"
    rules, question = ROOT / "examples" / "domineering.py", ROOT / "examples" / "domineering_questions.py"
    by_file = gp.reach(gp.load_game(f"{rules}:4,4"), f"{question}::horizontal_stuck", 5)
    expected = cli_json(capsys, "reach", f"{rules}:4,4", "--plies", "5", "--where", f"{question}::horizontal_stuck")
    assert by_file.to_json() | {"encode_seconds": 0, "solve_seconds": 0} == expected | {"encode_seconds": 0,
                                                                                           "solve_seconds": 0}
    later = gp.reach(game.start(moves="a a"), column_a_full, 2)
    assert later.status is gp.Status.SAT and later.moves == ["a", "a"]


def test_check_answers_as_the_command_does(capsys):
    factor = gp.check(f"{ROOT / 'examples' / 'factor.py'}::factor")
    expected = cli_json(capsys, "check", f"{ROOT / 'examples' / 'factor.py'}::factor", code=1)
    assert factor.inputs == expected["inputs"] == {"a": 65521, "b": 65519}
    assert factor.outcome.label == expected["status"] and round_trips(factor.to_json())

    def doubling():
        from gameproof.logic import any_uint, verify

        x = any_uint(16, "x")
        verify(x * 2 == x + x, "doubling is adding")

    assert gp.check(doubling).outcome is gp.Outcome.VERIFIED
    with pytest.raises(gp.BadInput):
        gp.check(f"{ROOT / 'examples' / 'factor.py'}::nothing")


# --- the notebook ----------------------------------------------------------------------------------------------------

def test_the_tour_notebook_runs_cell_by_cell(tmp_path):
    """Its code cells in order, in one namespace, as Jupyter runs them (no Jupyter needed), from another folder."""
    runner = ("import json, sys\n"
              "namespace = {}\n"
              "cells = json.load(open(sys.argv[1]))['cells']\n"
              "for number, cell in enumerate(cells):\n"
              "    if cell['cell_type'] == 'code':\n"
              "        exec(compile(''.join(cell['source']), f'<cell {number}>', 'exec'), namespace)\n")
    done = subprocess.run([sys.executable, "-c", runner, str(ROOT / "examples" / "tour.ipynb")], cwd=tmp_path,
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
