"""Beam search for a witness: play forward from a start, keeping at each ply only the states a score ranks highest.

A beam answers "is a state with some property reachable within P moves?" only when it finds one: it is a
fast way to a witness where many states have the property, never a refutation. The exhaustive engines
(SAT, df-pn) settle what it does not find. It is deterministic: states are ranked by score, ties in the
order they were first reached, and a state reached twice at one ply is kept once, with its first line.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

State = TypeVar("State", bound=Hashable)
Step = TypeVar("Step")

#: Beam widths tried in turn: each run starts again from the start, wider (the widest dominates the cost).
BEAM_WIDTHS = (8, 32, 128)


@dataclass(frozen=True)
class Found(Generic[State, Step]):
    """A state with the property, the steps that reach it from the start, and the width that found it."""

    steps: tuple[Step, ...]
    state: State
    width: int


def beam_search(start: State, successors: Callable[[State], Iterable[tuple[tuple[Step, ...], State]]],
                score: Callable[[State], int], wanted: Callable[[State], bool], plies: int, exact: bool = False,
                widths: Sequence[int] = BEAM_WIDTHS, seconds: float | None = None) -> Found[State, Step] | None:
    """A state that `wanted` accepts within `plies` plies of `start` (after exactly `plies` with `exact`), searched
    by beams of each width in `widths` in turn; None if none finds one (or `seconds` run out first: the time is
    looked at between plies). `successors` gives each child with the steps that lead to it (a ply may be
    several steps: a move and a forced pass)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    for width in widths:
        found, wider_may_find = _beam(start, successors, score, wanted, plies, exact, width, deadline)
        if found is not None or not wider_may_find:
            return found
    return None


def _beam(start: State, successors: Callable[[State], Iterable[tuple[tuple[Step, ...], State]]],
          score: Callable[[State], int], wanted: Callable[[State], bool], plies: int, exact: bool,
          width: int, deadline: float | None) -> tuple[Found[State, Step] | None, bool]:
    """One beam of `width`: (what it found or None, whether a wider beam may find more). A wider one may not when
    this one never dropped a state (it saw every state), nor when the time ran out (`deadline`)."""
    layer: dict[State, tuple[Step, ...]] = {start: ()}
    pruned = False
    for ply in range(plies + 1):
        if not exact or ply == plies:
            for state, steps in layer.items():
                if wanted(state):
                    return Found(steps, state, width), pruned
        if ply == plies:
            break
        if deadline is not None and time.monotonic() > deadline:
            return None, False
        children: dict[State, tuple[Step, ...]] = {}
        for state, steps in layer.items():
            for step, child in successors(state):
                if child not in children:
                    children[child] = steps + step
        ranked = sorted(children, key=score, reverse=True)
        pruned = pruned or len(ranked) > width
        layer = {child: children[child] for child in ranked[:width]}
        if not layer:
            break
    return None, pruned
