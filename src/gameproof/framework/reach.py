"""Reachability by SAT for any declared game: is a position satisfying a predicate reachable within P plies?

The game's own rule functions run on symbolic words (:mod:`gameproof.logic`, with ``@natural`` control
flow), P moves deep: each ply reads a free choice of each part of its move (a cell, or for the first part
"stop": the game ended earlier or the question is asked of a shorter game); a side that must pass passes for free before the ply's move, so P
moves cover every game of P moves, however many passes it has. The predicate is plain Python over the final words and the
side to move, in the style of the rules; it may itself choose values with ``any_uint`` and restrict them
with ``assume`` (the square of a move to measure, say). A witness is re-played on the concrete engine
before it is reported: its moves on :class:`~gameproof.framework.state.RulesState`, then the predicate on plain
ints. The words are unsigned and 64 bits wide, and their arithmetic wraps modulo 2**64 (``w - 1`` of 0 is
2**64 - 1); what the tracer cannot follow exactly (``is``, ``str(w)``, ``w < 0``...) is refused with the
file and line, and so is a predicate that returns None, or a plain bool while the position is symbolic. A predicate that calls the game's rule functions takes them as a keyword argument ``rules`` (bound to
the game's parameters: ``rules.legal(player, opponent)``). A refutation can come with a DRAT proof, checked by
:func:`gameproof.logic.drat.check_drat`.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from gameproof.answers import Status
from gameproof.errors import BadInput
from gameproof.framework.declaration import MAX_REACH_PLIES, ONGOING, split_words
from gameproof.framework.game import Game
from gameproof.framework.state import RulesState
from gameproof.logic import Bit, Outcome, Word, any_uint, assume, check, cover, ite, replay, zext
from gameproof.logic.circuit import FALSE, TRUE
from gameproof.logic.drat import ProofCheck, proof_json
from gameproof.logic.natural import ints_merged_as
from gameproof.logic.untraceable import Untraceable, function_site

Predicate = Callable[..., Any]
#: A position the moves start from, as the game's words and the side to move (None: the game's start).
Start = tuple[tuple[int, ...], int] | None


@dataclass
class ReachResult:
    """What `reach` found, with the sizes and times of the formula."""

    status: Status
    game: str
    plies: int
    start: str | None = None  # the text of the position the moves start from (None: the game's start)
    moves: list[str] | None = None
    final: RulesState | None = None
    inputs: dict[str, int] = field(default_factory=dict)
    variables: int = 0
    clauses: int = 0
    encode_seconds: float = 0.0
    solve_seconds: float = 0.0
    proof: ProofCheck | None = None  # the DRAT proof of a refutation, and its check

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "game": self.game, "plies": self.plies, "from_position": self.start,
                "moves": self.moves,
                "position": self.final.marks() if self.final else None,
                "to_move": self.final.to_move if self.final else None,
                "choices": {k: v for k, v in self.inputs.items() if not k.startswith("ply")},
                "variables": self.variables, "clauses": self.clauses,
                "encode_seconds": round(self.encode_seconds, 3), "solve_seconds": round(self.solve_seconds, 3),
                **proof_json(self.proof)}


def _select(cond: Any, then: Any, other: Any) -> Any:
    """``then if cond else other`` over 64-bit words (plain ints when replaying)."""
    if not isinstance(cond, Bit):
        return then if cond else other

    def word(value: Any) -> Word:
        return value if isinstance(value, Word) else Word.constant(value, 64)

    return ite(cond, word(then), word(other))


def _words(rule: Callable[..., Any], value: Any, count: int) -> tuple[Any, ...]:
    """A rule's position (`count` words) with every symbolic word widened to 64 bits (a narrower one is the
    zero-extended merge of plain ints, so widening keeps its value); Untraceable naming the rule otherwise."""
    if not isinstance(value, (tuple, list)) or len(value) != count:
        shown = type(value).__name__ if isinstance(value, (Word, Bit)) else repr(value)[:40]
        raise Untraceable(f"{getattr(rule, '__name__', 'a rule')}() returned {shown}",
                          f"a position is a tuple of {count} words, as start() gives", function_site(rule))
    return tuple(_word64(rule, word) for word in value)


def _word64(rule: Callable[..., Any], word: Any) -> Any:
    """One word of a position, as a 64-bit Word or an int in range (see :func:`_words`)."""
    if isinstance(word, Word) and word.width <= 64:
        return zext(word, 64)
    if isinstance(word, int) and not isinstance(word, bool) and 0 <= word < 1 << 64:
        return word
    shown = f"a {word.width}-bit Word" if isinstance(word, Word) else f"{type(word).__name__} {word!r}"[:60]
    raise Untraceable(f"{getattr(rule, '__name__', 'a rule')}() returned {shown} as a word",
                      "a word is an int in 0..2**64 - 1", function_site(rule))


def _condition(predicate: Predicate, value: Any, position: tuple[Any, ...]) -> Bit:
    """The predicate's answer as a Bit; Untraceable when it is None, or a plain value that ignored a symbolic
    position (``covered is 0`` would be False whatever the position)."""
    name = getattr(getattr(predicate, "func", predicate), "__name__", "the predicate")
    if isinstance(value, Bit):
        return value
    if value is None or isinstance(value, Word):
        raise Untraceable(f"predicate {name} returned {'None' if value is None else 'a Word'}", "return a "
                          "condition on the position, such as `covered == 0` (did a path end without `return`?)",
                          function_site(predicate))
    if any(isinstance(v, (Word, Bit)) and v.circuit is not None for v in position):
        raise Untraceable(f"predicate {name} returned the plain {type(value).__name__} {value!r}"[:120],
                          "the position is symbolic, so an answer that does not depend on it was worked out "
                          "without looking at it", function_site(predicate))
    if not isinstance(value, int):
        raise Untraceable(f"predicate {name} returned {type(value).__name__}", "a predicate returns a condition "
                          "(a Bit or a bool)", function_site(predicate))
    return Bit(None, TRUE if value else FALSE)


def _one_hot(choice: Any, layer_words: int) -> tuple[Any, ...]:
    """The one-bit mask of the cell `choice`, as a layer's words (all 0 for a choice past the board's bits: a stop)."""
    if isinstance(choice, int):
        return split_words(1 << choice, layer_words) if choice < 64 * layer_words else (0,) * layer_words
    wide = zext(choice, 64)
    if layer_words == 1:
        return (Word.constant(1, 64) << wide,)
    low = Word.constant(1, 64) << (wide & 63)
    return tuple(_select((wide >> 6) == index, low, 0) for index in range(layer_words))


def _mask(rule: Callable[..., Any], value: Any, layer_words: int) -> tuple[Any, ...]:
    """A mask of cells a rule returned, as a layer's 64-bit words."""
    if layer_words == 1:
        return (_word64(rule, value),)
    return _words(rule, value, layer_words)


