"""Positions: the tiny protocol that algorithms (perft, df-pn, books, TUI) take, and a position of any declared
game on Python ints that keeps it (for the CLI, the TUI and tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from gameproof.errors import BadInput
from gameproof.framework.declaration import DRAW, ONGOING, WIN, Notation, RulesError
from gameproof.framework.diagram import format_position, parse_position
from gameproof.framework.game import Game
from gameproof.framework.moves import complete_moves
from gameproof.framework.selfcheck import is_int, shown, words_problem


@runtime_checkable
class GameState(Protocol):
    """A mutable position of a two-player, deterministic, perfect-information game.

    Moves are small ints (a square index, or the game's pass move); `to_move` is 0 for the first
    player and 1 for the second; `key` is a hash int equal for equal positions.
    """

    @property
    def to_move(self) -> int: ...

    @property
    def key(self) -> int: ...

    def legal_moves(self) -> Sequence[int]: ...

    def play(self, move: int) -> None: ...

    def undo(self) -> None: ...

    def is_over(self) -> bool: ...

    def outcome(self) -> int | None:
        """+1 if the first player won, -1 if the second did, 0 for a draw, None while not over."""
        ...

    def move_name(self, move: int) -> str: ...

    def parse_move(self, text: str) -> int: ...


class RulesState:
    """A position reached by moves from the start of `game`: ``RulesState(game, "d c d")``, or from a position given
    as text or as words (:meth:`from_position`, :meth:`at`), its `root`.

    Moves are codes (:mod:`gameproof.framework.moves`: a placement game's are cells, ``game.pass_move`` the
    pass); names follow the game's notation. A side with
    no legal move in a game with passes has exactly one move, the pass.
    """

    def __init__(self, game: Game, moves: str = "") -> None:
        self.game = game
        self.words: tuple[int, ...] = tuple(game.rules.start())
        self._to_move = 0
        self.history: list[int] = []
        self._earlier: list[tuple[tuple[int, ...], int]] = []
        #: The position `history` starts from (words, side to move), or None for the game's start.
        self.root: tuple[tuple[int, ...], int] | None = None
        self.play_moves(moves)

    @classmethod
    def at(cls, game: Game, words: tuple[int, ...], to_move: int) -> RulesState:
        """The position `words` with `to_move` (0 or 1) to play, reached by moves it does not record (its root)."""
        state = cls(game)
        state.words, state._to_move = tuple(words), to_move
        state.root = (state.words, to_move)
        return state

    @classmethod
    def from_position(cls, game: Game, text: str) -> RulesState:
        """The position that `text` writes (:mod:`gameproof.framework.diagram`: the game's own format, or a diagram of
        its board and the side to move), checked against the rules; BadInput, one line, for text that writes none."""
        return cls.at(game, *parse_position(game, text))

    def play_moves(self, moves: str) -> None:
        """Play the moves named in `moves` (separated by spaces or commas); BadInput naming the first refused."""
        for index, text in enumerate(moves.replace(",", " ").split(), start=1):
            try:
                self.play(self.parse_move(text))
            except BadInput as error:
                raise BadInput(f"move {index} ({text:.40}): {error}") from None

    def __repr__(self) -> str:
        if self.root is not None:
            return f"{type(self).__name__}.from_position({self.game!r}, {self.position!r})"
        return f"RulesState({self.game!r}, {self.record!r})"

    def _repr_svg_(self) -> str:
        """The position drawn (Jupyter shows it in place of the text)."""
        from gameproof.render.game_svg import game_svg

        return game_svg(self)

    def __str__(self) -> str:
        board = self.game.board
        marks = self.marks()
        lines = []
        for r in reversed(range(board.rows)):
            lines.append(f"{r + 1:>2} " + " ".join(marks[r * board.cols : (r + 1) * board.cols]))
        lines.append("   " + " ".join(chr(ord("a") + c) for c in range(board.cols)))
        return "\n".join(lines)

    def marks(self) -> str:
        """One character per cell, row by row from a1: the piece there (the game's ``pieces``), or ``-``."""
        pieces = self.game.spec.pieces
        layers = self.game.layer_sets(self.game.absolute(self.words, self._to_move))
        out = []
        for bit in self.game.board.cells:
            held = [pieces[a] for a, layer in enumerate(layers) if layer >> bit & 1]
            out.append(held[0] if held else "-")
        return "".join(out)

    @property
    def record(self) -> str:
        """The moves played from the root (the start, or the position given), by name."""
        return " ".join(self.move_name(m) for m in self.history)

    @property
    def position(self) -> str:
        """This position as text, as :meth:`from_position` reads it."""
        return format_position(self.game, self.words, self._to_move)

    @property
    def root_position(self) -> str | None:
        """The text of the position the moves start from, or None where they start from the game's start."""
        return None if self.root is None else format_position(self.game, *self.root)

    def described(self) -> str:
        """Which position this is, for a report's first line: ``after: d c d``, ``after: (start)``, or
        ``position: TEXT`` for one given (``position: TEXT  then: MOVES`` once moves are played from it)."""
        if self.root is None:
            return f"after: {self.record or '(start)'}"
        return f"position: {self.root_position}" + (f"  then: {self.record}" if self.history else "")

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def key(self) -> int:
        """Canonical key, equal for positions equal up to the game's symmetries."""
        return self.game.key(self.words, self._to_move)

    def _arguments(self, cells: tuple[int, ...] = ()) -> tuple[int, ...]:
        return self.game.arguments.of(self.words, self._to_move, cells)

    def _mask(self, function: str, cells: tuple[int, ...] = ()) -> int:
        """The cells the rule `function` gives here after the parts `cells` (``legal``: the first parts)."""
        value = self._rule(function, *self._arguments(cells))
        mask = self.game.arguments.mask(value)
        if mask is None:
            raise RulesError(f"{self.game.name}: {function}() returned {shown(value)}, not "
                             f"{self.game.arguments.shape()}, {self._where(None)}")
        return mask

    def legal_mask(self) -> int:
        """The cells of the first parts of the legal moves (one int, past bit 63 on a large board)."""
        return self._mask("legal")

    def legal_moves(self) -> list[int]:
        """The codes of the legal moves (the pass alone where the side to move must pass; none once over)."""
        first = self.legal_mask()
        if not first:
            return [] if self.is_over() else [self.game.pass_move]
        parts = self.game.spec.parts

        def later(index: int, earlier: tuple[int, ...]) -> int:
            cells = self._mask(f"legal_{parts[index]}", earlier)
            if not cells:
                raise RulesError(f"{self.game.name}: legal_{parts[index]}() gave no cell after "
                                 f"{' '.join(map(self.game.board.cell_name, earlier))}, which legal() offered, "
                                 f"{self._where(None)}")
            return cells

        return sorted(self.game.codes.encode(cells) for cells in complete_moves(first, later, self.game.codes))

    def _status(self) -> int:
        return ONGOING if self.legal_mask() else self._rule("result", *self._arguments())

    def is_over(self) -> bool:
        return self._status() != ONGOING

    def outcome(self) -> int | None:
        """+1 if the first player won, -1 if the second did, 0 for a draw, None while not over."""
        status = self._status()
        if status == ONGOING:
            return None
        if status == DRAW:
            return 0
        mover_won = status == WIN
        return 1 if mover_won == (self._to_move == 0) else -1

    def play(self, move: int) -> None:
        legal = self.legal_moves()
        if move not in legal:
            raise self._refusal(move, legal)
        self._earlier.append((self.words, self._to_move))
        if move == self.game.pass_move:
            self.words = self._words("pass_turn", *self._arguments(), move=move)
        else:
            self.words = self._words("play", *self._arguments(self.game.codes.decode(move)), move=move)
        self._to_move = self._side_after(move)
        self.history.append(move)

    def _side_after(self, move: int) -> int:
        """The side to move after `move` led to the current words: the rules' ``to_move`` where the game has one
        (RulesError unless it gives 0 or 1), else the other side."""
        if not self.game.has_turns:
            return self._to_move ^ 1
        side = self._rule("to_move", *self.words, move=move)
        if not is_int(side) or side not in (0, 1):
            raise RulesError(f"{self.game.name}: to_move() returned {shown(side)}, not 0 or 1, {self._where(move)}")
        return int(side)

    def _refusal(self, move: int, legal: list[int]) -> BadInput:
        """Why `move` is not played where the rules gave the moves `legal`: the game is over, or it is not among
        them; unless the rules, asked again, give other moves (they are not deterministic: a message that listed
        the move as legal would be nonsense)."""
        if self.legal_moves() != legal:
            return RulesError(f"{self.game.name}: legal() gave different answers for the same position, asked twice "
                              f"({self._where(None)}): the rules must be deterministic")
        if not legal:
            return BadInput(f"the game is over; {self.move_name(move)} cannot be played")
        return BadInput(f"{self.move_name(move)} is not legal here (legal: {', '.join(map(self.move_name, legal))})")

    def _rule(self, function: str, *args: int, move: int | None = None) -> Any:
        """The rule `function` on `args` (playing `move`, if any); RulesError, one line naming the position by
        its moves, when it raises."""
        try:
            return getattr(self.game.rules, function)(*args)
        except BadInput:
            raise
        except Exception as error:
            raise RulesError.raised(self.game.name, f"{function}()", error, self._where(move)) from None

    def _words(self, function: str, *args: int, move: int) -> tuple[int, ...]:
        """The position the rule `function` gives on `args` when `move` is played, checked to be the game's words."""
        value = self._rule(function, *args, move=move)
        problem = words_problem(value, self.game.words)
        if problem is not None:
            raise RulesError(f"{self.game.name}: {function}() {problem}, {self._where(move)}")
        return value

    def _where(self, move: int | None) -> str:
        if not self.history:
            where = "at the start" if self.root is None else "at the position given"
        else:
            where = f"after {self.record}" + ("" if self.root is None else " from the position given")
        return where + (f", move {self.move_name(move)}" if move is not None else "")

    def undo(self) -> None:
        self.words, self._to_move = self._earlier.pop()
        self.history.pop()

    def move_name(self, move: int) -> str:
        """A move's name: its column or cells by the game's notation, ``pass``, or ``@N`` for a code that names
        no cells."""
        if self.game.spec.notation is Notation.COLUMN and self.game.is_placement and move in self.game.board.cells:
            return chr(ord("a") + self.game.board.place(move)[1])
        return self.game.move_name(move)

    def parse_move(self, text: str) -> int:
        """The code of a move's name (a column, in a game named by columns)."""
        board = self.game.board
        text = text.strip().lower()
        if self.game.spec.notation is not Notation.COLUMN or text in ("pass", "pa") or text.startswith("@"):
            return self.game.parse_move(text)
        if len(text) == 1 and "a" <= text <= chr(ord("a") + board.cols - 1):
            column = ord(text) - ord("a")
            for move in self.legal_moves():
                if move != self.game.pass_move and board.place(move)[1] == column:
                    return move
            raise BadInput(f"the game is over; {text} cannot be played" if self.is_over()
                           else f"column {text} is full")
        raise BadInput(f"{text!r} is not a column of the board (a..{chr(ord('a') + board.cols - 1)})")

    def copy(self) -> RulesState:
        twin = type(self).at(self.game, self.words, self._to_move)
        twin.history, twin._earlier, twin.root = list(self.history), list(self._earlier), self.root
        return twin

    def frames(self):
        """The df-pn state array of this position."""
        return self.game.frames(self.words, self._to_move)

