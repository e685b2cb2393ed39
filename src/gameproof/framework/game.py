"""A declared game with its parameters chosen: its rules bound three ways and everything derived from them."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from gameproof.errors import BadInput
from gameproof.framework import bits
from gameproof.framework.declaration import (MANY_MOVES, MAX_PLIES, Board, GameSpec, RulesError, Symmetry,
                                             joined_words, shown_number)
from gameproof.framework.moves import MoveCodes, MoveNames, RuleArguments, joiners_of, mapped_move
from gameproof.framework.selfcheck import is_int, shown, words_problem
from gameproof.jit import bind_rules, compile_rules

#: The rule functions that generic kernels call with ``f(*words)`` (never inlined), besides a ``legal_<part>``
#: for each part of a move after the first.
ENTRY_POINTS = ("start", "legal", "play", "result", "pass_turn", "estimate", "plies_left", "to_move", "score",
                "decided", "bound", "won")
#: Derived kernels by fingerprint and number of symmetries, so that equal games built apart (two
#: ``MnkGame(3, 3, 3)``) compile once.
_DERIVED: dict[tuple[str, int], tuple[Any, Any]] = {}


class Game:
    """One parameter set of a declared game, e.g. ``connect4:6,5``.

    ``rules`` runs on Python ints (and on symbolic words), ``compiled`` is numba over uint64, and
    ``kernels`` / ``tables`` are what df-pn searches. Built lazily: nothing compiles until used.
    """

    def __init__(self, spec: GameSpec, parameters: dict[str, int]) -> None:
        self.spec = spec
        self.parameters = dict(parameters)
        self.constants = self._declared("constants", spec.constants)
        if not isinstance(self.constants, dict) or not all(isinstance(n, str) and is_int(v)
                                                           for n, v in self.constants.items()):
            raise RulesError(f"{self.name}: constants() must return a dict of names to ints, "
                             f"not {shown(self.constants)}")
        for name, value in self.constants.items():
            if not -2**63 <= value < 2**64:
                raise RulesError(f"{self.name}: constants() gives {name} = {shown_number(value)}, which does not fit "
                                 "in the 64 bits the compiled rules see")
        self.board: Board = self._declared("board", spec.board)
        if not isinstance(self.board, Board):
            raise RulesError(f"{self.name}: board() must return a Board, not {shown(self.board)}")
        self.layer_words = self.board.words
        self.words = len(self._start())
        if self.words % self.layer_words:
            raise RulesError(f"{self.name}: start() gives {self.words} words, but a layer of the {self.board.rows}x"
                             f"{self.board.cols} board takes {self.layer_words}: a position is layers of cells")
        self.layers = self.words // self.layer_words
        if spec.perspective and self.layers < 2:
            raise RulesError(f"{self.name}: a perspective game needs at least two layers (the two sides' pieces)")
        if len(spec.pieces) < self.layers:
            raise RulesError(f"{self.name}: pieces must give a character for each of the {self.layers} layers, "
                             f"not {spec.pieces!r}")
        if spec.lookahead and len(spec.parts) > 1:
            raise RulesError(f"{self.name}: lookahead is for games whose moves are one cell")
        self.codes = MoveCodes(len(spec.parts), 64 * self.layer_words)
        self.arguments = RuleArguments(self.layer_words, spec.turn_argument)
        self.names = MoveNames(self.codes, self.board, joiners_of(len(spec.parts), spec.joiners))

    def _declared(self, function: str, declared: Callable[..., Any]) -> Any:
        """What the declaration's `function` gives for this parameter set (RulesError, one line, if it raises)."""
        try:
            return declared(**self.parameters)
        except BadInput:
            raise
        except Exception as error:
            raise RulesError.raised(self.name, f"{function}()", error) from None

    def _start(self) -> tuple[int, ...]:
        """The first position's words, checked to be a tuple of 1..MAX_WORDS 64-bit words."""
        try:
            first = self.rules.start()
        except Exception as error:
            raise RulesError.raised(self.name, "start()", error) from None
        problem = words_problem(first)
        if problem is not None:
            raise RulesError(f"{self.name}: start() {problem}")
        return first

    def __repr__(self) -> str:
        return f"Game({self.name!r})"

    @property
    def name(self) -> str:
        if not self.spec.parameters:
            return self.spec.name
        return f"{self.spec.name}:{','.join(str(self.parameters[p.name]) for p in self.spec.parameters)}"

    @cached_property
    def remarks(self) -> tuple[str, ...]:
        """What the declaration's ``remarks`` say is degenerate about this parameter set, each on one line (none for
        most); RulesError, one line, for remarks that are not a list of texts."""
        if self.spec.remarks is None:
            return ()
        said = self._declared("remarks", self.spec.remarks)
        if not isinstance(said, (list, tuple)) or not all(isinstance(remark, str) for remark in said):
            raise RulesError(f"{self.name}: remarks() must return a list of texts, not {shown(said)}")
        return tuple(" ".join(remark.split()) for remark in said)

    @property
    def has_passes(self) -> bool:
        return callable(getattr(self.spec.rules, "pass_turn", None))

    @property
    def cells(self) -> int:
        return self.board.rows * self.board.cols

    @property
    def pass_move(self) -> int:
        """The code of the pass: the code after the last move's (64 for a placement game of one word)."""
        return self.codes.pass_move

    @property
    def is_placement(self) -> bool:
        """Whether a move is one cell."""
        return self.codes.parts == 1

    @property
    def has_plies_left(self) -> bool:
        return callable(getattr(self.spec.rules, "plies_left", None))

    @property
    def has_turns(self) -> bool:
        """Whether the rules say who moves (``to_move``): a move may leave the same side to move."""
        return callable(getattr(self.spec.rules, "to_move", None))

    @property
    def has_score(self) -> bool:
        """Whether the game declares a final ``score``."""
        return callable(getattr(self.spec.rules, "score", None))

    @property
    def has_decided(self) -> bool:
        """Whether the rules declare ``decided``: a position's value, where they know it without search."""
        return callable(getattr(self.spec.rules, "decided", None))

    @property
    def has_won(self) -> bool:
        """Whether the rules declare ``won``: the value where a side has won whatever is played, a claim that only a
        built-in game's certificate checker verifies (:mod:`gameproof.certify.won`)."""
        return callable(getattr(self.spec.rules, "won", None))

    @property
    def has_bound(self) -> bool:
        """Whether the rules declare ``bound``: the best the side to move can reach, where they know it."""
        return callable(getattr(self.spec.rules, "bound", None))

    def require_score(self) -> None:
        """BadInput, one line, unless the game declares a final ``score``."""
        if not self.has_score:
            raise BadInput(f"{self.name} declares no score: its rules need a function score(*words) giving the final "
                           "score for the side to move (see docs/new_game.md)")

    @cached_property
    def max_moves(self) -> int:
        """The most legal moves a position has: the declared ``max_moves``, else :data:`MANY_MOVES` (a position
        with more is a fault); a placement game's are at least a layer's bits, so that the kernels' move arrays
        hold every cell without a check per move."""
        if self.spec.max_moves is None:
            return self.codes.base if self.is_placement else MANY_MOVES
        declared = self._declared("max_moves", self.spec.max_moves)
        if not is_int(declared) or not 1 <= declared <= 1 << 20:
            raise RulesError(f"{self.name}: max_moves() must give a number of moves 1..{1 << 20}, not {shown(declared)}")
        return max(declared, self.codes.base) if self.is_placement else declared

    def move_name(self, move: int) -> str:
        """A move's name by its cells (``c4``, ``b2-c3``), ``pass``, or ``@N`` for a code that names no cells."""
        return self.names.name(move)

    def parse_move(self, text: str) -> int:
        """The code of a move's name (BadInput when it names no move of this board)."""
        return self.names.parse(text)

    def map_move(self, move: int, symmetry: Symmetry) -> int:
        """The code of `move` under `symmetry`."""
        return mapped_move(self.codes, self.board.permutation(symmetry), move)

    @property
    def may_repeat(self) -> bool:
        """Whether a game may repeat a position and so need not end (it declares ``repetition``)."""
        return self.spec.repetition is not None

    def refuse_if_repeating(self) -> None:
        """BadInput, one line, for a game that may repeat a position: a search that assumes every game ends would
        be wrong about it."""
        if self.may_repeat:
            raise BadInput(f"{self.name} may repeat a position (it declares repetition, not max_plies): a search that "
                           "assumes every game ends cannot solve it; its tablebase can (gameproof tablebase build "
                           f"{self.name} FILE)")

    @cached_property
    def max_plies(self) -> int:
        """The most plies (passes included) a game lasts: the declared ``max_plies``, else one move per cell (with
        passes, a pass after each move and one more). The rules self-check plays games against it. A game that may
        repeat a position has none: every search that sizes itself by it is refused (BadInput)."""
        self.refuse_if_repeating()
        if self.spec.max_plies is None:
            return 2 * self.cells + 1 if self.has_passes else self.cells
        declared = self._declared("max_plies", self.spec.max_plies)
        if not is_int(declared) or not 1 <= declared <= MAX_PLIES:
            raise RulesError(f"{self.name}: max_plies() must give a number of plies 1..{MAX_PLIES}, not {shown(declared)}")
        return declared

    # --- the rules, bound three ways -------------------------------------------------------------------

    @cached_property
    def rules(self) -> SimpleNamespace:
        """The rule functions on Python ints (or symbolic words), with this parameter set's constants."""
        return bind_rules(self.spec.rules, self.constants)

    @cached_property
    def symbolic(self) -> SimpleNamespace:
        """The rule functions rewritten with ``@natural``, so that their ``if``s also run on symbolic words."""
        from gameproof.logic.natural import NaturalError, natural

        rules = bind_rules(self.spec.rules, self.constants)
        namespace = rules.start.__globals__  # the rules share one namespace: naturalise each in place
        for name, value in vars(rules).items():
            if callable(value):
                try:
                    namespace[name] = natural(value)
                except NaturalError:  # not a rule (a helper of the declaration, say): it stays as written
                    pass
        return SimpleNamespace(**{name: namespace[name] for name in vars(rules)})

    @cached_property
    def compiled(self) -> SimpleNamespace:
        """The rule functions compiled with numba over uint64."""
        later = tuple(f"legal_{part}" for part in self.spec.parts[1:])
        return compile_rules(self.spec.rules, self.constants, entry_points=ENTRY_POINTS + later, game=self.name)

    @cached_property
    def fingerprint(self) -> str:
        """What the compiled kernels depend on: the rules' source, the constants and the declaration."""
        digest = hashlib.sha256(Path(inspect.getfile(self.spec.rules)).read_bytes())
        digest.update(Path(inspect.getfile(bits)).read_bytes())
        digest.update(repr(sorted(self.constants.items())).encode())
        digest.update(repr((self.words, self.spec.perspective, self.has_passes, self.spec.parts, self.layer_words,
                            self.spec.turn_argument, self.has_plies_left, self.has_turns, self.has_score,
                            self.has_decided, self.has_bound, self.spec.draws, self.has_won)).encode())
        return digest.hexdigest()[:16]

    @property
    def _derived(self) -> tuple[Any, Any]:
        return self._derive(False)

    def _derive(self, probe: bool) -> tuple[Any, Any]:
        from gameproof.framework.derived import derive

        shape = (self.fingerprint, len(self.symmetries), probe)  # one rules file may declare games of other symmetries
        if shape not in _DERIVED:
            _DERIVED[shape] = derive(self, probe)
        return _DERIVED[shape]

    @property
    def kernels(self):
        """df-pn's kernel protocol (:class:`gameproof.search.dfpn.Kernels`) for this game."""
        return self._derived[0]

    @property
    def probing_kernels(self):
        """The kernels whose ``play`` ends a game at a position of a tablebase given with the tables (its sorted keys
        and values after :attr:`tables`: :func:`gameproof.framework.derived.probed`)."""
        return self._derive(True)[0]

    @property
    def perft_kernel(self):
        return self._derived[1]

    # --- symmetry and keys -----------------------------------------------------------------------------

    @cached_property
    def symmetries(self) -> list[Symmetry]:
        """The declared symmetries that this board has (identity first)."""
        declared = self.spec.symmetries
        if callable(declared):
            declared = self._declared("symmetries", declared)
            if not isinstance(declared, (tuple, list)) or not all(isinstance(s, Symmetry) for s in declared):
                raise RulesError(f"{self.name}: symmetries() must give a tuple of Symmetry, not {shown(declared)}")
        square = self.board.rows == self.board.cols
        chosen = [s for s in dict.fromkeys(declared) if s is not Symmetry.IDENTITY and (square or not s.needs_square)]
        return [Symmetry.IDENTITY, *chosen]

    @property
    def exact_keys(self) -> bool:
        """Whether keys are exact codes of the position (else 64-bit hashes)."""
        return (self.layers + 1) ** self.cells * 2 <= 2**64

    @property
    def max_positions(self) -> int | None:
        """How many boards exact keys tell apart, (layers + 1) ** cells (the side to move at most doubles it),
        or None when keys are hashes: a search's table need not be much larger."""
        return (self.layers + 1) ** self.cells if self.exact_keys else None

    @cached_property
    def key_weights(self) -> np.ndarray:
        """uint64[symmetry, word, bit]: a position's key under a symmetry is the sum of its pieces' weights.

        Exact codes where they fit (base layers + 1: a cell is empty or holds one layer's piece), else random
        64-bit weights whose sums wrap. Words are absolute here (the first player's pieces first); word
        ``layer * layer_words + w`` holds the layer's cells of bits ``64 * w ..``."""
        cells = self.board.cells
        base = self.layers + 1
        if self.exact_keys:
            table = [[(layer + 1) * base**index for layer in range(self.layers)] for index in range(len(cells))]
        else:
            rng = np.random.default_rng(0x67616D65)
            table = rng.integers(0, 2**64 - 1, size=(len(cells), self.layers), dtype=np.uint64, endpoint=True).tolist()
        index_of = {bit: index for index, bit in enumerate(cells)}
        weights = np.zeros((len(self.symmetries), self.words, 64), dtype=np.uint64)
        for s, symmetry in enumerate(self.symmetries):
            for bit, image in self.board.permutation(symmetry).items():
                for layer in range(self.layers):
                    weights[s, layer * self.layer_words + bit // 64, bit % 64] = np.uint64(table[index_of[image]][layer])
        return weights

    @cached_property
    def to_move_term(self) -> int:
        """Added to the key when the second player is to move."""
        if self.exact_keys:
            return (self.layers + 1) ** self.cells
        return 0x9E37_79B9_7F4A_7C15

    @cached_property
    def move_order(self) -> np.ndarray:
        """The declared order of the cells to try first parts on (empty: lowest bit first), checked to be
        distinct bits of a layer."""
        if self.spec.move_order is None:
            return np.zeros(0, dtype=np.int64)
        order = self._declared("move_order", self.spec.move_order)
        base = self.codes.base
        if (not isinstance(order, (list, tuple)) or not all(is_int(m) and 0 <= m < base for m in order)
                or len(set(order)) != len(order)):
            raise RulesError(f"{self.name}: move_order() must give distinct cells 0..{base - 1}, not {shown(order)}")
        return np.array(order, dtype=np.int64)

    @cached_property
    def move_ranks(self) -> np.ndarray:
        """The order the kernels try first parts in (empty where none is declared): the board's cells, those the
        declaration names first and the others after them, lowest first; then the rank of every code of a first
        part, codes off the board (which only rules with a bug give) last. Every legal move is tried, none is
        left out."""
        declared = self.move_order
        if declared.size == 0:
            return declared
        cells = set(self.board.cells)
        named = [cell for cell in declared.tolist() if cell in cells]
        order = [*named, *sorted(cells - set(named))]
        ranks = np.arange(len(order), len(order) + self.codes.base, dtype=np.int64)  # off the board: after the cells
        ranks[order] = np.arange(len(order))
        return np.array([*order, *ranks.tolist()], dtype=np.int64)

    @cached_property
    def tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tables the derived kernels read: (key weights, info, move ranks)."""
        from gameproof.framework import derived

        info = np.zeros(derived.INFO_MASKS + self.layer_words, dtype=np.uint64)
        info[derived.INFO_CELLS] = self.cells
        info[derived.INFO_PERSPECTIVE] = self.spec.perspective
        info[derived.INFO_TO_MOVE_TERM] = self.to_move_term
        info[derived.INFO_LOOKAHEAD] = self.spec.lookahead
        info[derived.INFO_DECIDED] = self.has_decided  # off where a real end is needed: derived.without_decided
        info[derived.INFO_BOUND] = self.has_bound  # the same
        info[derived.INFO_MASKS:] = self.board.word_masks()
        return self.key_weights, info, self.move_ranks

    def scored_tables(self, threshold: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tables of the question "how does the first player's final score compare with `threshold`?": the
        kernels end each game as a win for the first player above it, a draw at it and a loss below, so that every
        win/draw/loss search (df-pn, alpha-beta, certificates) answers it (see :mod:`gameproof.search.score`)."""
        from gameproof.framework import derived
        from gameproof.framework.declaration import MAX_SCORE

        self.require_score()
        if not -MAX_SCORE <= threshold <= MAX_SCORE:
            raise BadInput(f"a score threshold must be within ±{MAX_SCORE}, not {shown_number(threshold)}")
        weights, info, ranks = self.tables
        info = info.copy()
        info[derived.INFO_SCORED] = 1
        info[derived.INFO_THRESHOLD] = threshold + derived.THRESHOLD_OFFSET
        info[derived.INFO_LOOKAHEAD] = 0  # "the other side wins at once" is no loss against a threshold
        info[derived.INFO_DECIDED] = 0  # nor is a position `decided` settles a score
        info[derived.INFO_BOUND] = 0  # nor does a bound on the value bound the score
        return weights, info, ranks

    def absolute(self, words: tuple[int, ...], to_move: int) -> tuple[int, ...]:
        """The words with the first player's pieces first (perspective games keep the mover's layer first)."""
        if self.spec.perspective and to_move == 1:
            width = self.layer_words
            return (*words[width : 2 * width], *words[:width], *words[2 * width :])
        return tuple(words)

    def layer_sets(self, words: tuple[int, ...]) -> list[int]:
        """Each layer of a position as one int of cells."""
        width = self.layer_words
        if width == 1:
            return list(words[: self.layers])
        return [joined_words(words[layer * width : (layer + 1) * width]) for layer in range(self.layers)]

    def symmetry_keys(self, words: tuple[int, ...], to_move: int) -> list[int]:
        """The position's key under each symmetry (before the side to move is added)."""
        weights = self.key_weights
        absolute = self.absolute(words, to_move)
        return [sum(int(weights[s, a, bit]) for a, word in enumerate(absolute) for bit in range(64) if word >> bit & 1)
                % 2**64 for s in range(len(self.symmetries))]

    def key(self, words: tuple[int, ...], to_move: int) -> int:
        """The canonical key of a position, as the derived kernels compute it (least over the symmetries)."""
        return (min(self.symmetry_keys(words, to_move)) + to_move * self.to_move_term) % 2**64

    def frames(self, words: tuple[int, ...], to_move: int, plies: int | None = None) -> np.ndarray:
        """The df-pn state array of a position (see :mod:`gameproof.framework.derived`), with room for `plies` moves
        (by default :attr:`max_plies`)."""
        from gameproof.framework.derived import HEADER

        symmetries, width = len(self.symmetries), self.layer_words
        size = self.words + width + 1 + symmetries
        s = np.zeros(HEADER + ((self.max_plies if plies is None else plies) + 2) * size, dtype=np.uint64)
        s[0], s[1], s[2] = HEADER, size, self.words
        s[HEADER : HEADER + self.words] = words
        legal = self.rules.legal(*self.arguments.of(words, to_move))
        s[HEADER + self.words : HEADER + self.words + width] = legal if width == 1 else tuple(legal)
        s[HEADER + self.words + width] = to_move
        s[HEADER + self.words + width + 1 : HEADER + size] = self.symmetry_keys(words, to_move)
        return s
