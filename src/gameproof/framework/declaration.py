"""What a game declares about itself, beside its rules: name, parameters, board, symmetries, moves, notation.

A game is one module of plain Python over ints (see ``docs/new_game.md``). Its rule functions see the
position as a few 64-bit words: layers of board cells (pieces of one kind), each layer one word, or
:attr:`Board.words` words on a board of more than 64 cells. A move is one cell (a placement game) or
several (``parts``: a piece's cell and its target, say), each passed to the rules as a one-bit mask.
The rule functions are:

- ``start()``: the words of the first position (the first player to move);
- ``legal(*words)``: the first parts of the legal moves of the side to move, as a mask of cells (for a
  placement game, the cells it may play); 0 when the game is over or the side to move must pass;
- ``legal_<part>(*words, *earlier)``: for each part after the first, the cells it may take after the earlier
  parts;
- ``play(*words, *parts)``: the words after the side to move plays the move made of `parts`;
- ``result(*words)``: called when ``legal`` is 0: :data:`WIN`, :data:`LOSS` or :data:`DRAW` for the side
  to move, or :data:`ONGOING` when it must pass;
- optionally ``pass_turn(*words)``: the words after the side to move passes (games with passes);
- optionally ``estimate(*words)``: two counts (0 .. :data:`MAX_ESTIMATE`), the first favouring the side
  to move and the second the other side, that make proof-number search try promising moves first;
- optionally ``plies_left(*words)``: at least the plies the game can still last (the searches switch to
  plain minimax near the end);
- optionally ``to_move(*words)``: the side to move (0 or 1) in the position, for a game where a move may leave
  the same side to move (an extra turn: Dots and Boxes, Kalah). The words must say it (they are absolute: such a
  game declares ``perspective=False``), and it is 0 at the start. Without it, the sides alternate;
- optionally ``score(*words)``: called when the game is over, its final score for the side to move (positive
  favours it: Othello's disc difference, Dots and Boxes' boxes), an int of at most :data:`MAX_SCORE` either way
  whose sign agrees with ``result`` (WIN: above 0, LOSS: below, DRAW: 0). ``gameproof solve --score`` finds
  the exact score under perfect play;
- optionally ``decided(*words)``: :data:`WIN` or :data:`LOSS` (or :data:`DRAW`) for the side to move where the
  position's value is certain without search (Breakthrough: a piece that nothing can stop from reaching the far row
  first), else :data:`ONGOING`. It must be the true value under the rules, never a guess: df-pn and alpha-beta end
  the game there with it. Certificates, distances, scores and tablebases turn it off and play on to real ends;
- optionally ``bound(*words)``: the best the side to move can reach under the rules: :data:`WIN` (which bounds
  nothing), :data:`DRAW` (at most a draw) or :data:`LOSS` (lost) (Connect Four: the cells the other side is sure to
  take). Like ``decided`` it must be true, never a guess: alpha-beta takes a child bounded for the other side as
  at least that much for the side that moves there. df-pn, certificates, distances, scores and tablebases ignore it.

With ``turn_argument``, each of them but ``to_move`` takes the side to move (0 for the first player) as a first
argument.
A :class:`GameSpec` names these rules and adds what cannot be derived from them; everything else
(numba kernels, df-pn, perft, a :class:`~gameproof.framework.state.RulesState` for the CLI and TUI, SVG)
is derived from the two.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

from gameproof.errors import BadInput

#: Values of ``result(*words)`` for the side to move.
ONGOING, WIN, LOSS, DRAW = 0, 1, 2, 3
#: The move number of a pass in a game whose moves are one cell of a board of at most 64 cells (moves 0..63
#: are bits of ``legal``); in general the pass follows the last move code (:attr:`Game.pass_move`).
PASS = 64
#: The most state words a game may have.
MAX_WORDS = 16
#: The most parts a move may have (a queen's move and its arrow: three).
MAX_PARTS = 3
#: The most legal moves a position of a game whose moves have several parts may have, unless it declares
#: ``max_moves``.
MANY_MOVES = 4096
#: The longest game a declaration may declare (the searches keep a frame per ply).
MAX_PLIES = 1000
#: The most moves a reach question may ask about (`reach`, `othello reach`): each is a copy of the rules.
MAX_REACH_PLIES = 200
#: The largest final score, either way, that ``score`` may give (scores are searched by thresholds of 32 bits).
MAX_SCORE = 2**30
#: The largest count ``estimate`` may give (proof numbers grow with it and must stay far from infinity).
MAX_ESTIMATE = 2**16 - 1
#: df-pn's weight of the estimate's counts unless a game declares another, and the largest a game or
#: ``--heuristic`` may give (a fresh node's numbers, 1 + weight × count, must stay below infinity).
ESTIMATE_WEIGHT, MOST_ESTIMATE_WEIGHT = 16, 1_000_000
#: df-pn's ε of the 1+ε threshold trick unless a game declares another (0: the trick off, which every game measured
#: searches faster without but misère m,n,k; docs/benchmarks.md), and the largest a game or ``--epsilon`` may give
#: (the search keeps it in thousandths, in 64-bit integers).
EPSILON, MOST_EPSILON = 0.0, 1000.0


class RulesError(BadInput):
    """A game's declaration or rule functions break the protocol (one line, naming what broke it)."""

    @classmethod
    def raised(cls, game: str, function: str, error: BaseException, where: str = "") -> RulesError:
        """The error for `function` of `game` having raised `error` (`where`: the position, if any), on one line."""
        message = " ".join(str(error).split())[:200]
        return cls(f"{game}: {function} raised {type(error).__name__}" + (f": {message}" if message else "")
                   + (f", {where}" if where else ""))


