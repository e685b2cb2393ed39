"""The game screen played from a tablebase (`gameproof tui GAME --tablebase FILE`): values, distances and scores read
from the table, perfect play that makes progress in a game that may repeat (Dodgem), a drawn line that stops where
it repeats, and the refusals (another game's table, --score on a table without scores, --book beside it)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from gameproof.answers import Value
from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.tablebase.build import build
from gameproof.search.tablebase.query import Tablebase
from gameproof.tui.app import GameproofApp
from gameproof.tui.game_model import GameSession
from gameproof.tui.game_screen import GameScreen
from gameproof.tui.oracle import Oracle, perfect_move

SIZE = (100, 35)
#: Blue to move wins in 22 here, yet the first move that keeps the win (move order) leads round a cycle of won
#: positions for ever: perfect play must take the nearest win.
CYCLING = "a2-a1 b1-b2"
#: A token on a row of five cells moved one cell left or right a ply; whoever moves it onto the last cell wins (by
#: 1). It may shuttle for ever, so its tablebase keeps no scores.
SHUTTLE = (Path(__file__).parents[2] / "examples" / "shuttle.py").read_text()


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """``tables(game)``: the path of the game's tablebase, built once for the module."""
    folder, built = tmp_path_factory.mktemp("tablebases"), {}

    def table(game: str) -> str:
        if game not in built:
            path = folder / (game.replace(":", "-").replace(",", "-") + ".tb")
            build(load_game(game), path)
            built[game] = str(path)
        return built[game]
    return table


def _answers(oracle: Oracle, session: GameSession) -> GameSession:
    """`session` given every move's value and distance from `oracle`."""
    for move, value, distance in oracle.move_worths(session.state):
        session.add_value(session.record, move, value, distance)
    return session


def _exact(state: RulesState):
    return state.words, state.to_move


# --- the model --------------------------------------------------------------------------------------------------

def test_dodgem_values_and_distances_are_the_tables(tables):
    table = Tablebase(tables("dodgem:3"))
    oracle = Oracle(tablebase=table)
    for record in ["", "a3-b3", "a2-a1 b1-b2", "a3-b3 b1-b2 b3-c3"]:
        state = RulesState(table.game, record)
        answer = table.answer(state)
        assert {move: (value, distance) for move, value, distance in oracle.move_worths(state)} == \
            {move: (worth.value, worth.distance) for move, worth in answer.moves.items()}, record
        assert oracle.value(state) == answer.worth.value and oracle.worth(state) == answer.worth
        session = _answers(oracle, GameSession(state, distances=True))
        assert (session.value, session.distance) == (answer.worth.value, answer.worth.distance), record
    assert not oracle.from_book(RulesState(table.game))


def test_dodgem_best_move_from_the_start_is_a3_b3(tables):
    oracle = Oracle(tablebase=Tablebase(tables("dodgem:3")))
    session = _answers(oracle, GameSession(RulesState(load_game("dodgem:3")), distances=True))
    assert session.value == Value.WIN and session.distance == 20
    assert session.state.move_name(session.best_move()) == "a3-b3"
    assert session.state.move_name(oracle.principal_line(session.state)[0]) == "a3-b3"


@pytest.mark.parametrize("record", ["", CYCLING])
def test_perfect_play_ends_a_dodgem_game_in_the_tables_distance(tables, record):
    """Best moves for both sides (the `p` key) end the game in exactly the plies the table gives, the winner
    hurrying and the loser holding out; so does the principal line."""
    table = Tablebase(tables("dodgem:3"))
    oracle = Oracle(tablebase=table)
    start = RulesState(table.game, record)
    worth = table.worth(start)
    assert worth.value == Value.WIN and worth.distance is not None
    session, plies = GameSession(start.copy(), distances=True), 0
    while not session.state.is_over() and plies <= worth.distance:
        assert session.best_move() is None  # not before every move is known
        _answers(oracle, session)
        assert session.value == Value.WIN if plies % 2 == 0 else Value.LOSS
        assert session.distance == worth.distance - plies
        session.play(session.best_move())
        plies += 1
    assert session.state.is_over() and plies == worth.distance
    assert session.result() == f"{session.view.players[start.to_move]} won"
    line = oracle.principal_line(start)
    end = start.copy()
    for move in line:
        end.play(move)
    assert end.is_over() and len(line) == worth.distance


