"""`gameproof mnk …`: solve m,n,k games (normal, misère, Notakto) exactly with df-pn; opening books."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gameproof.errors import BadInput

EXIT_MISMATCH = 1


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("mnk", help="m,n,k games: exact values by df-pn, opening books", description=__doc__)
    sub = parser.add_subparsers(dest="mnk_command", required=True, metavar="COMMAND")

    solve = sub.add_parser("solve", help="exact value of a position and of each move", description="Exact value (win/draw/loss for the player to move) and the value of every legal move.")
    _game_arguments(solve)
    solve.add_argument("--moves", default="", help='moves played so far, e.g. "b2 a1"')
    _search_arguments(solve)
    solve.set_defaults(handler=run_solve)


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, required=True, help="board rows (R·C ≤ 64)")
    parser.add_argument("--cols", type=int, required=True, help="board columns")
    parser.add_argument("--k", type=int, required=True, help="stones in a row that end the game")
    variant = parser.add_mutually_exclusive_group()
    variant.add_argument("--misere", action="store_const", const="misere", dest="variant", help="k in a row loses")
    variant.add_argument("--notakto", action="store_const", const="notakto", dest="variant", help="one shared mark; k in a row loses")
    parser.set_defaults(variant="normal")


def _search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tt-mb", type=float, default=128.0, help="transposition table memory in MiB (default 128)")
    parser.add_argument("--no-wpns", action="store_true", help="plain proof numbers instead of weak proof numbers")
    parser.add_argument("--epsilon", type=float, default=0.25, help="the 1+ε threshold trick (0 turns it off; default 0.25)")
    parser.add_argument("--no-heuristic", action="store_true", help="initialise fresh nodes to (1, 1)")
    parser.add_argument("--brute-force", type=int, default=5, metavar="N", help="plain minimax at ≤ N empty squares (0 turns it off; default 5)")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress display")


def game_from_args(args: argparse.Namespace):
    from gameproof.games.mnk.state import MnkGame

    game = MnkGame(args.rows, args.cols, args.k, args.variant)
    game.geometry  # validates the board
    return game


def options_from_args(args: argparse.Namespace):
    from gameproof.search.dfpn import Options

    if args.tt_mb <= 0 or args.epsilon < 0 or args.brute_force < 0:
        raise BadInput("--tt-mb must be positive; --epsilon and --brute-force must not be negative")
    return Options(wpns=not args.no_wpns, epsilon=args.epsilon, heuristic=not args.no_heuristic,
                   brute_force=args.brute_force, tt_mb=args.tt_mb)


@contextmanager
def search_progress(quiet: bool, capacity: int) -> Iterator[Callable[[int, int], None] | None]:
    """A progress callback (nodes, TT entries) drawing a spinner, nodes/s and TT fill on stderr."""
    if quiet:
        yield None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from gameproof.commands._output import progress_console

    start = time.perf_counter()
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=progress_console(), transient=True) as bar:
        task = bar.add_task("df-pn starting", total=None)

        def update(nodes: int, entries: int) -> None:
            rate = nodes / max(time.perf_counter() - start, 1e-9)
            bar.update(task, description=f"df-pn {nodes:,} nodes  {rate:,.0f} nodes/s  TT {100 * entries / capacity:.0f}% full")

        yield update


def run_solve(args: argparse.Namespace) -> int:
    from gameproof.games.mnk.solver import solve
    from gameproof.games.mnk.state import MnkState
    from gameproof.search.tt import TranspositionTable

    state = MnkState(game_from_args(args), args.moves)
    options = options_from_args(args)
    with search_progress(args.quiet or args.json, TranspositionTable(options.tt_mb).capacity) as progress:
        solution = solve(state, options, progress=progress)
    moves = {state.move_name(m): v for m, v in solution.moves.items()}
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"game": state.game.name, "played": state.record, "value": solution.value, "moves": moves,
                    "nodes": solution.nodes, "seconds": round(solution.seconds, 6), "tt_entries": solution.tt_entries})
        return 0
    from gameproof.commands._output import console

    out = console()
    out.print(f"{state.game.name}  after: {state.record or '(start)'}  to move: {'XO'[state.to_move]}")
    out.print(str(state))
    out.print(f"value for the player to move: [bold]{solution.value}[/bold]")
    for value in ("win", "draw", "loss"):
        squares = [name for name, v in moves.items() if v == value]
        if squares:
            out.print(f"  {value:<5} {' '.join(squares)}")
    out.print(f"{solution.nodes:,} nodes in {solution.seconds:.3f} s, {solution.tt_entries:,} TT entries")
    return 0
