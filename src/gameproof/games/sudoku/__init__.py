"""Sudoku on n²×n² boards (4×4, 9×9, 16×16), solved three ways.

- ``checker``: the study's natural Python check, traced into a circuit and solved by SAT
  (:mod:`gameproof.games.sudoku.checker`);
- ``sat``: a direct exactly-one CNF on an incremental solver (:mod:`gameproof.games.sudoku.sat`);
- ``direct``: a numba solver on candidate bitmasks (:mod:`gameproof.games.sudoku.kernels`).

>>> from gameproof.games.sudoku import solve
>>> answer = solve("1...3..2...3..2.")
>>> answer.solution, answer.unique
('1234341221434321', True)
"""

from gameproof.games.sudoku.grid import groups, parse, pretty, read_puzzles, render
from gameproof.games.sudoku.solve import METHODS, Answer, solve, solve_many

__all__ = ["METHODS", "Answer", "groups", "parse", "pretty", "read_puzzles", "render", "solve", "solve_many"]