def test_the_first_move_that_keeps_a_win_can_cycle_in_dodgem(tables):
    """Why perfect play takes distances into account: from CYCLING, the first move (in move order) that keeps the
    value comes back to a position it has been through."""
    oracle = Oracle(tablebase=Tablebase(tables("dodgem:3")))
    state, seen = RulesState(load_game("dodgem:3"), CYCLING), set()
    while _exact(state) not in seen and not state.is_over():
        seen.add(_exact(state))
        state.play(perfect_move(dict(oracle.move_values(state))))
    assert not state.is_over()


def test_perfect_move_takes_the_nearest_win_and_the_farthest_loss():
    win, draw, loss = Value.WIN, Value.DRAW, Value.LOSS
    assert perfect_move({1: win, 2: win, 3: draw}, {1: 9, 2: 5, 3: None}) == 2
    assert perfect_move({1: win, 2: win, 3: draw}) == 1  # without distances: the first that keeps the value
    assert perfect_move({1: loss, 2: loss, 3: loss}, {1: 3, 2: 7, 3: 7}) == 2  # the first of the farthest
    assert perfect_move({4: draw, 2: draw, 3: loss}, {4: None, 2: None, 3: 1}) == 2
    assert perfect_move({1: -2, 2: 3, 3: 3}, {1: 1, 2: 9, 3: 1}, scores=True) == 2  # scores: the first that scores most


def test_a_drawn_line_that_repeats_stops(tables):
    """Dodgem 4x4 is a draw that goes on for ever: its principal line stops where a position comes round again."""
    table = Tablebase(tables("dodgem:4"))
    oracle = Oracle(tablebase=table)
    start = RulesState(table.game)
    found: list[list[int]] = []
    worker = threading.Thread(target=lambda: found.append(oracle.principal_line(start)), daemon=True)
    worker.start()
    worker.join(60)
    assert found, "the principal line of a draw that goes on did not stop"
    (line,) = found
    positions, end = [_exact(start)], start.copy()
    for move in line:
        end.play(move)
        positions.append(_exact(end))
    assert not end.is_over() and positions[-1] in positions[:-1]  # its last move comes back to a position
    assert len(set(positions)) == len(positions) - 1  # and only that one
    session = _answers(oracle, GameSession(start.copy(), distances=True))
    assert session.value == Value.DRAW and session.distance is None and session.best_move() is not None
    assert session.set_line("", line) and session.line_repeats


def test_connect4_values_from_a_table_are_the_searched_ones(tables):
    table = Tablebase(tables("connect4:4,4"))
    from_table, searched = Oracle(tablebase=table), Oracle()
    for record in ["", "b", "b c d a", "a d c b b d d", "b b b d a a", "d c d b c a c"]:
        state = RulesState(load_game("connect4:4,4"), record)
        assert dict(from_table.move_values(state)) == dict(searched.move_values(state)), record
    assert {str(v) for r in ["b c d a", "b b b d a a"]
            for _, v in from_table.move_values(RulesState(table.game, r))} == {"draw", "loss"}


def test_scores_from_a_table_are_the_exact_scores(tables):
    from gameproof.search.score import exact_score

    oracle = Oracle(scores=True, tablebase=Tablebase(tables("dots-boxes:1,2")))
    for record in ["", "b1", "b1 a2 b3"]:  # after b1 a2 b3, c2 takes a box and moves again
        state = RulesState(load_game("dots-boxes:1,2"), record)
        exact = exact_score(state.copy())
        assert dict(oracle.move_values(state)) == exact.moves and oracle.value(state) == exact.score, record
    state = RulesState(load_game("dots-boxes:1,2"))
    line = oracle.principal_line(state)
    session = _answers(oracle, GameSession(state.copy(), scores=True, distances=True))
    assert session.best_move() == line[0] and session.distance is None  # scores: no distance shown


