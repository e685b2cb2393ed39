"""Exact final scores under perfect play, for any game that declares ``score``, by win/draw/loss searches.

A score question is a win/draw/loss question in disguise: against a threshold ``t``, let the kernels end every
game as a win for the first player when its score is above ``t``, a draw at ``t`` and a loss below
(:meth:`Game.scored_tables`). Then "can the side to move score at least ``k``?" is "can it at least draw" against
``k`` (or "can it win" against ``k - 1``), and df-pn, alpha-beta, their tables, their certificates and the
independent checker all answer it unchanged. The exact score is found by galloping out from a guess (0, or the
score of the position's parent for a move) and bisecting, one binary question a step; the table is kept while
the threshold stays, and a question that the kept threshold can answer uses it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from gameproof.answers import to_mover
from gameproof.framework.declaration import Engine
from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.interrupts import RulesBroken
from gameproof.search.alphabeta import AlphaBeta
from gameproof.search.dfpn import Options, Search
from gameproof.search.tt import TranspositionTable


@dataclass
class ScoreSolution:
    """A position's exact score for the side to move, each move's score for that side, and the effort spent."""

    score: int
    moves: dict[int, int] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0
    questions: int = 0  # binary questions ("at least k?") searched


class ScoreQuestions:
    """Binary score questions about positions of one game, searched over one table by `engine`: the table holds
    the answers of one threshold at a time (it is cleared when the threshold moves). `progress` is called with
    (nodes, TT entries, TT capacity) every `chunk` search steps (by default the searches' own chunk); raising in it
    stops the question."""

    def __init__(self, game: Game, options: Options = Options(), engine: Engine | None = None,
                 progress: Callable[[int, int, int], None] | None = None, chunk: int | None = None) -> None:
        game.require_score()
        self.game, self.options, self.progress = game, options, progress
        self._chunk = {} if chunk is None else {"chunk": chunk}
        self.engine = engine or game.spec.engine
        self.table = TranspositionTable(options.tt_mb, game.max_positions)
        self.threshold: int | None = None  # the first player's threshold the table's answers are about
        self._search: Search | AlphaBeta | None = None
        self.nodes = self.questions = 0

    def _use(self, threshold: int) -> None:
        if threshold == self.threshold:
            return
        if self.threshold is not None:
            self.table.words[:] = 0
        self._retire()
        game = self.game
        tables = game.scored_tables(threshold)
        if self.engine is Engine.ALPHABETA:
            self._search = AlphaBeta(game.kernels, tables, game.max_plies, game.max_moves, self.options, table=self.table)
        else:
            self._search = Search(game.kernels, tables, game.max_plies, game.max_moves, self.options, table=self.table)
        self.threshold = threshold

    def _retire(self) -> None:
        if self._search is not None:
            self.nodes += self._search.nodes
            self._search = None

    @property
    def searched(self) -> int:
        """Nodes searched so far, by every threshold's search."""
        return self.nodes + (self._search.nodes if self._search is not None else 0)

    @property
    def search(self) -> Search | AlphaBeta:
        """The search of the current threshold (a df-pn :class:`Search` or an :class:`AlphaBeta`)."""
        if self._search is None:
            raise RuntimeError("no threshold asked about yet")
        return self._search

    def at_least(self, frames: np.ndarray, mover: int, score: int) -> bool:
        """Whether `mover`, to move in the unfinished position `frames`, scores at least `score` (its own view)."""
        self.questions += 1
        exactly = score if mover == 0 else -score  # the first player's threshold at which `score` is a draw
        above = score - 1 if mover == 0 else 1 - score  # ... at which a score of at least `score` is a win
        strict = self.threshold == above
        self._use(above if strict else exactly)
        search = self.search
        try:
            if isinstance(search, AlphaBeta):
                value = search.value(frames, self.progress, **self._chunk)
                return value > 0 if strict else value >= 0
            return search.prove(frames, mover, not strict, self.progress, **self._chunk)
        except RulesBroken as broken:
            raise broken.of(self.game.name) from None

    def exact(self, frames: np.ndarray, mover: int, guess: int = 0) -> int:
        """The exact score of the unfinished position `frames` for `mover` (to move there): galloping from
        `guess` to a bracket, then bisecting it."""
        if self.at_least(frames, mover, guess):
            low, step = guess, 1  # low: a score it reaches
            while self.at_least(frames, mover, low + step):
                low, step = low + step, 2 * step
            high = low + step - 1  # the least score it does not reach, less one
        else:
            high, step = guess - 1, 1
            while not self.at_least(frames, mover, high - step + 1):
                high, step = high - step, 2 * step
            low = high - step + 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.at_least(frames, mover, middle):
                low = middle
            else:
                high = middle - 1
        return low


def final_score(state: RulesState) -> int:
    """The score of a finished game for the side that would be to move."""
    game = state.game
    return int(game.rules.score(*game.arguments.of(state.words, state.to_move)))


def score_search(state: RulesState, score: int, options: Options = Options()) -> Search:
    """A df-pn search, on a table of its own, of the question whose answer "draw" shows that `state`'s exact score
    for the side to move is `score` (that score as the threshold: see the module); a certificate of it
    (:func:`~gameproof.search.certificate.certify`) is a certificate of the score."""
    game = state.game
    threshold = score if state.to_move == 0 else -score
    return Search(game.kernels, game.scored_tables(threshold), game.max_plies, game.max_moves, options,
                  game.max_positions)


def unsymmetric(game: Game) -> Game:
    """`game` without its declared symmetries: the positions a search tells apart are then its own, so that a
    symmetry that does not hold cannot change a score (for games whose symmetries no test of gameproof's checks)."""
    return Game(dataclasses.replace(game.spec, symmetries=()), game.parameters)


def searched_game(game: Game) -> Game:
    """The game whose positions score searches tell apart: `game` itself, or without its declared symmetries (see
    :func:`unsymmetric`) when they are a user file's, which no test of gameproof's checks."""
    from gameproof.search.confirm import declares_unchecked_symmetries

    return unsymmetric(game) if declares_unchecked_symmetries(game) else game


def exact_score(state: RulesState, options: Options = Options(), *, with_moves: bool = True,
                engine: Engine | None = None, progress: Callable[[int, int, int], None] | None = None) -> ScoreSolution:
    """The exact final score of `state` for the side to move under perfect play (both sides maximise their own
    score), and with `with_moves` each legal move's score for that side (keyed by move code).

    A game from a user's file that declares symmetries is searched without them (see :func:`searched_game`)."""
    started = time.perf_counter()
    game = state.game
    game.require_score()
    if state.is_over():
        return ScoreSolution(final_score(state))
    if (searched := searched_game(game)) is not game:
        state = RulesState.at(searched, state.words, state.to_move)
    questions = ScoreQuestions(state.game, options, engine, progress)
    me = state.to_move
    score = questions.exact(state.frames(), me)
    moves: dict[int, int] = {}
    if with_moves:
        known: dict[int, int] = {}  # a child's key -> its score for me (children equal up to symmetry once)
        for move in state.legal_moves():
            state.play(move)
            if state.is_over():
                moves[move] = to_mover(final_score(state), state.to_move != me)
            else:
                key = state.key
                if key not in known:
                    mover = state.to_move
                    guess = to_mover(score, mover != me)
                    child = questions.exact(state.frames(), mover, guess)
                    known[key] = to_mover(child, mover != me)
                moves[move] = known[key]
            state.undo()
    questions._retire()
    return ScoreSolution(score, dict(sorted(moves.items())), questions.nodes, time.perf_counter() - started,
                         questions.questions)
