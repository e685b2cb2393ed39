"""A set of 64-bit keys in one numpy array (open addressing, linear probing): 8 to 11 bytes a key where a
Python set of ints takes about 70, for walks over the hundreds of millions of positions of a large proof."""

from __future__ import annotations

import numba
import numpy as np

_FIRST_BITS = 16
_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it permutes the keys


@numba.njit(cache=True, nogil=True)
def _slot(slots: np.ndarray, key: np.uint64) -> int:
    """The slot that holds `key` (nonzero), or the empty slot where it belongs."""
    mask = slots.size - 1
    mixed = key * _MIX
    slot = np.int64((mixed ^ (mixed >> np.uint64(29))) & np.uint64(mask))
    while slots[slot] != 0 and slots[slot] != key:
        slot = (slot + 1) & mask
    return slot


@numba.njit(cache=True, nogil=True)
def _insert(slots: np.ndarray, key: np.uint64) -> bool:
    """Put `key` (nonzero) in `slots`; whether it was new."""
    slot = _slot(slots, key)
    if slots[slot] == key:
        return False
    slots[slot] = key
    return True


@numba.njit(cache=True, nogil=True)
def _rehash(old: np.ndarray, new: np.ndarray) -> None:
    for key in old:
        if key != 0:
            new[_slot(new, key)] = key


class KeySet:
    """A growing set of unsigned 64-bit keys (0 included), at most three quarters full."""

    def __init__(self) -> None:
        self._slots = np.zeros(1 << _FIRST_BITS, dtype=np.uint64)
        self._count = 0
        self._has_zero = False

    def __len__(self) -> int:
        return self._count + self._has_zero

    def __contains__(self, key: int) -> bool:
        if key == 0:
            return self._has_zero
        return bool(self._slots[_slot(self._slots, np.uint64(key))] != 0)

    def add(self, key: int) -> bool:
        """Add `key`; whether it was new."""
        if key == 0:
            new, self._has_zero = not self._has_zero, True
            return new
        if (self._count + 1) * 4 > self._slots.size * 3:
            grown = np.zeros(self._slots.size * 2, dtype=np.uint64)
            _rehash(self._slots, grown)
            self._slots = grown
        new = _insert(self._slots, np.uint64(key))
        self._count += new
        return new
