"""A transposition table in one preallocated uint64 array, for numba kernels.

An entry is two words: the key (stored complemented, so an all-zero word marks an empty slot) and
a packed word with the proof number (28 bits), the disproof number (28 bits, ``INF`` = 2**28 - 1
means proven/disproven) and the work spent on it (8 bits, log2 of nodes). Buckets of ``BUCKET``
entries fill one 64-byte cache line; a new key evicts the entry with least work in its bucket, so
expensive results survive (small-tree replacement).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameproof.errors import BadInput

INF = np.int64((1 << 28) - 1)
BUCKET = 4
ENTRY_BYTES = 16
_MULT = np.uint64(0x9E37_79B9_7F4A_7C15)
_ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_FIELD = np.uint64((1 << 28) - 1)
_BYTE = np.uint64(0xFF)
_DN_SHIFT = np.uint64(28)
_WORK_SHIFT = np.uint64(56)


class TranspositionTable:
    """Preallocated table sized to a memory budget in MiB (rounded down to a power of two entries),
    and to at most about ``max_entries`` entries when the game has few positions."""

    def __init__(self, megabytes: float, max_entries: int | None = None) -> None:
        entries = max(BUCKET, int(megabytes * 2**20) // ENTRY_BYTES)
        if max_entries is not None:
            entries = min(entries, max(BUCKET, 2 * max_entries))
        self.bits = max(2, entries.bit_length() - 1)
        try:
            raw = np.zeros(2 * (1 << self.bits) + 8, dtype=np.uint64)
        except MemoryError:
            raise BadInput(f"cannot allocate a {megabytes:g} MiB transposition table; give a smaller --tt-mb") from None
        offset = (-raw.ctypes.data % 64) // 8  # align buckets to cache lines
        self.words = raw[offset : offset + 2 * (1 << self.bits)]

    @property
    def capacity(self) -> int:
        return 1 << self.bits


@njit(cache=True)
def bucket_of(key, bits):
    """Entry index of the first slot of ``key``'s bucket (multiplicative hashing, top ``bits`` bits)."""
    h = (key * _MULT) >> np.uint64(64 - bits)
    return np.int64(h) & ~np.int64(BUCKET - 1)


@njit(cache=True)
def lookup(words, bits, key):
    """(found, pn, dn) for ``key``."""
    tag = key ^ _ALL
    start = bucket_of(key, bits)
    for i in range(start, start + BUCKET):
        if words[2 * i] == tag:
            packed = words[2 * i + 1]
            return True, np.int64(packed & _FIELD), np.int64((packed >> _DN_SHIFT) & _FIELD)
    return False, np.int64(0), np.int64(0)


@njit(cache=True)
def store(words, bits, key, pn, dn, spent):
    """Write (pn, dn) for ``key`` after ``spent`` nodes of work; returns 1 if an empty slot was filled."""
    tag = key ^ _ALL
    start = bucket_of(key, bits)
    victim = start
    least = np.uint64(256)
    for i in range(start, start + BUCKET):
        if words[2 * i] == tag:
            victim = i
            least = words[2 * i + 1] >> _WORK_SHIFT
            break
        work = words[2 * i + 1] >> _WORK_SHIFT if words[2 * i] != 0 else np.uint64(0)
        if work < least:
            victim, least = i, work
    filled = 1 if words[2 * victim] == 0 else 0
    work = np.uint64(1)
    while (np.int64(1) << np.int64(work)) <= spent and work < np.uint64(255):
        work += np.uint64(1)
    if words[2 * victim] == tag and least > work:
        work = least
    words[2 * victim] = tag
    words[2 * victim + 1] = np.uint64(pn) | (np.uint64(dn) << _DN_SHIFT) | (work << _WORK_SHIFT)
    return filled