class Symmetry(enum.Enum):
    """A symmetry of a rectangular board, as a map of (row, col); the last four need a square board."""

    IDENTITY = "identity"
    MIRROR_COLS = "mirror-cols"  # left-right
    MIRROR_ROWS = "mirror-rows"  # top-bottom
    ROTATE_180 = "rotate-180"
    TRANSPOSE = "transpose"
    ROTATE_90 = "rotate-90"
    ROTATE_270 = "rotate-270"
    ANTI_TRANSPOSE = "anti-transpose"

    @property
    def needs_square(self) -> bool:
        return self in (Symmetry.TRANSPOSE, Symmetry.ROTATE_90, Symmetry.ROTATE_270, Symmetry.ANTI_TRANSPOSE)

    def apply(self, row: int, col: int, rows: int, cols: int) -> tuple[int, int]:
        """Where the cell (row, col) of a rows × cols board goes."""
        last_row, last_col = rows - 1, cols - 1
        return {
            Symmetry.IDENTITY: (row, col),
            Symmetry.MIRROR_COLS: (row, last_col - col),
            Symmetry.MIRROR_ROWS: (last_row - row, col),
            Symmetry.ROTATE_180: (last_row - row, last_col - col),
            Symmetry.TRANSPOSE: (col, row),
            Symmetry.ROTATE_90: (col, last_row - row),
            Symmetry.ROTATE_270: (last_col - col, row),
            Symmetry.ANTI_TRANSPOSE: (last_col - col, last_row - row),
        }[self]


#: Every symmetry of a square board (a rectangular board keeps the first four).
ALL_SYMMETRIES = tuple(Symmetry)


class Engine(enum.Enum):
    """How exact values are searched: proof numbers, or alpha-beta (better where long defences end in draws)."""

    DFPN = "dfpn"
    ALPHABETA = "alphabeta"


class Repetition(enum.Enum):
    """What a game that may repeat a position (and so need not end) makes of play that goes on for ever."""

    DRAW = "draw"
    """A game that never ends is a draw; so is one where a position comes round again, which gives every position
    the same value (a side that can force a win can force it without repeating a position, and a side that cannot
    lose keeps the draw by repeating)."""


class Notation(enum.Enum):
    """How moves are named: by cell (``c4``) or, for games that drop a piece into a column, by column (``c``)."""

    CELL = "cell"
    COLUMN = "column"


