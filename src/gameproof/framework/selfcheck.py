"""The rules self-check: a game's rule functions, run on plain Python ints before anything trusts them.

The numba kernels and the searches assume what the protocol promises (``docs/new_game.md``): words are
sets of board cells that fit in 64 bits, ``legal`` is a 64-bit mask, ``play`` moves the game on,
``result`` gives one of the four codes, no game outlasts the declared maximum length, and each declared
symmetry maps the game onto itself. A rule that breaks a promise would give wrong values or corrupt
memory there, so :func:`self_check` plays random games from ``start()`` (a fixed seed: the same games each
time) and checks each promise at every position it reaches, and at that position's images under the
declared symmetries. The first broken promise is a :class:`RulesError`: one line naming the rule
function, the position (its words, and the moves from the start) and the move.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from gameproof.framework.declaration import (DRAW, LOSS, MAX_ESTIMATE, MAX_SCORE, MAX_WORDS, ONGOING, WIN, RulesError,
                                             Symmetry, shown_number, split_words)
from gameproof.framework.moves import bits_of, complete_moves

if TYPE_CHECKING:
    from gameproof.framework.game import Game

#: Random games played when a game is loaded from a user's file (``--check`` plays more).
ON_LOAD = 20
SEED = 0x5E1F_C4EC
#: How many plies a random game of a game that may repeat a position is played before it is left unfinished.
REPEATING_PLAYOUT = 400
WORD_LIMIT = 2**64
#: How long one call of a rule function may take before the check calls it stuck (a loop that never ends).
CALL_SECONDS = 5.0
RESULT_NAMES = {ONGOING: "ONGOING", WIN: "WIN", LOSS: "LOSS", DRAW: "DRAW"}


class _Overran(BaseException):
    """Raised into a rule function that ran past :data:`CALL_SECONDS` (a BaseException, so that a rule's own
    ``except Exception`` does not swallow it)."""


def _overran(signum: int, frame: object) -> None:
    raise _Overran


@contextmanager
def _call_limits() -> Iterator[bool]:
    """Within the block, :func:`_limited` calls raise :class:`_Overran` when they outlast :data:`CALL_SECONDS`
    (by SIGALRM, whose handler is set once here: in the main thread only; yields whether it was set)."""
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous = signal.signal(signal.SIGALRM, _overran)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _limited(function: Callable[..., Any], args: tuple[int, ...], limited: bool) -> Any:
    """``function(*args)``, raising :class:`_Overran` after :data:`CALL_SECONDS` where `limited`."""
    if not limited:
        return function(*args)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        return function(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object) -> str:
    """`value` for an error line: its repr, cut short (an int of more than 4,300 digits, which Python will not write,
    by its size)."""
    try:
        text = repr(value)
    except ValueError:  # Python will not write an int of more than 4,300 digits, alone or inside a tuple
        text = shown_number(value) if is_int(value) else f"a {type(value).__name__} holding a number too long to write"
    except Exception as error:  # a user's object whose repr() raises
        text = f"a {type(value).__name__} whose repr() raises {type(error).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def words_problem(value: object, count: int | None = None) -> str | None:
    """What is wrong with `value` as a position (a tuple of `count` words, or of 1..MAX_WORDS), or None."""
    if not isinstance(value, tuple):
        return f"returned {shown(value)}, not a tuple of words"
    if not 1 <= len(value) <= MAX_WORDS or (count is not None and len(value) != count):
        return f"returned {len(value)} words, not {count if count is not None else f'1..{MAX_WORDS}'}"
    for index, word in enumerate(value):
        if not is_int(word):
            return f"returned word {index} = {shown(word)}, not an int"
        if not 0 <= word < WORD_LIMIT:
            return f"returned word {index} = {shown(word)}, outside 0 .. 2**64 - 1 (mask shifts and ~ to the board)"
    return None


@dataclass(frozen=True)
class Report:
    """What a self-check checked: random games, the positions and moves they went through, the symmetry
    images checked at each, and the longest game against the declared bound."""

    game: str
    playouts: int
    positions: int
    moves: int
    images: int
    longest: int
    max_plies: int | None  # None: a game that may repeat a position (its random games stop at REPEATING_PLAYOUT)
    symmetries: tuple[str, ...]
    seconds: float


class _Image:
    """One symmetry as a map of positions (each layer's cells to their images) and of moves."""

    def __init__(self, game: Game, symmetry: Symmetry) -> None:
        self.game, self.symmetry = game, symmetry
        self.cell_image = game.board.permutation(symmetry)

    def __call__(self, words: tuple[int, ...]) -> tuple[int, ...]:
        game = self.game
        return tuple(word for layer in game.layer_sets(words) for word in split_words(self.cells(layer), game.layer_words))

    def cells(self, cells: int) -> int:
        return sum(1 << self.cell_image[cell] for cell in bits_of(cells))


@dataclass(frozen=True)
class _At:
    """Where a check is, for its error line (formatted only then): a position's words, the moves from the start
    (`path`, then `then`), the symmetry whose image of that position it is, and the move being played there."""

    words: tuple[int, ...]
    path: tuple[int, ...]
    then: tuple[int, ...] = ()
    image: Symmetry | None = None
    move: int | None = None

    def describe(self, game: Game) -> str:
        moves = [*self.path, *self.then]
        position = f"the position after {' '.join(game.move_name(m) for m in moves)}" if moves else "the start"
        words = f"({', '.join(hex(w) for w in self.words)})"
        text = f"at {words}, the {self.image.value} image of {position}" if self.image else f"at {position} {words}"
        return text + (f", move {game.move_name(self.move)}" if self.move is not None else "")


class _Checker:
    """The checks, for one game; `moves` is the path from the start to the position being checked, and
    `to_move` the side to move there (positions of a symmetry's image have the same side to move)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = game.rules
        self.mask = game.board.mask
        self.images = [_Image(game, symmetry) for symmetry in game.symmetries[1:]]
        self.moves: list[int] = []
        self.to_move = 0
        self.positions = self.played = self.imaged = 0
        self.limited = False  # whether rule calls are timed (set by self_check)

    def at(self, words: tuple[int, ...], then: tuple[int, ...] = (), image: Symmetry | None = None) -> _At:
        return _At(words, tuple(self.moves), then, image)

    def fail(self, function: str, problem: str, at: _At) -> RulesError:
        return RulesError(f"{self.game.name}: rules self-check: {function} {problem}, {at.describe(self.game)}")

    def call(self, function: str, at: _At, words: tuple[int, ...], cells: tuple[int, ...] = ()) -> Any:
        """The rule `function` at the position `words` (the side to move: the checked position's) after the
        parts `cells`."""
        return self.invoke(function, self.game.arguments.of(words, self.to_move, cells), at)

    def invoke(self, function: str, args: tuple[int, ...], at: _At) -> Any:
        try:
            return _limited(getattr(self.rules, function), args, self.limited)
        except _Overran:
            raise self.fail(f"{function}()", f"did not return within {CALL_SECONDS:g} s (a loop that never ends?)",
                            at) from None
        except Exception as error:  # a rule that raises: named, with its position
            raise RulesError.raised(self.game.name, f"rules self-check: {function}()", error,
                                    at.describe(self.game)) from None

    # --- each rule function, called and its answer checked ---------------------------------------------

    def words(self, function: str, value: object, at: _At) -> tuple[int, ...]:
        problem = words_problem(value, self.game.words)
        if problem is None:
            problem = self.cells_problem(value)  # type: ignore[arg-type]
        if problem is not None:
            raise self.fail(f"{function}()", problem, at)
        return value  # type: ignore[return-value]

    def cells_problem(self, words: tuple[int, ...]) -> str | None:
        """Whether `words` keep to the board's cells (keys see only those) and, where keys are exact codes of
        the cells, hold each cell in one layer at most."""
        board = self.game.board
        layers = self.game.layer_sets(words)
        for index, layer in enumerate(layers):
            if layer & ~self.mask:
                bit = (layer & ~self.mask).bit_length() - 1
                return (f"returned layer {index} with bit {bit} set, which is no cell of the {board.rows}x{board.cols} "
                        "board (positions are told apart by their cells only)")
        if self.game.exact_keys:
            seen = 0
            for index, layer in enumerate(layers):
                if seen & layer:
                    return (f"returned layer {index} sharing cell {board.cell_name((seen & layer).bit_length() - 1)} "
                            "with an earlier one (keys code each cell by the one layer that holds it)")
                seen |= layer
        return None

    def start(self) -> tuple[int, ...]:
        at = _At((), ())
        first = self.words("start", self.invoke("start", (), at), at)
        if self.game.has_turns and self.side(first, at) != 0:
            raise self.fail("to_move()", "gave 1 at the start: the first player moves first", at)
        return first

    def side(self, words: tuple[int, ...], at: _At) -> int:
        """The side to move the rules' ``to_move`` gives at `words`, checked to be 0 or 1."""
        side = self.invoke("to_move", words, at)
        if not is_int(side) or side not in (0, 1):
            raise self.fail("to_move()", f"returned {shown(side)}, not 0 or 1", at)
        return side

    def side_after(self, child: tuple[int, ...], move: int) -> int:
        """The side to move at `child`, reached by `move` from the checked position."""
        if not self.game.has_turns:
            return self.to_move ^ 1
        return self.side(child, self.at(child, then=(move,)))

    def score(self, words: tuple[int, ...], code: int, at: _At) -> int:
        """The final score of a finished game (its result `code`), checked to be an int within MAX_SCORE whose sign
        agrees with the result."""
        score = self.call("score", at, words)
        if not is_int(score) or not -MAX_SCORE <= score <= MAX_SCORE:
            raise self.fail("score()", f"returned {shown(score)}, not a whole number within ±{MAX_SCORE}", at)
        if (score > 0) != (code == WIN) or (score < 0) != (code == LOSS):
            raise self.fail("score()", f"returned {score} where result() says {RESULT_NAMES[code]} (a win scores "
                            "above 0, a loss below, a draw 0)", at)
        return score

    def cells(self, function: str, words: tuple[int, ...], at: _At, earlier: tuple[int, ...] = ()) -> int:
        """The mask of cells `function` (``legal`` or a ``legal_<part>``) gives, checked to be one."""
        value = self.call(function, at, words, earlier)
        mask = self.game.arguments.mask(value)
        if mask is None:
            raise self.fail(f"{function}()", f"returned {shown(value)}, not a mask of cells "
                            f"({self.game.arguments.shape()})", at)
        if mask & ~self.mask:
            raise self.fail(f"{function}()", f"returned bit {(mask & ~self.mask).bit_length() - 1}, which is no cell "
                            "of the board", at)
        return mask

    def legal(self, words: tuple[int, ...], at: _At) -> int:
        return self.cells("legal", words, at)

    def moves_from(self, words: tuple[int, ...], legal: int, at: _At) -> list[int]:
        """The codes of the complete moves whose first parts are `legal`."""
        parts = self.game.spec.parts

        def later(index: int, earlier: tuple[int, ...]) -> int:
            function = f"legal_{parts[index]}"
            cells = self.cells(function, words, at, earlier)
            if not cells:
                shown_parts = " ".join(map(self.game.board.cell_name, earlier))
                raise self.fail(f"{function}()", f"gave no cell after {shown_parts}, which legal() offered (every "
                                "first part must start a legal move)", at)
            return cells

        moves = [self.game.codes.encode(cells) for cells in complete_moves(legal, later, self.game.codes)]
        if len(moves) > self.game.max_moves:
            raise self.fail("legal()", f"gave {len(moves)} moves, more than the {self.game.max_moves} the game's "
                            "max_moves declares", at)
        return moves

    def play(self, words: tuple[int, ...], move: int, at: _At) -> tuple[int, ...]:
        at = replace(at, move=move)
        child = self.words("play", self.call("play", at, words, self.game.codes.decode(move)), at)
        if child == words:
            raise self.fail("play()", "returned the position unchanged", at)
        self.played += 1
        return child

    def result(self, words: tuple[int, ...], at: _At) -> int:
        code = self.call("result", at, words)
        if not is_int(code) or code not in RESULT_NAMES:
            raise self.fail("result()", f"returned {shown(code)}, not one of ONGOING, WIN, LOSS, DRAW", at)
        if code == ONGOING and not self.game.has_passes:
            raise self.fail("result()", "returned ONGOING (the side to move passes), but the game declares no "
                            "pass_turn()", at)
        self.no_draw("result()", code, at)
        return code

    def no_draw(self, function: str, code: int, at: _At) -> None:
        if code == DRAW and not self.game.spec.draws:
            raise self.fail(function, "returned DRAW, but the game declares that it has no draws (draws=False)", at)

    def pass_turn(self, words: tuple[int, ...], at: _At) -> tuple[int, ...]:
        at = replace(at, move=self.game.pass_move)
        return self.words("pass_turn", self.call("pass_turn", at, words), at)

    def estimate(self, words: tuple[int, ...], at: _At) -> None:
        counts = self.call("estimate", at, words)
        if not (isinstance(counts, tuple) and len(counts) == 2
                and all(is_int(count) and 0 <= count <= MAX_ESTIMATE for count in counts)):
            raise self.fail("estimate()", f"returned {shown(counts)}, not two counts 0 .. {MAX_ESTIMATE}", at)

    def decided(self, words: tuple[int, ...], at: _At, function: str) -> None:
        """That ``decided`` (or ``won``) gives a value code (whether the value is true takes a search: the game's tests
        check it)."""
        code = self.call(function, at, words)
        if not is_int(code) or code not in RESULT_NAMES:
            raise self.fail(f"{function}()", f"returned {shown(code)}, not one of ONGOING, WIN, LOSS, DRAW", at)
        self.no_draw(f"{function}()", code, at)

    def bound(self, words: tuple[int, ...], at: _At) -> None:
        """That ``bound`` gives WIN, DRAW or LOSS (whether it is true takes a search: the game's tests check it)."""
        code = self.call("bound", at, words)
        if not is_int(code) or code not in (WIN, DRAW, LOSS):
            raise self.fail("bound()", f"returned {shown(code)}, not one of WIN, DRAW, LOSS", at)

    def plies_left(self, words: tuple[int, ...], at: _At) -> int:
        bound = self.call("plies_left", at, words)
        if not is_int(bound) or not 0 <= bound <= self.game.max_plies:
            raise self.fail("plies_left()", f"returned {shown(bound)}, not a number of plies 0 .. "
                            f"{self.game.max_plies}", at)
        return bound

    # --- one position: its moves, and its images -------------------------------------------------------

    def successors(self, words: tuple[int, ...], legal: int, at: _At) -> dict[int, tuple[int, ...]]:
        """The position after each legal move (the pass when there is none and the game goes on); {} when over."""
        if legal:
            return {move: self.play(words, move, at) for move in self.moves_from(words, legal, at)}
        if self.result(words, at) == ONGOING:
            return {self.game.pass_move: self.pass_turn(words, at)}
        return {}

    def check_image(self, image: _Image, words: tuple[int, ...], legal: int,
                    successors: dict[int, tuple[int, ...]]) -> None:
        """That the rules at `image`'s image of the position give the images of what they give at it."""
        mapped = image(words)
        at = self.at(mapped, image=image.symmetry)
        law = f"breaks the declared symmetry {image.symmetry.value}:"
        if self.game.has_turns and self.side(mapped, at) != self.to_move:
            raise self.fail("to_move()", f"{law} {1 - self.to_move} moves here but {self.to_move} at the original", at)
        mapped_legal = self.legal(mapped, at)
        if not legal:
            code, mapped_code = self.result(words, self.at(words)), self.result(mapped, at)
            if code != mapped_code:
                raise self.fail("result()", f"{law} {RESULT_NAMES[mapped_code]} here but "
                                f"{RESULT_NAMES[code]} at the original", at)
            if code != ONGOING and self.game.has_score:
                score, mapped_score = self.score(words, code, self.at(words)), self.score(mapped, code, at)
                if score != mapped_score:
                    raise self.fail("score()", f"{law} {mapped_score} here but {score} at the original", at)
        reached = self.successors(mapped, mapped_legal, at)
        if len(reached) != len(successors):
            raise self.fail("legal()", f"{law} {len(reached)} moves here but {len(successors)} at the original", at)
        expected = {move: image(child) for move, child in successors.items()}
        function = "play()" if legal else "pass_turn()"
        for move, child in expected.items():
            if child not in reached.values():
                raise self.fail(function, f"{law} no move here reaches the image of the position after "
                                f"{self.game.move_name(move)} at the original", at)
        for move, child in reached.items():
            if child not in expected.values():
                raise self.fail(function, f"{law} move {self.game.move_name(move)} here reaches a position "
                                "that is no image of one reached at the original", at)
        self.imaged += 1

    def goes_on(self, child: tuple[int, ...], move: int) -> bool:
        at = self.at(child, then=(move,))
        mover, self.to_move = self.to_move, self.side_after(child, move)
        try:
            return bool(self.legal(child, at)) or self.result(child, at) == ONGOING
        finally:
            self.to_move = mover

    def prolonging(self, successors: dict[int, tuple[int, ...]]) -> list[int]:
        """The moves after which the game goes on (all of them when none does)."""
        going_on = [move for move, child in sorted(successors.items()) if self.goes_on(child, move)]
        return going_on or sorted(successors)

    # --- a random game -----------------------------------------------------------------------------------

    def playout(self, rng: random.Random, prolong: bool) -> int:
        """Play one random game from the start, checking each position; its length in plies. With `prolong`,
        moves that end the game are played only when all do (long games test the declared bound)."""
        words = self.start()
        self.moves, self.to_move = [], 0
        bounds: list[tuple[int, _At]] = []  # plies_left at each position, checked once the game's length is known
        while True:
            at = self.at(words)
            legal = self.legal(words, at)
            if self.legal(words, at) != legal:
                raise self.fail("legal()", "gave different answers for the same position, asked twice: the rules must "
                                "be deterministic", at)
            successors = self.successors(words, legal, at)
            self.positions += 1
            if legal and callable(getattr(self.rules, "estimate", None)):
                self.estimate(words, at)
            if legal and self.game.has_decided:
                self.decided(words, at, "decided")
            if legal and self.game.has_won:
                self.decided(words, at, "won")
            if legal and self.game.has_bound:
                self.bound(words, at)
            if self.game.has_plies_left:
                bounds.append((self.plies_left(words, at) + len(self.moves), at))
            for image in self.images:
                self.check_image(image, words, legal, successors)
            if not successors:
                if self.game.has_score:
                    self.score(words, self.result(words, at), at)
                for bound, where in bounds:
                    if bound < len(self.moves):
                        raise self.fail("plies_left()", f"returned {bound - len(where.path)}, but this game went on "
                                        f"{len(self.moves) - len(where.path)} more plies", where)
                return len(self.moves)
            if self.game.may_repeat:
                if len(self.moves) == REPEATING_PLAYOUT:
                    return len(self.moves)
            elif len(self.moves) == self.game.max_plies:
                limit = ("the declared max_plies" if self.game.spec.max_plies is not None
                         else "max_plies (not declared: one move per cell)")
                raise RulesError(f"{self.game.name}: rules self-check: a game went past {self.game.max_plies} plies, "
                                 f"{limit} ({at.describe(self.game)}): declare the longest game as max_plies in the "
                                 "GameSpec")
            move = rng.choice(self.prolonging(successors) if prolong else sorted(successors))
            self.to_move = self.side_after(successors[move], move)
            self.moves.append(move)
            words = successors[move]


def self_check(game: Game, playouts: int = ON_LOAD, seed: int = SEED,
               progress: Callable[[int], None] | None = None) -> Report:
    """Check `game`'s rules on `playouts` random games from the start (a :class:`RulesError` at the first
    broken promise); what was checked. `progress` is told how many games are done after each."""
    started = time.perf_counter()
    checker = _Checker(game)
    rng = random.Random(seed)
    longest = 0
    with _call_limits() as limited:
        checker.limited = limited
        for done in range(1, playouts + 1):
            longest = max(longest, checker.playout(rng, prolong=done % 2 == 0))
            if progress is not None:
                progress(done)
    return Report(game=game.name, playouts=playouts, positions=checker.positions, moves=checker.played,
                  images=checker.imaged, longest=longest, max_plies=None if game.may_repeat else game.max_plies,
                  symmetries=tuple(symmetry.value for symmetry in game.symmetries),
                  seconds=time.perf_counter() - started)
