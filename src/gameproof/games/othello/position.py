"""A friendly Othello position: prints as a grid, `repr` round-trips, follows the game protocol."""

from __future__ import annotations

from gameproof.errors import BadInput
from gameproof.games.othello import rules
from gameproof.games.othello.notation import (
    COLOR_NAMES,
    PASS,
    format_board,
    parse_board,
    parse_color,
    parse_square,
    square_name,
    tokenize_record,
)


class Position:
    """An Othello position: discs of both sides and the side to move (0 black, 1 white).

    >>> p = Position.from_record("f5d6")
    >>> p.color, len(p.legal_moves())
    ('black', 5)
    >>> eval(repr(p)) == p
    True
    """

    def __init__(self, board: str, to_move: str = "black") -> None:
        black, white = parse_board(board)
        self._set(black, white, parse_color(to_move))
        self._history: list[tuple[int, int, int]] = []

    def _set(self, black: int, white: int, to_move: int) -> None:
        self.black, self.white, self._to_move = black, white, to_move

    @classmethod
    def start(cls) -> Position:
        """The initial position, black to move."""
        return cls.from_discs(rules.START_BLACK, rules.START_WHITE, "black")

    @classmethod
    def from_discs(cls, black: int, white: int, to_move: str = "black") -> Position:
        if black & white:
            raise BadInput("a square holds both a black and a white disc")
        return cls(format_board(black, white), to_move)

    @classmethod
    def from_bitboards(cls, player: int, opponent: int, to_move: str = "black") -> Position:
        """From the (player, opponent) pair of the side to move, whose colour is `to_move`."""
        if parse_color(to_move) == 0:
            return cls.from_discs(player, opponent, "black")
        return cls.from_discs(opponent, player, "white")

    @classmethod
    def from_record(cls, record: str) -> Position:
        """The position after a move record such as `f5d6c3`; passes may be explicit (`pa`) or implicit."""
        position = cls.start()
        for index, move in enumerate(tokenize_record(record), start=1):
            try:
                position.play_forced(move)
            except BadInput as error:
                raise BadInput(f"move {index} ({square_name(move)}): {error}") from None
        return position

    # --- views ---------------------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def color(self) -> str:
        return COLOR_NAMES[self._to_move]

    @property
    def player(self) -> int:
        """Bitboard of the side to move."""
        return self.white if self._to_move else self.black

    @property
    def opponent(self) -> int:
        return self.black if self._to_move else self.white

    @property
    def key(self) -> int:
        return self.black | self.white << 64 | self._to_move << 128

    @property
    def board(self) -> str:
        return format_board(self.black, self.white)

    @property
    def ply(self) -> int:
        """Moves played from this object's starting point (passes included)."""
        return len(self._history)

    def legal_move_mask(self) -> int:
        """Bitboard of the squares the side to move may play (0 when it must pass or the game is over)."""
        return rules.legal_moves(self.player, self.opponent)

    def legal_moves(self) -> list[int]:
        """Squares to play; `[PASS]` when the side to move must pass; `[]` when the game is over."""
        mask = self.legal_move_mask()
        if mask:
            return [s for s in range(64) if mask >> s & 1]
        return [] if self.is_over() else [PASS]

    def is_over(self) -> bool:
        return bool(rules.is_game_over(self.player, self.opponent))

    def outcome(self) -> int | None:
        """+1 black won, -1 white won, 0 draw; None while the game goes on."""
        if not self.is_over():
            return None
        black, white = self.disc_counts()
        return (black > white) - (black < white)

    def disc_counts(self) -> tuple[int, int]:
        return bin(self.black).count("1"), bin(self.white).count("1")

    # --- moves ---------------------------------------------------------------------------------
    def play(self, move: int) -> None:
        """Play a legal move (a square index, or PASS when no square is legal)."""
        if move not in self.legal_moves():
            legal = " ".join(square_name(m) for m in self.legal_moves()) or "none, the game is over"
            raise BadInput(f"{square_name(move) if 0 <= move <= PASS else move} is not legal here (legal: {legal})")
        self._history.append((self.black, self.white, self._to_move))
        if move != PASS:
            mover, other = rules.after_move(self.player, self.opponent, 1 << move)[::-1]
            self.black, self.white = (mover, other) if self._to_move == 0 else (other, mover)
        self._to_move ^= 1

    def play_forced(self, move: int) -> None:
        """Play `move`, first passing automatically when the side to move has no legal square."""
        if move != PASS and self.legal_moves() == [PASS]:
            self.play(PASS)
        self.play(move)

    def undo(self) -> None:
        if not self._history:
            raise BadInput("no move to undo")
        self._set(*self._history.pop())

    def move_name(self, move: int) -> str:
        return square_name(move)

    def parse_move(self, text: str) -> int:
        return parse_square(text)

    # --- printing ------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Position({self.board!r}, {self.color!r})"

    def _repr_svg_(self) -> str:
        """The position drawn with its legal moves (Jupyter shows it in place of the text)."""
        from gameproof.games.othello.svg import position_svg

        return position_svg(self)

    def __str__(self) -> str:
        moves = self.legal_move_mask()
        lines = ["  a b c d e f g h"]
        for row in range(8):
            cells = []
            for col in range(8):
                square = row * 8 + col
                cells.append(
                    "X" if self.black >> square & 1
                    else "O" if self.white >> square & 1
                    else "*" if moves >> square & 1
                    else "-"
                )
            lines.append(f"{row + 1} " + " ".join(cells))
        black, white = self.disc_counts()
        status = "game over" if self.is_over() else f"{self.color} to move, {bin(moves).count('1')} legal moves"
        lines.append(f"X {black}  O {white}  {status}")
        return "\n".join(lines)
