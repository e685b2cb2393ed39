"""Answers from a tablebase: a position's value, distance and score, and every move's."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gameproof.answers import Value, to_mover
from gameproof.errors import BadInput
from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.search.book_game import stored_game
from gameproof.search.score import searched_game
from gameproof.search.tablebase.table import Table, read_table


@dataclass(frozen=True)
class Worth:
    """What a table says of a position (or of a move, for its mover): the value, the plies to the end under perfect
    play (None for a draw that goes on), the exact score where the game declares one."""

    value: Value
    distance: int | None
    score: int | None = None


@dataclass
class TableAnswer:
    """A position's worth and each legal move's (by move code), from a table."""

    worth: Worth
    moves: dict[int, Worth] = field(default_factory=dict)


class Tablebase:
    """A tablebase file and the game it is of (loaded as its header names it, refused when its file changed)."""

    def __init__(self, path: str | Path) -> None:
        self.table: Table = read_table(path)
        self.game: Game = stored_game(path, self.table.header, what="tablebase")
        self._searched = searched_game(self.game)
        if [symmetry.value for symmetry in self._searched.symmetries] != self.table.header.get("symmetries"):
            raise BadInput(f"{path}: built with the symmetries {self.table.header.get('symmetries')}, not those "
                           f"{self.game.name} declares now; build the tablebase again")

    def probe(self, game: Game) -> tuple[np.ndarray, np.ndarray]:
        """The sorted keys and values that `game`'s probing kernels look positions up in (see
        :func:`gameproof.search.solve.solve`); BadInput when the table is not of `game` as its searches key it (another
        game, or a file's game whose declared symmetries the table was built without)."""
        if game.name != self.game.name or game.fingerprint != self.game.fingerprint:
            raise BadInput(f"{self.table.path} is a tablebase of {self.game.name}, not of {game.name}")
        if self._searched is not self.game:
            raise BadInput(f"{self.table.path}: {game.name} declares symmetries that its table was built without (a "
                           "file's game): a search that merges positions by them cannot look the table up")
        return np.asarray(self.table.arrays["keys"]), np.asarray(self.table.arrays["value"])

    @property
    def scored(self) -> bool:
        """Whether the table keeps exact scores (a game that declares one and must end)."""
        return "score" in self.table.arrays

    def worth(self, state: RulesState) -> Worth:
        """What the table says of `state` (for its side to move); BadInput when the table lacks it (a position not
        reachable from the start)."""
        row = self.table.row(self._searched.key(state.words, state.to_move))
        if row is None:
            origin = "the position it was built from" if "root" in self.table.header else "the start"
            raise BadInput(f"the tablebase has no entry for the position {state.position}: it holds the positions "
                           f"reachable from {origin}")
        arrays = self.table.arrays
        distance = int(arrays["distance"][row])
        score = int(arrays["score"][row]) if self.scored else None
        return Worth(Value.of_score(int(arrays["value"][row])), None if distance < 0 else distance, score)

    def answer(self, state: RulesState) -> TableAnswer:
        """The worth of `state` and of each of its legal moves for the side to move."""
        worth, moves = self.worth(state), {}
        if not state.is_over():
            for move in state.legal_moves():
                child = state.copy()
                child.play(move)
                moves[move] = self.through(self.worth(child), child.to_move != state.to_move)
        return TableAnswer(worth, moves)

    @staticmethod
    def through(child: Worth, turn_passed: bool) -> Worth:
        """A child's worth given back to the side whose move led there: one ply further from the end."""
        return Worth(to_mover(child.value, turn_passed), None if child.distance is None else child.distance + 1,
                     None if child.score is None else to_mover(child.score, turn_passed))
