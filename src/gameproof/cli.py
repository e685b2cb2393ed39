"""The `gameproof` command: one entry point, a subcommand per capability."""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
from collections.abc import Sequence
from contextlib import nullcontext
from typing import NoReturn

from gameproof import __version__
from gameproof.commands import (book, certificate, check, demo, games, mnk, othello, reach, render, results, sudoku,
                                tablebase, tui)
from gameproof.commands._files import check_files
from gameproof.commands._output import exit_codes
from gameproof.errors import BadInput, RunFailed
from gameproof.interrupts import INTERRUPTED, Terminated, exit_code, handling_signals, say_interrupted

COMMAND_MODULES = (games, othello, mnk, book, tablebase, demo, check, certificate, sudoku, render, tui, reach, results)
#: Seconds a command runs before Python's cyclic garbage collector starts (see :func:`run_as_program`).
STARTUP_SECONDS = 2.0


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors become one clear line (exit 2) instead of a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        if message.endswith("expected one argument"):
            message += " (a value that starts with '-' needs the --option=VALUE form)"
        raise BadInput(f"{message} (see `{self.prog} --help`)")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> object:
        """An option's value as given, ``--`` too (``--moves=--``): argparse would drop it as the end of the
        options and give the option an empty list for a value."""
        if arg_strings == ["--"] and action.option_strings and action.nargs is None:
            return self._get_value(action, "--")
        return super()._get_values(action, arg_strings)


class _CommandParser(_Parser):
    """The top-level parser: it puts in the game subcommand where a game name follows a command that has one."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        argv = list(sys.argv[1:] if args is None else args)
        _refuse_unencodable(argv)
        return super().parse_known_args(with_game_subcommand(self, argv), namespace)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """The arguments; unrecognised ones are refused with the help of the subcommand they were given to (argparse
        would point to the top-level help)."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            raise BadInput(f"unrecognized arguments: {' '.join(extras)} (see `{parsed.help_command} --help`)")
        return parsed


def _refuse_unencodable(argv: list[str]) -> None:
    """BadInput for an argument that is no text a file name or a message can hold (a lone surrogate that no
    command line gives: those decode from bytes to U+DC80..U+DCFF, which encode back)."""
    for argument in argv:
        try:
            os.fsencode(argument)
        except UnicodeEncodeError:
            raise BadInput(f"argument {ascii(argument)} is not valid text") from None


def _escape_unencodable_output() -> None:
    """Print what the output streams' encoding cannot hold (a file name from bytes that are not UTF-8, under a
    strict UTF-8 locale) as backslash escapes instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def build_parser() -> argparse.ArgumentParser:
    parser = _CommandParser(
        prog="gameproof",
        description="Answer hard questions about games and puzzles: rules in Python, reasoning by SAT and search.",
        epilog=_group_exit_codes(),
    )
    parser.add_argument("-V", "--version", action="version", version=f"gameproof {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    for module in COMMAND_MODULES:
        module.register(commands)
    _complete_help(parser)
    return parser


def _complete_help(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand a description (its one-line help, where it has none) and an epilog with its exit
    codes where it declares none of its own (:func:`exit_codes`; for a group, every code a command may use)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                sub = action.choices[choice.dest]
                sub.description = sub.description or f"{choice.help[0].upper()}{choice.help[1:]}."
                _complete_help(sub)
    if parser.epilog is None:
        parser.epilog = _group_exit_codes() if _subcommands(parser) else exit_codes()
    parser.set_defaults(help_command=parser.prog)  # the innermost command given sets it last


def _group_exit_codes() -> str:
    """The exit codes of a command that holds others: those any command may use (each names its own)."""
    return (exit_codes("success (verified, satisfied, sat, reachable)",
                       "a finding (counterexample, unsatisfiable, unsat, unreachable)",
                       unknown=True, proof=True) + " Each command's --help says which it uses.")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's subcommands by name (none if it has none)."""
    found = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return found[0].choices if found else {}


