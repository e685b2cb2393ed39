"""The compact key sets of a certificate's walk (numba) and of its checker (plain Python) against a set."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.certify.proven import ProvenKeys
from gameproof.search.keyset import KeySet

WORD = (1 << 64) - 1
# Keys that collide in few slots, the extremes, and keys that are not 64-bit ints (the checker's tuples).
KEYS = st.one_of(st.integers(0, 40), st.integers(0, WORD), st.sampled_from([0, 1, WORD - 1, WORD]))


@settings(max_examples=60, deadline=None)
@given(st.lists(KEYS, max_size=300), st.lists(KEYS, max_size=50))
def test_walk_keyset_is_a_set(added, probed):
    keys, reference = KeySet(), set()
    for key in added:
        assert keys.add(key) == (key not in reference)
        reference.add(key)
    assert len(keys) == len(reference)
    assert all((key in keys) == (key in reference) for key in [*added, *probed])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(KEYS, st.integers(WORD + 1, 1 << 70), st.tuples(st.integers(0, 9), st.integers(0, 9))),
                max_size=300), st.lists(KEYS, max_size=50), st.integers(0, 40))
def test_checker_keys_are_a_set(added, probed, set_most):
    keys, reference = ProvenKeys(set_most), set()
    for key in added:
        keys.add(key)
        reference.add(key)
        assert len(keys) == len(reference)
    assert all((key in keys) == (key in reference) for key in [*added, *probed])


def test_both_grow_past_many_keys():
    """A hundred thousand random keys: both sets double many times and lose none."""
    rng = random.Random(7)
    added = [rng.getrandbits(64) for _ in range(100_000)]
    absent = [rng.getrandbits(64) for _ in range(1000)]
    walk, checker = KeySet(), ProvenKeys(set_most=1000)
    for key in added:
        walk.add(key)
        checker.add(key)
    assert len(walk) == len(checker) == len(set(added))
    assert all(key in walk and key in checker for key in added)
    outside = [key for key in absent if key not in set(added)]
    assert not any(key in walk or key in checker for key in outside)
