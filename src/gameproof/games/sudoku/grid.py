"""Sudoku boards as strings: parsing, validation, the groups (rows, columns, boxes), puzzle files.

A board of box size ``n`` has ``n**2`` rows and columns and holds the digits ``1 .. n**2``. As text it is
one line of ``n**4`` characters, row-major: ``1``-``9`` then ``A``-``G`` for 10-16, and ``0`` or ``.``
for a blank. Internally a board is a list of ints, 0 for a blank. Messages name a cell ``r3c7`` (row 3 from
the top, column 7 from the left) and number the boxes 1.. left to right, then top to bottom.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from gameproof.errors import BadInput

SYMBOLS = "123456789ABCDEFG"
BOX_SIZES = {16: 2, 81: 3, 256: 4}  # characters in a board -> box size n


def box_size(cells: int) -> int:
    """The box size ``n`` of a board with ``cells`` cells (16, 81 or 256)."""
    try:
        return BOX_SIZES[cells]
    except KeyError:
        raise BadInput(f"a sudoku has 16, 81 or 256 cells, got {cells} characters") from None


@functools.cache
def groups(n: int) -> tuple[tuple[int, ...], ...]:
    """The cell indices of every row, then every column, then every box (``3 * n**2`` groups)."""
    size = n * n
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    cols = [tuple(r * size + c for r in range(size)) for c in range(size)]
    boxes = [tuple((br * n + r) * size + bc * n + c for r in range(n) for c in range(n))
             for br in range(n) for bc in range(n)]
    return tuple(rows + cols + boxes)


def parse(text: str) -> list[int]:
    """The cells of a puzzle string (0 for a blank); raises BadInput naming what is wrong."""
    text = text.strip()
    n = box_size(len(text))
    size = n * n
    cells = []
    for index, char in enumerate(text):
        if char in "0.":
            cells.append(0)
            continue
        value = SYMBOLS.find(char.upper()) + 1
        if not 1 <= value <= size:
            raise BadInput(f"character {index + 1} is {char!r}; a {size}x{size} sudoku takes "
                           f"{SYMBOLS[0]}-{SYMBOLS[size - 1]} and 0 or . for a blank")
        cells.append(value)
    repeated = repeated_given(cells)
    if repeated is not None:
        raise BadInput(repeated)
    return cells


def render(cells: list[int]) -> str:
    """The one-line string of a board (``0`` for blanks)."""
    return "".join(SYMBOLS[v - 1] if v else "0" for v in cells)


def pretty(cells: list[int]) -> str:
    """A board as a grid with box borders, for people."""
    n = box_size(len(cells))
    size = n * n
    text = render(cells).replace("0", ".")
    lines = []
    for r in range(size):
        if r and r % n == 0:
            lines.append("-+-".join("-" * (2 * n - 1) for _ in range(n)))
        row = text[r * size:(r + 1) * size]
        lines.append(" | ".join(" ".join(row[b * n:(b + 1) * n]) for b in range(n)))
    return "\n".join(lines)


def repeated_given(cells: list[int]) -> str | None:
    """What the first group that holds a digit twice repeats (rows, then columns, then boxes), e.g. ``the givens
    repeat 5 in row 3 (r3c1 and r3c7)``; None when no group does."""
    n = box_size(len(cells))
    size = n * n
    for index, group in enumerate(groups(n)):
        where: dict[int, list[int]] = {}
        for cell in group:
            if cells[cell]:
                where.setdefault(cells[cell], []).append(cell)
        for digit, found in where.items():
            if len(found) > 1:
                names = [f"r{cell // size + 1}c{cell % size + 1}" for cell in found]
                kind = ("row", "column", "box")[index // size]
                return (f"the givens repeat {SYMBOLS[digit - 1]} in {kind} {index % size + 1} "
                        f"({', '.join(names[:-1])} and {names[-1]})")
    return None


def is_solution_of(solution: list[int], puzzle: list[int]) -> bool:
    """True when ``solution`` is complete, valid and agrees with every given of ``puzzle``."""
    n = box_size(len(puzzle))
    digits = set(range(1, n * n + 1))
    return (len(solution) == len(puzzle) and all(p in (0, s) for p, s in zip(puzzle, solution))
            and all({solution[i] for i in group} == digits for group in groups(n)))


@dataclass(frozen=True)
class Grid:
    """A board for people and notebooks: prints with box borders, ``repr`` round-trips, and Jupyter draws it
    (``_repr_svg_``). ``cells`` is row-major, 0 for a blank."""

    cells: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> Grid:
        """The board of a puzzle string; raises BadInput naming what is wrong."""
        return cls(tuple(parse(text)))

    def __str__(self) -> str:
        return pretty(list(self.cells))

    def __repr__(self) -> str:
        return f"Grid.parse({render(list(self.cells))!r})"

    def _repr_svg_(self) -> str:
        from gameproof.render.sudoku_svg import sudoku_svg

        return sudoku_svg(list(self.cells))


@dataclass
class PuzzleFile:
    """The puzzles of a file (one per line; blank lines and ``#`` comments skipped) and the lines skipped."""

    puzzles: list[list[int]]
    lines: list[int]  # the line number of each puzzle
    skipped: list[str]  # "FILE:LINE: why", for malformed lines (only with skip_malformed)


def read_puzzles(path: str | Path, skip_malformed: bool = False) -> PuzzleFile:
    """Read a puzzle file; a malformed line raises BadInput (``FILE:LINE: what``) unless skipped."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror}") from None
    result = PuzzleFile([], [], [])
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            cells = parse(line)
        except BadInput as error:
            problem = f"{path}:{number}: {_explain(line, error)}"
            if not skip_malformed:
                raise BadInput(f"{problem} (--skip-malformed skips such lines)") from None
            result.skipped.append(problem)
            continue
        result.puzzles.append(cells)
        result.lines.append(number)
    if not result.puzzles and not result.skipped:
        raise BadInput(f"{path} holds no puzzles")
    return result


def _explain(line: str, error: BadInput) -> str:
    """Say what is wrong with a line, naming trailing characters after a well-formed puzzle (unless the line
    is nearer the length of a larger puzzle: 80 characters are a puzzle one short, not 16 and 64 too many)."""
    for cells in sorted(BOX_SIZES, reverse=True):
        larger = min((size for size in BOX_SIZES if size > cells), default=None)
        if len(line) > cells and (larger is None or len(line) - cells < larger - len(line)):
            try:
                parse(line[:cells])
            except BadInput:
                continue
            return f"{len(line) - cells} stray characters {line[cells:cells + 10]!r} after the {cells}-character puzzle"
    return str(error)
