"""The model behind the game screen (`gameproof tui mnk`, `gameproof tui GAME`): a position, a cursor cell and
proven values (or exact scores), without Textual."""

from __future__ import annotations

from gameproof.errors import BadInput
from gameproof.framework.declaration import Notation
from gameproof.answers import Value
from gameproof.tui.game_view import GameView, Position, view_of
from gameproof.tui.oracle import Distance, Proven, perfect_move


class GameSession:
    """What the game screen shows: the position, a cursor cell, the values proven so far, the principal line.

    Cells are numbered row by row from a1 (``row * cols + col``); moves are the position's own. A move of
    several parts (a piece, then its target) is chosen cell by cell: ``chosen`` holds the parts chosen so far.
    Values arrive from a background search tagged with the record they belong to; stale ones are ignored. With
    `scores` they are exact final scores (ints, for the mover), and the best move is the one that scores most. With
    `distances` (values from a tablebase) each move also comes with its plies to the end under perfect play, and the
    best move is the nearest win, the farthest loss (:func:`~gameproof.tui.oracle.perfect_move`).
    """

    def __init__(self, state: Position, scores: bool = False, distances: bool = False) -> None:
        self.state = state
        self.scores = scores
        self.with_distances = distances
        self.view: GameView = view_of(state)
        last = self.view.cell_of(state.history[-1]) if state.history else None
        self.cursor = self.view.centre if last is None else last
        self.values: dict[int, Proven] = {}
        self.distances: dict[int, Distance] = {}
        self.line: list[int] | None = None
        #: Whether the principal line stops where a position comes round again (a draw that goes on for ever).
        self.line_repeats = False
        #: Why this position has no values (a position the tablebase lacks), in words; None while it has or may.
        self.problem: str | None = None
        self.chosen: list[int] = []

    @property
    def record(self) -> str:
        return self.state.record

    @property
    def mover(self) -> str:
        return self.view.players[self.state.to_move]

    @property
    def must_pass(self) -> bool:
        """Whether the side to move has no move but a pass."""
        return self.state.legal_moves() == [self.view.pass_move]

    def move_cursor(self, drow: int, dcol: int) -> None:
        """Move the cursor by rows (up is +1, towards higher row numbers) and columns, staying on the board."""
        rows, cols = self.view.rows, self.view.cols
        row = min(max(self.cursor // cols + drow, 0), rows - 1)
        col = min(max(self.cursor % cols + dcol, 0), cols - 1)
        self.cursor = row * cols + col

    def play(self, move: int) -> None:
        """Play ``move`` for the side to move (BadInput when it cannot be played)."""
        self.state.play(move)
        cell = self.view.cell_of(move)
        if cell is not None:
            self.cursor = cell
        self._forget()

    def play_cell(self, cell: int) -> None:
        """Play at a cell: its move, or in a game played by columns, the move in its column; in a game whose
        moves have several parts, choose the cell as the next part and play the move once it is whole."""
        if self.view.notation is Notation.COLUMN:
            self.play_named(chr(ord("a") + cell % self.view.cols))
            return
        bit = self.view.cell_moves[cell]
        if self.view.codes.parts == 1:
            self.play(bit)
            return
        if bit not in self.next_cells():
            named = " ".join(self.state.game.board.cell_name(c) for c in [*self.chosen, bit])
            raise BadInput(f"no legal move goes {named}" if self.chosen else f"no legal move starts on {named}")
        self.chosen.append(bit)
        if len(self.chosen) == self.view.codes.parts:
            move = self.view.codes.encode(tuple(self.chosen))
            self.chosen = []
            self.play(move)

    def continuing(self, cells: list[int]) -> list[int]:
        """The legal moves whose first parts are `cells`."""
        depth, codes = len(cells), self.view.codes
        return [move for move in self.state.legal_moves()
                if move != self.view.pass_move and list(codes.decode(move)[:depth]) == cells]

    def next_cells(self) -> set[int]:
        """The cells (bits) the next part of a move may take after the parts chosen so far."""
        depth = len(self.chosen)
        return {self.view.codes.decode(move)[depth] for move in self.continuing(self.chosen)}

    def value_through(self, bit: int) -> Proven | None:
        """The best proven value (or score) of the moves that take `bit` as their next part (None until it is
        certain)."""
        return self._best([self.values.get(move) for move in self.continuing([*self.chosen, bit])])

    def distance_through(self, bit: int) -> Distance:
        """The plies to the end of perfect play through the moves that take `bit` as their next part (the nearest
        win, the farthest loss), once each of those moves is known; None for a draw, and without distances."""
        return self._distance(self.continuing([*self.chosen, bit]))

    def _distance(self, moves: list[int]) -> Distance:
        """The distance of the move perfect play chooses among `moves` once every one is known (None before, for
        a draw, with scores, and without distances)."""
        if not self.with_distances or self.scores or not moves or any(move not in self.values for move in moves):
            return None
        return self.distances.get(perfect_move({move: self.values[move] for move in moves}, self.distances))

    def _best(self, results: list[Proven | None]) -> Proven | None:
        """The best of some moves' results (None: not proven yet) once it is certain: a winning move settles a
        value; a score needs every move's."""
        if not self.scores and Value.WIN in results:
            return Value.WIN
        if None in results or not results:
            return None
        return max(results) if self.scores else Value.best(results)

    def clear_choice(self) -> bool:
        """Forget the parts chosen so far; whether there were any."""
        had, self.chosen = bool(self.chosen), []
        return had

    def play_named(self, name: str) -> None:
        """Play the move named `name`; in a game whose moves have several parts, a cell's name (as typed key by
        key) chooses that cell as the move's next part, as a click on it does."""
        if self.view.codes.parts > 1:
            self.play_cell(self.view.cell_moves.index(self.state.game.board.parse_cell(name)))
            return
        self.play(self.state.parse_move(name))

    def pass_turn(self) -> None:
        """Pass, when that is the only move."""
        if not self.must_pass:
            why = "the game is over" if self.state.is_over() else "it has moves"
            raise BadInput(f"{self.mover} cannot pass: {why}")
        self.play(self.view.pass_move)

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.state.history:
            return False
        cell = self.view.cell_of(self.state.history[-1])
        if cell is not None:
            self.cursor = cell
        self.state.undo()
        self._forget()
        return True

    def _forget(self) -> None:
        self.values = {}
        self.distances = {}
        self.line = None
        self.line_repeats = False
        self.problem = None
        self.chosen = []

    def add_value(self, record: str, move: int, value: Proven, distance: Distance = None) -> bool:
        """Record a proven move value (and its distance, from a tablebase) for the position after ``record``; False
        (ignored) if that is not this one."""
        if record != self.record:
            return False
        self.values[move] = value
        self.distances[move] = distance
        return True

    def set_line(self, record: str, line: list[int]) -> bool:
        """Record the principal line from the position after ``record``; False (ignored) if that is not this one.
        A line that does not reach the end of the game stopped where a position came round again."""
        if record != self.record:
            return False
        end = self.state.copy()
        for move in line:
            end.play(move)
        self.line, self.line_repeats = line, not end.is_over()
        return True

    def set_problem(self, record: str, problem: str) -> bool:
        """Record why the position after ``record`` has no values; False (ignored) if that is not this one."""
        if record != self.record:
            return False
        self.problem = problem
        return True

    @property
    def complete(self) -> bool:
        """Whether every legal move has a proven value."""
        return len(self.values) == len(self.state.legal_moves())

    @property
    def value(self) -> Proven | None:
        """The position's value (or score) for the mover once it is certain: a winning move found, or every move
        proven."""
        if self.state.is_over():
            return None
        return self._best([self.values.get(move) for move in self.state.legal_moves()])

    @property
    def distance(self) -> Distance:
        """The position's plies to the end under perfect play, once every move is known (None for a draw, with
        scores, and without distances)."""
        return None if self.state.is_over() else self._distance(self.state.legal_moves())

    def best_move(self) -> int | None:
        """The first move (in move order) that keeps the position's value (scores the most); with distances, once
        every move is known, the nearest win or the farthest loss (:func:`~gameproof.tui.oracle.perfect_move`); None
        until it is known."""
        value = self.value
        if value is None:
            return None
        if self.with_distances:
            return perfect_move(self.values, None if self.scores else self.distances, self.scores) if self.complete \
                else None
        return min(m for m, v in self.values.items() if v == value)

    def result(self) -> str | None:
        """How a finished game ended, in words; None while it goes on."""
        outcome = self.state.outcome()
        if outcome is None:
            return None
        return "draw" if outcome == 0 else f"{self.view.players[outcome < 0]} won"
