"""The files of one run, what it reads and what it writes, checked before any work: no command destroys a file.

Each command declares its file arguments with :func:`add_input` and :func:`add_output`, and the command line
calls :func:`check_files` once the arguments are parsed, before the command runs. It refuses (one line,
exit 2) an output that is also a file the run reads (the rules file of a game loaded from a file, a harness,
a journal or book it resumes), two outputs on one file, and an existing file an output would replace that is
not what the option writes (a certificate where a certificate goes, and one of the same game and position:
:func:`gameproof.commands.certificate.refuse_another_question`). ``--force`` allows that last replacement,
never the others. Files are compared by what they are (the same inode, through links and other spellings),
not by their names.
"""

from __future__ import annotations

import argparse
import enum
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameproof.commands._output import STDOUT
from gameproof.errors import BadInput

#: The parser default under which a command's file arguments are declared.
DECLARED = "declared_files"
FORCE_HELP = ("replace an existing file where an output goes even when it holds something else (a certificate of "
              "another position, say); never a file this run reads")
#: The bytes of a file's start read to tell what it is.
_HEAD = 1 << 16


class Naming(enum.Enum):
    """How a command-line value names a file that the run reads."""

    GAME = "game"  # FILE.py[:PARAMS] names a game's rules file; a built-in game's name none
    FUNCTION = "function"  # FILE.py::FUNCTION

    def path(self, value: str) -> str | None:
        """The file `value` names, if any."""
        if self is Naming.GAME:
            from gameproof.framework.registry import rules_file

            return rules_file(value)
        return value.rpartition("::")[0] or None

    def what_is_read(self, value: str) -> str:
        """The file `value` names, for a message."""
        return f"the rules file of the game {value}" if self is Naming.GAME else f"the file of {value}"


class Artefact(enum.Enum):
    """What an output option writes. A journal or a book is resumed: read back first, its reader refusing any
    other file; an existing file where another artefact goes is replaced only when it is one already."""

    CERTIFICATE = "a gameproof certificate"
    DRAT = "a DRAT proof"
    DIMACS = "a DIMACS formula"
    SVG = "an SVG drawing"
    DRAWING = "an SVG or PNG drawing"
    PLAYBACK = "a playback test written by `gameproof check`"
    JOURNAL = "a journal"
    BOOK = "a book"
    TABLEBASE = "a gameproof tablebase"

    @property
    def resumed(self) -> bool:
        return self in (Artefact.JOURNAL, Artefact.BOOK)

    def holds(self, path: Path) -> bool:
        """Whether the existing file at `path` is one of these (an empty file holds nothing to lose); not asked of
        a resumed artefact, whose reader says."""
        try:
            with open(path, "rb") as file:
                head = file.read(_HEAD)
            return not head or _RECOGNISED[self](path, head, len(head) < _HEAD)
        except OSError:
            return False


@dataclass(frozen=True)
class _Declared:
    """A file argument: its namespace attribute, how messages name it, and what it reads or writes."""

    dest: str
    label: str
    reads: Naming | None = None
    writes: Artefact | None = None


def add_input(parser: argparse.ArgumentParser, *names: str, reads: Naming, **options: Any) -> argparse.Action:
    """``parser.add_argument(*names, **options)``, declared as naming a file the run reads."""
    action = parser.add_argument(*names, **options)
    _declare(parser, _Declared(action.dest, _label(action), reads=reads))
    return action


def add_output(parser: argparse.ArgumentParser, *names: str, writes: Artefact, **options: Any) -> argparse.Action:
    """``parser.add_argument(*names, **options)``, declared as a file the run writes; the first output of a
    command that may replace a file adds ``--force``."""
    action = parser.add_argument(*names, **options)
    replaced = [declared for declared in _declared(parser) if declared.writes and not declared.writes.resumed]
    _declare(parser, _Declared(action.dest, _label(action), writes=writes))
    if not writes.resumed and not replaced:
        parser.add_argument("--force", action="store_true", help=FORCE_HELP)
    return action


def _label(action: argparse.Action) -> str:
    """How a message names an argument: its option, or its metavar."""
    return action.option_strings[0] if action.option_strings else str(action.metavar or action.dest.upper())


def _declared(parser: argparse.ArgumentParser) -> tuple[_Declared, ...]:
    return parser.get_default(DECLARED) or ()


def _declare(parser: argparse.ArgumentParser, declared: _Declared) -> None:
    parser.set_defaults(**{DECLARED: (*_declared(parser), declared)})


