"""SVG drawing of a position of any declared game: its board, its pieces, and optionally each move's value."""

from __future__ import annotations

from gameproof.answers import Value
from gameproof.framework.state import RulesState
from gameproof.render.board_svg import CELL, PieceDrawer, board_svg, values_caption
from gameproof.render.svg import circle, rect

_ORDER = [Value.LOSS, Value.DRAW, Value.WIN]
#: The first player's discs and the second's.
DISCS = (("#222", "#000"), ("#f7f7f2", "#333"))  # (fill, stroke)
SQUARE_FILL = "#8a8a8a"


def game_svg(state: RulesState, values: dict[int, str] | None = None) -> str:
    """A standalone SVG of ``state`` (``a1`` bottom-left, the last move outlined, and its parts joined by arrows
    where it has several: a piece's step, an arrow's flight); ``values`` (move → win/draw/loss for the side to
    move) tint the moves' cells (a move of several parts: its first part's cell, by the best of the moves
    from there), and the caption gives a pass's value."""
    game = state.game
    board, spec = game.board, game.spec
    cell_of = {bit: cell for cell, bit in enumerate(board.cells)}
    last = state.history[-1] if state.history and state.history[-1] != game.pass_move else None
    last_parts = [cell_of[bit] for bit in game.codes.decode(last)] if last is not None else []
    caption = None
    by_cell: dict[int, str] | None = None
    if values:
        caption = values_caption(spec.player_names[state.to_move])
        if game.pass_move in values:
            caption += f"; a pass: {values[game.pass_move]}"
        by_cell = {}
        for move, value in sorted(values.items(), key=lambda item: _ORDER.index(item[1])):
            if move != game.pass_move:
                by_cell[cell_of[game.codes.decode(move)[0]]] = value  # the best value last, so it stays
    return board_svg(board.rows, board.cols, state.marks(), piece_drawer(spec.pieces, spec.player_names),
                     last=last_parts[-1] if last_parts else None, values=by_cell, caption=caption,
                     arrows=list(zip(last_parts, last_parts[1:])))


def piece_drawer(pieces: str, players: tuple[str, str]) -> PieceDrawer:
    """Discs for a two-sided game's pieces (dark for the first player, light for the second, unless the first
    player is named white); filled grey squares for a game with one kind of piece (Domineering's covered cells)
    and for any further kinds."""
    discs = DISCS[::-1] if players[0].lower() == "white" else DISCS

    def draw(mark: str, cx: float, cy: float) -> list[str]:
        index = pieces.index(mark)
        if len(pieces) > 1 and index < len(discs):
            fill, stroke = discs[index]
            return [circle(cx, cy, CELL * 0.38, fill, stroke=stroke, stroke_width="1.5")]
        side = CELL - 8
        return [rect(cx - side / 2, cy - side / 2, side, side, SQUARE_FILL)]

    return draw