def test_a_position_the_table_lacks_is_bad_input(tables):
    oracle = Oracle(tablebase=Tablebase(tables("dodgem:3")))
    state = RulesState.from_position(load_game("dodgem:3"), "B--/B--/-RR red")  # the start with red to move
    with pytest.raises(BadInput, match="no entry for the position"):
        oracle.value(state)
    with pytest.raises(BadInput, match="no entry for the position"):
        list(oracle.move_values(state))


def test_an_oracle_takes_a_table_or_a_book_and_scores_only_from_a_table_that_keeps_them(tables, tmp_path):
    with pytest.raises(ValueError):
        Oracle(tmp_path / "book.db", tablebase=Tablebase(tables("dodgem:3")))
    shuttle = tmp_path / "shuttle.py"
    shuttle.write_text(SHUTTLE)
    build(load_game(str(shuttle)), tmp_path / "shuttle.tb")
    with pytest.raises(BadInput, match="keeps no scores"):
        Oracle(scores=True, tablebase=Tablebase(tmp_path / "shuttle.tb"))


# --- the screen ----------------------------------------------------------------------------------------------------

def _opened(monkeypatch) -> list[GameproofApp]:
    opened: list[GameproofApp] = []
    monkeypatch.setattr(GameproofApp, "run", lambda app: opened.append(app))
    return opened


def test_tui_dodgem_with_a_tablebase_shows_values_with_distances(tables, monkeypatch, screen):
    opened = _opened(monkeypatch)
    assert main(["tui", "dodgem:3", "--tablebase", tables("dodgem:3")]) == 0
    (app,) = opened

    async def scenario():
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            text = "\n".join(screen(app))
            assert "value for blue: win in 20  (from the tablebase)" in text
            assert "win 20" in text.replace("win in 20", "") and "loss 19" in text  # a3's car, a2's (its farthest)
            assert "principal line: a3-b3 b1-b2" in text and "repeats" not in text
            await pilot.press("a", "3")  # the car on a3: its targets
            await pilot.pause()
            assert app.screen.session.chosen and "win 20" in "\n".join(screen(app)).replace("win in 20", "")
            await pilot.press("escape", "p")  # perfect play: a3-b3
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.screen.session.record == "a3-b3"
            assert "value for red: loss in 19" in "\n".join(screen(app))
    asyncio.run(scenario())


def test_tui_dodgem_4_line_says_it_repeats(tables, monkeypatch, screen):
    opened = _opened(monkeypatch)
    assert main(["tui", "dodgem:4", "--tablebase", tables("dodgem:4")]) == 0

    async def scenario():
        app = opened[0]
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            text = "\n".join(screen(app))
            assert "value for blue: draw  (from the tablebase)" in text and "… repeats" in text
            assert "loss" not in text  # every car has a drawing move
            await pilot.press("a", "2")  # the car on a2: to b2 draws, to a1 loses in 39
            await pilot.pause()
            assert "loss 39" in "\n".join(screen(app))
    asyncio.run(scenario())


def test_a_position_the_table_lacks_is_a_message_on_the_screen(tables, monkeypatch, screen):
    opened = _opened(monkeypatch)
    assert main(["tui", "game", "dodgem:3", "--position", "B--/B--/-RR red", "--tablebase", tables("dodgem:3")]) == 0

    async def scenario():
        app = opened[0]
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "value for red: unknown: the tablebase has no entry for the" in "\n".join(screen(app))
            assert "no entry for the position B--/B--/-RR red:" in app.screen.session.problem  # itself, not a child
            await pilot.press("p")
            await pilot.pause()
            assert app.screen.session.record == "" and app.is_running
            assert any("no entry for the position" in n.message for n in app._notifications)
    asyncio.run(scenario())