def with_game_subcommand(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`argv` with the game subcommand put in where a command that has one is followed by a word that is
    neither one of its subcommands nor an option (a game name such as ``connect4:5,4``)."""
    if len(argv) < 2 or argv[1].startswith("-"):
        return argv
    command = _subcommands(parser).get(argv[0])
    subcommands = _subcommands(command) if command is not None else {}
    if tui.GAME_SUBCOMMAND in subcommands and argv[1] not in subcommands:
        return [argv[0], tui.GAME_SUBCOMMAND, *argv[1:]]
    return argv


def run_as_program() -> NoReturn:
    """The program (``gameproof``, ``python -m gameproof``): :func:`main` in a process of its own, with Python's
    cyclic garbage collector paused for the first :data:`STARTUP_SECONDS`. Starting a command imports numba and
    loads compiled kernels, some million objects that live as long as the process, and the collector would walk
    them again and again as they grow (0.2 to 0.3 s of a 1 s command); afterwards it runs as usual over what is
    new, the objects of the start-up frozen out of its reach.

    multiprocessing's resource tracker (a process of its own, started with this one's warning options) removes the
    semaphores of worker pools that an interrupted command ended without closing, as it should, but warns of each
    on stderr, after the one line an interruption prints: it removes them here without the warning."""
    sys.warnoptions.append("ignore::UserWarning:multiprocessing.resource_tracker")
    gc.disable()
    resume = threading.Timer(STARTUP_SECONDS, _collect_from_now_on)
    resume.daemon = True
    resume.start()
    os.register_at_fork(after_in_child=_collect_from_now_on)  # a child has no timer: it collects from its start
    sys.exit(main())


def _collect_from_now_on() -> None:
    """End the start-up's pause of the collector (once: a child forked after it has nothing to end)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 2 bad input; commands define others). Ctrl-C and
    SIGTERM end it within two seconds as an exception would (exit code 130, 143), stopping any solver
    processes it started (see :mod:`gameproof.interrupts`)."""
    # numpy's OpenBLAS would start threads that spin beside the searches on the same cores; nothing here uses
    # BLAS (set before numpy is first imported, which the commands do lazily).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    in_main_thread = threading.current_thread() is threading.main_thread()
    with handling_signals() if in_main_thread else nullcontext():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    args = None
    try:
        _escape_unencodable_output()
        args = build_parser().parse_args(argv)
        check_files(args)
        return args.handler(args)
    except BadInput as error:
        print(f"gameproof: error: {error}{_see_help(args, error)}", file=sys.stderr)
        return 2
    except RunFailed as error:
        print(f"gameproof: failed: {error}", file=sys.stderr)
        return 5
    except (KeyboardInterrupt, Terminated) as interruption:
        say_interrupted(interrupted_line(interruption))
        return exit_code(interruption)
    except BrokenPipeError:  # the reader stopped early (`| head -1`): not an error, and nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the final flush must not fail again
        return 0
    except OSError as error:  # a path given that the system refuses (a name too long, no permission, a full disk)
        where = f"{str(error.filename)[:80]}: " if error.filename else ""
        print(f"gameproof: error: {where}{error.strerror or error}", file=sys.stderr)
        return 2
    except ValueError as error:  # BadInput is one too, and said above
        if not _too_long_a_number(error):
            raise
        print(f"gameproof: error: a number of more than {sys.get_int_max_str_digits():,} digits, which Python will "
              "not write or read as text: numbers that rules give, and those in gameproof's files, fit in 64 bits",
              file=sys.stderr)
        return 2


def _see_help(args: argparse.Namespace | None, error: BadInput) -> str:
    """`` (see `gameproof solve --help`)`` after a refusal of an option's value by the command that `args` ran (a
    message that starts with the option: ``--tt-mb must be ...``); nothing for other errors."""
    if args is None or not str(error).startswith("--"):
        return ""
    return f" (see `{args.help_command} --help`)"


def _too_long_a_number(error: ValueError) -> bool:
    """Whether `error` is Python's refusal to convert an int of more digits than its limit to or from text. A number
    that long comes only from the input (what a rules file computes, a file's field) wherever a message or a reader
    meets it; the places that expect one say more."""
    return "integer string conversion" in str(error)


def interrupted_line(interruption: BaseException) -> str:
    """The one line of an interrupted command: ``gameproof: interrupted``, then what the command noted on the
    way out (``add_note``: whether its journal was saved, say)."""
    return "; ".join([INTERRUPTED, *getattr(interruption, "__notes__", ())])


if __name__ == "__main__":
    sys.exit(main())