@dataclass(frozen=True)
class Board:
    """A rows × cols board whose cell (row, col) is bit ``row * row_stride + col * col_stride`` of a layer
    (``row_stride`` 0, the default, stands for ``cols``: rows one after another).

    A layer (the pieces of one kind) is one 64-bit word, or :attr:`words` of them where a cell's bit is 64
    or more: bit ``b`` is bit ``b % 64`` of the layer's word ``b // 64``. Row 0 is drawn at the bottom and
    named 1; column 0 is named ``a``.
    """

    rows: int
    cols: int
    row_stride: int = 0  # 0: cols (row-major, dense)
    col_stride: int = 1

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= 26 and 1 <= self.cols <= 26):
            raise BadInput(f"a board needs 1..26 rows and columns, not {self.rows}x{self.cols}")
        if self.row_stride < 0 or self.col_stride < 1 or len(set(self.cells)) != self.rows * self.cols:
            raise BadInput(f"a {self.rows}x{self.cols} board with strides {self.row_stride}, {self.col_stride} "
                           "puts two cells on one bit")
        if self.words * 64 > MAX_WORDS * 64:
            raise BadInput(f"a {self.rows}x{self.cols} board needs more than {MAX_WORDS} words per layer")

    @property
    def words(self) -> int:
        """The 64-bit words one layer of this board takes."""
        return max(self.cells) // 64 + 1

    def bit(self, row: int, col: int) -> int:
        return row * (self.row_stride or self.cols) + col * self.col_stride

    @property
    def cells(self) -> list[int]:
        """Bits of the cells, row by row from a1."""
        return [self.bit(r, c) for r in range(self.rows) for c in range(self.cols)]

    @property
    def mask(self) -> int:
        """The board's cells as one int (bit ``b`` for the cell of bit ``b``, past 63 on a large board)."""
        return sum(1 << bit for bit in self.cells)

    def word_masks(self) -> tuple[int, ...]:
        """The board's cells as the :attr:`words` words of a layer."""
        return split_words(self.mask, self.words)

    def place(self, bit: int) -> tuple[int, int]:
        """(row, col) of a cell's bit; BadInput for a bit that is no cell."""
        for r in range(self.rows):
            for c in range(self.cols):
                if self.bit(r, c) == bit:
                    return r, c
        raise BadInput(f"bit {bit} is not a cell of the {self.rows}x{self.cols} board")

    def cell_name(self, bit: int) -> str:
        row, col = self.place(bit)
        return f"{chr(ord('a') + col)}{row + 1}"

    def parse_cell(self, text: str) -> int:
        """Bit of an ``a1``-style cell name; BadInput when it is off the board."""
        text = text.strip().lower()
        if len(text) >= 2 and text[0].isalpha() and (number := bounded_number(text[1:], self.rows)):
            col, row = ord(text[0]) - ord("a"), number - 1
            if 0 <= col < self.cols:
                return self.bit(row, col)
        raise BadInput(f"{text!r:.60} is not a cell of a {self.rows}x{self.cols} board "
                       f"(a1..{chr(ord('a') + self.cols - 1)}{self.rows})")

    def permutation(self, symmetry: Symmetry) -> dict[int, int]:
        """Cell bit -> cell bit under `symmetry`."""
        return {self.bit(r, c): self.bit(*symmetry.apply(r, c, self.rows, self.cols))
                for r in range(self.rows) for c in range(self.cols)}


@dataclass(frozen=True)
class Parameter:
    """One integer parameter of a game, given in its name by position (``connect4:7,6``) or by name
    (``connect4:width=7``, or by one of its ``aliases``: ``connect4:cols=7``)."""

    name: str
    default: int
    minimum: int = 1
    maximum: int = 64
    help: str = ""
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        numbers = (self.minimum, self.default, self.maximum)
        if not (isinstance(self.name, str) and isinstance(self.help, str)
                and all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)
                and self.minimum <= self.default <= self.maximum):
            raise TypeError(f"parameter {self.name!r:.30}: needs a name and whole numbers minimum <= default <= maximum")
        if not isinstance(self.aliases, tuple) or not all(isinstance(name, str) and name.isidentifier()
                                                          for name in (self.name, *self.aliases)):
            raise TypeError(f"parameter {self.name!r:.30}: its name and aliases must be identifiers (a tuple of "
                            f"aliases), not {self.aliases!r:.60}")

    @property
    def names(self) -> tuple[str, ...]:
        """The names it is given by: its own, then its aliases."""
        return (self.name, *self.aliases)

    def described(self) -> str:
        """Its name with its aliases, for messages: ``width (or cols)``."""
        return self.name + "".join(f" (or {alias})" for alias in self.aliases)

    def value(self, game: str, text: str) -> int:
        """The value `text` gives it (in `game`'s name); BadInput unless a whole number minimum..maximum."""
        value = bounded_number(text, self.maximum)
        if value is None or value < self.minimum:
            shown = shown_number(text) if is_ascii_number(text) else repr(text[:SHOWN_DIGITS])
            raise BadInput(f"{game}: {self.name} must be {self.minimum}..{self.maximum}, not {shown}")
        return value