def _meets(mask: tuple[Any, ...], cell: tuple[Any, ...]) -> Any:
    """Whether the one-bit mask `cell` lies in `mask` (both a layer's words)."""
    met: Any = False
    for word, bit in zip(mask, cell):
        met = met | ((word & bit) != 0)
    return met


def _any_set(mask: tuple[Any, ...]) -> Any:
    found: Any = False
    for word in mask:
        found = found | (word != 0)
    return found


def _turn(to_move: Any) -> Any:
    """The side to move as the rules take it: a word (0 or 1)."""
    return zext(to_move, 64) if isinstance(to_move, Bit) else int(bool(to_move))


def choice_name(ply: int, part: int) -> str:
    """The name of the free choice of part `part` (0 first) of the move at `ply` (1 first)."""
    return f"ply{ply}" if part == 0 else f"ply{ply}.{part + 1}"


def reach_harness(game: Game, plies: int, predicate: Predicate, start: Start = None) -> Callable[[], None]:
    """A harness whose ``cover`` holds for a game of at most `plies` moves (from `start`, by default the game's
    start) ending where `predicate` holds.

    Each ply chooses each part of its move as a cell (the first part may also be the board's bits, a stop).
    Passes are free: a side that must pass does so before the ply's move, so `plies` counts moves only."""
    rules = game.symbolic
    count, layer = game.words, game.layer_words
    stop = game.codes.base
    width = stop.bit_length()
    parts = game.spec.parts

    def args(words: tuple[Any, ...], to_move: Any, *cells: tuple[Any, ...]) -> tuple[Any, ...]:
        turn = (_turn(to_move),) if game.spec.turn_argument else ()
        return (*turn, *words, *(word for cell in cells for word in cell))

    def side_after(words: tuple[Any, ...], to_move: Any) -> Any:
        """Who moves at `words`, reached by a move or pass of `to_move`'s: the rules' to_move, else the other side."""
        if game.has_turns:
            return rules.to_move(*words) != 0
        return to_move ^ True

    def reach() -> None:
        with ints_merged_as(64):  # a constant chosen by a symbolic `if` meets the 64-bit position words
            trace()

    def trace() -> None:
        words = _words(rules.start, rules.start(), count) if start is None else start[0]
        to_move: Any = start is not None and start[1] == 1
        stopped: Any = False
        for ply in range(1, plies + 1):
            choice = any_uint(width, choice_name(ply, 0))
            assume(choice <= stop)
            is_stop = choice == stop
            if ply > 1:
                assume(~stopped | is_stop)
            stopped = is_stop
            legal = _mask(rules.legal, rules.legal(*args(words, to_move)), layer)
            if game.has_passes:
                must_pass = ~_any_set(legal) & (rules.result(*args(words, to_move)) == ONGOING)
                passed = _words(rules.pass_turn, rules.pass_turn(*args(words, to_move)), count)
                words, to_move = (tuple(_select(must_pass, p, w) for p, w in zip(passed, words)),
                                  ite(must_pass, side_after(passed, to_move), to_move))
                legal = _mask(rules.legal, rules.legal(*args(words, to_move)), layer)
            cells = [_one_hot(choice, layer)]
            assume(is_stop | _meets(legal, cells[0]))
            for index, name in enumerate(parts[1:], start=1):
                later = getattr(rules, f"legal_{name}")
                choice = any_uint(width, choice_name(ply, index))
                assume(choice < stop)
                cells.append(_one_hot(choice, layer))
                allowed = _mask(later, later(*args(words, to_move, *cells[:-1])), layer)
                assume(is_stop | _meets(allowed, cells[-1]))
            played = _words(rules.play, rules.play(*args(words, to_move, *cells)), count)
            words, to_move = (tuple(_select(is_stop, w, q) for w, q in zip(words, played)),
                              ite(is_stop, to_move, side_after(played, to_move)))
        cover(_condition(predicate, predicate(*words, to_move), (*words, to_move)), "the predicate holds")

    reach.__name__ = f"reach_{game.name.replace(':', '_').replace(',', '_')}_{plies}"
    return reach


