"""Arguments, progress and output shared by the commands that search a game with df-pn."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from gameproof.answers import Status, Value
from gameproof.errors import BadInput, Unknown

if TYPE_CHECKING:
    from gameproof.framework.game import Game
    from gameproof.framework.state import RulesState
    from gameproof.jit import CompileTime
    from gameproof.search.dfpn import Options
    from gameproof.search.jobs import Backend


#: Bounds on the search switches: the search keeps them in 64-bit integers; ε and the estimate's weight are
#: bounded by the declaration's MOST_EPSILON and MOST_ESTIMATE_WEIGHT.
MOST_BRUTE_FORCE = 64


def search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tt-mb", type=float, default=128.0, help="transposition table memory in MiB (default 128)")
    parser.add_argument("--no-wpns", action="store_true", help="plain proof numbers instead of weak proof numbers")
    parser.add_argument("--epsilon", type=float, help="the 1+ε threshold trick's ε (0 turns it off; default: the "
                        "game's epsilon, 0 unless it declares another)")
    parser.add_argument("--heuristic", type=int, metavar="W", help="fresh nodes start at 1 + W × the rules' estimate "
                        "(0 turns it off; default: the game's estimate_weight, 16 unless it declares another)")
    parser.add_argument("--brute-force", type=int, default=5, metavar="N",
                        help="df-pn: plain minimax once at most N plies can be left, counted by the rules' "
                        "plies_left() where they have one, else (moves of one cell, no to_move rule) as the "
                        "empty squares, the board cells no word of the position holds, else never (moves of "
                        "several parts: the board emptying, as in Clobber, bounds nothing); 0 turns it off; "
                        "default 5")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress display")


def backend_arguments(parser: argparse.ArgumentParser, local: str) -> None:
    """`--backend local|ray` and `--address` (`local`: what the local backend runs on)."""
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help=f"local: {local}; ray: a Ray cluster (pip install 'gameproof[ray]')")
    parser.add_argument("--address", help="the Ray cluster to join (default: start one on this machine)")


def backend_from_args(args: argparse.Namespace) -> Backend:
    """The backend `args` ask for; BadInput for an --address without --backend ray."""
    from gameproof.search.jobs import Backend

    if args.address and args.backend != "ray":
        raise BadInput("--address joins a Ray cluster: give --backend ray too")
    return Backend(args.backend)


def options_from_args(args: argparse.Namespace, game: Game) -> Options:
    """The search options `args` give for `game` (whose declared estimate weight and ε stand unless --heuristic and
    --epsilon are given)."""
    from gameproof.framework.declaration import MOST_EPSILON, MOST_ESTIMATE_WEIGHT
    from gameproof.search.dfpn import Options

    if not (math.isfinite(args.tt_mb) and args.tt_mb > 0):
        raise BadInput(f"--tt-mb must be a positive number of MiB, got {args.tt_mb}")
    heuristic = game.spec.estimate_weight if args.heuristic is None else args.heuristic
    epsilon = game.spec.epsilon if args.epsilon is None else args.epsilon
    for option, value, most in (("--epsilon", epsilon, MOST_EPSILON), ("--heuristic", heuristic, MOST_ESTIMATE_WEIGHT),
                                ("--brute-force", args.brute_force, MOST_BRUTE_FORCE)):
        if not 0 <= value <= most:  # also refuses nan
            raise BadInput(f"{option} must be between 0 and {most}, got {value}")
    return Options(wpns=not args.no_wpns, epsilon=epsilon, heuristic=heuristic,
                   brute_force=args.brute_force, tt_mb=args.tt_mb)


def refuse_options(args: argparse.Namespace, refused: tuple[tuple[str, object, str], ...], why: str) -> None:
    """BadInput, one line (`why`, then the option), for the first option of `refused` ((argument's name, its value
    when not given, the option as said) each) that `args` gives."""
    for name, unset, option in refused:
        if getattr(args, name, unset) != unset:
            raise BadInput(f"{why}: it does not take {option}")


@contextmanager
def status_line(quiet: bool, starting: str) -> Iterator[Callable[[str], None] | None]:
    """A spinner with a description to update and the time elapsed, on stderr; None when `quiet`. Off a
    terminal the display is off and updates are dropped (a spinner there would leave only an empty line)."""
    if quiet:
        yield None
        return
    from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

    from gameproof.commands._output import progress_bar

    with progress_bar(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), quiet=quiet) as bar:
        task = bar.add_task(starting, total=None)
        yield lambda description: bar.update(task, description=description)


@contextmanager
def search_progress(quiet: bool) -> Iterator[Callable[[int, int, int], None] | None]:
    """A progress callback (nodes, TT entries, TT capacity) drawing a spinner, nodes/s and TT fill on stderr."""
    with status_line(quiet, "df-pn starting") as show:
        if show is None:
            yield None
            return
        start = time.perf_counter()

        def update(nodes: int, entries: int, capacity: int) -> None:
            rate = nodes / max(time.perf_counter() - start, 1e-9)
            show(f"df-pn {nodes:,} nodes  {rate:,.0f} nodes/s  TT {100 * entries / capacity:.0f}% full")

        yield update


def print_values(out, heading: str, state, value: str, moves: dict[str, str]) -> None:
    """A position, its value for the player to move, and its moves grouped by value."""
    out.print(heading)
    out.print(str(state))
    out.print(f"value for the player to move: [bold]{value}[/bold]")
    for kind in (Value.WIN, Value.DRAW, Value.LOSS):
        squares = [name for name, v in moves.items() if v == kind]
        if squares:
            out.print(f"  {kind:<5} {' '.join(squares)}")


def print_scores(out, score: int, moves: dict[str, int]) -> None:
    """A position's exact score for the player to move, and its moves grouped by score, best first."""
    out.print(f"score for the player to move: [bold]{score:+d}[/bold] (both sides playing for the most)")
    for each in sorted(set(moves.values()), reverse=True):
        out.print(f"  {each:+4d}  {' '.join(name for name, value in moves.items() if value == each)}", markup=False)


