"""N queens: place N queens on an N×N board so that none attacks another.

    gameproof check examples/queens.py::queens            # a placement: the queen of row i is in column col_i
    gameproof check examples/queens.py::corner_free       # one with a queen in the corner a1
"""

from gameproof.logic import any_uint, assume, cover
from gameproof.logic.natural import natural

N = 8


@natural
def safe(cols):
    """True when no two queens share a column or a diagonal (one queen per row by construction)."""
    for i in range(len(cols)):
        for j in range(i + 1, len(cols)):
            if cols[i] == cols[j] or cols[i] + (j - i) == cols[j] or cols[j] + (j - i) == cols[i]:
                return False
    return True


@natural
def queens():
    """Find N queens that attack no one."""
    cols = [any_uint(8, f"col_{row}") for row in range(N)]
    assume(all(col < N for col in cols))
    cover(safe(cols), f"{N} queens that attack no one")


@natural
def corner_free():
    """Find a placement with a queen in the corner a1 (there is one: 8 queens allow all four corners)."""
    cols = [any_uint(8, f"col_{row}") for row in range(N)]
    assume(all(col < N for col in cols))
    cover(safe(cols) and cols[0] == 0, "a solution with a queen on a1")
