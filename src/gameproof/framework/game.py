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
from gameproof.framework.declaration import MAX_PLIES, Board, GameSpec, RulesError, Symmetry
from gameproof.framework.selfcheck import is_int, shown, words_problem
from gameproof.jit import bind_rules, compile_rules

#: The rule functions that generic kernels call with ``f(*words)`` (never inlined).
ENTRY_POINTS = ("start", "legal", "play", "result", "pass_turn", "estimate")
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
        self.board: Board = self._declared("board", spec.board)
        if not isinstance(self.board, Board):
            raise RulesError(f"{self.name}: board() must return a Board, not {shown(self.board)}")
        self.words = len(self._start())
        if spec.perspective and self.words < 2:
            raise RulesError(f"{self.name}: a perspective game needs at least two words (the two sides' pieces)")
        if len(spec.pieces) < self.words:
            raise RulesError(f"{self.name}: pieces must give a character for each of the {self.words} words, "
                             f"not {spec.pieces!r}")

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

    @property
    def has_passes(self) -> bool:
        return callable(getattr(self.spec.rules, "pass_turn", None))

    @property
    def cells(self) -> int:
        return self.board.rows * self.board.cols

    @cached_property
    def max_plies(self) -> int:
        """The most plies (passes included) a game lasts: the declared ``max_plies``, else one move per cell (with
        passes, a pass after each move and one more). The rules self-check plays games against it."""
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
        return compile_rules(self.spec.rules, self.constants, entry_points=ENTRY_POINTS)

    @cached_property
    def fingerprint(self) -> str:
        """What the compiled kernels depend on: the rules' source, the constants and the declaration."""
        digest = hashlib.sha256(Path(inspect.getfile(self.spec.rules)).read_bytes())
        digest.update(Path(inspect.getfile(bits)).read_bytes())
        digest.update(repr(sorted(self.constants.items())).encode())
        digest.update(repr((self.words, self.spec.perspective, self.has_passes)).encode())
        return digest.hexdigest()[:16]

    @property
    def _derived(self) -> tuple[Any, Any]:
        from gameproof.framework.derived import derive

        shape = (self.fingerprint, len(self.symmetries))  # one rules file may declare games of other symmetries
        if shape not in _DERIVED:
            _DERIVED[shape] = derive(self.compiled, self.words, len(self.symmetries), self.fingerprint)
        return _DERIVED[shape]

    @property
    def kernels(self):
        """df-pn's kernel protocol (:class:`gameproof.search.dfpn.Kernels`) for this game."""
        return self._derived[0]

    @property
    def perft_kernel(self):
        return self._derived[1]

    # --- symmetry and keys -----------------------------------------------------------------------------

    @cached_property
    def symmetries(self) -> list[Symmetry]:
        """The declared symmetries that this board has (identity first)."""
        square = self.board.rows == self.board.cols
        chosen = [s for s in self.spec.symmetries if s is not Symmetry.IDENTITY and (square or not s.needs_square)]
        return [Symmetry.IDENTITY, *chosen]

    @property
    def exact_keys(self) -> bool:
        """Whether keys are exact codes of the position (else 64-bit hashes)."""
        return (self.words + 1) ** self.cells * 2 <= 2**64

    @property
    def max_positions(self) -> int | None:
        """How many boards exact keys tell apart, (words + 1) ** cells (the side to move at most doubles it),
        or None when keys are hashes: a search's table need not be much larger."""
        return (self.words + 1) ** self.cells if self.exact_keys else None

    @cached_property
    def key_weights(self) -> np.ndarray:
        """uint64[symmetry, word, bit]: a position's key under a symmetry is the sum of its pieces' weights.

        Exact codes where they fit (base words + 1: a cell is empty or holds one word's piece), else random
        64-bit weights whose sums wrap. Words are absolute here (the first player's pieces first)."""
        cells = self.board.cells
        base = self.words + 1
        if self.exact_keys:
            table = [[(a + 1) * base**index for a in range(self.words)] for index in range(len(cells))]
        else:
            rng = np.random.default_rng(0x67616D65)
            table = rng.integers(0, 2**64 - 1, size=(len(cells), self.words), dtype=np.uint64, endpoint=True).tolist()
        index_of = {bit: index for index, bit in enumerate(cells)}
        weights = np.zeros((len(self.symmetries), self.words, 64), dtype=np.uint64)
        for s, symmetry in enumerate(self.symmetries):
            for bit, image in self.board.permutation(symmetry).items():
                for a in range(self.words):
                    weights[s, a, bit] = np.uint64(table[index_of[image]][a])
        return weights

    @cached_property
    def to_move_term(self) -> int:
        """Added to the key when the second player is to move."""
        if self.exact_keys:
            return (self.words + 1) ** self.cells
        return 0x9E37_79B9_7F4A_7C15

    @cached_property
    def move_order(self) -> np.ndarray:
        """The declared order of moves to try (empty: lowest bit first), checked to be distinct moves 0..63."""
        if self.spec.move_order is None:
            return np.zeros(0, dtype=np.int64)
        order = self._declared("move_order", self.spec.move_order)
        if (not isinstance(order, (list, tuple)) or not all(is_int(m) and 0 <= m < 64 for m in order)
                or len(set(order)) != len(order)):
            raise RulesError(f"{self.name}: move_order() must give distinct moves 0..63, not {shown(order)}")
        return np.array(order, dtype=np.int64)

    @cached_property
    def tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tables the derived kernels read: (key weights, info, move order)."""
        from gameproof.framework import derived

        info = np.zeros(5, dtype=np.uint64)
        info[derived.INFO_CELLS] = self.cells
        info[derived.INFO_MASK] = self.board.mask
        info[derived.INFO_PERSPECTIVE] = self.spec.perspective
        info[derived.INFO_TO_MOVE_TERM] = self.to_move_term
        info[derived.INFO_LOOKAHEAD] = self.spec.lookahead
        return self.key_weights, info, self.move_order

    def absolute(self, words: tuple[int, ...], to_move: int) -> tuple[int, ...]:
        """The words with the first player's pieces first (perspective games keep the mover's first)."""
        if self.spec.perspective and to_move == 1:
            return (words[1], words[0], *words[2:])
        return tuple(words)

    def symmetry_keys(self, words: tuple[int, ...], to_move: int) -> list[int]:
        """The position's key under each symmetry (before the side to move is added)."""
        weights = self.key_weights
        absolute = self.absolute(words, to_move)
        return [sum(int(weights[s, a, bit]) for a, word in enumerate(absolute) for bit in range(64) if word >> bit & 1)
                % 2**64 for s in range(len(self.symmetries))]

    def key(self, words: tuple[int, ...], to_move: int) -> int:
        """The canonical key of a position, as the derived kernels compute it (least over the symmetries)."""
        return (min(self.symmetry_keys(words, to_move)) + to_move * self.to_move_term) % 2**64

    def frames(self, words: tuple[int, ...], to_move: int) -> np.ndarray:
        """The df-pn state array of a position (see :mod:`gameproof.framework.derived`)."""
        from gameproof.framework.derived import HEADER

        symmetries = len(self.symmetries)
        size = self.words + 2 + symmetries
        s = np.zeros(HEADER + (self.max_plies + 2) * size, dtype=np.uint64)
        s[0], s[1], s[2] = HEADER, size, self.words
        s[HEADER : HEADER + self.words] = words
        s[HEADER + self.words] = self.rules.legal(*words)
        s[HEADER + self.words + 1] = to_move
        s[HEADER + self.words + 2 : HEADER + size] = self.symmetry_keys(words, to_move)
        return s
