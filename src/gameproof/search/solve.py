"""Exact values of positions of any declared game, by df-pn over the kernels derived from its rules."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from gameproof.answers import Value
from gameproof.framework.declaration import Engine
from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.interrupts import RulesBroken
from gameproof.search import alphabeta, exact
from gameproof.search.confirm import confirm_symmetries, relies_on_declared_symmetries
from gameproof.search.dfpn import Options, Search
from gameproof.search.exact import Solution
from gameproof.search.tt import TranspositionTable

#: A tablebase for the kernels to probe: its sorted keys and each one's value for the side to move there.
Probe = tuple[np.ndarray, np.ndarray]


def solve(state: RulesState, options: Options = Options(), *, with_moves: bool = True,
          progress: Callable[[int, int, int], None] | None = None, keep_table: bool = False,
          engine: Engine | None = None, expect: Value | None = None, table: TranspositionTable | None = None,
          probe: Probe | None = None) -> Solution:
    """Value of `state` for the side to move (and of each legal move, keyed by move number).

    `engine` defaults to the game's declared one. With `keep_table` (df-pn), one search per game and
    options is kept for the whole process, so that positions solved one after another share what each
    proved; with `table`, the search is over that table instead (which other threads may be searching too,
    each with its lanes: :meth:`TranspositionTable.with_own_lanes`). ``expect`` orders the two questions of a
    value-only df-pn solve (see :func:`exact.solve`). Rules that break the kernels' assumptions raise
    :class:`~gameproof.interrupts.RulesBroken`, naming the game. The answer of a game from a user's file that
    declares symmetries is confirmed by checked certificates (:func:`~gameproof.search.confirm.confirm_symmetries`).
    With `probe` (a tablebase's sorted keys and values, :meth:`~gameproof.search.tablebase.query.Tablebase.probe`), a
    game ends at any position the table holds, with the table's value (no table is kept between solves then)."""
    if state.is_over():
        return Solution(exact.final_value(state))
    try:
        solution = _solve(state, options, with_moves, progress, keep_table and probe is None, engine, expect, table, probe)
    except RulesBroken as broken:
        raise broken.of(state.game.name) from None
    if relies_on_declared_symmetries(state):
        from gameproof.search.book_game import Identity

        solved_by = table if table is not None or not keep_table else kept_search(state.game, options).table
        dfpn_table = solved_by if (engine or state.game.spec.engine) is Engine.DFPN else None
        confirm_symmetries(state, Identity.of(state.game).loading, solution, dfpn_table, options)
    return solution


def _solve(state: RulesState, options: Options, with_moves: bool, progress: Callable[[int, int, int], None] | None,
           keep_table: bool, engine: Engine | None, expect: Value | None, table: TranspositionTable | None,
           probe: Probe | None) -> Solution:
    game = state.game
    kernels, tables = (game.kernels, game.tables) if probe is None else (game.probing_kernels, (*game.tables, *probe))
    if (engine or game.spec.engine) is Engine.ALPHABETA:
        return alphabeta.solve(kernels, tables, state.frames(), max_depth=game.max_plies, max_moves=game.max_moves,
                               options=options, with_moves=with_moves, progress=progress, table=table)
    if table is not None:
        search = Search(kernels, tables, game.max_plies, game.max_moves, options, table=table)
    else:
        search = kept_search(game, options) if keep_table else None
    return exact.solve(kernels, tables, state.frames(), max_depth=game.max_plies, max_moves=game.max_moves,
                       options=options, with_moves=with_moves, max_positions=game.max_positions, progress=progress,
                       search=search, expect=expect, draws=game.spec.draws)


@cache
def kept_search(game: Game, options: Options) -> Search:
    """The df-pn search kept for `game` and `options` for the whole process (see `keep_table`)."""
    return Search(game.kernels, game.tables, game.max_plies, game.max_moves, options, game.max_positions)
