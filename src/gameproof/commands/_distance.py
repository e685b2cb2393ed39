"""`gameproof solve GAME --distance`: how many plies perfect play lasts from a position, and after each move."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gameproof.answers import Value
from gameproof.commands._search import compile_said, options_from_args, refuse_options, status_line, timing
from gameproof.errors import BadInput

if TYPE_CHECKING:
    from gameproof.framework.state import RulesState
    from gameproof.search.distance import Outcome

#: The options of `solve` that --distance does not take: (argument's name, its value when not given, as said).
_NOT_WITH_DISTANCE = (("workers", 1, "--workers"), ("backend", "local", "--backend"), ("address", None, "--address"),
                      ("journal", None, "--journal"), ("engine", None, "--engine"), ("score", False, "--score"))


def run_distance(args: argparse.Namespace, load_state: Callable[[argparse.Namespace], RulesState]) -> int:
    """`solve --distance`: the position `load_state(args)` gives, its value and plies to the end, and each move's
    (unless --value-only), as text or JSON."""
    from gameproof.search.distance import distances
    from gameproof.search.distance_certificate import write_distance_certificate

    refuse_options(args, _NOT_WITH_DISTANCE, "--distance searches on its own, on one thread")
    state = load_state(args)
    options = options_from_args(args, state.game)
    with status_line(args.quiet or args.json, "distance starting") as show:
        def progress(nodes: int, entries: int, capacity: int) -> None:
            if show is not None:
                show(f"distance: {nodes:,} nodes  TT {100 * entries / capacity:.0f}% full")

        solution = distances(state, options, progress, with_moves=not args.value_only)
    times = timing(args.compiling, solution.seconds)
    written = None
    if args.certificate is not None:
        if solution.plies is None:
            raise BadInput("a draw: perfect play lasts no set number of plies, so there is no distance to certify")
        written = write_distance_certificate(state, args.game, args.certificate, options)[1]
    names = state.game.spec.player_names
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"game": state.game.name, "played": state.record, "position": state.position,
                    "to_move": names[state.to_move], "value": solution.value, "distance": solution.plies,
                    "moves": {state.move_name(move): {"value": outcome.value, "distance": outcome.plies}
                              for move, outcome in solution.moves.items()},
                    "nodes": solution.nodes, **times, "tt_entries": solution.tt_entries,
                    "certificate": written})
        return 0
    from gameproof.commands._output import console

    out = console()
    out.print(f"{state.game.name}  {state.described()}  to move: {names[state.to_move]}", markup=False)
    out.print(str(state), markup=False)
    out.print(f"value for the player to move: [bold]{said(solution.value, solution.plies)}[/bold]")
    for outcome, moves in grouped(state, solution.moves).items():
        out.print(f"  {said(*outcome)}: {' '.join(moves)}", markup=False)
    out.print(f"distance: {solution.nodes:,} nodes in {times['seconds']:.3f} s{compile_said(args.compiling, times)}, "
              f"{solution.tt_entries:,} TT entries", markup=False)
    if written is not None:
        out.print(f"certificate: {written['path']} ({written['records']:,} records, {written['bytes']:,} bytes)",
                  markup=False, soft_wrap=True)
    return 0


def said(value: Value, plies: int | None) -> str:
    """``win in 7 plies``, ``loss in 1 ply``, ``draw``."""
    if plies is None:
        return str(value)
    return f"{value} in {plies} pl{'y' if plies == 1 else 'ies'}"


def grouped(state: RulesState, moves: dict[int, Outcome]) -> dict[Any, list[str]]:
    """The moves' names by outcome, best first for the player to move: the fastest wins, draws, the slowest
    losses."""
    def rank(outcome: Outcome) -> tuple[int, int]:
        plies = outcome.plies or 0
        return -outcome.value.score, plies if outcome.value is Value.WIN else -plies

    by_outcome: dict[Any, list[str]] = {}
    for move, outcome in sorted(moves.items(), key=lambda item: rank(item[1])):
        by_outcome.setdefault(tuple(outcome), []).append(state.move_name(move))
    return by_outcome
