"""Kalah with `pits` pits a side and `seeds` seeds in each at the start (``kalah:3,3``; Kalah(p, s)).

Each player owns the row of pits on its side and the store at its right. A move takes every seed from one of
the mover's non-empty pits and sows them one by one counter-clockwise into the following pits and the mover's
own store, skipping the opponent's store. A last seed that lands in the mover's store gives it another move.
A last seed that lands in an empty pit of the mover's, opposite a pit of the opponent's that holds seeds,
captures both: that seed and the opposite pit's seeds go to the mover's store (the usual rule; in the "empty
capture" variant the last seed is captured even opposite an empty pit, and this file does not play it). When
the side to move has no seed left in its pits, the game ends and the other side puts the seeds left in its
own pits into its own store. More seeds in one's store wins; the final score is the side to move's store less
the other side's.

The position is one word of counts, each B bits (B = bit length of the 2·p·s seeds): the board's column c
holds one count, its row r bit r of that count (cell (r, c) is bit c·B + r). Columns 0..p-1 are the first
player's pits from left to right, column p its store, columns p+1..2p the second player's pits in sowing
order (column 2p - c faces column c), and the cell of row 0 of column 2p+1 says the second player is to move.
The second player's store is not held: it is the seeds not in any other count, so each position has one
word. A move is the row-0 cell of the pit it empties (``a1`` .. for the first player, past the store's
column for the second).
"""

import sys

from gameproof.errors import BadInput
from gameproof.framework.declaration import DRAW, LOSS, MAX_PLIES, WIN, Board, GameSpec, Parameter


def count_bits(pits, seeds):
    """The bits of one count: enough for every seed in one place."""
    return (2 * pits * seeds).bit_length()


def max_plies(pits, seeds):
    """:func:`plies_left` at the start: seeds·p·(p + 1)·(2p + 1)."""
    return seeds * pits * (pits + 1) * (2 * pits + 1)


def row_cells(columns, bits):
    """The row-0 cells (the lowest bit of each count) of `columns`."""
    return sum(1 << (column * bits) for column in columns)


def constants(pits, seeds):
    """The module constants for Kalah(pits, seeds)."""
    bits = count_bits(pits, seeds)
    if (2 * pits + 2) * bits > 64:
        raise BadInput(f"kalah:{pits},{seeds} does not fit: {2 * pits + 2} counts of {bits} bits are more "
                       "than 64 cells")
    if max_plies(pits, seeds) > MAX_PLIES:
        raise BadInput(f"kalah:{pits},{seeds} may last up to {max_plies(pits, seeds)} plies as gameproof bounds "
                       f"it, more than the {MAX_PLIES} it searches")
    first, second = range(pits), range(pits + 1, 2 * pits + 1)
    return {
        "PITS": pits,
        "BITS": bits,
        "FIELD": (1 << bits) - 1,
        "TOTAL": 2 * pits * seeds,
        "FIRST_STORE": pits,
        "COLUMNS": 2 * pits + 2,
        "MARKER": 1 << ((2 * pits + 1) * bits),
        "FIRST_PITS": row_cells(first, bits),
        "SECOND_PITS": row_cells(second, bits),
        "FIRST_STORE_CELL": 1 << (pits * bits),
        "HIGHEST_PIT": 1 << (2 * pits * bits),
        "START": seeds * row_cells([*first, *second], bits),
        "WEIGHT": pits * (pits + 1),
    }


# The constants of the default Kalah(3, 3).
_DEFAULT = constants(3, 3)
PITS = _DEFAULT["PITS"]
BITS = _DEFAULT["BITS"]
FIELD = _DEFAULT["FIELD"]
TOTAL = _DEFAULT["TOTAL"]
FIRST_STORE = _DEFAULT["FIRST_STORE"]
COLUMNS = _DEFAULT["COLUMNS"]
MARKER = _DEFAULT["MARKER"]
FIRST_PITS = _DEFAULT["FIRST_PITS"]
SECOND_PITS = _DEFAULT["SECOND_PITS"]
FIRST_STORE_CELL = _DEFAULT["FIRST_STORE_CELL"]
HIGHEST_PIT = _DEFAULT["HIGHEST_PIT"]
START = _DEFAULT["START"]
WEIGHT = _DEFAULT["WEIGHT"]


# --- counts in the word, each found by the cell of its lowest bit ------------------------------------


def field_of(cell):
    """The cells of the count whose lowest bit is `cell`."""
    field = cell
    for _ in range(BITS - 1):
        field = field | (field << 1)
    return field


def seeds_in(word, cell):
    """The count whose lowest bit is `cell`."""
    count = 0
    probe = 1
    rest = word
    for _ in range(COLUMNS):
        if probe == cell:
            count = rest & FIELD
        probe = probe << BITS
        rest = rest >> BITS
    return count


def facing(cell):
    """The lowest cell of the pit that faces the pit of `cell` (`cell` itself if it is no pit's)."""
    low, high = 1, HIGHEST_PIT
    found = cell
    for _ in range(PITS):
        if cell == low:
            found = high
        if cell == high:
            found = low
        low, high = low << BITS, high >> BITS
    return found


