"""A set of 64-bit keys in numpy arrays (open addressing, linear probing): 8 to 11 bytes a key where a Python
set of ints takes about 70, for walks over the hundreds of millions of positions of a large proof.

The set is two arrays, so that numba kernels use it as they are: ``slots`` (a key in its slot, 0 an empty
slot) and ``meta`` (:data:`COUNT`, the keys in slots; :data:`HAS_ZERO`, whether key 0 is in the set).
:func:`holds` and :func:`put` are the kernels' access; :class:`KeySet` is Python's."""

from __future__ import annotations

import numba
import numpy as np

COUNT, HAS_ZERO = 0, 1
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
def holds(slots: np.ndarray, meta: np.ndarray, key: np.uint64) -> bool:
    """Whether `key` is in the set."""
    if key == 0:
        return meta[HAS_ZERO] != 0
    return slots[_slot(slots, key)] != 0


@numba.njit(cache=True, nogil=True)
def full(slots: np.ndarray, meta: np.ndarray) -> bool:
    """Whether one more key would fill the slots past three quarters (:meth:`KeySet.grow` first)."""
    return (meta[COUNT] + 1) * 4 > slots.size * 3


@numba.njit(cache=True, nogil=True)
def put(slots: np.ndarray, meta: np.ndarray, key: np.uint64) -> bool:
    """Add `key` to a set that is not :func:`full`; whether it was new."""
    if key == 0:
        new = meta[HAS_ZERO] == 0
        meta[HAS_ZERO] = 1
        return new
    slot = _slot(slots, key)
    if slots[slot] == key:
        return False
    slots[slot] = key
    meta[COUNT] += 1
    return True


@numba.njit(cache=True, nogil=True)
def _rehash(old: np.ndarray, new: np.ndarray) -> None:
    for key in old:
        if key != 0:
            new[_slot(new, key)] = key


class KeySet:
    """A growing set of unsigned 64-bit keys (0 included), at most three quarters full."""

    def __init__(self) -> None:
        self.slots = np.zeros(1 << _FIRST_BITS, dtype=np.uint64)
        self.meta = np.zeros(2, dtype=np.int64)

    def __len__(self) -> int:
        return int(self.meta[COUNT] + self.meta[HAS_ZERO])

    def __contains__(self, key: int) -> bool:
        return bool(holds(self.slots, self.meta, np.uint64(key)))

    def add(self, key: int) -> bool:
        """Add `key`; whether it was new."""
        if full(self.slots, self.meta):
            self.grow()
        return bool(put(self.slots, self.meta, np.uint64(key)))

    def grow(self) -> None:
        """Twice the slots, the keys moved over."""
        grown = np.zeros(self.slots.size * 2, dtype=np.uint64)
        _rehash(self.slots, grown)
        self.slots = grown
