"""gameproof.jit: kernels specialised per game, and cached on disk across processes."""

import subprocess
import sys

from numba import njit

from gameproof.jit import specialise


@njit
def _double(x):
    return 2 * x


@njit
def _square(x):
    return x * x


def _apply_down_to_zero(n):  # a template: STEP is bound by `specialise`
    if n == 0:
        return 0
    return STEP(n) + _apply_down_to_zero(n - 1)  # noqa: F821


def test_specialised_templates_call_what_was_bound_and_recurse():
    doubled = specialise([_apply_down_to_zero], {"STEP": _double}, depends_on=[])
    squared = specialise([_apply_down_to_zero], {"STEP": _square}, depends_on=[])
    assert doubled._apply_down_to_zero(4) == 2 * (4 + 3 + 2 + 1)
    assert squared._apply_down_to_zero(4) == 16 + 9 + 4 + 1


def test_df_pn_is_loaded_from_the_disk_cache_in_a_new_process():
    script = (
        "from gameproof.games.mnk.state import MnkState\n"
        "from gameproof.search.dfpn import search_kernels\n"
        "from gameproof.search.solve import solve\n"
        "state = MnkState('mnk:2,2,2')\n"
        "solve(state)\n"
        "stats = search_kernels(state.game.kernels)._mid.stats\n"
        "print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True)  # fills the cache
    hits, misses = map(int, subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                                           text=True).stdout.split())
    assert hits == 1 and misses == 0


def test_a_vectorised_kernel_leaves_numbas_setting_as_it_was():
    import numba
    import numpy as np

    from gameproof import jit

    @jit.cached_kernel(depends_on=[jit], vectorise=True)
    def _four_shifts(x):
        return (x << np.uint64(1)) | (x << np.uint64(8)) | (x >> np.uint64(7)) | (x >> np.uint64(9))

    before = numba.config.SLP_VECTORIZE
    x = np.uint64(0x0000_0018_1800_0000)
    assert _four_shifts(x) == (int(x) << 1 | int(x) << 8 | int(x) >> 7 | int(x) >> 9) & (2**64 - 1)
    assert numba.config.SLP_VECTORIZE == before
