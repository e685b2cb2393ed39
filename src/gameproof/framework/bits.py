"""Bit helpers that rule modules may import: compiled, traced and run along with the rules that call them.

They are re-executed in each rule module's namespace, so they use literals only, no constants of their own.
"""


def popcount(x):
    """Number of set bits of a 64-bit word."""
    x = x - ((x >> 1) & 0x5555_5555_5555_5555)
    x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333)
    x = (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F
    return ((x * 0x0101_0101_0101_0101) & 0xFFFF_FFFF_FFFF_FFFF) >> 56


def lowest_bit(x):
    """The lowest set bit of `x` as a one-bit word (0 when x == 0)."""
    return x & ((0 - x) & 0xFFFF_FFFF_FFFF_FFFF)
