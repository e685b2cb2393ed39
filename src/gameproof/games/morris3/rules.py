"""Three Men's Morris (``morris3``, no parameters): the rules as Wikipedia's "Three men's morris" article states
them for H. J. R. Murray's "three men's morris" or "the smaller merels" (*A History of Chess*, 1913, p. 614).

The board is 3 × 3 points. Its lines are the 3 rows, the 3 columns and the 2 diagonals: a player who has three of
their pieces on one of these 8 lines has won, at once. White (the first player) and black each have three pieces;
the board starts empty. First the players put their pieces on vacant points, one a turn, white first (the
placement phase, six plies unless a line is made sooner); then each in turn moves one of their pieces to an
*adjacent* vacant point: a corner to the middle of an adjacent edge, the middle of an edge to an adjacent corner or
to the centre, the centre to the middle of an edge (no move along a diagonal). A side that cannot move loses (a
choice: the sources are silent; it is Nine Men's Morris's rule, and no reachable position has a side without a
move unless the other side has already made its line). Moving pieces can go round for ever: the game declares
``repetition=Repetition.DRAW``, play that never ends being a draw.

Moves have two parts, from and to, in both phases, since a game's moves all have the parts it declares: a
placement is written with the point twice (``b2-b2``), a move from one point to another (``b2-b3``). Cell (row, col)
is bit row · 3 + col, row 0 (row 1 of the drawing) at the bottom. The position is (white's pieces, black's
pieces), absolute; the rules take the side to move first (0: white, 1: black), and the sides alternate. A side is
placing while it has fewer than three pieces on the board.
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import ALL_SYMMETRIES, LOSS, Board, GameSpec, PositionFormat, Repetition
from gameproof.framework.square_text import SquareText

CELLS = 0x1FF
NOT_COL_A = 0b110110110  # the cells of columns b and c: where a step right lands, and where a step left starts
# The eight lines: rows, columns, diagonals.
ROW_1, ROW_2, ROW_3 = 0b000000111, 0b000111000, 0b111000000
COL_A, COL_B, COL_C = 0b001001001, 0b010010010, 0b100100100
DIAGONAL, ANTI_DIAGONAL = 0b100010001, 0b001010100
PIECES_EACH = 3


def start():
    return 0, 0


def has_line(pieces):
    """Whether `pieces` hold one of the eight lines."""
    return ((pieces & ROW_1) == ROW_1) | ((pieces & ROW_2) == ROW_2) | ((pieces & ROW_3) == ROW_3) \
        | ((pieces & COL_A) == COL_A) | ((pieces & COL_B) == COL_B) | ((pieces & COL_C) == COL_C) \
        | ((pieces & DIAGONAL) == DIAGONAL) | ((pieces & ANTI_DIAGONAL) == ANTI_DIAGONAL)


def neighbours(cells):
    """The points adjacent to `cells` along the board's rows and columns (no diagonal step)."""
    return (((cells << 1) & NOT_COL_A) | ((cells & NOT_COL_A) >> 1) | (cells << 3) | (cells >> 3)) & CELLS


def legal(to_move, white, black):
    """No move once a side has a line (the game is over). Placing: every vacant point (the move's first part).
    Moving: the pieces with a vacant neighbour."""
    if has_line(white) | has_line(black):
        return 0
    mine = black if to_move else white
    empty = CELLS & ~(white | black)
    if popcount(mine) < PIECES_EACH:
        return empty
    return mine & neighbours(empty)


def legal_to(to_move, white, black, frm):
    """Placing: the point itself (`frm`). Moving: the vacant points next to the piece on `frm`."""
    mine = black if to_move else white
    if popcount(mine) < PIECES_EACH:
        return frm
    return neighbours(frm) & CELLS & ~(white | black)


def play(to_move, white, black, frm, to):
    """Place a piece on `to` (when `frm` is `to`), or move the piece on `frm` to `to`."""
    if to_move == 0:
        return (white & ~frm) | to, black
    return white, (black & ~frm) | to


def result(to_move, white, black):
    """Asked when the side to move has no move: the other side has made a line, or (never in a reachable
    position) the side to move is blocked in. Either way it has lost."""
    return LOSS


# --- positions as text ------------------------------------------------------------------------------------------

PIECES = "WB"
NAMES = ("white", "black")


TEXT = SquareText(3, 3, PIECES, NAMES, "point")


def parse_text(game, text):
    """(white, black) and the side to move of ``W--/-B-/--- white``: the rows top to bottom separated by ``/`` (or
    spaces), W a white piece, B a black one, ``-`` or ``.`` vacant, then the side to move (white or black, w or b).
    At most three pieces a side; while pieces are being placed, the side to move is the one the counts say (white
    when both have placed as many, black when white has one more)."""
    pieces, to_move = TEXT.read(text)
    counts = [bin(held).count("1") for held in pieces]
    for colour, count in enumerate(counts):
        if count > PIECES_EACH:
            raise BadInput(f"{count} {NAMES[colour]} pieces, but each side has {PIECES_EACH}")
    if counts != [PIECES_EACH, PIECES_EACH]:
        placing = 0 if counts[0] == counts[1] else 1 if counts[0] == counts[1] + 1 else None
        if placing is None:
            raise BadInput(f"{counts[0]} white and {counts[1]} black pieces: the players place in turn, white first")
        if placing != to_move:
            raise BadInput(f"{counts[0]} white and {counts[1]} black pieces: {NAMES[placing]} is to place, "
                           f"not {NAMES[to_move]}")
    return pieces, to_move


def format_text(game, absolute, to_move):
    """The text :func:`parse_text` reads."""
    return TEXT.write(absolute, to_move)


GAME = GameSpec(
    name="morris3",
    rules=sys.modules[__name__],
    summary="Three Men's Morris: place three pieces, then step them along the lines; a line of three wins "
            "(a position may repeat)",
    board=lambda: Board(3, 3),
    symmetries=ALL_SYMMETRIES,
    max_moves=lambda: 9,
    repetition=Repetition.DRAW,
    perspective=False,
    pieces=PIECES,
    player_names=NAMES,
    parts=("from", "to"),
    joiners=("-",),
    turn_argument=True,
    position_format=PositionFormat(parse_text, format_text, "the rows top to bottom separated by / (W white, "
                                   "B black; - vacant), a space and the side to move (white or black)"),
)
