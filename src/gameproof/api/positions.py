"""Games and positions for people: ``gp.load_game("connect4:5,4").start(moves="d c d")``, moves by name."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gameproof.errors import BadInput
from gameproof.framework import registry
from gameproof.framework.declaration import Engine
from gameproof.framework.game import Game as RulesGame
from gameproof.framework.state import RulesState

Move = str | int
"""A move: its name (``"d"``, ``"c4"``, ``"b2-c3"``, ``"pass"``) or the engine's int code for it."""


class Result(enum.StrEnum):
    """How a game ended, as python-chess writes it: ``"1-0"`` the first player won, ``"0-1"`` the second,
    ``"1/2-1/2"`` a draw, ``"*"`` not over yet. Members compare equal to those strings."""

    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "1/2-1/2"
    ONGOING = "*"


_RESULTS = {None: Result.ONGOING, 1: Result.FIRST_WINS, -1: Result.SECOND_WINS, 0: Result.DRAW}


def load_game(name: str, **parameters: int) -> Game:
    """The game called `name`: ``"connect4:5,4"``, ``"mnk:3,3,3"``, ``"othello"`` (its default parameters), or a
    rules file ``"path/file.py"`` or ``"path/file.py:PARAMS"``; parameters may also be given by their declared
    names (or aliases), ``load_game("connect4", width=5, height=4)``, the others keeping their defaults. A game from
    a file has its rules self-checked first. BadInput for a name or parameter that names no game."""
    if not isinstance(name, str):
        raise BadInput(f"a game's name is text, such as 'connect4:5,4', not {name!r:.40}")
    if parameters:
        name = _named(name, parameters)
    game = registry.load_game(name)
    if registry.rules_file(name) is None:  # one engine game (with its compiled kernels) for every way to name it
        game = registry.load_game(game.name)
    return Game(game, name)


def _named(name: str, parameters: dict[str, int]) -> str:
    """`name` with `parameters` written after those it gives, by name (``connect4:width=5``), for the registry."""
    given = ",".join(f"{key}={value}" for key, value in parameters.items())
    base, _, positional = name.strip().partition(":")
    return f"{base}:{positional},{given}" if positional.strip() else f"{base}:{given}"


def game_names() -> list[str]:
    """The name of every declared game (built in, or from an installed package), each loadable by
    :func:`load_game` with its default parameters."""
    return [spec.name for spec in registry.declared_specs()]


@dataclass(frozen=True, eq=False)
class Game:
    """A game with its parameters chosen (``connect4:5,4``): where positions start, and what it declares."""

    framework: RulesGame
    """The engine's own game (:class:`gameproof.framework.game.Game`): its rules, kernels and tables."""
    source: str
    """The text it was loaded from (a file's path and parameters, for a game from a file)."""

    def __repr__(self) -> str:
        return f"gp.load_game({self.source!r})"

    def __eq__(self, other: object) -> bool:
        """Games are equal when they are one declaration with the same parameters (however they were named)."""
        if not isinstance(other, Game):
            return NotImplemented
        mine, theirs = self.framework, other.framework
        return mine.spec is theirs.spec and mine.parameters == theirs.parameters

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def name(self) -> str:
        """The game's name with its parameters, e.g. ``connect4:5,4``."""
        return self.framework.name

    @property
    def parameters(self) -> dict[str, int]:
        """The parameters chosen, by their declared names."""
        return dict(self.framework.parameters)

    @property
    def players(self) -> tuple[str, str]:
        """The names of the first and the second player."""
        first, second = self.framework.spec.player_names
        return first, second

    @property
    def summary(self) -> str:
        """One line on what the game is."""
        return self.framework.spec.summary

    @property
    def engine(self) -> Engine:
        """The search :func:`gameproof.solve` uses unless told otherwise."""
        return self.framework.spec.engine

    @property
    def has_score(self) -> bool:
        """Whether the game declares a final score (``solve(..., score=True)``)."""
        return self.framework.has_score

    @property
    def may_repeat(self) -> bool:
        """Whether a position may come round again (the searches refuse such a game; a :class:`Tablebase` solves it)."""
        return self.framework.may_repeat

    def start(self, moves: str = "") -> Position:
        """The start position, after `moves` if given (their names, separated by spaces or commas: ``"d c d"``);
        BadInput naming the first move that cannot be played."""
        return Position(RulesState(self.framework, moves), self)

    def position(self, text: str, moves: str = "") -> Position:
        """The position `text` writes, in the game's own format (:attr:`Position.text` gives it back; ``gameproof
        games NAME`` describes it), then after `moves` if given; BadInput for text that writes no position."""
        state = RulesState.from_position(self.framework, text)
        state.play_moves(moves)
        return Position(state, self)

    def wrap(self, state: RulesState) -> Position:
        """A position of this game from the engine's own :class:`~gameproof.framework.state.RulesState` (kept, not
        copied)."""
        return Position(state, self)

    @classmethod
    def of(cls, game: RulesGame) -> Game:
        """The public game for the engine's `game` (one a book or a tablebase names, say)."""
        from gameproof.search.book_game import Identity

        return cls(game, Identity.of(game).loading)


