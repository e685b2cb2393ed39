"""`gameproof sudoku solve PUZZLE`: solve a Sudoku (4×4, 9×9, 16×16) by a numba solver, SAT, or the natural checker.

PUZZLE is one puzzle (16, 81 or 256 characters, 0 or . for a blank) or a file with one puzzle per line
(blank lines and # comments skipped). Givens that repeat a digit in a row, column or box are bad input, named
by their cells: r3c7 is row 3 from the top, column 7 from the left.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from gameproof.commands._output import exit_codes
from gameproof.errors import BadInput

BATCH = {"direct": 512, "sat": 32, "checker": 1}  # puzzles per call between progress updates


def register(commands: argparse._SubParsersAction) -> None:
    from gameproof.games.sudoku.solve import METHODS

    parser = commands.add_parser("sudoku", help="solve Sudoku puzzles three ways", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="sudoku_command", required=True, metavar="COMMAND")
    solve = sub.add_parser("solve", help="solve one puzzle or a file of puzzles", description=__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter,
                           epilog=exit_codes("solved (every puzzle, for a file)", "some puzzle has no solution",
                                             bad_input="bad input (one line on stderr, naming the file and line)"))
    solve.add_argument("puzzle", metavar="PUZZLE", help="a puzzle string, or a file with one puzzle per line")
    solve.add_argument("--method", choices=METHODS, default="direct",
                       help="direct: numba propagation and search (default); sat: exactly-one CNF; "
                            "checker: the natural Python check traced to SAT")
    solve.add_argument("--count", action="store_true", help="count the solutions (up to --cap)")
    solve.add_argument("--cap", type=int, default=1000, help="stop counting here (default 1000)")
    solve.add_argument("--solver", help="SAT backend for sat and checker (default cadical195)")
    solve.add_argument("--skip-malformed", action="store_true", help="in a file, skip malformed lines (listed)")
    solve.add_argument("--json", action="store_true", help="one JSON document on stdout")
    solve.add_argument("--quiet", action="store_true", help="no progress bar")
    solve.set_defaults(handler=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    from gameproof.games.sudoku.solve import MAX_LIMIT
    from gameproof.logic.solvers import resolve

    if args.cap < 2:
        raise BadInput("--cap must be at least 2 (uniqueness needs a search for a second solution)")
    if args.cap > MAX_LIMIT:
        raise BadInput(f"--cap must be at most {MAX_LIMIT}")
    if args.solver is not None:
        args.solver = resolve(args.solver)
    path = Path(args.puzzle)
    try:
        is_file, is_dir = path.is_file(), path.is_dir()
    except OSError:  # a name too long for a file (a 16x16 puzzle has 256 characters): a puzzle given inline
        is_file = is_dir = False
    if is_file:
        return _solve_file(args)
    if is_dir or "/" in args.puzzle or path.suffix.lower() == ".txt":
        raise BadInput(f"no such puzzle file: {args.puzzle}")
    return _solve_one(args)


def _solve_one(args: argparse.Namespace) -> int:
    from gameproof.games.sudoku.grid import parse, pretty
    from gameproof.games.sudoku.solve import solve

    cells = parse(args.puzzle)
    started = time.perf_counter()
    answer = solve(cells, args.method, args.cap if args.count else 2, args.solver)
    seconds = time.perf_counter() - started
    payload: dict[str, object] = {"solution": answer.solution, "unique": bool(answer.unique),
                                  "seconds": round(seconds, 6), "method": args.method}
    if answer.solution is None:
        payload["status"] = "no solution"
    if args.count:
        payload["count"] = answer.count
        payload["count_capped"] = answer.count >= args.cap
    if args.json:
        from gameproof.commands._output import print_json

        print_json(payload)
    else:
        from gameproof.commands._output import console

        out = console()
        if answer.solution is None:
            out.print("[bold red]no solution[/]")
        else:
            out.print(pretty(parse(answer.solution)))
            out.print(answer.solution, soft_wrap=True)
            out.print("unique" if answer.count == 1 else "[yellow]not unique[/]")
        if args.count:
            out.print(f"{answer.count}{'+' if answer.count >= args.cap else ''} solutions")
        out.print(f"[dim]{args.method} in {seconds:.3f} s[/]")
    return 0 if answer.solution else 1


def _solve_file(args: argparse.Namespace) -> int:
    from gameproof.games.sudoku.grid import read_puzzles
    from gameproof.games.sudoku.solve import solve_many

    batch = read_puzzles(args.puzzle, args.skip_malformed)
    puzzles, limit = batch.puzzles, args.cap if args.count else 1
    answers = []
    if args.method == "direct" and puzzles:  # load the compiled solver (numba's start-up, ~0.1 s) off the clock
        solve_many(puzzles[:1], args.method, limit)
    started = time.perf_counter()
    with _progress(args.quiet, len(puzzles)) as advance:
        step = BATCH[args.method]
        for start in range(0, len(puzzles), step):
            chunk = puzzles[start:start + step]
            answers += solve_many(chunk, args.method, limit, args.solver)
            advance(len(chunk))
    seconds = time.perf_counter() - started
    solved = sum(a.solution is not None for a in answers)
    rate = len(puzzles) / max(seconds, 1e-9)
    payload: dict[str, object] = {"puzzles": len(puzzles), "solved": solved, "seconds": round(seconds, 6),
                                  "puzzles_per_second": round(rate, 1), "method": args.method,
                                  "solutions": [a.solution for a in answers]}
    if args.count:
        payload["counts"] = [a.count for a in answers]
    if batch.skipped:
        payload["skipped"] = batch.skipped
    if args.json:
        from gameproof.commands._output import print_json

        print_json(payload)
    else:
        from gameproof.commands._output import console

        out = console()
        for problem in batch.skipped:
            out.print(f"[yellow]skipped[/] {problem}", soft_wrap=True)
        for line, answer in zip(batch.lines, answers):
            found = answer.solution or "[bold red]no solution[/]"
            count = f"  {answer.count}{'+' if answer.count >= args.cap else ''} solutions" if args.count else ""
            out.print(f"{args.puzzle}:{line}: {found}{count}", soft_wrap=True)
        out.print(f"{solved:,} of {len(puzzles):,} puzzles solved by {args.method} in {seconds:.3f} s "
                  f"({rate:,.0f} puzzles/s)")
    return 0 if solved == len(puzzles) else 1


@contextmanager
def _progress(quiet: bool, total: int) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(k)``: a progress bar with a count, rate and ETA on stderr (nothing when quiet)."""
    if quiet:
        yield lambda k: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TaskProgressColumn, TimeRemainingColumn

    from gameproof.commands._output import progress_bar

    with progress_bar("sudoku", BarColumn(), MofNCompleteColumn(), TaskProgressColumn(), TimeRemainingColumn(),
                      quiet=quiet) as progress:
        task = progress.add_task("solving", total=total)
        yield lambda k: progress.advance(task, k)