def chosen_parts(inputs: dict[str, int], plies: int, stop: int, parts: int = 1) -> list[tuple[int, ...]]:
    """The parts of the moves a witness's choices ``ply1``, ``ply1.2``, … describe, up to the first `stop`."""
    moves = []
    for ply in range(1, plies + 1):
        if inputs[choice_name(ply, 0)] == stop:
            break
        moves.append(tuple(inputs[choice_name(ply, index)] for index in range(parts)))
    return moves


def decode_moves(game: Game, inputs: dict[str, int], plies: int) -> list[int]:
    """The codes of the moves a witness's choices describe, up to the first stop."""
    return [game.codes.encode(cells) for cells in chosen_parts(inputs, plies, game.codes.base, game.codes.parts)]


def replay_witness(game: Game, plies: int, predicate: Predicate, inputs: dict[str, int],
                   start: Start = None) -> RulesState:
    """Play the witness's moves on the concrete engine (from `start`, by default the game's start) and check the
    predicate on plain ints there."""
    state = RulesState(game) if start is None else RulesState.at(game, *start)
    for move in decode_moves(game, inputs, plies):
        if state.legal_moves() == [game.pass_move]:
            state.play(game.pass_move)
        state.play(move)  # BadInput if the engine refuses a move
    final = state

    def predicate_holds() -> None:
        cover(predicate(*final.words, bool(final.to_move)), "the predicate holds")

    events = replay(predicate_holds, inputs)
    if not events or not events[0].holds:
        raise AssertionError(f"the witness reaches {state!r} on the engine, where the predicate does not hold")
    return state


def _naturalised(predicate: Predicate) -> Predicate:
    """`predicate` with ``@natural`` control flow (as written when Python has no source for it)."""
    from gameproof.logic.natural import NaturalError, natural

    try:  # in the namespace of a predicate loaded from a file: its helpers refuse what cannot be traced
        return natural(getattr(predicate, "__wrapped__", predicate), namespace=getattr(predicate, "__globals__", None))
    except NaturalError:
        return predicate


def solve_reach(game: Game, plies: int, predicate: Predicate, solver: str, seconds: float | None = None,
                dimacs: str | Path | None = None, proof: str | Path | None = None,
                parameters: dict[str, int] | None = None, start: Start = None) -> ReachResult:
    """Is a position where `predicate` holds reachable within `plies` moves (from `start`, a position checked
    against the rules, by default the game's start)? (See the module doc.)

    `parameters` are passed to the predicate as keyword arguments."""
    if not 0 <= plies <= MAX_REACH_PLIES:
        raise BadInput(f"--plies must be between 0 and {MAX_REACH_PLIES}, got {plies}")
    symbolic = _naturalised(predicate)
    parameters = dict(parameters or {})
    if "rules" in inspect.signature(predicate).parameters:
        predicate, symbolic = partial(predicate, rules=game.rules), partial(symbolic, rules=game.symbolic)
    if parameters:
        predicate, symbolic = partial(predicate, **parameters), partial(symbolic, **parameters)
    harness = reach_harness(game, plies, symbolic, start)
    started = time.perf_counter()
    report = check(harness, solver=solver, seconds=seconds, dimacs=dimacs, proof=proof)
    given = None if start is None else RulesState.at(game, *start).position
    result = ReachResult(Status.UNKNOWN, game.name, plies, given, variables=report.variables, clauses=report.clauses,
                         encode_seconds=report.encode_seconds, solve_seconds=report.solve_seconds)
    if report.outcome is Outcome.ERROR:
        raise BadInput(f"the rules or the predicate cannot be traced: {report.message}")
    if report.outcome is Outcome.SATISFIED:
        result.status = Status.SAT
        result.inputs = dict(report.inputs or {})
        result.final = replay_witness(game, plies, predicate, result.inputs, start)
        result.moves = [result.final.move_name(m) for m in result.final.history]
    elif report.outcome.refuted:
        result.status = Status.UNSAT
        result.proof = report.proof
    result.solve_seconds = time.perf_counter() - started - result.encode_seconds
    return result
