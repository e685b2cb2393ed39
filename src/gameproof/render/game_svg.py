"""SVG drawing of a position of any declared game: its board, its pieces, and optionally each move's value."""

from __future__ import annotations

from gameproof.framework.declaration import PASS
from gameproof.framework.state import RulesState
from gameproof.render.board_svg import CELL, PieceDrawer, board_svg, values_caption
from gameproof.render.svg import circle, rect

#: The first player's discs and the second's.
DISCS = (("#222", "#000"), ("#f7f7f2", "#333"))  # (fill, stroke)
SQUARE_FILL = "#8a8a8a"


def game_svg(state: RulesState, values: dict[int, str] | None = None) -> str:
    """A standalone SVG of ``state`` (``a1`` bottom-left, the last move outlined); ``values`` (move → win/draw/loss
    for the side to move) tint the moves' cells, and the caption gives a pass's value."""
    game = state.game
    board, spec = game.board, game.spec
    cell_of = {bit: cell for cell, bit in enumerate(board.cells)}
    last = cell_of.get(state.history[-1]) if state.history else None
    caption = None
    if values:
        caption = values_caption(spec.player_names[state.to_move])
        if PASS in values:
            caption += f"; a pass: {values[PASS]}"
    by_cell = {cell_of[move]: value for move, value in values.items() if move != PASS} if values else None
    return board_svg(board.rows, board.cols, state.marks(), piece_drawer(spec.pieces), last=last, values=by_cell,
                     caption=caption)


def piece_drawer(pieces: str) -> PieceDrawer:
    """Discs for a two-sided game's pieces (dark for the first player, light for the second); filled grey squares
    for a game with one kind of piece (Domineering's covered cells) and for any further kinds."""

    def draw(mark: str, cx: float, cy: float) -> list[str]:
        index = pieces.index(mark)
        if len(pieces) > 1 and index < len(DISCS):
            fill, stroke = DISCS[index]
            return [circle(cx, cy, CELL * 0.38, fill, stroke=stroke, stroke_width="1.5")]
        side = CELL - 8
        return [rect(cx - side / 2, cy - side / 2, side, side, SQUARE_FILL)]

    return draw