def split_words(value: int, count: int) -> tuple[int, ...]:
    """A set of cells held as one int, as `count` 64-bit words (the lowest bits first)."""
    return tuple(value >> (64 * index) & 0xFFFF_FFFF_FFFF_FFFF for index in range(count))


def joined_words(words: tuple[int, ...]) -> int:
    """The int of a set of cells held as words (the inverse of :func:`split_words`)."""
    return sum(word << (64 * index) for index, word in enumerate(words))


#: The characters the derived position text (:mod:`gameproof.framework.diagram`) keeps for itself: an empty
#: cell, the row separator and the brackets around a cell of several layers; a game's ``pieces`` use none of them.
DIAGRAM_CHARACTERS = "-./()"


@dataclass(frozen=True)
class PositionFormat:
    """A game's own text for a position, in place of the diagram derived from its board and ``pieces``.

    ``parse(game, text)`` gives ``(words, to_move)`` (BadInput, one line, for text that names no position) and
    ``format(game, words, to_move)`` the text; `game` is the :class:`~gameproof.framework.game.Game` (its
    parameters, board and rules) and the words are *absolute*, the first player's layer first, whatever the
    game's ``perspective`` (see ``Game.absolute``). ``format(game, *parse(game, text)) == text`` for the text
    ``format`` writes. ``summary`` says in a few words what the text is, for help and for messages. Every
    position parsed is checked against the rules as a diagram is (cells on the board, the rules' answers).
    """

    parse: Callable[..., tuple[tuple[int, ...], int]]
    format: Callable[..., str]
    summary: str

    def __post_init__(self) -> None:
        if not (callable(self.parse) and callable(self.format) and isinstance(self.summary, str)):
            raise TypeError("a PositionFormat needs functions parse(game, text) and format(game, words, to_move) "
                            "and a summary text")


#: The kind of each GameSpec field that is one value, and of each item of those that are tuples.
_FIELD_KINDS = {"name": str, "summary": str, "perspective": bool, "notation": Notation, "pieces": str,
                "lookahead": bool, "engine": Engine, "draws": bool, "turn_argument": bool,
                "repetition": (Repetition, type(None))}
_FIELD_TUPLES = {"parameters": Parameter, "player_names": str, "aliases": str, "parts": str, "joiners": str}


