"""Othello notation: square names, move records, 64-character boards and hex bitboards."""

from __future__ import annotations

import re

from gameproof.errors import BadInput

PASS = 64
"""The pass move, beside squares 0..63."""

FILES = "abcdefgh"
BLACK_CHARS = "Xx*"
WHITE_CHARS = "Oo"
EMPTY_CHARS = "-."
_TOKEN = re.compile(r"[a-h][1-8]|pa|ps|--", re.IGNORECASE)


def square_name(square: int) -> str:
    """`a1` for 0, `h8` for 63, `pa` for the pass move."""
    if square == PASS:
        return "pa"
    return FILES[square % 8] + str(square // 8 + 1)


def parse_square(text: str) -> int:
    """Square index of a name like `f5` (any case), or PASS for `pa`/`ps`/`--`."""
    name = text.strip().lower()
    if name in ("pa", "ps", "--"):
        return PASS
    if len(name) == 2 and name[0] in FILES and name[1] in "12345678":
        return FILES.index(name[0]) + 8 * (int(name[1]) - 1)
    raise BadInput(f"not an Othello square: {text!r} (expected a1..h8 or pa)")


def tokenize_record(record: str) -> list[int]:
    """Moves of a record such as `f5d6C3pa…` (spaces allowed); passes may be explicit (`pa`) or left out."""
    text = re.sub(r"\s+", "", record)
    moves: list[int] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            raise BadInput(f"bad move record at character {position + 1}: {text[position:position + 2]!r}")
        moves.append(parse_square(match.group()))
        position = match.end()
    return moves


def parse_board(board: str) -> tuple[int, int]:
    """(black, white) bitboards of a 64-character board (`X` black, `O` white, `-` empty; a1..h8 row-major)."""
    cells = re.sub(r"\s+", "", board)
    if len(cells) != 64:
        raise BadInput(f"a board needs 64 cells (X, O or -), got {len(cells)}")
    black = white = 0
    for square, cell in enumerate(cells):
        if cell in BLACK_CHARS:
            black |= 1 << square
        elif cell in WHITE_CHARS:
            white |= 1 << square
        elif cell not in EMPTY_CHARS:
            raise BadInput(f"bad board cell {cell!r} at {square_name(square)} (expected X, O or -)")
    return black, white


def format_board(black: int, white: int) -> str:
    """The 64-character board string of two bitboards."""
    return "".join("X" if black >> s & 1 else "O" if white >> s & 1 else "-" for s in range(64))


def parse_hex_bitboard(text: str) -> int:
    """A 64-bit bitboard written in hex (with or without 0x)."""
    try:
        value = int(text, 16)
    except ValueError:
        raise BadInput(f"not a hex bitboard: {text!r}") from None
    if not 0 <= value < 1 << 64:
        raise BadInput(f"bitboard out of 64-bit range: {text!r}")
    return value


def format_hex_bitboard(bitboard: int) -> str:
    return f"0x{bitboard:016x}"


def parse_color(text: str) -> int:
    """0 for black, 1 for white."""
    colors = {"black": 0, "b": 0, "x": 0, "white": 1, "w": 1, "o": 1}
    try:
        return colors[text.strip().lower()]
    except KeyError:
        raise BadInput(f"not a side: {text!r} (expected black or white)") from None


COLOR_NAMES = ("black", "white")
