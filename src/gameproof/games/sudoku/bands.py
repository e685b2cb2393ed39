"""The `direct` route on 9×9 boards: a numba solver on band bitsets (the bit-parallel family of JCZSolve,
fsss2 and tdoku, written here from the published ideas).

A board is a state of ``STATE`` words. Word ``3 * d + b`` holds the cells of band ``b`` (rows
``3b .. 3b + 2``) that may still hold digit ``d + 1``: bit ``9 * r + c`` is row ``3b + r``, column ``c``.
Word ``PLACED + b`` marks the cells of band ``b`` whose digit is fixed. Propagation works a word at a time:

- *band update* of one digit and band: the digit's three rows in a band sit in three different boxes,
  one row per box, so it keeps only the cells of row/box segments that belong to some such matching
  (locked candidates, pointing and claiming, and hidden singles in boxes); a row left with one cell places
  it, which clears that cell from the other digits and its column from the digit's other bands;
- *naked singles*: cells with one candidate digit, found per band by bit-sliced counting over the nine
  digit words;
- *hidden singles in columns*: per digit, columns with one candidate cell among the nine rows.

Search branches on a cell with two candidates (else one with the fewest): first the cell takes its
lowest digit, and a copy of the board without that digit waits on an explicit stack.
Words are ``int64`` holding 27-bit masks (numba turns mixed ``uint64``/``int64`` arithmetic into floats).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import njit

ROW = 9  # bits per row of a band word
FULL_ROW = (1 << ROW) - 1
FULL_BAND = (1 << 3 * ROW) - 1
COLUMN_REPEAT = 1 | 1 << ROW | 1 << 2 * ROW  # a 9-bit column mask times this covers the column in all rows
DIGITS = 9
BANDS = 3
PLACED = DIGITS * BANDS  # first of the three placed-cells words
STATE = PLACED + BANDS
ALL_WORDS = (1 << PLACED) - 1  # every digit-band word marked for update


def _shrink(row: int) -> int:
    """The boxes (bits 0-2) in which a 9-bit row mask has a cell."""
    return sum(1 << box for box in range(3) if row >> 3 * box & 7)


def _complex(segments: int) -> int:
    """Given which row/box segments of a band hold the digit (bit ``3 * row + box``), the band cells of
    the segments that take part in some one-row-per-box matching (0 when there is none)."""
    cells = 0
    for boxes in permutations(range(3)):
        if all(segments >> 3 * row + box & 1 for row, box in enumerate(boxes)):
            cells |= sum(7 << ROW * row + 3 * box for row, box in enumerate(boxes))
    return cells


SHRINK = np.array([_shrink(row) for row in range(1 << ROW)], dtype=np.int64)
COMPLEX = np.array([_complex(segments) for segments in range(1 << ROW)], dtype=np.int64)
SINGLE = np.array([row if row and not row & (row - 1) else 0 for row in range(1 << ROW)], dtype=np.int64)
COLUMN = np.array([row.bit_length() - 1 for row in range(1 << ROW)], dtype=np.int64)  # of a single bit


@njit(cache=True)
def _row_of(cell):  # pragma: no cover - compiled
    """The row (0-2) of a single-bit band mask."""
    if cell <= FULL_ROW:
        return 0
    if cell <= FULL_ROW << ROW:
        return 1
    return 2


@njit(cache=True)
def _update(s, dirty):  # pragma: no cover - compiled
    """Band updates of the marked words to a fixpoint; -1 on a contradiction, else 0."""
    while dirty:
        for i in range(PLACED):
            if not dirty >> i & 1:
                continue
            dirty &= ~(1 << i)
            band = i % BANDS
            a = s[i]
            a &= COMPLEX[SHRINK[a & FULL_ROW] | SHRINK[a >> ROW & FULL_ROW] << 3 | SHRINK[a >> 2 * ROW] << 6]
            if a == 0:
                return -1
            s[i] = a
            fixed = SINGLE[a & FULL_ROW] | SINGLE[a >> ROW & FULL_ROW] << ROW | SINGLE[a >> 2 * ROW] << 2 * ROW
            new = fixed & ~s[PLACED + band]
            if new == 0:
                continue
            s[PLACED + band] |= new
            keep = ~(((new | new >> ROW | new >> 2 * ROW) & FULL_ROW) * COLUMN_REPEAT)
            for other in range(i - band, i - band + BANDS):
                if other != i and s[other] & ~keep:
                    s[other] &= keep
                    dirty |= 1 << other
            for other in range(band, PLACED, BANDS):
                if other != i and s[other] & new:
                    s[other] &= ~new
                    dirty |= 1 << other
    return 0


@njit(cache=True)
def _naked_singles(s):  # pragma: no cover - compiled
    """Fix every cell with one candidate; the words changed, or -1 on a cell without candidates."""
    dirty = 0
    for band in range(BANDS):
        one = 0
        two = 0
        for i in range(band, PLACED, BANDS):
            two |= one & s[i]
            one |= s[i]
        if one != FULL_BAND:
            return -1
        single = one & ~two & ~s[PLACED + band]
        while single:
            cell = single & -single
            single ^= cell
            i = band
            while i < PLACED and not s[i] & cell:
                i += BANDS
            if i >= PLACED:  # an earlier single of this pass took the last candidate
                return -1
            s[i] = s[i] & ~(FULL_ROW << ROW * _row_of(cell)) | cell
            dirty |= 1 << i
    return dirty


@njit(cache=True)
def _column_singles(s):  # pragma: no cover - compiled
    """Fix every digit with one place in a column; the words changed, or -1 on a column without a place."""
    dirty = 0
    for digit in range(DIGITS):
        once = 0
        twice = 0
        placed = 0
        for band in range(BANDS):
            a = s[BANDS * digit + band]
            placed |= a & s[PLACED + band]
            for row in range(3):
                bits = a >> ROW * row & FULL_ROW
                twice |= once & bits
                once |= bits
        if once != FULL_ROW:
            return -1
        new = once & ~twice & ~((placed | placed >> ROW | placed >> 2 * ROW) & FULL_ROW)
        if new == 0:
            continue
        for band in range(BANDS):
            i = BANDS * digit + band
            for row in range(3):
                hit = s[i] >> ROW * row & new
                if hit:
                    if hit & (hit - 1):
                        return -1
                    s[i] = s[i] & ~(FULL_ROW << ROW * row) | hit << ROW * row
                    dirty |= 1 << i
    return dirty


@njit(cache=True)
def _propagate(s, dirty):  # pragma: no cover - compiled
    """All three rules to a fixpoint, starting from the marked words; False on a contradiction."""
    while True:
        if _update(s, dirty) < 0:
            return False
        dirty = _naked_singles(s)
        if dirty < 0:
            return False
        if dirty:
            continue
        dirty = _column_singles(s)
        if dirty < 0:
            return False
        if dirty == 0:
            return True


@njit(cache=True)
def _branch_cell(s):  # pragma: no cover - compiled
    """A cell to branch on, as (band, single-bit mask): the first with two candidates, else one with fewest."""
    for band in range(BANDS):
        one = 0
        two = 0
        three = 0
        for i in range(band, PLACED, BANDS):
            three |= two & s[i]
            two |= one & s[i]
            one |= s[i]
        pairs = two & ~three
        if pairs:
            return band, pairs & -pairs
    best_band = 0
    best_cell = 0
    fewest = DIGITS + 1
    for band in range(BANDS):
        open_cells = FULL_BAND & ~s[PLACED + band]
        while open_cells:
            cell = open_cells & -open_cells
            open_cells ^= cell
            count = 0
            for i in range(band, PLACED, BANDS):
                if s[i] & cell:
                    count += 1
            if count < fewest:
                fewest = count
                best_band = band
                best_cell = cell
    return best_band, best_cell


@njit(cache=True)
def _write_solution(s, givens, solution):  # pragma: no cover - compiled
    """Digits of a solved state into ``solution``, checked: every group holds 1-9 and the givens stand."""
    for i in range(PLACED):
        digit = i // BANDS + 1
        band = i % BANDS
        for row in range(3):
            solution[ROW * (3 * band + row) + COLUMN[s[i] >> ROW * row & FULL_ROW]] = digit
    for unit in range(ROW):
        rows = 0
        cols = 0
        boxes = 0
        for k in range(ROW):
            rows |= 1 << np.int64(solution[ROW * unit + k])  # bit d for digit d (int64: no int8 overflow)
            cols |= 1 << np.int64(solution[ROW * k + unit])
            boxes |= 1 << np.int64(solution[ROW * (unit // 3 * 3 + k // 3) + unit % 3 * 3 + k % 3])
        if rows != FULL_ROW << 1 or cols != FULL_ROW << 1 or boxes != FULL_ROW << 1:
            raise AssertionError("the band solver's solution breaks a row, column or box")
    for cell in range(ROW * ROW):
        if givens[cell] and givens[cell] != solution[cell]:
            raise AssertionError("the band solver's solution changes a given")


@njit(cache=True)
def _solve(givens, limit, s, stack, stack_dirty, solution):  # pragma: no cover - compiled
    """Count the solutions of one puzzle (digits, 0 for blank) up to ``limit``; the first lands in ``solution``."""
    for i in range(PLACED):
        s[i] = FULL_BAND
    for band in range(BANDS):
        s[PLACED + band] = 0
    for cell in range(ROW * ROW):
        if givens[cell]:
            band = cell // (3 * ROW)
            row = cell // ROW % 3
            bit = 1 << (cell % (3 * ROW))
            i = BANDS * (givens[cell] - 1) + band
            if not s[i] & bit:  # a given of the same digit shares this row
                return 0
            s[i] = s[i] & ~(FULL_ROW << ROW * row) | bit
            for other in range(band, PLACED, BANDS):
                if other != i:
                    s[other] &= ~bit
    dirty = ALL_WORDS
    found = 0
    depth = 0
    while True:
        if _propagate(s, dirty):
            if s[PLACED] & s[PLACED + 1] & s[PLACED + 2] == FULL_BAND:
                if found == 0:
                    _write_solution(s, givens, solution)
                found += 1
                if found >= limit:
                    return found
            else:
                band, cell = _branch_cell(s)
                i = band
                while not s[i] & cell:
                    i += BANDS
                if depth == stack.shape[0]:  # each saved board has more cells placed than the one below it
                    raise AssertionError("the band solver's stack overflowed")
                stack[depth, :] = s
                stack[depth, i] &= ~cell
                stack_dirty[depth] = 1 << i
                depth += 1
                s[i] = s[i] & ~(FULL_ROW << ROW * _row_of(cell)) | cell
                dirty = 1 << i
                continue
        if depth == 0:
            return found
        depth -= 1
        s[:] = stack[depth]
        dirty = stack_dirty[depth]


@njit(cache=True, nogil=True)  # a signal's watchdog runs meanwhile (gameproof.interrupts)
def solve_batch9(givens, limit, solutions, counts):  # pragma: no cover - compiled
    """Solve every row of ``givens`` (9×9 digits, 0 for blank): first solutions (digits) and counts up to ``limit``."""
    s = np.zeros(STATE, dtype=np.int64)
    stack = np.zeros((ROW * ROW + 1, STATE), dtype=np.int64)
    stack_dirty = np.zeros(ROW * ROW + 1, dtype=np.int64)
    for p in range(givens.shape[0]):
        counts[p] = _solve(givens[p], limit, s, stack, stack_dirty, solutions[p])
