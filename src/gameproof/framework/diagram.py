"""Positions as text (``--position``): a diagram derived from a game's declaration, or the game's own format.

The derived diagram writes the board's rows top to bottom, as the board is drawn (row 1, which holds cell a1,
at the bottom), one character a cell: the ``pieces`` character of the layer that holds the cell, ``-`` (or
``.``) where none does. Rows are separated by ``/`` (or spaces, or line breaks); then come a space and the
side to move, by its name in ``player_names`` (or by the name's first letter, where the two differ). Tic-tac-toe
after b2 a1, X to move, is ``---/-X-/O-- X``. A cell that several layers hold (only in a game whose keys are
hashes, the one kind whose rules may do that) is written with its pieces in brackets: ``(XO)``.

A game whose declaration gives a :class:`~gameproof.framework.declaration.PositionFormat` writes positions its
own way (Othello: the 64 squares a1..h8 and X or O to move; Connect Four: the columns played, ``4453``).

Either way a position read from text is checked (:func:`position_problem`) before anything uses it: the
game's number of 64-bit words, the side to move 0 or 1, every piece on a cell of the board, one layer a cell
where keys are exact codes of the cells, the side that the rules' ``to_move`` gives (games with extra turns),
and rules that answer there: ``legal()`` a mask of cells and, where it offers no move, ``result()`` one of
the rules' results. A diagram may be one that no game reaches: the rules decide only what they are asked.
"""

from __future__ import annotations

from gameproof.errors import BadInput
from gameproof.framework.declaration import DRAW, LOSS, ONGOING, WIN, RulesError, shown_number, split_words
from gameproof.framework.game import Game
from gameproof.framework.selfcheck import is_int, shown

#: How the diagram writes an empty cell, and the other characters it reads as one.
EMPTY, ALSO_EMPTY = "-", "."
ROW_SEPARATOR = "/"
#: The most characters of a position's text that a message quotes.
_QUOTED = 60


def format_position(game: Game, words: tuple[int, ...], to_move: int) -> str:
    """The text of the position `words` (the game's words: the side to move's layer first in a perspective game)
    with `to_move` (0 or 1) to play; in a game whose rules say who moves (``to_move``), the side they say."""
    if game.has_turns:
        to_move = int(game.rules.to_move(*words))
    absolute = game.absolute(tuple(words), to_move)
    declared = game.spec.position_format
    if declared is not None:
        return declared.format(game, absolute, to_move)
    return _diagram(game, absolute, to_move)


def parse_position(game: Game, text: str) -> tuple[tuple[int, ...], int]:
    """The position that `text` writes, as the game's words and the side to move, once checked against the
    rules (:func:`position_problem`); BadInput, one line naming what is wrong, for text that writes none."""
    declared = game.spec.position_format
    try:
        if declared is None:
            absolute, to_move = _read_diagram(game, text)
        else:
            absolute, to_move = _custom(game, text)
        problem = _shape_problem(game, absolute, to_move)
        words = game.absolute(absolute, to_move) if problem is None else ()  # the swap undoes itself
        problem = problem or position_problem(game, words, to_move)
    except BadInput as error:
        problem = str(error)
    if problem is not None:
        raise BadInput(f"{game.name}: position {_quoted(text)}: {problem}")
    return words, to_move


def describe_format(game: Game) -> str:
    """What a position's text is in `game`, in a few words, with the start as an example."""
    declared = game.spec.position_format
    if declared is not None:
        summary = declared.summary
    else:
        names = game.spec.player_names
        summary = (f"the rows top to bottom separated by {ROW_SEPARATOR}, a cell each "
                   f"({', '.join(game.spec.pieces[: game.layers])}; {EMPTY} empty), a space and the side to move "
                   f"({names[0]} or {names[1]})")
    start = tuple(game.rules.start())
    return f"{summary}; the start is {format_position(game, start, 0)!r}"


