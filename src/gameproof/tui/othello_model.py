"""The model behind `gameproof tui othello`: a record stepped through ply by ply, without Textual."""

from __future__ import annotations

from gameproof.errors import BadInput
from gameproof.games.othello.notation import PASS, parse_square, square_name, tokenize_record
from gameproof.games.othello.position import Position


class RecordViewer:
    """A game record (passes explicit) and a cursor ply; the position shown is the one after ``ply`` moves.

    >>> viewer = RecordViewer.from_record("f5d6c3")
    >>> viewer.end(); viewer.ply, viewer.position.color
    (3, 'white')
    """

    def __init__(self) -> None:
        self.moves: list[int] = []
        self.position = Position.start()
        self.legal_counts: list[int] = [self._legal_count()]

    @classmethod
    def from_record(cls, record: str) -> RecordViewer:
        """A viewer at ply 0 of ``record`` (passes may be explicit or left out)."""
        viewer = cls()
        for index, move in enumerate(tokenize_record(record), start=1):
            try:
                viewer.enter(move)
            except BadInput as error:
                raise BadInput(f"move {index} ({square_name(move)}): {error}") from None
        viewer.go(0)
        return viewer

    @property
    def ply(self) -> int:
        return self.position.ply

    @property
    def last_move(self) -> int | None:
        return self.moves[self.ply - 1] if self.ply else None

    @property
    def record(self) -> str:
        """The whole record, passes written as ``pa``."""
        return "".join(square_name(m) for m in self.moves)

    def go(self, ply: int) -> None:
        """Show the position after ``ply`` moves (clamped to the record)."""
        ply = min(max(ply, 0), len(self.moves))
        while self.ply > ply:
            self.position.undo()
        while self.ply < ply:
            self.position.play(self.moves[self.ply])

    def step(self, plies: int) -> None:
        self.go(self.ply + plies)

    def end(self) -> None:
        self.go(len(self.moves))

    def most_moves_ply(self) -> int:
        """The first ply whose position has the most legal moves."""
        return self.legal_counts.index(max(self.legal_counts))

    def enter(self, move: int) -> None:
        """Play ``move`` here, dropping the rest of the record; a pass is inserted when the mover has none."""
        if move != PASS and self.position.legal_moves() == [PASS]:
            self._append(PASS)
            try:
                self._append(move)
            except BadInput:
                self._drop_last()
                raise
        else:
            self._append(move)

    def enter_named(self, name: str) -> None:
        self.enter(parse_square(name))

    def _append(self, move: int) -> None:
        ply = self.ply
        self.position.play(move)
        del self.moves[ply:]
        del self.legal_counts[ply + 1:]
        self.moves.append(move)
        self.legal_counts.append(self._legal_count())

    def _drop_last(self) -> None:
        self.position.undo()
        self.moves.pop()
        self.legal_counts.pop()

    def _legal_count(self) -> int:
        return bin(self.position.legal_move_mask()).count("1")
