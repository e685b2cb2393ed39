"""The keys of the positions a checker has accepted so far, in memory that a proof of hundreds of millions of
positions fits: a Python set while it is small (about 70 bytes a key), then, for the keys below 2**64 - 1,
one array of 64-bit slots (open addressing, linear probing: 8 to 16 bytes a key). Plain Python and the
standard library only, like the rest of the checker."""

from __future__ import annotations

from array import array
from collections.abc import Hashable

_SET_MOST = 1 << 24  # keys held in the Python set before the array takes them
_WORD = (1 << 64) - 1
_MIX = 0x9E3779B97F4A7C15  # odd: multiplying by it permutes the words


class ProvenKeys:
    """A growing set of hashable keys, compact for the int keys of 64 bits."""

    def __init__(self, set_most: int = _SET_MOST) -> None:
        self._set: set[Hashable] = set()
        self._set_most = set_most
        self._slots: array | None = None  # a key k as k + 1; 0 is an empty slot
        self._shift = 64
        self._count = 0

    def __len__(self) -> int:
        return len(self._set) + self._count

    def __contains__(self, key: Hashable) -> bool:
        slots = self._slots
        if slots is None or type(key) is not int or not 0 <= key < _WORD:
            return key in self._set
        return bool(slots[self._slot(slots, key + 1)])

    def add(self, key: Hashable) -> None:
        if self._slots is None or type(key) is not int or not 0 <= key < _WORD:
            self._set.add(key)
            if self._slots is None and len(self._set) > self._set_most:
                self._to_array()
            return
        if (self._count + 1) * 4 > len(self._slots) * 3:
            self._grow(len(self._slots) * 2)
        self._count += self._put(self._slots, key + 1)

    def _to_array(self) -> None:
        """Move the int keys of 64 bits from the set to a new array."""
        moving = [key for key in self._set if type(key) is int and 0 <= key < _WORD]
        size = 1 << max(4, (len(moving) * 2).bit_length())
        self._slots, self._shift = array("Q", [0]) * size, 64 - size.bit_length() + 1
        for key in moving:
            self._set.discard(key)
            self._count += self._put(self._slots, key + 1)

    def _grow(self, size: int) -> None:
        old = self._slots
        self._slots, self._shift = array("Q", [0]) * size, 64 - size.bit_length() + 1
        for stored in old:
            if stored:
                self._put(self._slots, stored)

    def _slot(self, slots: array, stored: int) -> int:
        """The slot of `slots` that holds the slot value `stored` (nonzero), or the empty one where it belongs."""
        mask = len(slots) - 1
        slot = (stored * _MIX & _WORD) >> self._shift
        while (found := slots[slot]) and found != stored:
            slot = (slot + 1) & mask
        return slot

    def _put(self, slots: array, stored: int) -> bool:
        """Put the slot value `stored` (nonzero) in `slots`; whether it was new."""
        slot = self._slot(slots, stored)
        if slots[slot]:
            return False
        slots[slot] = stored
        return True