def position_problem(game: Game, words: tuple[int, ...], to_move: int) -> str | None:
    """What keeps `words` (the game's words) with `to_move` to play from being a position of `game` that the
    rules answer on, or None (see the module's doc)."""
    problem = _shape_problem(game, words, to_move)
    if problem is not None:
        return problem
    board, pieces = game.board, game.spec.pieces
    layers = game.layer_sets(game.absolute(words, to_move))
    seen = 0
    for index, layer in enumerate(layers):
        if layer & ~board.mask:
            bit = (layer & ~board.mask).bit_length() - 1
            return f"layer {index} ({pieces[index]}) holds bit {bit}, which is no cell of the board"
        if seen & layer and game.exact_keys:
            cell = board.cell_name((seen & layer).bit_length() - 1)
            return f"cell {cell} holds two pieces, but a cell of {game.name} holds one at most"
        seen |= layer
    return _turn_problem(game, words, to_move) or _rules_problem(game, words, to_move)


def _shape_problem(game: Game, words: object, to_move: object) -> str | None:
    """Whether `words` are the game's number of 64-bit words and `to_move` is 0 or 1."""
    if not isinstance(words, tuple) or len(words) != game.words:
        count = len(words) if isinstance(words, (tuple, list)) else shown(words)
        return f"a position of {game.name} is a tuple of {game.words} words, not {count}"
    for index, word in enumerate(words):
        if not is_int(word) or not 0 <= word < 1 << 64:
            return f"word {index} is {shown_number(word) if is_int(word) else shown(word)}, not a 64-bit word"
    if not is_int(to_move) or to_move not in (0, 1):
        return f"the side to move is {shown(to_move)}, not 0 or 1"
    return None


def _turn_problem(game: Game, words: tuple[int, ...], to_move: int) -> str | None:
    """In a game whose rules say who moves: whether they say `to_move`."""
    if not game.has_turns:
        return None
    names = game.spec.player_names
    side = _asked(game, "to_move", *words)
    if not is_int(side) or side not in (0, 1):
        return f"the rules' to_move() gives {shown(side)} there, not 0 or 1"
    if side != to_move:
        return f"{names[to_move]} is said to move, but the position has {names[side]} to move (the rules' to_move())"
    return None


def _rules_problem(game: Game, words: tuple[int, ...], to_move: int) -> str | None:
    """Whether the rules answer on the position: legal() a mask of cells, and result() one of the results where
    no move is legal (ONGOING only in a game with passes)."""
    arguments = game.arguments.of(words, to_move)
    value = _asked(game, "legal", *arguments)
    mask = game.arguments.mask(value)
    if mask is None:
        return f"the rules' legal() gives {shown(value)} there, not {game.arguments.shape()}"
    if mask:
        return None
    status = _asked(game, "result", *arguments)
    if status in (WIN, LOSS, DRAW) or (status == ONGOING and game.has_passes):
        return None
    return f"no move is legal there, and the rules' result() gives {shown(status)}, not a result of the game"


def _asked(game: Game, function: str, *arguments: int) -> object:
    """The rule `function` on `arguments`; RulesError naming it when it raises."""
    try:
        return getattr(game.rules, function)(*arguments)
    except Exception as error:
        message = " ".join(str(error).split())[:200]
        raise RulesError(f"the rules' {function}() raised {type(error).__name__} there"
                         + (f": {message}" if message else "")) from None


def _custom(game: Game, text: str) -> tuple[object, object]:
    """What the game's own format reads from `text`: (absolute words, side to move), to be checked."""
    try:
        read = game.spec.position_format.parse(game, text)
    except BadInput:
        raise
    except Exception as error:
        message = " ".join(str(error).split())[:200]
        raise RulesError(f"position_format.parse() raised {type(error).__name__}"
                         + (f": {message}" if message else "")) from None
    if not isinstance(read, tuple) or len(read) != 2:
        raise RulesError(f"position_format.parse() gave {shown(read)}, not (words, side to move)")
    words, to_move = read
    return tuple(words) if isinstance(words, list) else words, to_move


def _diagram(game: Game, absolute: tuple[int, ...], to_move: int) -> str:
    """The derived diagram of a position given by its absolute words."""
    board, pieces = game.board, game.spec.pieces
    layers = game.layer_sets(absolute)
    rows = []
    for row in reversed(range(board.rows)):
        cells = []
        for col in range(board.cols):
            bit = board.bit(row, col)
            held = "".join(pieces[index] for index, layer in enumerate(layers) if layer >> bit & 1)
            cells.append(EMPTY if not held else held if len(held) == 1 else f"({held})")
        rows.append("".join(cells))
    return ROW_SEPARATOR.join(rows) + " " + game.spec.player_names[to_move].strip()


