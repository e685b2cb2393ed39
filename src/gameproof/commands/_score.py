"""`gameproof solve GAME --score`: the exact final score of a position under perfect play, and each move's."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gameproof.commands._search import (compile_said, options_from_args, print_scores, refuse_options, status_line,
                                        timing)
from gameproof.framework.declaration import Engine

if TYPE_CHECKING:
    from gameproof.framework.state import RulesState

#: The options of `solve` that --score does not take: (argument's name, its value when not given, as said).
_NOT_WITH_SCORE = (("workers", 1, "--workers"), ("backend", "local", "--backend"), ("address", None, "--address"),
                   ("journal", None, "--journal"))


def run_score(args: argparse.Namespace, load_state: Callable[[argparse.Namespace], RulesState]) -> int:
    """`solve --score`: the position `load_state(args)` gives, its exact score for the side to move and each move's
    (unless --value-only), as text or JSON; with --certificate, a certificate that the score is exact."""
    from gameproof.search.score import exact_score

    refuse_options(args, _NOT_WITH_SCORE, "--score searches on one thread of this process")
    state = load_state(args)
    state.game.require_score()
    options = options_from_args(args, state.game)
    engine = Engine(args.engine) if args.engine else state.game.spec.engine
    if args.certificate is not None:
        from gameproof.commands.certificate import refuse_another_question
        from gameproof.search.certificate import check_certifiable

        check_certifiable(state, args.game)
        refuse_another_question(args.certificate, state, args.force)
    quiet = args.quiet or args.json
    with status_line(quiet, f"{engine.value} starting") as show:
        def progress(nodes: int, entries: int, capacity: int) -> None:
            if show is not None:
                show(f"score: {engine.value} {nodes:,} nodes  TT {100 * entries / capacity:.0f}% full")

        solution = exact_score(state, options, with_moves=not args.value_only, engine=engine, progress=progress)
    times = timing(args.compiling, solution.seconds)
    written = None if args.certificate is None else _certificate(state, solution.score, args, options, quiet)
    names = state.game.spec.player_names
    moves = {state.move_name(move): score for move, score in solution.moves.items()}
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"game": state.game.name, "played": state.record, "position": state.position,
                    "to_move": names[state.to_move],
                    "engine": engine.value, "score": solution.score, "moves": moves, "nodes": solution.nodes,
                    "questions": solution.questions, **times, "certificate": written})
        return 0
    from gameproof.commands._output import console

    out = console()
    out.print(f"{state.game.name}  {state.described()}  to move: {names[state.to_move]}", markup=False)
    out.print(str(state), markup=False)
    print_scores(out, solution.score, moves)
    out.print(f"{engine.value}: {solution.questions} questions, {solution.nodes:,} nodes in {times['seconds']:.3f} s"
              f"{compile_said(args.compiling, times)}", markup=False)
    if written is not None:
        out.print(f"certificate: {written['path']} ({written['nodes']:,} positions, {written['bytes']:,} bytes, built in "
                  f"{written['seconds']:.2f} s)", markup=False, soft_wrap=True)
    return 0


def _certificate(state: RulesState, score: int, args: argparse.Namespace, options: Any, quiet: bool) -> dict[str, Any]:
    """Write the certificate that `state`'s score for the side to move is exactly `score`: the win/draw/loss
    certificate of a draw against that score (df-pn proves it again on a table of its own)."""
    from gameproof.commands.games import _write_certificate
    from gameproof.search.score import score_search

    return _write_certificate(state, args.game, score_search(state, score, options), args.certificate, "draw", quiet)
