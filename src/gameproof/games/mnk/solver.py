"""Solve m,n,k positions exactly with df-pn."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from gameproof.games.mnk.state import KERNELS, MnkState
from gameproof.search import exact
from gameproof.search.dfpn import Options, Search
from gameproof.search.exact import Solution


@cache
def compile_kernels() -> None:
    """Compile the search once per process (on a 2×2 board), so that timings measure searching only."""
    tiny = MnkState("mnk:2,2,2")
    exact.solve(KERNELS, tiny.tables, tiny.words, max_depth=4, max_moves=4, options=Options(tt_mb=0.01))


def solve(state: MnkState, options: Options = Options(), *, with_moves: bool = True,
          progress: Callable[[int, int, int], None] | None = None, keep_table: bool = False) -> Solution:
    """Value of ``state`` for the player to move (and of each legal move, keyed by square index).

    With ``keep_table``, one search per game and options is kept for the whole process, so that the
    positions solved one after another (a book's leaves) share what each proved."""
    if state.is_over():
        outcome = state.outcome()
        mine = 1 if state.to_move == 0 else -1
        return Solution(exact.DRAW_VALUE if outcome == 0 else exact.WIN if outcome == mine else exact.LOSS)
    compile_kernels()
    cells = state.geometry.cells
    search = _kept_search(state.game.name, options) if keep_table else None
    return exact.solve(KERNELS, state.tables, state.words, max_depth=cells, max_moves=cells, options=options,
                       with_moves=with_moves, max_positions=_positions(state), progress=progress, search=search)


def _positions(state: MnkState) -> int:
    """A bound on the number of positions of the game (the table never needs more entries)."""
    cells = state.geometry.cells
    return 2**cells if state.game.variant == "notakto" else 3**cells


@cache
def _kept_search(game_name: str, options: Options) -> Search:
    state = MnkState(game_name)
    cells = state.geometry.cells
    return Search(KERNELS, state.tables, cells, cells, options, _positions(state))