def pit_total(word, first_column):
    """The seeds in the p pits from `first_column` on."""
    rest = word >> (first_column * BITS)
    total = 0
    for _ in range(PITS):
        total = total + (rest & FIELD)
        rest = rest >> BITS
    return total


def first_final(word):
    """The first player's seeds at the end: its store, and its pits' seeds when the game ends."""
    return ((word >> (FIRST_STORE * BITS)) & FIELD) + pit_total(word, 0)


# --- a side's pits and store ---------------------------------------------------------------------


def to_move(word):
    """The side to move: 1 while the marker cell is set, else 0."""
    if (word & MARKER) != 0:
        return 1
    return 0


def in_own_store(side, cell):
    """Whether `cell` is the lowest of `side`'s store (the second player's, which is not held, is the marker's)."""
    if side == 0:
        return cell == FIRST_STORE_CELL
    return cell == MARKER


def in_own_pits(side, cells):
    """Those of `cells` that are the lowest cells of `side`'s pits."""
    if side == 0:
        return cells & FIRST_PITS
    return cells & SECOND_PITS


def next_cell(side, cell):
    """Where `side`'s next seed goes after `cell`: counter-clockwise, past the other side's store."""
    following = 1
    if cell != MARKER:
        following = cell << BITS
    if side == 0 and following == MARKER:
        following = 1
    if side == 1 and following == FIRST_STORE_CELL:
        following = following << BITS
    return following


def sown(side, word, cell):
    """The word after `side` sows the seeds of the pit of `cell`, and the cell its last seed lands in (a seed
    sown into the second player's store, which is not held, shows only as one fewer in the pit it left)."""
    left = seeds_in(word, cell)
    word = word & ~field_of(cell)
    at = cell
    for _ in range(TOTAL):
        if left != 0:
            at = next_cell(side, at)
            if at != MARKER:
                word = word + at
            left = left - 1
    return word, at


def captured(side, word, at):
    """The word after a last seed in `at`: if `at` is an own pit that was empty, facing seeds, those seeds
    and the last seed go to the mover's store."""
    if in_own_pits(side, at) == 0 or seeds_in(word, at) != 1:
        return word
    opposite = facing(at)
    taken = seeds_in(word, opposite)
    if taken == 0:
        return word
    word = (word - at) & ~field_of(opposite)
    if side == 0:
        word = word + ((taken + 1) << (FIRST_STORE * BITS))
    return word


# --- the rules ------------------------------------------------------------------------------------


def start():
    return (START,)


def legal(word):
    """The row-0 cells of the side to move's pits that hold seeds (none: the game is over)."""
    filled = word
    rest = word
    for _ in range(BITS - 1):
        rest = rest >> 1
        filled = filled | rest
    return in_own_pits(to_move(word), filled)


def play(word, move):
    """Sow the pit `move`; a last seed in the mover's store leaves it to move again."""
    side = to_move(word)
    word, at = sown(side, word, move)
    if in_own_store(side, at):
        return (word,)
    return (captured(side, word, at) ^ MARKER,)


def result(word):
    """Asked when the side to move has no seeds in its pits: more seeds in one's store wins, the other side
    taking its pits' seeds."""
    doubled = 2 * first_final(word)
    if doubled == TOTAL:
        return DRAW
    if (doubled > TOTAL) == (to_move(word) == 0):
        return WIN
    return LOSS


def score(word):
    """The side to move's final store less the other side's."""
    doubled = 2 * first_final(word)
    if to_move(word) == 0:
        return doubled - TOTAL
    return TOTAL - doubled


def weighted(word, first_column):
    """Each seed of the p pits from `first_column` on, counted p·(p + 1) plus its pit's distance to the store
    after them."""
    rest = word >> (first_column * BITS)
    total = 0
    weight = WEIGHT + PITS
    for _ in range(PITS):
        total = total + (rest & FIELD) * weight
        weight = weight - 1
        rest = rest >> BITS
    return total


def plies_left(word):
    """Every ply lowers this count by one or more (docs/games.md, "Kalah"), and it never goes below 0."""
    return weighted(word, 0) + weighted(word, FIRST_STORE + 1)


def remarks(pits, seeds):
    """What is degenerate about one pit a side: no move is ever a choice."""
    if pits == 1:
        return ["one pit a side: every move empties the mover's only pit, so there is one line of play and no choice "
                "in it"]
    return []


GAME = GameSpec(
    name="kalah",
    rules=sys.modules[__name__],
    summary="Kalah(p, s): sow counter-clockwise; a last seed in your store moves again; most seeds stored wins",
    parameters=(Parameter("pits", 3, 1, 7, "pits a side"), Parameter("seeds", 3, 1, 33, "seeds a pit at the start")),
    constants=constants,
    board=lambda pits, seeds: Board(rows=count_bits(pits, seeds), cols=2 * pits + 2, row_stride=1,
                                    col_stride=count_bits(pits, seeds)),
    max_plies=max_plies,
    max_moves=lambda pits, seeds: pits,
    perspective=False,
    pieces="#",
    player_names=("south", "north"),
    aliases=("kalaha",),
    remarks=remarks,
)