@dataclass(frozen=True)
class GameSpec:
    """A game's declaration: the rules module plus what cannot be derived from it.

    ``constants(**parameters)`` gives the module constants the rules see for one parameter set (it
    raises BadInput for a combination it cannot play); ``board(**parameters)`` the board.
    ``perspective``: the first two words are the side to move's pieces and the other side's, so every
    move swaps their roles; otherwise words are absolute and the side to move alternates. ``pieces``
    draws the pieces of each (absolute) word; ``move_order`` optionally ranks cells for search (first
    tried first; cells it leaves out after them, lowest first), given the parameters. With
    ``lookahead``, search treats a move after which the other side can win at once as lost (worth it
    where such wins are common and moves are cheap, as in Connect Four). ``engine`` is the search that
    ``gameproof solve`` uses unless told otherwise. ``estimate_weight``: df-pn starts a fresh node at
    1 + weight × the estimate's count (0: the estimate unused) unless ``--heuristic`` says otherwise; ``epsilon``:
    df-pn's ε of the 1+ε trick (0 turns it off) unless ``--epsilon`` says otherwise. ``draws``: False for a game
    that never ends in a draw (Hex, Clobber): df-pn then asks one question of a position instead of two ("can the
    side to move at least draw?" is then "can it win?"), and a draw that its rules give anyway stops the search as
    a fault instead of being miscounted.

    ``symmetries``: the board symmetries under which the rules are unchanged (a tuple, or a function of the
    parameters giving one); none is assumed (identity only) unless declared. ``max_plies(**parameters)``:
    the most plies (passes included) a game can last; without it, one move per cell (and, with passes, one
    pass after each move and one more). ``repetition``: a game that may repeat a position, and so need not end,
    declares what never ending means instead of ``max_plies`` (:class:`Repetition`); it is solved by retrograde
    analysis (``gameproof tablebase build``), and refused by every search that assumes each game ends.

    ``parts``: the names of a move's parts, each a cell (one part, a placement game, by default); the rules
    give the cells of each part after the first with a function ``legal_<part>``, and ``joiners`` the text
    between two parts in a move's name (``-`` unless declared: ``b2-c3``). ``max_moves(**parameters)``: the
    most legal moves a position can have (by default, the board's bits for one part, :data:`MANY_MOVES`
    for more). With ``turn_argument``, every rule function takes the side to move (0 or 1) first.

    ``position_format``: the game's own text for positions (:class:`PositionFormat`, used by ``--position``);
    without it, a diagram derived from the board, ``pieces`` and ``player_names``
    (:mod:`gameproof.framework.diagram`), which needs ``pieces`` of distinct characters other than
    :data:`DIAGRAM_CHARACTERS` and whitespace, and two player names that differ.

    ``remarks(**parameters)``: sentences on what is degenerate about a parameter set (a game that is well defined
    but trivial: ``mnk:3,3,4``, where nobody can make 4 in a row), each saying what follows; none for the others.
    The commands that load a game show each as a ``note:`` line on stderr, and ``gameproof games NAME`` lists them.
    """

    name: str
    rules: ModuleType
    summary: str
    parameters: tuple[Parameter, ...] = ()
    constants: Callable[..., dict[str, int]] = field(default=lambda **_: {})
    board: Callable[..., Board] = field(default=lambda **_: Board(8, 8))
    symmetries: tuple[Symmetry, ...] | Callable[..., tuple[Symmetry, ...]] = ()
    max_plies: Callable[..., int] | None = None
    parts: tuple[str, ...] = ("cell",)
    joiners: tuple[str, ...] = ()
    turn_argument: bool = False
    max_moves: Callable[..., int] | None = None
    perspective: bool = True
    notation: Notation = Notation.CELL
    pieces: str = "XO"
    player_names: tuple[str, str] = ("X", "O")
    move_order: Callable[..., list[int]] | None = None
    lookahead: bool = False
    engine: Engine = Engine.DFPN
    estimate_weight: int = ESTIMATE_WEIGHT
    epsilon: float = EPSILON
    aliases: tuple[str, ...] = ()
    position_format: PositionFormat | None = None
    repetition: Repetition | None = None
    remarks: Callable[..., list[str]] | None = None
    draws: bool = True

    def __post_init__(self) -> None:
        """TypeError, naming the field, for a declaration whose fields are not of the kinds declared above."""
        if not isinstance(self.rules, ModuleType):
            raise TypeError(f"game {self.name!r}: rules must be a module (sys.modules[__name__]), not {self.rules!r:.60}")
        for required in ("start", "legal", "play", "result"):
            if not callable(getattr(self.rules, required, None)):
                raise TypeError(f"game {self.name!r}: its rules module {self.rules.__name__} has no function {required}()")
        for name, kind in _FIELD_KINDS.items():
            if not isinstance(getattr(self, name), kind):
                kinds = " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__
                raise TypeError(f"game {self.name!r}: {name} must be a {kinds}, not {getattr(self, name)!r:.60}")
        for name, kind in _FIELD_TUPLES.items():
            value = getattr(self, name)
            if not isinstance(value, (tuple, list)) or not all(isinstance(item, kind) for item in value):
                raise TypeError(f"game {self.name!r}: {name} must be a tuple of {kind.__name__}, not {value!r:.60}")
        if not callable(self.symmetries) and (not isinstance(self.symmetries, (tuple, list))
                                              or not all(isinstance(s, Symmetry) for s in self.symmetries)):
            raise TypeError(f"game {self.name!r}: symmetries must be a tuple of Symmetry or a function of the "
                            f"parameters giving one, not {self.symmetries!r:.60}")
        if not 1 <= len(self.parts) <= MAX_PARTS or not all(part.isidentifier() for part in self.parts):
            raise TypeError(f"game {self.name!r}: parts must name 1..{MAX_PARTS} parts of a move, not {self.parts!r:.60}")
        if self.joiners and len(self.joiners) != len(self.parts) - 1:
            raise TypeError(f"game {self.name!r}: joiners must give the text between each two parts, not {self.joiners!r:.60}")
        for later in self.parts[1:]:
            if not callable(getattr(self.rules, f"legal_{later}", None)):
                raise TypeError(f"game {self.name!r}: its rules module {self.rules.__name__} has no function "
                                f"legal_{later}() for the part {later!r} of its moves")
        for name in ("constants", "board", "max_plies", "move_order", "max_moves", "remarks"):
            value = getattr(self, name)
            if not callable(value) and (value is not None or name in ("constants", "board")):
                raise TypeError(f"game {self.name!r}: {name} must be a function of the parameters, not {value!r:.60}")
        if (not isinstance(self.estimate_weight, int) or isinstance(self.estimate_weight, bool)
                or not 0 <= self.estimate_weight <= MOST_ESTIMATE_WEIGHT):
            raise TypeError(f"game {self.name!r}: estimate_weight must be a whole number 0..{MOST_ESTIMATE_WEIGHT}, "
                            f"not {self.estimate_weight!r:.60}")
        if (not isinstance(self.epsilon, (int, float)) or isinstance(self.epsilon, bool)
                or not 0 <= self.epsilon <= MOST_EPSILON):  # also refuses nan
            raise TypeError(f"game {self.name!r}: epsilon must be a number 0..{MOST_EPSILON:g}, not {self.epsilon!r:.60}")
        if callable(getattr(self.rules, "to_move", None)) and (self.perspective or self.lookahead):
            raise TypeError(f"game {self.name!r}: a game whose rules say who moves (to_move) must declare "
                            "perspective=False (its words are absolute) and no lookahead")
        if self.repetition is not None and (self.max_plies is not None or callable(getattr(self.rules, "plies_left", None))):
            raise TypeError(f"game {self.name!r}: a game that may repeat a position (repetition) has no longest game: "
                            "declare max_plies (or plies_left) or repetition, not both")
        if self.repetition is not None and not self.draws:
            raise TypeError(f"game {self.name!r}: a game that may repeat a position can be drawn by never ending: "
                            "it cannot declare draws=False")
        if len(self.player_names) != 2:
            raise TypeError(f"game {self.name!r}: player_names must name the two players, not {self.player_names!r:.60}")
        names = [name.casefold() for parameter in self.parameters for name in parameter.names]
        if len(names) != len(set(names)):
            raise TypeError(f"game {self.name!r}: its parameters' names and aliases must differ (in any case), not "
                            f"{names!r:.60}")
        self._check_position_text()

    def _check_position_text(self) -> None:
        """TypeError unless positions have a text: the game's own format, or a diagram its pieces and names can write."""
        if self.position_format is not None:
            if not isinstance(self.position_format, PositionFormat):
                raise TypeError(f"game {self.name!r}: position_format must be a PositionFormat, not "
                                f"{self.position_format!r:.60}")
            return
        pieces = self.pieces
        if len(set(pieces)) != len(pieces) or any(c.isspace() or c in DIAGRAM_CHARACTERS or not c.isprintable()
                                                  for c in pieces):
            raise TypeError(f"game {self.name!r}: pieces must be distinct printable characters other than "
                            f"{DIAGRAM_CHARACTERS!r} and spaces (they write positions), not {pieces!r:.60}")
        first, second = (name.strip().casefold() for name in self.player_names)
        if not first or first == second:
            raise TypeError(f"game {self.name!r}: player_names must be two different names, not "
                            f"{self.player_names!r:.60}")

    @property
    def usage(self) -> str:
        """The name with its parameters, e.g. ``connect4:W,H``."""
        if not self.parameters:
            return self.name
        return f"{self.name}:{','.join(p.name.upper() for p in self.parameters)}"

    @property
    def example(self) -> str:
        """The name with default parameters, e.g. ``connect4:7,6``."""
        return self.example_from(len(self.parameters))

    @property
    def named_example(self) -> str:
        """The name with default parameters given by name, e.g. ``connect4:width=7,height=6``."""
        return self.example_from(0)

    def example_from(self, positional: int) -> str:
        """The name with default parameters, the first `positional` of them by position and the others by name
        (``mnk:3,3,k=3`` for 2)."""
        if not self.parameters:
            return self.name
        values = [str(p.default) if index < positional else f"{p.name}={p.default}"
                  for index, p in enumerate(self.parameters)]
        return f"{self.name}:{','.join(values)}"

    def parse_parameters(self, text: str) -> dict[str, int]:
        """Parameters from the part of a name after ``:`` (docs/games.md, "Parameters"): none, for the defaults; all
        of them by position, in the declared order (``7,6``); or some or all by name (or alias), in any order, after
        any given by position (``7,height=6``), those left out keeping their defaults."""
        items = [item.strip() for item in text.split(",")] if text.strip() else []
        first_named = next((index for index, item in enumerate(items) if "=" in item), len(items))
        positional, named = items[:first_named], items[first_named:]
        if (len(positional) > len(self.parameters) or not all(is_ascii_number(value) for value in positional)
                or positional and not named and len(positional) != len(self.parameters)):
            raise BadInput(self._takes(text))
        chosen = {p.name: p.value(self.name, value) for p, value in zip(self.parameters, positional)}
        given = {p.name: f"{value} by position" for p, value in zip(self.parameters, positional)}
        for item in named:
            key, equals, value = (part.strip() for part in item.partition("="))
            if not equals:
                raise BadInput(f"{self.name}: {item!r:.30} comes after a parameter given by name; give those by "
                               f"position first, in their order, as in {self.example_from(len(self.parameters) - 1)}")
            parameter = self._parameter_named(key)
            if parameter.name in given:
                raise BadInput(f"{self.name}: {parameter.name} is given twice ({given[parameter.name]} and {item})")
            given[parameter.name] = item
            chosen[parameter.name] = parameter.value(self.name, value)
        return {p.name: chosen.get(p.name, p.default) for p in self.parameters}

    def _takes(self, text: str) -> str:
        """What a name's parameters may be, for a message about `text`, the parameters given."""
        count = len(self.parameters)
        named = f", or by name ({self.named_example}: any order, any left out at its default)" if count else ""
        return (f"{self.name} takes {count} whole-number parameter{'s' * (count != 1)}: {self.usage} "
                f"(e.g. {self.example}){named}, or none for the defaults; got {text!r:.60}")

    def _parameter_named(self, key: str) -> Parameter:
        """The parameter `key` names (its name or an alias, in any case); BadInput naming the game's parameters and
        the closest name, if one is close."""
        import difflib

        spellings = {name.casefold(): (name, p) for p in self.parameters for name in p.names}
        if key.casefold() in spellings:
            return spellings[key.casefold()][1]
        close = difflib.get_close_matches(key.casefold(), list(spellings), n=1, cutoff=0.6)
        hint = f" (did you mean {spellings[close[0]][0]}?)" if close else ""
        names = ", ".join(p.described() for p in self.parameters) or "none"
        raise BadInput(f"{self.name} has no parameter {key!r:.30}{hint}; its parameters: {names}")


def is_ascii_number(text: str) -> bool:
    """Whether `text` is a whole number written in the digits 0-9 (``str.isdigit`` also takes ``²`` or ``٣``)."""
    return text.isascii() and text.isdigit()


def bounded_number(text: str, most: int) -> int | None:
    """The whole number `text` writes in the digits 0-9 when it is at most `most`, else None. Digits past those of
    `most` are never converted (Python refuses to read a number of more than 4,300 digits)."""
    if not is_ascii_number(text) or len(text.lstrip("0")) > len(str(most)):
        return None
    value = int(text)
    return value if value <= most else None


#: The most digits of a number that a message writes out.
SHOWN_DIGITS = 24


def shown_number(number: int | str) -> str:
    """A whole number (an int, or the digits a user wrote) for a message: as written up to :data:`SHOWN_DIGITS`
    digits, else by its size (Python refuses to write an int of more than 4,300 digits as text)."""
    if isinstance(number, str):
        return number if len(number) <= SHOWN_DIGITS else f"a number of {len(number):,} digits"
    if number.bit_length() <= 3 * SHOWN_DIGITS:  # 2 ** (3 * n) has fewer than n digits
        return str(number)
    return f"a {'negative ' * (number < 0)}number of {number.bit_length():,} bits"
