"""Breakthrough on a rows × cols board (``breakthrough:5,5``; at most 64 cells, up to 8×8).

White (the first player) starts on the bottom rows and moves up, black on the top rows and moves down:
two home rows each on boards of 5 rows or more, one row each on smaller ones. A move takes one of your
pieces one step forward, straight or diagonally, to an empty cell, or diagonally forward onto an enemy
piece, which is captured (a straight step never captures). Moving a piece onto the far row wins, and so
does capturing every enemy piece; a side left without a legal move (every piece blocked) loses. There
are no draws.

The position is (white's pieces, black's pieces): cell (row, col) is bit row * cols + col, row 0 at
white's side. Moves are ``from-to`` (``b2-c3``); the rules take the side to move as their first
argument (0: white, 1: black).

``decided`` settles a position whose winner is certain without search: a piece that walks straight to its far row,
which no enemy piece can capture or block in time, while the enemy cannot reach its own far row first (the race
knowledge of Saffidine, Jouandeau and Cazenave's 2011 Breakthrough solvers, in its simplest provable form; the proof
is in :func:`runner_wins`). df-pn and alpha-beta end the game there; certificates and distances play on.
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.bits import popcount
from gameproof.framework.declaration import LOSS, ONGOING, WIN, Board, GameSpec, Parameter, Symmetry


def home_rows(rows):
    """The rows each side starts on: two where the board has 5 rows or more, one on smaller boards."""
    return 2 if rows >= 5 else 1


def row_mask(row, cols):
    return ((1 << cols) - 1) << (row * cols)


def constants(rows, cols):
    """The module constants for a rows × cols board."""
    if rows * cols > 64:
        raise BadInput(f"breakthrough:{rows},{cols} has more than 64 cells")
    home = home_rows(rows)
    column = sum(1 << (row * cols) for row in range(rows))  # the cells of column a
    return {
        "ROWS": rows,
        "COLS": cols,
        "CELLS": (1 << (rows * cols)) - 1,
        "NOT_FIRST_COL": column * (((1 << cols) - 1) ^ 1),
        "NOT_LAST_COL": column * ((1 << (cols - 1)) - 1),
        "FIRST_ROW": row_mask(0, cols),
        "LAST_ROW": row_mask(rows - 1, cols),
        "WHITE_START": sum(row_mask(row, cols) for row in range(home)),
        "BLACK_START": sum(row_mask(rows - 1 - row, cols) for row in range(home)),
        "WHITE_ONE_TO_GO": row_mask(rows - 2, cols),
        "WHITE_TWO_TO_GO": row_mask(max(rows - 3, 0), cols),
        "BLACK_ONE_TO_GO": row_mask(1, cols),
        "BLACK_TWO_TO_GO": row_mask(min(2, rows - 1), cols),
    }


# The constants of the default 5×5 board.
_DEFAULT = constants(5, 5)
ROWS = _DEFAULT["ROWS"]
COLS = _DEFAULT["COLS"]
CELLS = _DEFAULT["CELLS"]
NOT_FIRST_COL = _DEFAULT["NOT_FIRST_COL"]
NOT_LAST_COL = _DEFAULT["NOT_LAST_COL"]
FIRST_ROW = _DEFAULT["FIRST_ROW"]
LAST_ROW = _DEFAULT["LAST_ROW"]
WHITE_START = _DEFAULT["WHITE_START"]
BLACK_START = _DEFAULT["BLACK_START"]
WHITE_ONE_TO_GO = _DEFAULT["WHITE_ONE_TO_GO"]
WHITE_TWO_TO_GO = _DEFAULT["WHITE_TWO_TO_GO"]
BLACK_ONE_TO_GO = _DEFAULT["BLACK_ONE_TO_GO"]
BLACK_TWO_TO_GO = _DEFAULT["BLACK_TWO_TO_GO"]


# --- steps forward for the side `side` (0: white, up; 1: black, down), of a set of cells -------------

def straight(side, cells):
    """The cells one step straight ahead of `cells`."""
    if side == 0:
        return (cells << COLS) & CELLS
    return cells >> COLS


def ahead_west(side, cells):
    """The cells one step diagonally ahead of `cells`, towards column a."""
    if side == 0:
        return ((cells & NOT_FIRST_COL) << (COLS - 1)) & CELLS
    return (cells & NOT_FIRST_COL) >> (COLS + 1)


def ahead_east(side, cells):
    """The cells one step diagonally ahead of `cells`, away from column a."""
    if side == 0:
        return ((cells & NOT_LAST_COL) << (COLS + 1)) & CELLS
    return (cells & NOT_LAST_COL) >> (COLS - 1)


def own(to_move, white, black):
    if to_move == 0:
        return white
    return black


def broken_through(to_move, white, black):
    """The pieces of the side that just moved that stand on its far row (the side to move has lost)."""
    if to_move == 0:
        return black & FIRST_ROW
    return white & LAST_ROW


# --- the rules --------------------------------------------------------------------------------------

def start():
    return WHITE_START, BLACK_START


def legal(to_move, white, black):
    """The pieces of the side to move that have a move (none once the game is over): a step backwards,
    for the other side, from an empty cell (straight) or from a cell not its own (diagonal)."""
    if broken_through(to_move, white, black) != 0:
        return 0
    mine = own(to_move, white, black)
    empty = CELLS & ~(white | black)
    not_mine = CELLS & ~mine
    back = to_move ^ 1
    return mine & (straight(back, empty) | ahead_west(back, not_mine) | ahead_east(back, not_mine))


def legal_to(to_move, white, black, frm):
    """Where the piece on `frm` can go: straight ahead if empty, diagonally ahead unless it is our own."""
    empty = CELLS & ~(white | black)
    not_mine = CELLS & ~own(to_move, white, black)
    return (straight(to_move, frm) & empty) | ((ahead_west(to_move, frm) | ahead_east(to_move, frm)) & not_mine)


def play(to_move, white, black, frm, to):
    """Move the piece on `frm` to `to`, capturing whatever enemy piece stands there."""
    if to_move == 0:
        return (white ^ frm) | to, black & ~to
    return white & ~to, (black ^ frm) | to


def result(to_move, white, black):
    """Asked when the side to move has no move: its enemy broke through, took its last piece, or it is
    blocked; each is a loss."""
    return LOSS


def estimate(to_move, white, black):
    """How close each side is to breaking through: twice its pieces one row from its far row plus those
    two rows away, and for the side to move (its count first) 16 more for each piece that can break
    through at once."""
    white_near = 2 * popcount(white & WHITE_ONE_TO_GO) + popcount(white & WHITE_TWO_TO_GO)
    black_near = 2 * popcount(black & BLACK_ONE_TO_GO) + popcount(black & BLACK_TWO_TO_GO)
    if to_move == 0:
        return 16 * popcount(legal(to_move, white, black) & WHITE_ONE_TO_GO) + white_near, black_near
    return 16 * popcount(legal(to_move, white, black) & BLACK_ONE_TO_GO) + black_near, white_near


# --- races: a position whose winner is certain without search ------------------------------------------


def reach(side, cells):
    """The cells one step ahead of `cells` for `side`, straight or diagonally, whatever stands there."""
    return straight(side, cells) | ahead_west(side, cells) | ahead_east(side, cells)


def flanks(side, cells):
    """The cells one step diagonally ahead of `cells` for `side`."""
    return ahead_west(side, cells) | ahead_east(side, cells)


def runner_wins(side, mine, theirs, goal, one_to_go, home, later):
    """Whether `side` (pieces `mine`, far row `goal`, one row short of it `one_to_go`) surely reaches its far row
    against the other side (pieces `theirs`, whose far row is `side`'s `home` row) by walking one of its pieces, the
    runner, straight ahead to the row before its far row and then onto it; `later` is 0 when `side` moves first, 1
    when the other side does.

    The runner's walk, step j (j = 0, 1, ...: the runner on the cell p_j, j rows ahead of where it stands now,
    k = its rows to go, its walk ending with its k-th move): the other side has made j + later - 1 moves before the
    one it makes while the runner stands on p_j, and j + later moves before `side`'s (j+1)-th. A piece of the other
    side only ever steps one row towards `home` and at most one column aside, so after M moves of its side it stands
    within `cone` (M spreads of its pieces, each kept: ``cone_M = theirs | reach(cone_(M-1))``), whatever it
    captured and whoever blocked it. Hence, where, for every j < k:

    - no cell of the cone after j + later - 1 moves attacks p_j (a capture is a diagonal step ahead; none is asked
      for j + later = 0, when the other side makes no move while the runner stands there),
    - for j < k - 1, the cell straight ahead of p_j (the runner's next) holds none of `side`'s pieces (they stay
      where they are: `side` only moves the runner) and lies outside the cone after j + later moves, so it is
      empty when the runner steps there (a straight step needs an empty cell, and takes nothing),
    - at j = k - 1 the runner has a legal step onto the far row now: straight ahead onto an empty cell, or diagonally
      onto a cell that is not `side`'s. Nothing ever enters `side`'s far row but `side`'s own pieces (it is the other
      side's home row, which its pieces only leave), so that step stays legal;
    - and the other side cannot reach its own far row `home` within the k - 1 + later moves it makes before the
      runner's last (the cone after that many moves misses `home`),

    the runner reaches the far row on `side`'s k-th move, and nothing ends the game before: the other side never
    reaches its far row, never captures the runner (so it neither takes `side`'s last piece), and `side` always has a
    move (the runner's). Any other end before it (the other side left without a move) is a win for `side` too.
    The conditions are checked for every runner at once, a bit of a mask for each (runners do not meet: each keeps
    its column, and one blocked by a piece of `side`'s ahead of it drops out)."""
    other = side ^ 1
    runners = mine & ~goal
    attacking = 0  # where the other side's pieces may stand when it moves with the runner on p_j: none at first ...
    blocking = theirs  # ... and where they may stand when the runner steps on (one more move)
    if later != 0:
        attacking = theirs
        blocking = theirs | reach(other, theirs)
    empty = CELLS & ~(mine | theirs)
    can_finish = straight(other, empty & goal) | flanks(other, goal & ~mine)  # the cells with a legal step onto goal
    for _ in range(ROWS):
        if runners == 0 or (blocking & home) != 0:
            return False  # no runner left, or the other side may reach its far row before this step ends it
        runners = runners & ~flanks(other, attacking)  # captured where they stand
        if (runners & one_to_go & can_finish) != 0:
            return True
        runners = runners & ~one_to_go
        runners = straight(side, runners & ~straight(other, mine | blocking))  # the cell ahead stays empty
        attacking = blocking
        blocking = blocking | reach(other, blocking)
    return False


def decided(to_move, white, black):
    """WIN where the side to move surely reaches its far row, LOSS where the other side surely does, else ONGOING:
    the search ends there, with that value. Each is :func:`runner_wins` (the proof is there): the side to move's
    runner with it moving first, or the other side's with the side to move moving first (checked second, since the
    side to move may win sooner). The game's exact rules are all it assumes: a piece steps one row forward,
    straight onto an empty cell or diagonally onto any cell not its own side's, capturing what stands there;
    reaching the far row wins; a side without a move loses (so does one without pieces). The searches that need
    the game's real ends (certificates, distances, tablebases) leave it off."""
    if to_move == 0:
        if runner_wins(0, white, black, LAST_ROW, WHITE_ONE_TO_GO, FIRST_ROW, 0):
            return WIN
        if runner_wins(1, black, white, FIRST_ROW, BLACK_ONE_TO_GO, LAST_ROW, 1):
            return LOSS
        return ONGOING
    if runner_wins(1, black, white, FIRST_ROW, BLACK_ONE_TO_GO, LAST_ROW, 0):
        return WIN
    if runner_wins(0, white, black, LAST_ROW, WHITE_ONE_TO_GO, FIRST_ROW, 1):
        return LOSS
    return ONGOING


def steps_to_go(side, pieces, goal):
    """The steps `side`'s pieces can still take short of the far row `goal`: each piece's distance to
    it, less one."""
    total = 0
    ahead = pieces
    for _ in range(ROWS):
        ahead = straight(side, ahead)
        total = total + popcount(ahead & (CELLS ^ goal))
    return total


def plies_left(to_move, white, black):
    """Every move but the last is one of those steps."""
    return steps_to_go(0, white, LAST_ROW) + steps_to_go(1, black, FIRST_ROW) + 1


def max_plies(rows, cols):
    """`plies_left` at the start: a piece that starts on row r (counted from its own side) has rows - 2 - r
    steps to take short of the far row."""
    steps = cols * sum(rows - 2 - row for row in range(home_rows(rows)))
    return 2 * steps + 1


def max_moves(rows, cols):
    """A piece has at most three moves, and a side never has more pieces than it starts with."""
    return 3 * home_rows(rows) * cols


GAME = GameSpec(
    name="breakthrough",
    rules=sys.modules[__name__],
    summary="Breakthrough: pieces step forward and capture diagonally; reaching the far row wins",
    parameters=(Parameter("rows", 5, 3, 8), Parameter("cols", 5, 2, 8)),
    constants=constants,
    board=lambda rows, cols: Board(rows, cols),
    symmetries=(Symmetry.MIRROR_COLS,),
    max_plies=max_plies,
    max_moves=max_moves,
    perspective=False,
    pieces="WB",
    player_names=("white", "black"),
    parts=("from", "to"),
    joiners=("-",),
    turn_argument=True,
    draws=False,
)
