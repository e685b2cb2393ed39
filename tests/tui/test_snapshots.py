"""Screenshots of both apps (animations off), compared by their text, not pixel-exact SVG.

Run this file as a script to refresh the README's screenshots: ``python tests/tui/test_snapshots.py``.
Set ``GAMEPROOF_UPDATE_SNAPSHOTS=1`` to rewrite the golden text after a deliberate change.
"""

import asyncio
import os
import sys
from pathlib import Path

from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.tui.app import GameproofApp
from gameproof.tui.game_model import GameSession
from gameproof.tui.oracle import Oracle
from gameproof.tui.othello_model import RecordViewer

SIZE = (100, 30)
GOLDEN = Path(__file__).parent / "snapshots"
IMAGES = Path(__file__).parents[2] / "docs" / "images"
RECORD33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"


async def mnk_screenshot() -> str:
    """Misère tic-tac-toe after b1, every value proven."""
    app = GameproofApp.game(GameSession(MnkState(MnkGame(3, 3, 3, "misere"), "b1")), Oracle())
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        return app.export_screenshot(title="gameproof tui mnk --rows 3 --cols 3 --k 3 --misere")


async def othello_screenshot() -> str:
    """The 33-move position at the end of its record."""
    app = GameproofApp.record(RecordViewer.from_record(RECORD33))
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        return app.export_screenshot(title="gameproof tui othello")


SCENARIOS = {"tui-mnk": mnk_screenshot, "tui-othello": othello_screenshot}


def check(name: str, rows: list[str]) -> None:
    """Compare the screen's text above the footer (whose look depends on the Textual version) with golden text."""
    body = "\n".join(rows[:-1]).rstrip() + "\n"
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("GAMEPROOF_UPDATE_SNAPSHOTS"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(body, encoding="utf-8")
    assert body == golden.read_text(encoding="utf-8")


def test_mnk_snapshot(screen_rows_of):
    svg = asyncio.run(mnk_screenshot())
    check("tui-mnk", screen_rows_of(svg))
    for colour in ("#1f6f3a", "#7a6a1c", "#8a2a2a"):  # win, draw and loss cells are all there
        assert colour in svg


def test_othello_snapshot(screen_rows_of):
    check("tui-othello", screen_rows_of(asyncio.run(othello_screenshot())))


if __name__ == "__main__":
    IMAGES.mkdir(parents=True, exist_ok=True)
    for image, scenario in SCENARIOS.items():
        (IMAGES / f"{image}.svg").write_text(asyncio.run(scenario()), encoding="utf-8")
        print(f"wrote {IMAGES / image}.svg", file=sys.stderr)
