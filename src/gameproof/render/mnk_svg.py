"""SVG drawing of an m,n,k position: the board, X and O stones, and optionally each empty square's value."""

from __future__ import annotations

from gameproof.games.mnk.state import MnkState
from gameproof.render.board_svg import CELL, board_svg, values_caption
from gameproof.render.svg import circle, line


def mnk_svg(state: MnkState, values: dict[int, str] | None = None) -> str:
    """A standalone SVG of ``state`` (``a1`` bottom-left); ``values`` (square → win/draw/loss) tints empty squares."""
    g = state.game
    return board_svg(g.rows, g.cols, state.marks(), _stone, last=state.history[-1] if state.history else None,
                     values=values, caption=values_caption("XO"[state.to_move]) if values else None)


def _stone(mark: str, cx: float, cy: float) -> list[str]:
    """X as a blue cross, O as a red ring."""
    r = CELL * 0.3
    if mark == "X":
        colour = "#1f4e8c"
        return [line(cx - r, cy - r, cx + r, cy + r, colour, 5), line(cx - r, cy + r, cx + r, cy - r, colour, 5)]
    return [circle(cx, cy, r, "none", stroke="#b3261e", stroke_width="5")]
