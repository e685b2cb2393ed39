"""gameproof.jit: kernels specialised per game, and cached on disk across processes."""

import os
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


#: Solves misère 4×4 k3 as declared (``all``) or declared without its symmetries (``none``: the same rules file and
#: constants, so the same game fingerprint); prints the value and the nodes.
_VARIANT = (
    "import sys\n"
    "from dataclasses import replace\n"
    "from gameproof.framework.game import Game\n"
    "from gameproof.framework.registry import specs\n"
    "from gameproof.framework.state import RulesState\n"
    "from gameproof.search.solve import solve\n"
    "spec = specs()['mnk-misere']\n"
    "if sys.argv[1] == 'none':\n"
    "    spec = replace(spec, symmetries=())\n"
    "solution = solve(RulesState(Game(spec, {'rows': 4, 'cols': 4, 'k': 3})), with_moves=False)\n"
    "print(solution.value.value, solution.nodes)\n"
)


def _variant(symmetries: str, cache: str) -> str:
    environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
    return subprocess.run([sys.executable, "-c", _VARIANT, symmetries], check=True, capture_output=True, text=True,
                          env=environment).stdout.strip()


def test_a_game_with_its_symmetries_and_without_them_never_share_a_cached_search(tmp_path):
    """Their kernels differ in one bound constant (the keys a frame holds), not in the game's fingerprint: the
    search compiled for one, loaded from the disk cache for the other, once gave a wrong value."""
    alone = _variant("none", str(tmp_path / "alone"))
    shared = str(tmp_path / "shared")
    declared = _variant("all", shared)
    assert _variant("none", shared) == alone
    assert declared != alone and declared.split()[0] == alone.split()[0] == "loss"


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