def _read_diagram(game: Game, text: str) -> tuple[tuple[int, ...], int]:
    """The absolute words and the side to move of a derived diagram (BadInput naming what is wrong)."""
    board = game.board
    body, to_move = _side(game, text)
    rows = [row for token in body.split() for row in token.split(ROW_SEPARATOR)]
    if len(rows) != board.rows:
        raise BadInput(f"{len(rows)} rows, but the board has {board.rows} (the rows top to bottom, separated by "
                       f"{ROW_SEPARATOR} or on lines of their own, then the side to move)")
    layers = [0] * game.layers
    for index, row in enumerate(rows):
        number = board.rows - index  # rows are named from the bottom
        cells = _cells(game, row, number)
        if len(cells) != board.cols:
            raise BadInput(f"row {number} has {len(cells)} cells, but the board has {board.cols} columns")
        for col, held in enumerate(cells):
            bit = board.bit(number - 1, col)
            if len(held) > 1 and game.exact_keys:
                raise BadInput(f"cell {board.cell_name(bit)} holds {len(held)} pieces, but a cell of {game.name} "
                               "holds one at most")
            for layer in held:
                layers[layer] |= 1 << bit
    return tuple(word for layer in layers for word in split_words(layer, game.layer_words)), to_move


def _cells(game: Game, row: str, number: int) -> list[tuple[int, ...]]:
    """The layers holding each cell of a row's text (`number`: the row's name, for messages)."""
    pieces = game.spec.pieces[: game.layers]
    cells: list[tuple[int, ...]] = []
    at = 0
    while at < len(row):
        char = row[at]
        if char == "(":
            close = row.find(")", at)
            group = row[at + 1 : close]
            if close < 0 or not group or len(set(group)) != len(group):
                raise BadInput(f"row {number}: a cell of several pieces is written with each piece once in brackets, "
                               f"as ({pieces}), not {row[at : close + 1 if close >= 0 else None]!r:.30}")
            cells.append(tuple(_layer(piece, pieces, number) for piece in group))
            at = close + 1
            continue
        cells.append(() if char in (EMPTY, ALSO_EMPTY) else (_layer(char, pieces, number),))
        at += 1
    return cells


def _layer(char: str, pieces: str, number: int) -> int:
    """The layer of a piece's character (BadInput for an unknown one)."""
    if char not in pieces:
        raise BadInput(f"row {number}: unknown piece {char!r} (pieces: {', '.join(pieces)}; empty: {EMPTY} or "
                       f"{ALSO_EMPTY})")
    return pieces.index(char)


def _side(game: Game, text: str) -> tuple[str, int]:
    """The text of the board and the side to move that ends `text` (by its name, or the name's first letter)."""
    names = [name.strip() for name in game.spec.player_names]
    stripped = text.strip()
    folded = stripped.casefold()
    for side, name in enumerate(names):
        key = name.casefold()
        if folded.endswith(key) and len(folded) > len(key) and folded[-len(key) - 1].isspace():
            return stripped[: -len(key)], side
    choices = f"{names[0]} or {names[1]}"
    letters = [name[0].casefold() for name in names]
    if letters[0] != letters[1] and max(map(len, names)) > 1:
        choices += f", or {names[0][0]} or {names[1][0]}"
    parts = stripped.rsplit(None, 1)
    if len(parts) < 2:
        missing = "board" if stripped.casefold() in (*(name.casefold() for name in names), *letters) else "side to move"
        raise BadInput(f"no {missing}: write the rows, a space and the side to move ({choices})")
    body, word = parts
    if letters[0] != letters[1] and word.casefold() in letters:
        return body, letters.index(word.casefold())
    raise BadInput(f"unknown side to move {word!r:.30} ({choices})")


def _quoted(text: str) -> str:
    """`text` for a message: quoted, its line breaks escaped, cut to about :data:`_QUOTED` characters."""
    return repr(text) if len(text) <= _QUOTED else repr(text[:_QUOTED]) + "…"