#: What a first run of a game says while numba compiles its rules and searches (on a terminal).
COMPILING_NOTICE = "compiling the rules (first run only)…"


@contextmanager
def compile_notice(quiet: bool) -> Iterator[CompileTime]:
    """Measure the time numba compiles, or loads from its cache, the kernels the block needs; the first time it
    compiles (a game's first run), say so on stderr, unless `quiet` or stderr is not a terminal."""
    from gameproof.jit import compile_timer

    def notice() -> None:
        if not quiet and sys.stderr.isatty():
            print(COMPILING_NOTICE, file=sys.stderr, flush=True)

    with compile_timer(notice) as compiling:
        yield compiling


def timing(compiling: CompileTime | None, seconds: float) -> dict[str, float]:
    """The time of a search that ended just now and took `seconds`, in two parts: ``seconds`` searching (less the
    compiling within them) and ``compile_seconds``, all the compiling or loading of kernels that `compiling` saw
    (none without it: `mnk solve`)."""
    if compiling is None:
        return {"seconds": round(seconds, 6)}
    ended = time.perf_counter()
    searching = max(0.0, seconds - compiling.within(ended - seconds, ended))
    return {"seconds": round(searching, 6), "compile_seconds": round(compiling.seconds, 6)}


def compile_said(compiling: CompileTime | None, times: dict[str, float]) -> str:
    """`` (+35.2 s compiling the rules, first run only)`` or `` (+0.24 s loading compiled kernels)``; nothing for
    less than a hundredth of a second."""
    if compiling is None or times["compile_seconds"] < 0.01:
        return ""
    doing = "compiling the rules, first run only" if compiling.compiled else "loading compiled kernels"
    return f" (+{times['compile_seconds']:.2f} s {doing})"


def report_unknown(args: argparse.Namespace, unknown: Unknown) -> int:
    """A search that ran out of time: "unknown" and why (and what it noted on the way out: whether its journal was
    saved), as text or JSON; the exit code for unknown."""
    notes = list(getattr(unknown, "__notes__", ()))
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"game": getattr(args, "loaded", args.game), "value": Status.UNKNOWN.value, "reason": str(unknown),
                    "timeout": args.timeout, "notes": notes})
    else:
        from gameproof.commands._output import console

        console().print(f"value: unknown ({unknown}: give more time with --timeout, or ask about a smaller board or a "
                        "later position)" + "".join(f"; {note}" for note in notes), markup=False, soft_wrap=True)
    return Status.UNKNOWN.exit_code


def note_size(state: RulesState, limited: bool) -> None:
    """One line on stderr where Knuth's estimate (:mod:`gameproof.search.size`) says a search from `state` would
    take hours or never end, pointing to smaller boards and (unless the search is `limited` already) --timeout."""
    from gameproof.search.size import Size, size_of

    if state.game.may_repeat:  # refused by every search: the refusal says what to do instead
        return
    size, estimate = size_of(state)
    if size is Size.FEASIBLE:
        return
    game = state.game
    how_long = "may take hours" if size is Size.HOURS else "will not finish (years, not hours)"
    print(f"gameproof: note: a search of {game.name} from this position {how_long}: its game tree has about "
          f"10^{estimate:.0f} nodes (a quick estimate; transpositions spare a search most of them). Smaller boards: "
          f"`gameproof games {game.spec.name}`"
          + ("" if limited else "; or give --timeout SECONDS"), file=sys.stderr, flush=True)
