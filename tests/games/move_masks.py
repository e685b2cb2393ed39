"""Reading the two-part rule functions' masks as the references' boards and move names, for the tests."""

from __future__ import annotations

from gameproof.framework.declaration import Board

Grid = tuple[tuple[str, ...], ...]


def cells_of(mask: int) -> list[int]:
    """The bits set in a one-word mask of cells."""
    return [bit for bit in range(64) if mask >> bit & 1]


def rule_moves(rules, board: Board, arguments: tuple[int, ...]) -> dict[str, tuple[int, int]]:
    """Every complete move that ``legal`` and ``legal_to`` offer, by name (``b2-c3``), as its two one-hot
    masks; `arguments` are what the rule functions take before the parts. Asserts that each cell ``legal``
    gives starts a move."""
    moves = {}
    for frm in cells_of(rules.legal(*arguments)):
        targets = rules.legal_to(*arguments, 1 << frm)
        assert targets != 0, f"legal() offers {board.cell_name(frm)}, which has no legal_to()"
        for to in cells_of(targets):
            moves[f"{board.cell_name(frm)}-{board.cell_name(to)}"] = (1 << frm, 1 << to)
    return moves


def grid_of(board: Board, layers: tuple[int, ...], pieces: str) -> Grid:
    """The board as rows of characters (row 0 first): ``pieces[i]`` where layer i has a piece, else "."."""
    def at(row: int, col: int) -> str:
        bit = board.bit(row, col)
        return next((piece for layer, piece in zip(layers, pieces) if layer >> bit & 1), ".")

    return tuple(tuple(at(row, col) for col in range(board.cols)) for row in range(board.rows))
