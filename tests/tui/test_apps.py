"""The Textual app driven by Pilot on both of its screens: keys, clicks, the solver's worker finishing."""

import asyncio
import importlib
import inspect
import pkgutil

import textual.app

import gameproof.tui
from gameproof.cli import main
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.tui.app import GameproofApp
from gameproof.tui.game_model import GameSession
from gameproof.tui.game_screen import GameScreen
from gameproof.tui.oracle import Oracle
from gameproof.tui.othello_model import RecordViewer
from gameproof.tui.record_screen import RecordScreen

SIZE = (100, 35)
RECORD33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"


def mnk_app(moves: str = "") -> GameproofApp:
    return GameproofApp.game(GameSession(MnkState(MnkGame(3, 3, 3, "misere"), moves)), Oracle())


async def settle(app, pilot) -> None:
    """Wait for the solver's worker, then for the screen to catch up."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def test_mnk_worker_labels_every_cell(screen):
    async def scenario():
        app = mnk_app()
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert app.screen.session.complete and app.screen.session.value == "draw"
            text = "\n".join(screen(app))
            assert "value for X: draw" in text and text.count("loss") == 8 and "principal line: b2" in text
    asyncio.run(scenario())


def test_mnk_says_how_many_values_came_from_the_book(screen, tmp_path):
    from gameproof.games.mnk import book

    game = MnkGame(3, 3, 3, "misere")
    book.build(game, 1, tmp_path / "m3.db")  # every position one move deep

    async def scenario():
        app = GameproofApp.game(GameSession(MnkState(game)), Oracle(tmp_path / "m3.db", vetting=book.passes_recheck(game, 1)))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert "value for X: draw  (9 of 9 from the book)" in "\n".join(screen(app))
    asyncio.run(scenario())


def test_mnk_keys_clicks_undo_and_perfect_play():
    async def scenario():
        app = mnk_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("b", "2")  # typed square
            await pilot.click("#sq-0")  # a1
            await pilot.press("right", "right", "up", "enter")  # cursor from a1 to c2
            assert app.screen.session.record == "b2 a1 c2"
            await pilot.press("u")
            assert app.screen.session.record == "b2 a1"
            await settle(app, pilot)
            while not app.screen.session.state.is_over():
                await pilot.press("p")
                await settle(app, pilot)
            assert app.screen.session.result() == "draw"  # perfect play from a drawn position draws
            await pilot.press("q")
        assert app.return_code == 0
    asyncio.run(scenario())


def test_mnk_bad_square_is_a_notification_not_a_crash():
    async def scenario():
        app = mnk_app("b2")
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.click("#sq-4")  # b2 is taken
            await pilot.pause()
            assert app.screen.session.record == "b2"
            assert any("b2 is not legal here" in n.message for n in app._notifications)
    asyncio.run(scenario())


def test_mnk_moving_on_cancels_the_previous_search():
    async def scenario():
        app = GameproofApp.game(GameSession(MnkState(MnkGame(4, 4, 3, "misere"))), Oracle())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("a", "1", "d", "4", "u")  # each move restarts the worker
            await settle(app, pilot)
            assert app.screen.session.record == "a1" and app.screen.session.complete
            assert app.screen.session.value == "win"  # misère 4x4 k3 is a second-player win
    asyncio.run(scenario())


def test_othello_steps_to_33_legal_moves(screen):
    async def scenario():
        app = GameproofApp.record(RecordViewer.from_record(RECORD33))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("right", "right")
            assert app.screen.viewer.ply == 2
            await pilot.press("end")
            text = "\n".join(screen(app))
            assert "ply 27 of 27" in text and "33 legal moves" in text
            await pilot.press("home", "m")
            assert app.screen.viewer.ply == 27
            await pilot.press("left")
            assert app.screen.viewer.ply == 26
    asyncio.run(scenario())


def test_othello_moves_by_click_and_by_typing():
    async def scenario():
        app = GameproofApp.record(RecordViewer.from_record(RECORD33))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("right")
            await pilot.click("#sq-43")  # d6
            assert app.screen.viewer.record == "f5d6"
            await pilot.press("c", "3")
            assert app.screen.viewer.record == "f5d6c3" and app.screen.viewer.ply == 3
            await pilot.press("a", "1")  # illegal: nothing changes
            assert app.screen.viewer.record == "f5d6c3"
    asyncio.run(scenario())


def test_every_command_line_opens_the_one_app_on_its_screen(monkeypatch):
    opened = []
    monkeypatch.setattr(GameproofApp, "run", lambda app: opened.append(app))
    for argv, screen in [(["tui", "othello", RECORD33], RecordScreen), (["tui", "othello", "--record", "f5d6"], RecordScreen),
                         (["tui", "othello"], RecordScreen),
                         (["tui", "othello:4"], GameScreen), (["tui", "mnk", "--rows", "3", "--cols", "3", "--k", "3"],
                                                              GameScreen)]:
        assert main(argv) == 0
        assert type(opened[-1]) is GameproofApp and type(opened[-1].first) is screen
    assert [app.first.viewer.record for app in opened[:3]] == [RECORD33, "f5d6", ""]
    modules = [importlib.import_module(f"gameproof.tui.{module.name}") for module in pkgutil.iter_modules(gameproof.tui.__path__)]
    apps = {cls for module in modules for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, textual.app.App) and cls.__module__.startswith("gameproof.")}
    assert apps == {GameproofApp}  # one app for every game


def test_game_screen_shows_scores(screen):
    from gameproof.framework.registry import load_game
    from gameproof.framework.state import RulesState

    async def scenario():
        state = RulesState(load_game("dots-boxes:1,2"), "b1 a2 b3")  # c2 takes a box and moves again: +2
        app = GameproofApp.game(GameSession(state, scores=True), Oracle(scores=True))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            session = app.screen.session
            assert session.complete and session.value == 2 and session.state.move_name(session.best_move()) == "c2"
            text = "\n".join(screen(app))
            assert "score for second: +2" in text and "…" not in text
            assert text.split().count("+2") == 2 and text.split().count("0") == 3  # c2 and the status; d1, d3, e2
            cell = next(cell for cell, bit in enumerate(session.view.cell_moves) if bit == session.best_move())
            assert "win" in app.screen.query_one(f"#sq-{cell}").classes
            await pilot.press("p")  # perfect play: c2, and the same side moves again
            await settle(app, pilot)
            assert app.screen.session.record == "b1 a2 b3 c2" and "score for second: +2" in "\n".join(screen(app))
    asyncio.run(scenario())


def test_game_screen_refuses_a_session_and_an_oracle_that_disagree():
    import pytest

    with pytest.raises(ValueError):
        GameScreen(GameSession(MnkState(MnkGame(3, 3, 3))), Oracle(scores=True))


def test_tui_game_with_scores_and_a_book(monkeypatch, capsys, tmp_path):
    from gameproof.framework.registry import load_game
    from gameproof.search import book_build
    from gameproof.search.dfpn import Options

    opened = []
    monkeypatch.setattr(GameproofApp, "run", lambda app: opened.append(app))
    assert main(["tui", "kalah:2,2", "--score"]) == 0
    assert opened[-1].first.session.scores and opened[-1].first.oracle.scores
    assert main(["tui", "connect4:4,4", "--score"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "connect4:4,4 declares no score" in err
    book_build.build(load_game("dots-boxes:1,2"), 1, tmp_path / "d12.db", scores=True, options=Options(tt_mb=16))
    assert main(["tui", "dots-boxes:1,2", "--score", "--book", str(tmp_path / "d12.db")]) == 0
    oracle = opened[-1].first.oracle
    assert oracle.scores and oracle.book_path == str(tmp_path / "d12.db")
    assert main(["tui", "dots-boxes:1,2", "--book", str(tmp_path / "d12.db")]) == 0
    assert not opened[-1].first.oracle.scores
    assert main(["tui", "dots-boxes:2,2", "--book", str(tmp_path / "d12.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "build another file" in err
    assert len(opened) == 3  # no screen opened for a refused command