def check_files(args: argparse.Namespace) -> None:
    """BadInput (one line) for an output of the run that is one of its inputs or another of its outputs, or
    that would replace a file that is not what it writes (unless ``args.force``); see the module."""
    declared: tuple[_Declared, ...] = getattr(args, DECLARED, ())
    inputs = [(naming, value, path) for argument in declared if (naming := argument.reads) is not None
              and (value := getattr(args, argument.dest)) is not None and (path := naming.path(value))]
    outputs = [(argument, artefact, path) for argument in declared if (artefact := argument.writes) is not None
               and (path := getattr(args, argument.dest)) not in (None, STDOUT)]
    for index, (output, artefact, path) in enumerate(outputs):
        for other, _, other_path in outputs[:index]:
            if same_file(path, other_path):
                raise BadInput(f"{other.label} {other_path} and {output.label} {path} are one file: give each its own")
        for naming, value, source_path in inputs:
            if same_file(path, source_path):
                raise BadInput(f"{output.label} {path} is {naming.what_is_read(value)}, which this run reads: "
                               "writing there would destroy it")
        if not artefact.resumed and not getattr(args, "force", False):
            refuse_replacing(output.label, path, artefact)


def same_file(first: str, second: str) -> bool:
    """Whether two paths name one file: the same inode where both exist, else the same path once links are
    followed."""
    try:
        if os.path.exists(first) and os.path.exists(second):
            return os.path.samefile(first, second)
        return os.path.realpath(first) == os.path.realpath(second)
    except (OSError, ValueError):  # a path the system refuses is refused by whatever opens it
        return False


def refuse_replacing(label: str, path: str, artefact: Artefact) -> None:
    """BadInput when the regular file at `path` holds something that is not `artefact`."""
    target = Path(path)
    if target.is_file() and not artefact.holds(target):
        raise BadInput(f"{label} {path} exists and is not {artefact.value}: give another file, or --force to "
                       "replace it")


def _is_certificate(path: Path, head: bytes, whole: bool) -> bool:
    from gameproof.certify.records import CertificateReader

    try:
        with CertificateReader(path):
            return True
    except BadInput:
        return False


_TEXT_DRAT_STEP = re.compile(rb"\s*(d\s+)?(-?[1-9][0-9]*\s+)*0\s*")


def _is_drat(path: Path, head: bytes, whole: bool) -> bool:
    """A DRAT proof: lines of literals ending in 0 (``d`` first for a deletion), or the binary form: steps
    ``a`` or ``d``, literals in 7-bit groups (the last without the high bit), then a zero byte."""
    lines = [line for line in _complete(head.split(b"\n"), whole) if line.strip()]
    if lines and all(_TEXT_DRAT_STEP.fullmatch(line) for line in lines):
        return True
    steps = head.split(b"\0")
    if whole and steps[-1]:  # the file ends within a step
        return False
    steps.pop()  # nothing, or a step cut off where the start read ends
    return bool(steps) and all(step[:1] in (b"a", b"d") and (len(step) == 1 or step[-1] < 0x80) for step in steps)


_DIMACS_HEADER = re.compile(rb"p\s+cnf\s+[0-9]+\s+[0-9]+\s*")


def _is_dimacs(path: Path, head: bytes, whole: bool) -> bool:
    """A DIMACS formula: comment lines (``c``), then ``p cnf VARIABLES CLAUSES``."""
    for line in _complete(head.split(b"\n"), whole):
        if line.strip() and not line.lstrip().startswith((b"c", b"%")):
            return _DIMACS_HEADER.fullmatch(line.strip()) is not None
    return False


_SVG_START = re.compile(rb"(\xef\xbb\xbf)?\s*(<\?xml[^>]*>\s*)?(<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]", re.S)


def _is_svg(path: Path, head: bytes, whole: bool) -> bool:
    return _SVG_START.match(head) is not None


def _is_drawing(path: Path, head: bytes, whole: bool) -> bool:
    return head.startswith(b"\x89PNG\r\n\x1a\n") or _is_svg(path, head, whole)


def _is_playback(path: Path, head: bytes, whole: bool) -> bool:
    from gameproof.logic.playback import MARK

    return head.startswith(MARK.encode())


def _complete(pieces: list[bytes], whole: bool) -> list[bytes]:
    """The pieces of a file's start split at a separator, less the last one, which the separator did not end
    (all of them, when `whole`: the start is the whole file)."""
    return pieces if whole else pieces[:-1]


def _is_tablebase(path: Path, head: bytes, whole: bool) -> bool:
    from gameproof.search.tablebase.table import MAGIC

    return head.startswith(MAGIC)


_RECOGNISED: dict[Artefact, Callable[[Path, bytes, bool], bool]] = {
    Artefact.CERTIFICATE: _is_certificate, Artefact.DRAT: _is_drat, Artefact.DIMACS: _is_dimacs,
    Artefact.SVG: _is_svg, Artefact.DRAWING: _is_drawing, Artefact.PLAYBACK: _is_playback,
    Artefact.TABLEBASE: _is_tablebase,
}
