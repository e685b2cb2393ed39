"""Keys every newcomer tries: ctrl+c quits on every screen, as `q` does (exit code 0, in a real terminal too), and a
typed name the board lacks, or a move not legal now, is answered in words, never ignored or a crash."""

import asyncio
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.tui.app import GameproofApp
from gameproof.tui.game_model import GameSession
from gameproof.tui.oracle import Oracle
from gameproof.tui.othello_model import RecordViewer

SIZE = (100, 35)


def patient(app: GameproofApp) -> GameproofApp:
    """`app` with notices that stay up for minutes: a loaded machine may take seconds from a notice to its check."""
    app.NOTIFICATION_TIMEOUT = 600
    return app


def game_app(state) -> GameproofApp:
    return patient(GameproofApp.game(GameSession(state), Oracle()))


def record_app(record: str) -> GameproofApp:
    return patient(GameproofApp.record(RecordViewer.from_record(record)))


def notified(app) -> list[str]:
    return [notification.message for notification in app._notifications]


async def notices(pilot, seconds: float = 30) -> list[str]:
    """The app's notices, once it has one (its message reaches the app's queue after the key's handler ran)."""
    deadline = time.monotonic() + seconds
    while not notified(pilot.app) and time.monotonic() < deadline:
        await pilot.pause(0.02)
    return notified(pilot.app)


SCREENS = {
    "game screen, mid-search": lambda: game_app(MnkState(MnkGame(5, 5, 4))),
    "game screen, Connect Four": lambda: game_app(RulesState(load_game("connect4:4,4"))),
    "record viewer": lambda: record_app("f5d6"),
}


@pytest.mark.parametrize("make", SCREENS.values(), ids=SCREENS.keys())
def test_ctrl_c_quits_every_screen_with_exit_code_0(make):
    async def scenario():
        app = make()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert not app.is_running and notified(app) == []  # no "press ctrl+q to quit"
        assert app.return_code == 0
    asyncio.run(scenario())


def test_ctrl_c_in_a_terminal_ends_the_command_with_exit_code_0():
    """`gameproof tui` on a pseudo-terminal: the byte ctrl+c types (no SIGINT: Textual takes the terminal raw)."""
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    run = subprocess.Popen([sys.executable, "-m", "gameproof", "tui", "connect4:4,4"], stdin=child, stdout=child,
                           stderr=child, start_new_session=True, env={**os.environ, "TERM": "xterm-256color"})
    os.close(child)
    try:
        shown = _read_until(main, b"to move", seconds=60)
        assert b"to move" in shown, shown[-500:]
        os.write(main, b"\x03")
        assert run.wait(timeout=10) == 0
    finally:
        run.kill()
        run.wait()
        os.close(main)


def _read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    """What the terminal `fd` shows until `wanted` appears (or `seconds` pass, or it closes)."""
    shown, deadline = b"", time.monotonic() + seconds
    while wanted not in shown and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                shown += os.read(fd, 65536)
            except OSError:  # the other end closed
                break
    return shown


@pytest.mark.parametrize(("state", "keys", "record", "message"), [
    (MnkState(MnkGame(3, 3, 3, "misere"), "b2"), "z9", "b2", "'z9' is not a cell of a 3x3 board (a1..c3)"),
    (MnkState(MnkGame(3, 3, 3, "misere"), "b2"), "7", "b2", "'7' is not a cell of a 3x3 board (a1..c3)"),
    (MnkState(MnkGame(3, 3, 3, "misere"), "b2"), "b2", "b2", "b2 is not legal here"),
    (RulesState(load_game("connect4:4,4"), "a a a a"), "z", "a a a a", "'z' is not a column of the board (a..d)"),
    (RulesState(load_game("connect4:4,4"), "a a a a"), "9", "a a a a", "'9' is not a column of the board (a..d)"),
    (RulesState(load_game("connect4:4,4"), "a a a a"), "a", "a a a a", "column a is full"),
    (RulesState(load_game("breakthrough:4,4")), "z9", "", "'z9' is not a cell of a 4x4 board (a1..d4)"),
])
def test_a_typed_name_the_board_lacks_or_a_move_not_legal_now_is_said(state, keys, record, message):
    async def scenario():
        app = game_app(state)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.press(*keys)
            await pilot.pause()
            screen = app.screen
            assert screen.session.record == record and screen.entry.text == ""
            shown = await notices(pilot)
            assert any(message in notice for notice in shown), shown
            await pilot.press("q")  # the commands keep their keys
        assert app.return_code == 0
    asyncio.run(scenario())


def test_the_record_viewer_says_so_of_a_typed_square_the_board_lacks():
    async def scenario():
        app = record_app("f5d6")
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.press("z", "9")
            await pilot.pause()
            assert app.screen.viewer.record == "f5d6"
            assert await notices(pilot) == ["not an Othello square: 'z9' (expected a1..h8 or pa)"]
            await pilot.press("home", "m")  # m is a command, not a letter of a square's name
            assert app.screen.viewer.ply == 2 and app.screen.entry.text == ""
            await pilot.press("c", "3")
            assert app.screen.viewer.record == "f5d6c3"
    asyncio.run(scenario())
