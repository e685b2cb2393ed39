"""A transposition table in one preallocated uint64 array, for numba kernels.

An entry is two words: a packed word with the proof number (28 bits), the disproof number (28 bits,
``INF`` = 2**28 - 1 means proven/disproven) and the work spent on it (8 bits, log2 of nodes), and
before it the key XORed with the packed word and complemented. A slot matches a key only when its two
words XOR back to that key, so an entry torn by two processes writing the same slot at once (a table in
shared memory, :class:`SharedTable`) reads as absent: it would pass for an entry only if its mixed words
happened to XOR to the key of a position looked up in that very bucket. An all-zero slot is empty (a
packed word is never zero). Buckets of ``BUCKET`` entries fill one 64-byte cache line; a new key evicts
the entry with least work in its bucket, so expensive results survive (small-tree replacement).
"""

from __future__ import annotations

import copy
import os
import secrets
import shutil
from multiprocessing import resource_tracker, shared_memory
from pathlib import Path

import numba
import numpy as np
from numba import njit

from gameproof.errors import BadInput

if numba.config.DISABLE_JIT:  # an intrinsic only compiles: a hint with no effect when the kernels run as Python

    def _prefetch_word(words, index):
        """Hint that ``words[index]`` will be read soon."""
else:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    @intrinsic
    def _prefetch_word(typingctx, words, index):
        """Hint that ``words[index]`` will be read soon: LLVM's prefetch (read, keep in all cache levels)."""

        def codegen(context, builder, signature, args):
            array_type = signature.args[0]
            array = context.make_array(array_type)(context, builder, args[0])
            pointer = cgutils.get_item_pointer(context, builder, array_type, array, [args[1]], wraparound=False)
            byte_pointer = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            function = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), "llvm.prefetch.p0")
            builder.call(function, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(words, index), codegen

INF = np.int64((1 << 28) - 1)
BUCKET = 4
ENTRY_BYTES = 16
_MULT = np.uint64(0x9E37_79B9_7F4A_7C15)
_ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_FIELD = np.uint64((1 << 28) - 1)
_BYTE = np.uint64(0xFF)
_DN_SHIFT = np.uint64(28)
_WORK_SHIFT = np.uint64(56)

#: Lanes: how threads searching one table see each other. Row 0 is the control row (its first ``ANSWERED``
#: words: the keys of questions answered lately, each at ``key % ANSWERED``); row ``i`` is searcher ``i``'s:
#: the keys of its current path at depths ``0 .. LANE_DEPTH - 1``, the key of the question it is on (column
#: ``LANE_QUESTION``) and its node count (column ``LANE_NODES``), each in a cache line of its own, so that the
#: words a searcher writes often share no line with words another reads.
LANE_DEPTH = 12
LANE_QUESTION, LANE_NODES = 16, 24
LANE_COLUMNS = 32
MOST_LANES = 256
ANSWERED = 8


def line_aligned(shape: int | tuple[int, ...], dtype: type = np.int64) -> np.ndarray:
    """A zeroed array of 8-byte items that begins on a cache line and shares none of its lines with any other
    array: the counters and buffers one thread writes at every node, kept from another thread's."""
    size = int(np.prod(shape))
    raw = np.zeros(size + 16, dtype=dtype)
    offset = (-raw.ctypes.data % 64) // 8
    return raw[offset:offset + size].reshape(shape)


def new_lanes(searchers: int) -> np.ndarray:
    """Lanes for `searchers` searchers of one table (rows 1 .. searchers; row 0 is the control row)."""
    return line_aligned((searchers + 1, LANE_COLUMNS), np.uint64)


def _bits(megabytes: float, max_entries: int | None) -> int:
    """log2 of the entries of a table of ``megabytes`` MiB (at most about ``max_entries`` entries)."""
    entries = max(BUCKET, int(megabytes * 2**20) // ENTRY_BYTES)
    if max_entries is not None:
        entries = min(entries, max(BUCKET, 2 * max_entries))
    return max(2, entries.bit_length() - 1)


class TranspositionTable:
    """Preallocated table sized to a memory budget in MiB (rounded down to a power of two entries),
    and to at most about ``max_entries`` entries when the game has few positions, with the lanes of
    ``searchers`` threads that search it at once."""

    def __init__(self, megabytes: float, max_entries: int | None = None, searchers: int = 1) -> None:
        self.bits = _bits(megabytes, max_entries)
        try:
            raw = np.zeros(2 * (1 << self.bits) + 8, dtype=np.uint64)
        except MemoryError:
            raise BadInput(f"cannot allocate a {megabytes:g} MiB transposition table; give a smaller --tt-mb") from None
        offset = (-raw.ctypes.data % 64) // 8  # align buckets to cache lines
        self.words = raw[offset : offset + 2 * (1 << self.bits)]
        self.lanes = new_lanes(searchers)

    @property
    def capacity(self) -> int:
        return 1 << self.bits

    def with_own_lanes(self) -> TranspositionTable:
        """The same entries with lanes of their own: for a thread that searches them on its own questions while
        others search theirs (the lanes a search writes at every node stay out of the others' cache lines)."""
        view = copy.copy(self)
        view.lanes = new_lanes(1)
        return view


#: Shared tables are named ``gameproof_<pid of their maker>_<random>``, so that orphans can be found.
_PREFIX = "gameproof_"


def _remove_orphans() -> None:
    """Unlink the shared tables of makers that are gone (killed with their resource tracker, which would
    otherwise have unlinked them). Without /proc no maker can be seen to be gone, so nothing is removed."""
    if not Path("/proc/self").exists():
        return
    for path in Path("/dev/shm").glob(f"{_PREFIX}*_*"):
        maker = path.name[len(_PREFIX):].split("_")[0]
        if maker.isdigit() and not Path(f"/proc/{maker}").exists():
            path.unlink(missing_ok=True)


class SharedTable(TranspositionTable):
    """A table in shared memory (page-aligned), made by one process and attached by name
    (:meth:`attach`) by others on the same machine, which then share what each proved; one that attached
    it and dies leaves it there. Writes are not locked: a torn entry reads as absent (see the module's
    notes). The maker calls :meth:`release`; a
    maker's tables left behind by a SIGKILL are removed when the next table is made."""

    def __init__(self, megabytes: float, max_entries: int | None = None, *, name: str | None = None) -> None:
        if name is None:
            bits = _bits(megabytes, max_entries)
            size = 2 * (1 << bits) * 8
            free = shutil.disk_usage("/dev/shm").free if Path("/dev/shm").is_dir() else size
            if size > free:
                raise BadInput(f"a shared {megabytes:g} MiB transposition table does not fit in /dev/shm "
                               f"({free >> 20} MiB free); give a smaller --tt-mb")
            _remove_orphans()
            self._memory = shared_memory.SharedMemory(f"{_PREFIX}{os.getpid()}_{secrets.token_hex(4)}", create=True,
                                                      size=size)
        else:
            self._memory = shared_memory.SharedMemory(name=name)
            if not name.startswith(f"{_PREFIX}{os.getpid()}_"):  # made by another process, which frees it
                # Python registers what it attaches with this process's resource tracker, which would unlink
                # the table when this process dies, under the feet of the others.
                resource_tracker.unregister(self._memory._name, "shared_memory")
        self.name = self._memory.name
        self.words = np.ndarray(self._memory.size // 8, dtype=np.uint64, buffer=self._memory.buf)
        self.words = self.words[: 1 << (self.words.size.bit_length() - 1)]  # a power of two words
        self.lanes = new_lanes(1)  # its processes search it alone each
        self.bits = self.words.size.bit_length() - 2

    @classmethod
    def attach(cls, name: str) -> SharedTable:
        """The table another process made under ``name``."""
        return cls(0, name=name)

    def release(self) -> None:
        """Free the memory (the maker, once every process that attached is done)."""
        del self.words
        self._memory.close()
        # Registered again first: a process that attached it and shares this process's resource tracker (a
        # spawned worker) has taken the registration away, and the tracker would fail on the unregistering.
        resource_tracker.register(self._memory._name, "shared_memory")
        self._memory.unlink()


def census(words: np.ndarray, part: int = 1) -> tuple[int, int, int]:
    """Entries of a df-pn table by kind: (proven, disproven, open) for the attacker of their question; with
    `part` > 1, estimated from the first 1/`part` of the table (entries lie where their keys hash)."""
    end = max(2, words.size // part)
    proven, disproven, used = _counted(words, end)
    scale = words.size / end
    return round(proven * scale), round(disproven * scale), round((used - proven - disproven) * scale)


@njit(cache=True, nogil=True)
def _counted(words, end):
    """(proven, disproven, filled) among the entries of ``words[:end]``: one pass, no temporaries."""
    proven = disproven = used = 0
    for i in range(1, end, 2):
        packed = words[i]
        if packed != np.uint64(0):
            used += 1
            proven += (packed & _FIELD) == np.uint64(0)
            disproven += ((packed >> _DN_SHIFT) & _FIELD) == np.uint64(0)
    return proven, disproven, used


@njit(cache=True)
def bucket_of(key, bits):
    """Entry index of the first slot of ``key``'s bucket (multiplicative hashing, top ``bits`` bits)."""
    h = (key * _MULT) >> np.uint64(64 - bits)
    return np.int64(h) & ~np.int64(BUCKET - 1)


@njit(cache=True)
def prefetch(words, bits, key):
    """Start bringing ``key``'s bucket into the cache, so that a later :func:`lookup` finds it there."""
    _prefetch_word(words, 2 * bucket_of(key, bits))


@njit(cache=True)
def lookup(words, bits, key):
    """(found, pn, dn) for ``key``."""
    tag = key ^ _ALL
    start = bucket_of(key, bits)
    for i in range(start, start + BUCKET):
        packed = words[2 * i + 1]
        if words[2 * i] ^ packed == tag:
            return True, np.int64(packed & _FIELD), np.int64((packed >> _DN_SHIFT) & _FIELD)
    return False, np.int64(0), np.int64(0)


@njit(cache=True)
def spent(words, bits, key):
    """The work recorded with ``key``'s entry (log2 of the nodes spent, at least 1), or 0 if it has none."""
    tag = key ^ _ALL
    for i in range(bucket_of(key, bits), bucket_of(key, bits) + BUCKET):
        if words[2 * i] ^ words[2 * i + 1] == tag:
            return np.int64(words[2 * i + 1] >> _WORK_SHIFT)
    return np.int64(0)


@njit(cache=True, nogil=True)
def regrow(smaller, words, bits):
    """Copy every entry of the table `smaller` into the empty table `words` of 2**`bits` entries, at the bucket
    its key hashes to there. A key's bucket takes the top bits of the same hash, so the keys of one bucket of
    the larger table all come from one bucket of the smaller: every entry finds a slot."""
    for i in range(0, smaller.size, 2):
        packed = smaller[i + 1]
        if packed == np.uint64(0):
            continue
        start = bucket_of(smaller[i] ^ packed ^ _ALL, bits)
        for slot in range(start, start + BUCKET):
            if words[2 * slot + 1] == np.uint64(0):
                words[2 * slot], words[2 * slot + 1] = smaller[i], packed
                break


@njit(cache=True)
def store(words, bits, key, pn, dn, spent, keep_solved=False):
    """Write (pn, dn) for ``key`` after ``spent`` nodes of work; returns 1 if an empty slot was filled.

    With ``keep_solved``, an entry of ``key`` that is proven or disproven stays as it is (the numbers of a
    searcher that has not seen another's answer yet do not undo it)."""
    tag = key ^ _ALL
    start = bucket_of(key, bits)
    victim = start
    least = np.uint64(256)
    same = False
    for i in range(start, start + BUCKET):
        packed = words[2 * i + 1]
        if words[2 * i] ^ packed == tag:
            if keep_solved and ((packed & _FIELD) == 0 or (packed >> _DN_SHIFT) & _FIELD == 0):
                return 0
            victim, least, same = i, packed >> _WORK_SHIFT, True
            break
        work = packed >> _WORK_SHIFT
        if work < least:
            victim, least = i, work
    filled = 1 if words[2 * victim + 1] == 0 else 0
    work = np.uint64(1)
    while (np.int64(1) << np.int64(work)) <= spent and work < np.uint64(255):
        work += np.uint64(1)
    if same and least > work:
        work = least
    packed = np.uint64(pn) | (np.uint64(dn) << _DN_SHIFT) | (work << _WORK_SHIFT)
    words[2 * victim] = tag ^ packed
    words[2 * victim + 1] = packed
    return filled
