"""Example harnesses for `gameproof check` (see docs/logic.md).

    gameproof check examples/factor.py::factor      # a counterexample: 65519 * 65521 (exit 1)
    gameproof check examples/factor.py::identities  # verified
    gameproof check examples/factor.py::impossible  # vacuous
    gameproof check examples/factor.py::lowest_bit  # a cover satisfied: a witness (exit 0)
"""

from gameproof.logic import any_uint, assume, cover, verify

N = 65519 * 65521  # a 32-bit semiprime


def factor():
    """Claim N is prime; the counterexample is a factorisation."""
    a = any_uint(32, "a")
    b = any_uint(32, "b")
    assume((1 < a) & (a < 1 << 16))
    assume((1 < b) & (b < 1 << 16))
    verify(a * b != N, "N has no factors below 2**16")


def identities():
    """True properties of 16-bit words: verified."""
    x = any_uint(16, "x")
    y = any_uint(16, "y")
    verify((x + y) - y == x, "(x+y)-y == x")
    verify(x * 6 == (x << 2) + (x << 1), "x*6 == 4x + 2x")
    verify((x ^ y) == (x | y) - (x & y), "xor is or minus and")


def impossible():
    """Contradictory assumptions: vacuous."""
    x = any_uint(8, "x")
    assume(x < 3)
    assume(x > 5)
    verify(x == 4, "nothing to check")


def lowest_bit():
    """Find a word whose lowest set bit is bit 40, using the bitboard idiom x & -x."""
    x = any_uint(64, "x")
    cover((x & ((0 - x) & 0xFFFF_FFFF_FFFF_FFFF)) == 1 << 40, "lowest set bit is 40")
