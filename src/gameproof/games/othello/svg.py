"""SVG rendering of Othello positions."""

from __future__ import annotations

from gameproof.games.othello.notation import FILES
from gameproof.games.othello.position import Position

CELL = 40
MARGIN = 24


def position_svg(position: Position, show_moves: bool = True) -> str:
    """A standalone SVG drawing of `position`: green board, discs, coordinates, legal moves as dots."""
    size = 8 * CELL
    total = size + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{total}" '
        f'viewBox="0 0 {total} {total}" font-family="sans-serif" font-size="13">',
        f'<rect width="{total}" height="{total}" fill="#f4f1e8"/>',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{size}" height="{size}" fill="#2e7d32" stroke="#1b4d1e" stroke-width="2"/>',
    ]
    for i in range(1, 8):
        offset = MARGIN + i * CELL
        parts.append(f'<line x1="{offset}" y1="{MARGIN}" x2="{offset}" y2="{MARGIN + size}" stroke="#1b4d1e"/>')
        parts.append(f'<line x1="{MARGIN}" y1="{offset}" x2="{MARGIN + size}" y2="{offset}" stroke="#1b4d1e"/>')
    for i in range(8):
        centre = MARGIN + i * CELL + CELL // 2
        parts.append(f'<text x="{centre}" y="{MARGIN - 8}" text-anchor="middle">{FILES[i]}</text>')
        parts.append(f'<text x="{MARGIN // 2}" y="{centre + 5}" text-anchor="middle">{i + 1}</text>')
    moves = position.legal_move_mask() if show_moves else 0
    for square in range(64):
        cx = MARGIN + (square % 8) * CELL + CELL // 2
        cy = MARGIN + (square // 8) * CELL + CELL // 2
        if position.black >> square & 1:
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.4:.0f}" fill="#111"/>')
        elif position.white >> square & 1:
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.4:.0f}" fill="#fafafa" stroke="#111"/>')
        elif moves >> square & 1:
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="4" fill="#111" fill-opacity="0.45"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
