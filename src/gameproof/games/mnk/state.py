"""m,n,k games (normal, misère, Notakto) by name and size, and their positions: the declared rules of
:mod:`gameproof.games.mnk.rules` with the m,n,k vocabulary (rows, cols, k, variant) on top."""

from __future__ import annotations

from functools import cached_property

from gameproof.answers import Variant
from gameproof.errors import BadInput
from gameproof.framework.game import Game
from gameproof.games.mnk.rules import GAMES
from gameproof.framework.state import RulesState

_SPECS = {spec.name: spec for spec in GAMES}
_PREFIX = {Variant.NORMAL: "mnk", Variant.MISERE: "mnk-misere", Variant.NOTAKTO: "mnk-notakto"}
_VARIANTS = {**{prefix: variant for variant, prefix in _PREFIX.items()}, "notakto": Variant.NOTAKTO}


class MnkGame(Game):
    """An m,n,k game: ``rows`` × ``cols`` board, ``k`` in a row, and a variant (normal, misere, notakto).

    Games are equal when their names are. Square ``i`` is row ``i // cols``, column ``i % cols``."""

    def __init__(self, rows: int, cols: int, k: int, variant: Variant | str = Variant.NORMAL) -> None:
        if variant not in tuple(Variant):
            raise BadInput(f"unknown m,n,k variant {variant!r}; known: {', '.join(Variant)}")
        self.variant = Variant(variant)
        super().__init__(_SPECS[_PREFIX[self.variant]], {"rows": rows, "cols": cols, "k": k})

    @classmethod
    def from_name(cls, name: str) -> MnkGame:
        """Parse a registry name such as ``mnk:3,3,3``, ``mnk-misere:5,5,3``, ``mnk-notakto:3,3,3`` or ``mnk:3,3,k=4``
        (the parameters as :meth:`~gameproof.framework.declaration.GameSpec.parse_parameters` reads them)."""
        prefix, colon, parameters = name.strip().partition(":")
        variant = _VARIANTS.get(prefix)
        if variant is None or not colon:
            raise BadInput(f"unknown game {name!r}; known forms: mnk:R,C,K, mnk-misere:R,C,K, mnk-notakto:R,C,K")
        chosen = _SPECS[_PREFIX[variant]].parse_parameters(parameters)
        return cls(chosen["rows"], chosen["cols"], chosen["k"], variant)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MnkGame) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"MnkGame.from_name({self.name!r})"

    @property
    def rows(self) -> int:
        return self.parameters["rows"]

    @property
    def cols(self) -> int:
        return self.parameters["cols"]

    @property
    def k(self) -> int:
        return self.parameters["k"]

    @cached_property
    def permutations(self) -> list[tuple[int, ...]]:
        """The board's symmetries as square permutations (8 on a square board, 4 otherwise); identity first."""
        return [tuple(self.board.permutation(symmetry)[square] for square in range(self.cells))
                for symmetry in self.symmetries]

    def start(self) -> MnkState:
        return MnkState(self)


class MnkState(RulesState):
    """A position, built from a game (or its name) and space-separated moves: ``MnkState('mnk:3,3,3', 'b2 a1')``.

    Moves are square indices; keys are the declared game's (equal up to symmetry, with the side to move)."""

    game: MnkGame

    def __init__(self, game: MnkGame | str, moves: str = "") -> None:
        super().__init__(game if isinstance(game, MnkGame) else MnkGame.from_name(game), moves)

    def __repr__(self) -> str:
        if self.root is not None:
            return super().__repr__()
        return f"MnkState({self.game.name!r}, {self.record!r})"
