"""Shared output helpers for subcommands: JSON for scripts, rich text for people, output paths checked early.

Rich is imported only when something is printed, so that `gameproof --help` starts fast."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gameproof.errors import BadInput

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, ProgressColumn

    from gameproof.framework.game import Game
    from gameproof.logic.drat import ProofCheck

#: The file name that means standard output, where an option allows it.
STDOUT = "-"


def exit_codes(ok: str = "done", finding: str | None = None, unknown: bool = False,
               bad_input: str = "bad input (one line on stderr, never a traceback)", proof: bool = False) -> str:
    """A command's help epilog: what its exit codes mean, in the README's scheme (0 ok, 1 a finding, 2 bad
    input, 3 unknown, 4 a proof its checker rejected, 5 the work failed; 130 interrupted, 143 terminated)."""
    codes = [f"0 {ok}", *([f"1 {finding}"] if finding else []), f"2 {bad_input}",
             *(["3 unknown (a time limit ran out)"] if unknown else []),
             *(["4 the --proof written was rejected by its checker"] if proof else []),
             "5 the work failed (a worker died, say; one line on stderr)", "130 interrupted (Ctrl-C)",
             "143 terminated (SIGTERM)"]
    return textwrap.fill("exit codes: " + "; ".join(codes) + ".", 79)


def time_limit(text: str) -> float:
    """An argparse type for a time limit: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r} "
                                         "(leave the option out for no limit)")
    return value


def output_file(text: str) -> str:
    """An argparse type for an output path: refused (one line, exit 2) unless a file can be written there,
    so that a long solve never ends in a path it cannot write."""
    target = Path(text)
    try:
        if not text:
            problem = "no file name"
        elif target.is_dir():
            problem = "it is a folder"
        elif not target.parent.is_dir():
            problem = f"no folder {target.parent}"
        elif not os.access(target.parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
            problem = "permission denied"
        else:
            return text
    except OSError as error:
        problem = error.strerror
    raise argparse.ArgumentTypeError(f"cannot write {text!r}: {problem}")


def output_file_or_stdout(text: str) -> str:
    """:func:`output_file`, or ``-`` for standard output."""
    return text if text == STDOUT else output_file(text)


def write_output(path: str, text: str) -> None:
    """Write ``text`` to the file at ``path``, or to standard output for ``-``."""
    if path == STDOUT:
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise BadInput(f"cannot write {path}: {error.strerror}") from None

#: The exit code of a command whose DRAT proof the checker rejected.
PROOF_REJECTED = 4


def print_json(payload: dict[str, Any]) -> None:
    """Print one JSON document on stdout."""
    json.dump(payload, sys.stdout, indent=2)
    sys.stdout.write("\n")


def console() -> Console:
    """A console for human-readable output on stdout; lines are not wrapped when it is not a terminal
    (piped text keeps a long command or record on one line)."""
    from rich.console import Console

    out = Console(highlight=False)
    out.soft_wrap = not out.is_terminal
    out.on_broken_pipe = _broken_pipe  # type: ignore[method-assign]
    return out


def _broken_pipe() -> None:
    """Rich exits with code 1 when the reader goes away (`gameproof … | head -1`); the CLI ends quietly instead."""
    raise BrokenPipeError


def progress_console() -> Console:
    """A console on stderr, for progress that must not mix with machine-readable stdout."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def progress_bar(*columns: str | ProgressColumn, quiet: bool) -> Progress:
    """A progress display on stderr that vanishes when done; off when ``quiet`` or when stderr is not a
    terminal (a log file gets no stray lines)."""
    from rich.progress import Progress

    shown = progress_console()
    return Progress(*columns, console=shown, transient=True, disable=quiet or not shown.is_terminal)


@contextmanager
def job_progress(quiet: bool, what: str) -> Iterator[Callable[..., None] | None]:
    """A progress callback for jobs (done, total, elapsed seconds, and optionally a note such as counts of
    answers by kind): a bar with the note, the elapsed time and ETA on stderr; None when `quiet`."""
    if quiet:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    with progress_bar(TextColumn(what), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}"),
                      TimeElapsedColumn(), TimeRemainingColumn(), quiet=quiet) as bar:
        task = bar.add_task(what, total=None, note="")

        def update(done: int, total: int, elapsed: float, note: str = "") -> None:
            bar.update(task, completed=done, total=total, note=note)

        yield update


def formula_size(result: Any) -> str:
    """``N variables, M clauses; encoded in X s, solved in Y s`` for a SAT answer's sizes and times."""
    return (f"{result.variables:,} variables, {result.clauses:,} clauses; encoded in {result.encode_seconds:.2f} s, "
            f"solved in {result.solve_seconds:.2f} s")


def print_proof(out: Console, proof: ProofCheck | None) -> None:
    """Where a DRAT proof was written and what its checker said (a rejection in bold red)."""
    if proof is not None:
        style = "bold red" if proof.accepted is False else None
        out.print(f"DRAT proof: {proof.path} ({proof.describe()})", style=style, markup=False)


def proof_exit_code(code: int, proof: ProofCheck | None) -> int:
    """`code`, or :data:`PROOF_REJECTED` with a line on stderr when the checker rejected the proof."""
    if proof is None or proof.accepted is not False:
        return code
    print(f"gameproof: the DRAT proof {proof.path} was REJECTED by {proof.checker.value}: the refutation is not "
          "confirmed; do not trust this answer", file=sys.stderr)
    return PROOF_REJECTED


def say_remarks(game: Game) -> None:
    """One ``gameproof: note:`` line on stderr for each remark of `game`, what is degenerate about its parameters
    (``mnk:3,3,4``: nobody can make 4 in a row), where a command starts on it."""
    for remark in game.remarks:
        print(f"gameproof: note: {game.name}: {remark}", file=sys.stderr, flush=True)