def test_game_screen_refuses_a_session_without_distances_beside_a_table(tables):
    with pytest.raises(ValueError):
        GameScreen(GameSession(RulesState(load_game("dodgem:3"))), Oracle(tablebase=Tablebase(tables("dodgem:3"))))


# --- the command line's refusals ---------------------------------------------------------------------------------

def _refused(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    return captured.err


def test_tui_refuses_another_games_table(tables, monkeypatch, capsys):
    opened = _opened(monkeypatch)
    err = _refused(capsys, ["tui", "dodgem:3", "--tablebase", tables("dodgem:4")])
    assert "is a tablebase of dodgem:4, not of dodgem:3" in err
    err = _refused(capsys, ["tui", "connect4:5,4", "--tablebase", tables("connect4:4,4")])
    assert "is a tablebase of connect4:4,4, not of connect4:5,4" in err
    assert not opened


def test_tui_refuses_a_table_of_the_same_game_from_another_file(tmp_path, monkeypatch, capsys):
    """A file's game is named by its file and SHA-256: the same rules in another file, or changed rules in the same
    one, are refused."""
    opened = _opened(monkeypatch)
    first, second = tmp_path / "shuttle.py", tmp_path / "copy" / "shuttle.py"
    second.parent.mkdir()
    first.write_text(SHUTTLE)
    second.write_text(SHUTTLE)
    build(load_game(str(first)), tmp_path / "shuttle.tb")
    assert main(["tui", str(first), "--tablebase", str(tmp_path / "shuttle.tb")]) == 0  # a repeating game is played
    err = _refused(capsys, ["tui", str(second), "--tablebase", str(tmp_path / "shuttle.tb")])
    assert f"(from {first})" in err and f"(from {second})" in err
    first.write_text(SHUTTLE.replace("who moves it", "whoever moves it"))
    assert "has changed since the tablebase was built" in _refused(
        capsys, ["tui", str(first), "--tablebase", str(tmp_path / "shuttle.tb")])
    assert len(opened) == 1


def test_tui_refuses_score_from_a_table_without_scores(tmp_path, monkeypatch, capsys):
    opened = _opened(monkeypatch)
    (tmp_path / "shuttle.py").write_text(SHUTTLE)
    build(load_game(str(tmp_path / "shuttle.py")), tmp_path / "shuttle.tb")
    err = _refused(capsys, ["tui", str(tmp_path / "shuttle.py"), "--score",
                            "--tablebase", str(tmp_path / "shuttle.tb")])
    assert "keeps no scores" in err and "may repeat a position" in err
    assert not opened


def test_tui_with_a_table_and_scores(tables, monkeypatch):
    opened = _opened(monkeypatch)
    assert main(["tui", "dots-boxes:1,2", "--score", "--tablebase", tables("dots-boxes:1,2")]) == 0
    screen_ = opened[-1].first
    assert screen_.session.scores and screen_.oracle.scores and screen_.oracle.tablebase is not None


def test_tui_refuses_a_book_beside_a_table(tables, monkeypatch, capsys):
    opened = _opened(monkeypatch)
    err = _refused(capsys, ["tui", "dodgem:3", "--book", "b.db", "--tablebase", tables("dodgem:3")])
    assert "argument --tablebase: not allowed with argument --book" in err
    assert not opened


def test_tui_still_refuses_a_repeating_game_without_a_table(monkeypatch, capsys):
    opened = _opened(monkeypatch)
    err = _refused(capsys, ["tui", "dodgem:3"])
    assert "dodgem:3 may repeat a position" in err and "gameproof tui dodgem:3 --tablebase FILE" in err
    assert not opened


def test_an_oracle_answers_only_for_its_tables_game(tables):
    oracle = Oracle(tablebase=Tablebase(tables("dodgem:3")))
    with pytest.raises(BadInput, match="holds dodgem:3, not dodgem:4"):
        list(oracle.move_values(RulesState(load_game("dodgem:4"))))
