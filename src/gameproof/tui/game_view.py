"""What the game screen knows about a game beside its position: the board's cells, the players, the search.

Positions are those of declared games (:class:`~gameproof.framework.state.RulesState`, whose moves are codes of
cells of the game's :class:`~gameproof.framework.declaration.Board`, one per part, or a pass); m,n,k positions
(:class:`~gameproof.games.mnk.state.MnkState`) are shown with their own summary and X, O as players.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Protocol

import numpy as np

from gameproof.answers import Variant
from gameproof.framework.declaration import Engine, Notation
from gameproof.framework.game import Game
from gameproof.framework.moves import MoveCodes
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.framework.state import GameState
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Kernels

_MNK_RULES = {Variant.NORMAL: "k in a row wins", Variant.MISERE: "misère: k in a row loses",
              Variant.NOTAKTO: "Notakto: one shared mark, k in a row loses"}


class Position(GameState, Protocol):
    """A position the screen can show: a game state that also knows its game, history and marks."""

    game: Hashable
    history: list[int]

    @property
    def record(self) -> str: ...

    def described(self) -> str:
        """Which position this is, for people: ``after: b2 a1``, or ``position: TEXT`` for one given as text."""
        ...

    def marks(self) -> str:
        """One character per cell, row by row from a1: a piece, or ``-`` for an empty cell."""
        ...

    def copy(self) -> Position: ...


@dataclass(frozen=True)
class SearchSetup:
    """How a game's positions are searched: ``frames(state)`` is the state array for ``kernels``, searched at
    most ``max_depth`` plies deep with at most ``max_moves`` moves a node, by ``engine``."""

    kernels: Kernels
    tables: tuple[Any, ...]
    max_depth: int
    max_moves: int
    engine: Engine
    frames: Callable[[Any], np.ndarray]


@dataclass(frozen=True)
class GameView:
    """A game's name, board layout and players; ``cell_moves`` is the bit of each cell (row by row from a1, as
    ``marks()`` runs), which is also the move played there in a placement game; ``codes`` how a move's parts
    (cells) make its code. ``search()`` gives the search set-up, built on first use (compiling a declared
    game's kernels can take seconds, so the screen asks for it in its background worker)."""

    name: str
    summary: str
    rows: int
    cols: int
    cell_moves: tuple[int, ...]
    notation: Notation
    players: tuple[str, str]
    codes: MoveCodes
    search: Callable[[], SearchSetup]

    @property
    def pass_move(self) -> int:
        return self.codes.pass_move

    def cell_of(self, move: int) -> int | None:
        """The cell a move ends on, its last part's (None for a pass)."""
        return None if move == self.pass_move else self.cell_moves.index(self.codes.decode(move)[-1])

    @property
    def centre(self) -> int:
        return self.rows // 2 * self.cols + self.cols // 2


def view_of(state: Position) -> GameView:
    """The view of the game `state` belongs to (one per game)."""
    if isinstance(state, MnkState):
        return _mnk_view(state.game)
    if isinstance(state, RulesState):
        return _rules_view(state.game)
    raise TypeError(f"the game screen cannot show {type(state).__name__} positions")


@cache
def _mnk_view(game: MnkGame) -> GameView:
    return replace(_rules_view(game), summary=_MNK_RULES[game.variant], players=("X", "O"))


@cache
def _rules_view(game: Game) -> GameView:
    spec, board = game.spec, game.board

    def search() -> SearchSetup:
        return SearchSetup(game.kernels, game.tables, game.max_plies, game.max_moves, spec.engine, RulesState.frames)

    return GameView(game.name, spec.summary, board.rows, board.cols, tuple(board.cells), spec.notation,
                    spec.player_names, game.codes, search)