class Position:
    """A position of a game and the moves that led to it, changed in place as moves are played and undone (as
    python-chess's ``Board``). ``str()`` draws the board; Jupyter shows it as SVG."""

    def __init__(self, state: RulesState, game: Game) -> None:
        self.state = state
        """The engine's own position (:class:`gameproof.framework.state.RulesState`), whose moves are int codes."""
        self.game = game

    def __repr__(self) -> str:
        return f"<{self.game.name} position {self.text!r}, {self.player} to move>"

    def __str__(self) -> str:
        return str(self.state)

    def _repr_svg_(self) -> str:
        """The board drawn as SVG (what Jupyter shows)."""
        return self.state._repr_svg_()

    def __eq__(self, other: object) -> bool:
        """Positions are equal when they are of the same game, with the same pieces and side to move (however
        they were reached)."""
        if not isinstance(other, Position):
            return NotImplemented
        mine, theirs = self.state, other.state
        return self.game == other.game and (mine.words, mine.to_move) == (theirs.words, theirs.to_move)

    __hash__ = None  # type: ignore[assignment]  # changed in place: not a key

    @property
    def text(self) -> str:
        """The position in the game's own text format, as :meth:`Game.position` reads it."""
        return self.state.position

    @property
    def played(self) -> str:
        """The moves played from the start (or from the position given as text), by name, as :meth:`Game.start`
        reads them."""
        return self.state.record

    @property
    def to_move(self) -> int:
        """The side to move: 0 the first player, 1 the second."""
        return self.state.to_move

    @property
    def player(self) -> str:
        """The name of the side to move (``"X"``, ``"black"``)."""
        return self.game.players[self.to_move]

    @property
    def legal_moves(self) -> list[str]:
        """The names of the legal moves (none once the game is over; ``pass`` alone where the side must pass)."""
        return [self.state.move_name(code) for code in self.state.legal_moves()]

    @property
    def legal_codes(self) -> list[int]:
        """The engine's int codes of the legal moves, in the order of :attr:`legal_moves`."""
        return self.state.legal_moves()

    def move_code(self, move: Move) -> int:
        """The int code of `move` (a name, or a code, given back as it is); BadInput for a name of no move."""
        if isinstance(move, str):
            return self.state.parse_move(move)
        if isinstance(move, int) and not isinstance(move, bool):
            return move
        raise BadInput(f"a move is a name (str) or an int code, not {move!r:.40}")

    def move_name(self, code: int) -> str:
        """The name of the move whose int code is `code`."""
        return self.state.move_name(code)

    def play(self, move: Move) -> None:
        """Play `move` (a name or an int code); BadInput, naming the legal moves, where it is not legal."""
        self.state.play(self.move_code(move))

    def undo(self) -> str:
        """Take back the last move played; its name. BadInput where no move was played."""
        if not self.state.history:
            raise BadInput("no move to undo: none was played since the position began")
        name = self.state.move_name(self.state.history[-1])
        self.state.undo()
        return name

    def is_over(self) -> bool:
        """Whether the game is over (the side to move has no move and need not pass)."""
        return self.state.is_over()

    def result(self) -> Result:
        """How the game ended: ``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while it goes on (a :class:`Result`)."""
        return _RESULTS[self.state.outcome()]

    def copy(self) -> Position:
        """An independent copy, its moves included."""
        return Position(self.state.copy(), self.game)


def checked_position(value: object, caller: str) -> Position:
    """`value` where it is a :class:`Position`; BadInput, naming `caller`, for anything else (a game, say)."""
    if not isinstance(value, Position):
        hint = ": give game.start() or game.position(text)" if isinstance(value, Game) else ""
        raise BadInput(f"{caller} takes a position, not {type(value).__name__} {value!r:.40}{hint}")
    return value
