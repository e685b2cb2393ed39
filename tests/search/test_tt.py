"""The transposition table: entries round-trip, a torn entry reads as absent, a shared table is shared."""

import os
import subprocess
import sys
import time
from multiprocessing import shared_memory

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gameproof.errors import BadInput
from gameproof.search import tt
from gameproof.search.tt import INF, SharedTable, TranspositionTable

KEYS = st.integers(0, 2**64 - 2).map(np.uint64)  # all ones is the one key whose tag is the empty word
NUMBERS = st.integers(0, int(INF))


def slot_of(table: TranspositionTable, key: np.uint64) -> int:
    """The slot holding ``key`` (the test knows the layout: two words an entry)."""
    start = int(tt.bucket_of(key, table.bits))
    for i in range(start, start + tt.BUCKET):
        if table.words[2 * i] ^ table.words[2 * i + 1] == key ^ np.uint64(2**64 - 1):
            return i
    raise AssertionError("not stored")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(KEYS, NUMBERS, NUMBERS), min_size=1, max_size=40, unique_by=lambda t: int(t[0])))
def test_the_last_entry_stored_is_found_with_its_numbers(entries):
    table = TranspositionTable(1)
    for key, pn, dn in entries:
        tt.store(table.words, table.bits, key, pn, dn, 1000)
    key, pn, dn = entries[-1]
    assert tt.lookup(table.words, table.bits, key) == (True, pn, dn)


@settings(max_examples=100, deadline=None)
@given(KEYS, KEYS, NUMBERS, NUMBERS, NUMBERS)
def test_an_entry_torn_by_two_writers_reads_as_absent(key, other, pn, dn, other_pn):
    """One process writes key's first word while another writes other's second word into the slot."""
    assume(key != other)
    table = TranspositionTable(1)
    tt.store(table.words, table.bits, key, pn, dn, 5)
    slot = slot_of(table, key)
    twin = TranspositionTable(1)
    tt.store(twin.words, twin.bits, other, other_pn, dn, 7)
    torn = twin.words[2 * slot_of(twin, other) + 1]
    if torn == table.words[2 * slot + 1]:
        return  # the same packed word: nothing is torn
    table.words[2 * slot + 1] = torn
    assert not tt.lookup(table.words, table.bits, key)[0]


def test_a_shared_table_shows_each_process_what_the_others_stored():
    made = SharedTable(2)
    try:
        attached = SharedTable.attach(made.name)
        assert attached.bits == made.bits == TranspositionTable(2).bits
        tt.store(made.words, made.bits, np.uint64(12345), 3, 0, 100)
        assert tt.lookup(attached.words, attached.bits, np.uint64(12345)) == (True, 3, 0)
        tt.store(attached.words, attached.bits, np.uint64(999), INF, 0, 100)
        assert tt.lookup(made.words, made.bits, np.uint64(999)) == (True, INF, 0)
        del attached
    finally:
        made.release()
    with pytest.raises(FileNotFoundError):
        SharedTable.attach(made.name)


def test_a_shared_table_larger_than_shared_memory_is_refused_with_a_reason():
    with pytest.raises(BadInput, match="--tt-mb"):
        SharedTable(2**30)


@pytest.mark.skipif(not os.path.isdir("/dev/shm") or not os.path.isdir("/proc"), reason="needs /dev/shm and /proc (Linux)")
def test_tables_whose_maker_is_gone_are_removed_when_the_next_is_made():
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = int(finished.stdout)  # a process that has exited: its tables are orphans
    orphan = shared_memory.SharedMemory(f"gameproof_{gone}_test", create=True, size=4096)
    kept = SharedTable(1)
    try:
        orphan.close()
        assert not os.path.exists(f"/dev/shm/gameproof_{gone}_test")
        assert os.path.exists(f"/dev/shm/{kept.name}")  # its maker (this process) lives
    finally:
        kept.release()


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="needs /dev/shm")
def test_a_shared_table_outlives_a_process_that_attached_it_and_died():
    made = SharedTable(1)
    try:
        attach_and_die = ("import os, sys\nfrom gameproof.search.tt import SharedTable\n"
                          "SharedTable.attach(sys.argv[1])\nos._exit(9)\n")
        subprocess.run([sys.executable, "-c", attach_and_die, made.name], check=False)
        time.sleep(0.5)  # a resource tracker would unlink it as soon as it sees its process gone
        assert os.path.exists(f"/dev/shm/{made.name}")
    finally:
        made.release()
