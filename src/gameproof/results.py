"""The results page's claims, and how each is re-checked by its certificate (docs/results.md).

A game value is re-checked by solving the game again, writing its certificate and having the independent
checker (:mod:`gameproof.certify.check`, the rules on Python ints) accept it; the value of every first move
is compared too, and where the board has an even number of cells the misère symmetry argument (the second
player mirrors through the centre, so the first player never wins) is checked against the value. A game
value may be of any declared game or rules file (``examples/domineering.py:4,4``), and may carry the
published source it reproduces: a game whose kernels look ahead (Connect Four), which no certificate can
show, is solved by its other engine as well, move by move; a game that may repeat a position (Dodgem,
Three Men's Morris) by its tablebase, which the independent tablebase checker accepts. An
Othello extreme is re-checked by replaying its witness and refuting the next value up with a DRAT proof
that a named checker verifies; the points of the mobility curve past SAT's reach by playing every game out
twice, once merging transpositions and symmetric images and once merging nothing, and (the shorter ones) a
third time by the independent checker.
"""

from __future__ import annotations

import enum
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gameproof.answers import Status, Value, Variant

#: Boards up to this many cells are also solved by the plain minimax reference (a second route).
REFERENCE_CELLS = 16


class Size(enum.Enum):
    """How long a re-check takes: small ones run in `make test`, large ones in `gameproof results check` too;
    a huge one (a solve of hours) is re-checked from a certificate file given to it."""

    SMALL = "small"
    LARGE = "large"
    HUGE = "huge"

    @property
    def table_mb(self) -> int:
        """The transposition table, in MiB, of a solve that re-checks a result of this size."""
        return 2048 if self is Size.LARGE else 256


class FirstMoves(enum.Enum):
    """Which first moves achieve a game's value, where they are not named one by one."""

    EVERY = "every first move"
    UNSOLVED = "not solved one by one (the value only)"


@dataclass(frozen=True)
class GameValue:
    """The value of a game from its start for the first player, and the first moves that achieve it.

    ``game`` is a declared game's name (``mnk-misere:5,4,3``, ``connect4:5,4``) or a rules file with its
    parameters, relative to the checkout (``examples/domineering.py:4,4``). ``source``, where given, is the
    published result this one reproduces (author, year, title: docs/results.md, "Published results,
    reproduced")."""

    game: str
    value: Value
    best_moves: tuple[str, ...] | FirstMoves
    size: Size
    note: str = ""
    source: str = ""

    @property
    def name(self) -> str:
        return self.game


@dataclass(frozen=True)
class OthelloFlips:
    """The most discs one move flips in a reachable Othello position: ``most`` found within ``plies``, one
    more refuted within every game."""

    most: int
    plies: int
    size: Size

    @property
    def name(self) -> str:
        return "othello-most-flips"


class Refutation(enum.Enum):
    """How an Othello extreme's next value up is ruled out."""

    DRAT = "refuted by SAT, its DRAT proof checked"
    ENUMERATION = "every game played out, two ways"


@dataclass(frozen=True)
class OthelloMobility:
    """The most legal moves of the side to move after exactly ``plies`` moves (passes free), strict rules."""

    plies: int
    most: int
    size: Size
    refuted_by: Refutation = Refutation.DRAT

    @property
    def name(self) -> str:
        return f"othello-mobility-{self.plies}"


Result = GameValue | OthelloFlips | OthelloMobility

TROMP = "John Tromp, John's Connect Four Playground (tromp.github.io/c4/c4.html), table of width × height"
LACHMANN = ("M. Lachmann, C. Moore and I. Rapaport, \"Who wins Domineering on rectangular boards?\", More Games of "
            "No Chance, MSRI Publications 42 (2002)")
UITERWIJK = "J. W. H. M. Uiterwijk, \"Perfectly Solving Domineering Boards\", CGW 2013, CCIS 408 (2014)"
NASH = ("every n×n board a first-player win: John Nash's strategy-stealing argument (R. B. Hayward and B. Toft, "
        "Hex, Inside and Out: The Full Story, CRC Press 2019)")
GARDNER = "M. Gardner, \"Mathematical Games\", Scientific American, March 1962 (hexapawn)"
CHARATSIDIS = ("V. Charatsidis, \"Solving Four-in-a-Row on 9×4 and 10×4 Boards\", BSc thesis, Maastricht University, "
               "2017 (introduction: 1×4 to 8×4 and 5×5 draws; slideshare.net/slideshow/thesis-paper-70652251)")
DOMINEERING = "examples/domineering.py"
HEXAPAWN = "examples/hexapawn.py"
CRAM = "examples/cram.py"
CRAM_SYMMETRY = ("Wikipedia, \"Cram (game)\", Symmetry play (en.m.wikipedia.org/wiki/Cram_(game); Cram popularized by "
                 "M. Gardner in Scientific American): even × even a second-player win, even × odd a first-player win")
LITTLE_GOLEM = ("\"Tasmanian Devil\", \"5x5 solved\", Little Golem Breakthrough forum, 2006-12-03 "
                "(littlegolem.net/jsp/forum/topic2.jsp?forum=120&topic=19): two full rows each, a win for Black, the "
                "second player, in 26 moves")


def _domineering(rows: int, cols: int, value: Value, source: str = UITERWIJK) -> GameValue:
    return GameValue(f"{DOMINEERING}:{rows},{cols}", value, FirstMoves.UNSOLVED, Size.SMALL, source=source)


#: Published values of small boards of the games gameproof ships, reproduced (docs/results.md, "Published
#: results, reproduced"; the table there gives each source in full).
PUBLISHED: tuple[GameValue, ...] = (
    *(GameValue(f"connect4:{w},{h}", value, FirstMoves.UNSOLVED, size, source=TROMP)
      for (w, h), value, size in (((4, 4), Value.DRAW, Size.SMALL), ((5, 4), Value.DRAW, Size.SMALL),
                                  ((6, 4), Value.LOSS, Size.SMALL), ((4, 5), Value.DRAW, Size.SMALL),
                                  ((7, 4), Value.DRAW, Size.LARGE), ((5, 5), Value.DRAW, Size.LARGE),
                                  ((4, 6), Value.DRAW, Size.LARGE), ((6, 5), Value.DRAW, Size.LARGE),
                                  ((5, 6), Value.DRAW, Size.LARGE), ((7, 5), Value.DRAW, Size.LARGE),
                                  ((6, 6), Value.LOSS, Size.LARGE), ((4, 7), Value.DRAW, Size.SMALL),
                                  ((4, 8), Value.DRAW, Size.LARGE), ((5, 7), Value.DRAW, Size.LARGE),
                                  ((8, 4), Value.LOSS, Size.LARGE))),
    _domineering(2, 2, Value.WIN, LACHMANN),
    *(_domineering(rows, 3, Value.WIN) for rows in (2, 3, 4, 6)),      # every m×3 board, m > 1: Vertical
    *(_domineering(rows, 5, Value.WIN) for rows in (2, 4)),            # 2k×5: Vertical
    *(_domineering(3, cols, Value.LOSS) for cols in (4, 5, 6)),        # 3×n, n > 3: Horizontal
    *(_domineering(5, cols, Value.LOSS) for cols in (2, 4)),           # 5×2k: Horizontal
    GameValue("hex:2", Value.WIN, ("a2", "b1"), Size.SMALL, source=NASH),
    GameValue("hex:3", Value.WIN, ("a2", "a3", "b2", "c1", "c2"), Size.SMALL, source=NASH),
    GameValue("hex:4", Value.WIN, ("a4", "b3", "c2", "d1"), Size.SMALL, source=NASH),
    GameValue(f"{HEXAPAWN}:3,3", Value.LOSS, FirstMoves.EVERY, Size.SMALL, source=GARDNER),
    *(GameValue(f"{CRAM}:{rows},{cols}", value, FirstMoves.UNSOLVED, Size.SMALL, source=CRAM_SYMMETRY)
      for rows, cols, value in ((2, 2, Value.LOSS), (2, 4, Value.LOSS), (4, 4, Value.LOSS),
                                (2, 3, Value.WIN), (3, 4, Value.WIN), (2, 5, Value.WIN))),
    GameValue("breakthrough:5,5", Value.LOSS, FirstMoves.UNSOLVED, Size.LARGE, source=LITTLE_GOLEM),
    GameValue("mnk:3,3,3", Value.DRAW, FirstMoves.EVERY, Size.SMALL,
              source="tic-tac-toe a draw: the m,n,k-game article (probsee.com/p/M%2Cn%2Ck-game)"),
    GameValue("mnk:4,5,4", Value.DRAW, FirstMoves.UNSOLVED, Size.LARGE, source=CHARATSIDIS),
    GameValue("mnk:4,6,4", Value.DRAW, FirstMoves.UNSOLVED, Size.LARGE, source=CHARATSIDIS),
    GameValue("othello:4", Value.LOSS, FirstMoves.EVERY, Size.SMALL,
              source="Wikipedia, \"Reversi\": on 4×4 and 6×6 boards the second player wins"),
    GameValue("othello:6", Value.LOSS, FirstMoves.UNSOLVED, Size.LARGE,
              source="J. Feinstein, 1993: Perfect play in 6x6 Othello (maths.nottingham.ac.uk/plp/pmzjff/Othello)"),
    GameValue("dots-boxes:2,2", Value.WIN, FirstMoves.UNSOLVED, Size.SMALL,
              source="Puzzling Stack Exchange, \"Optimal play for 2 by 2 Dots and Boxes\" (docs/games.md)"),
    GameValue("dots-boxes:3,3", Value.LOSS, FirstMoves.EVERY, Size.LARGE,
              source="D. Wilson, Dots-and-Boxes Analysis Results (wilson.engr.wisc.edu/boxes/results.shtml)"),
    GameValue("dodgem:3", Value.WIN, ("a3-b3",), Size.SMALL,
              source="Berlekamp, Conway and Guy, Winning Ways, as Wikipedia's \"Dodgem\" reports (docs/games.md)"),
    GameValue("morris3", Value.WIN, ("b2-b2",), Size.SMALL,
              source="Wikipedia, \"Three men's morris\" (docs/games.md)"),
)

RESULTS: tuple[Result, ...] = (
    GameValue("mnk-notakto:4,4,3", Value.WIN, ("a1", "d1", "a4", "d4"), Size.SMALL),
    GameValue("mnk-notakto:4,5,3", Value.WIN, ("a1", "c1", "e1", "a2", "e2", "a3", "e3", "a4", "c4", "e4"), Size.SMALL),
    GameValue("mnk-notakto:5,5,3", Value.LOSS, FirstMoves.EVERY, Size.SMALL),
    GameValue("mnk-notakto:6,6,3", Value.LOSS, FirstMoves.EVERY, Size.LARGE),
    GameValue("mnk-misere:5,4,3", Value.LOSS, FirstMoves.EVERY, Size.SMALL),
    GameValue("mnk-misere:6,4,3", Value.LOSS, FirstMoves.EVERY, Size.LARGE),
    GameValue("mnk-misere:5,4,4", Value.DRAW, FirstMoves.EVERY, Size.LARGE),
    GameValue("mnk-misere:5,5,4", Value.DRAW, FirstMoves.UNSOLVED, Size.HUGE,
              note="a solve of 94 minutes on two workers and a 36-minute certificate of 1 GB"),
    OthelloFlips(18, 44, Size.LARGE),
    *(OthelloMobility(plies, most, Size.SMALL if plies <= 5 else Size.LARGE)
      for plies, most in enumerate((3, 5, 6, 9, 11, 12, 14, 15, 16, 18), start=1)),
    *(OthelloMobility(plies, most, Size.LARGE, Refutation.ENUMERATION)
      for plies, most in enumerate((20, 21, 22, 23), start=11)),
    *PUBLISHED,
)


@dataclass
class Check:
    """One result re-checked: whether it holds, what was checked, and how long it took."""

    name: str
    holds: bool
    checks: list[str] = field(default_factory=list)
    problem: str | None = None
    seconds: float = 0.0


def check(result: Result, certificate: str | None = None, workers: int = 1) -> Check:
    """Re-check one result by its certificate (and a second route where one exists). A game value is solved
    again, unless `certificate` names a certificate file of it, which the checker then checks (on `workers`
    processes); a huge one needs that file."""
    from gameproof.errors import BadInput

    started = time.perf_counter()
    if certificate is not None and not isinstance(result, GameValue):
        raise BadInput(f"--certificate: {result.name} is not a game value (its re-check solves again)")
    if certificate is not None:
        report = _check_given(result, certificate, workers)
    elif result.size is Size.HUGE:
        raise BadInput(f"{result.name} is re-checked from its certificate: give --certificate FILE ({result.note})")
    elif isinstance(result, GameValue):
        report = _check_value(result)
    elif isinstance(result, OthelloFlips):
        report = _check_flips(result)
    else:
        report = _check_mobility(result)
    report.seconds = time.perf_counter() - started
    return report


def _is_mnk(game: str) -> bool:
    """Whether `game` names an m,n,k game (checked by the m,n,k route: its reference and the mirror argument)."""
    return game.partition(":")[0] in ("mnk", "mnk-misere", "mnk-notakto")


#: The checkout this module is part of: rules files of the results (``examples/…``) are found from here too.
CHECKOUT = Path(__file__).resolve().parents[2]


def _source(game: str) -> str:
    """The name to load `game` by: a rules file that is not there from here is looked for in the checkout."""
    path, colon, parameters = game.partition(":")
    if path.endswith(".py") and not Path(path).exists() and (CHECKOUT / path).exists():
        return f"{CHECKOUT / path}{colon}{parameters}"
    return game


def _loaded_name(game: str) -> str:
    """The name `game` loads as (a rules file's game by its declared name: ``domineering:4,4``)."""
    from gameproof.framework.registry import load_game

    return load_game(_source(game)).name


def _claimed(result: GameValue, best: list[str], every: list[str]) -> list[str]:
    """The first moves `result` claims achieve its value (`best`: those solved to; `every`: the legal ones)."""
    if result.best_moves is FirstMoves.UNSOLVED:
        return best
    if result.best_moves is FirstMoves.EVERY:
        return every
    return sorted(result.best_moves)


def _moves_said(result: GameValue) -> str:
    return result.best_moves.value if isinstance(result.best_moves, FirstMoves) else \
        f"best first moves {' '.join(result.best_moves)}"


def _check_declared(result: GameValue) -> Check:
    """Re-check the value of a declared game (or a rules file's) other than m,n,k: df-pn (or the game's engine)
    and a certificate that the independent checker accepts; where the kernels look ahead, which no certificate
    shows, the other engine move by move instead; a game that may repeat a position, by its tablebase."""
    from gameproof.framework.declaration import Engine
    from gameproof.framework.registry import load_game
    from gameproof.framework.state import RulesState
    from gameproof.api.running import options_for
    from gameproof.search.solve import kept_search, solve

    source = _source(result.game)
    game = load_game(source)
    state = RulesState(game)
    if game.spec.repetition is not None:
        return _check_by_tablebase(result, state)
    report = Check(result.name, False)
    options = options_for(game, result.size.table_mb)  # the game's own weight and ε
    with_moves = result.best_moves is not FirstMoves.UNSOLVED
    solution = solve(state, options, with_moves=with_moves, keep_table=not game.spec.lookahead)
    best = sorted(state.move_name(m) for m, v in solution.moves.items() if v == solution.value)
    every = sorted(state.move_name(m) for m in state.legal_moves())
    if solution.value != result.value or with_moves and best != _claimed(result, best, every):
        report.problem = f"solved {solution.value}" + (f" with best first moves {' '.join(best)}" if with_moves else "")
        return report
    engine = game.spec.engine
    report.checks.append(f"{engine.value}: {solution.value}, {_moves_said(result)}")
    if game.spec.lookahead:
        other = Engine.DFPN if engine is Engine.ALPHABETA else Engine.ALPHABETA
        second = solve(state, options, with_moves=True, engine=other)
        again = solve(state, options, with_moves=True, engine=engine) if not with_moves else solution
        if second.value != result.value or second.moves != again.moves:
            report.problem = f"{other.value} disagrees: {second.value}, " + " ".join(
                f"{state.move_name(m)} {v}" for m, v in second.moves.items())
            return report
        report.checks.append(f"{other.value} agrees, move by move (no certificate: the kernels look ahead, which "
                             "a certificate cannot show)")
        report.holds = True
        return report
    from gameproof.search.certificate import certify

    certificate = certify(state, kept_search(game, options), source=source)
    return _accepted(report, result, certificate)


def _accepted(report: Check, result: GameValue, certificate: Any) -> Check:
    """`report` once the checker has checked `certificate` (written to a file) against `result`'s value."""
    if _certificate_checked(report, result, certificate):
        report.holds = True
    return report


def _certificate_checked(report: Check, result: GameValue, certificate: Any) -> bool:
    """Whether the independent checker accepts `certificate` (written to a file) of `result`'s value; noted in
    `report` either way (its problem, or a check)."""
    from gameproof.certify.check import check_certificate
    from gameproof.certify.records import write_certificate

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "value.cert"
        write_certificate(path, certificate.header, certificate.parts)
        checked = check_certificate(str(path))
    if not checked.accepted or checked.value != result.value:
        report.problem = f"certificate not accepted: {checked.finding.message if checked.finding else checked.value}"
        return False
    report.checks.append(f"certificate of {certificate.nodes:,} positions accepted by the independent checker")
    return True


def _check_by_tablebase(result: GameValue, state: Any) -> Check:
    """Re-check the value of a game that may repeat a position by its tablebase: built, accepted by the
    independent tablebase checker entry by entry, and read at the start and after each first move."""
    from gameproof.certify.tablebase_check import check_tablebase
    from gameproof.search.tablebase.build import build
    from gameproof.search.tablebase.query import Tablebase

    report = Check(result.name, False)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.tb"
        built = build(state.game, path)
        answer = Tablebase(path).answer(state)
        best = sorted(state.move_name(m) for m, worth in answer.moves.items() if worth.value == answer.worth.value)
        every = sorted(state.move_name(m) for m in state.legal_moves())
        if answer.worth.value != result.value or best != _claimed(result, best, every):
            report.problem = f"solved {answer.worth.value} with best first moves {' '.join(best)}"
            return report
        report.checks.append(f"tablebase of {built.positions:,} positions: {answer.worth.value}, {_moves_said(result)}")
        checked = check_tablebase(str(path))
    if not checked.accepted:
        report.problem = f"tablebase not accepted: {'; '.join(checked.problems[:1])}"
        return report
    report.checks.append(f"tablebase of {checked.positions:,} positions accepted by the independent tablebase checker")
    report.holds = True
    return report


def _check_value(result: GameValue) -> Check:
    if not _is_mnk(result.game):
        return _check_declared(result)
    from gameproof.games.mnk.state import MnkGame, MnkState
    from gameproof.search.certificate import certify
    from gameproof.api.running import options_for
    from gameproof.search.solve import kept_search, solve

    report = Check(result.name, False)
    state = MnkState(MnkGame.from_name(result.game))
    options = options_for(state.game, result.size.table_mb)
    solution = solve(state, options, keep_table=True)
    best = sorted(state.move_name(m) for m, v in solution.moves.items() if v == solution.value)
    if solution.value != result.value or best != _claimed(result, best, sorted(
            state.move_name(m) for m in state.legal_moves())):
        report.problem = f"solved {solution.value} with best first moves {' '.join(best)}"
        return report
    report.checks.append(f"df-pn: {solution.value}, {_moves_said(result)}")
    certificate = certify(state, kept_search(state.game, options))
    if not _certificate_checked(report, result, certificate):
        return report
    board = state.game.board
    if board.rows * board.cols <= REFERENCE_CELLS:
        from gameproof.games.mnk import reference

        plain = reference.move_values("-" * board.rows * board.cols, board.rows, board.cols, state.game.k,
                                      state.game.variant)
        plain_best = sorted(state.move_name(m) for m, v in plain.items() if Value.of_score(v) == result.value)
        if Value.of_score(max(plain.values())) != result.value or plain_best != best:
            report.problem = f"plain minimax disagrees: {Value.of_score(max(plain.values()))}, {' '.join(plain_best)}"
            return report
        report.checks.append("plain minimax (the m,n,k reference) agrees, move by move")
    report.holds = _mirror_consistent(result, report)
    return report


def _mirror_consistent(result: GameValue, report: Check) -> bool:
    """Whether a misère value is consistent with the mirror argument (noted in `report`): on a board of an even
    number of cells the first player never wins."""
    from gameproof.games.mnk.state import MnkGame

    if not _is_mnk(result.game):
        return True
    game = MnkGame.from_name(result.game)
    if game.variant is Variant.MISERE and game.board.rows * game.board.cols % 2 == 0:
        if result.value is Value.WIN:
            report.problem = "a misère board with an even number of cells cannot be a first-player win"
            return False
        report.checks.append("consistent with the mirror argument (even cells: no first-player win)")
    return True


def _check_given(result: GameValue, path: str, workers: int) -> Check:
    """Re-check a game value by the certificate in the file `path` (of the game's start): BadInput when it is a
    certificate of something else."""
    from gameproof.certify.check import check_certificate
    from gameproof.certify.records import CertificateReader
    from gameproof.errors import BadInput

    with CertificateReader(path) as reader:
        header = reader.header
    if header.game != result.game and (_is_mnk(result.game) or header.game != _loaded_name(result.game)):
        raise BadInput(f"--certificate: {path} is a certificate of {header.game}, not of {result.game}")
    if header.moves:
        raise BadInput(f"--certificate: {path} is a certificate of {result.game} after {header.played!r}, not of "
                       "its start")
    report = Check(result.name, False)
    checked = check_certificate(path, workers=workers)
    if not checked.accepted or checked.value is not result.value:
        report.problem = f"certificate not accepted: {checked.finding.message if checked.finding else checked.value}"
        return report
    positions = sum(part.checked for part in checked.parts)
    report.checks.append(f"the certificate {path} ({positions:,} positions) accepted by the independent checker: "
                         f"{checked.value} for the first player")
    report.holds = _mirror_consistent(result, report)
    return report


def _check_flips(result: OthelloFlips) -> Check:
    from gameproof.games.othello.notation import square_name
    from gameproof.games.othello.reach import solve_flips

    report = Check(result.name, False)
    found = solve_flips(result.most, result.plies, "cadical195")
    if found.status is not Status.SAT or found.flipped < result.most:
        report.problem = f"{result.most} flips: {found.status}"
        return report
    report.checks.append(f"{result.most} flips: witness {found.witness.record} replayed, "
                         f"{found.flipped} discs flipped by {square_name(found.square)}")
    report.holds = _refuted(report, f"{result.most + 1} flips",
                            lambda proof: solve_flips(result.most + 1, None, "cadical195", proof=proof))
    return report


def _check_mobility(result: OthelloMobility) -> Check:
    from gameproof.games.othello.reach import solve_reach

    if result.refuted_by is Refutation.ENUMERATION:
        return _check_mobility_by_enumeration(result)
    report = Check(result.name, False)
    found = solve_reach(result.most, result.plies, solver="cadical195", exact=True)
    if found.status is not Status.SAT:
        report.problem = f"{result.most} legal moves after exactly {result.plies} moves: {found.status}"
        return report
    report.checks.append(f"{result.most} legal moves: witness {found.witness.record or '(the start)'} replayed")
    if result.size is Size.LARGE:
        report.holds = _refuted_by_cubes(report, result.most + 1, result.plies)
    else:
        report.holds = _refuted(report, f"{result.most + 1} legal moves",
                                lambda proof: solve_reach(result.most + 1, result.plies, solver="cadical195",
                                                          exact=True, proof=proof))
    return report


def _check_mobility_by_enumeration(result: OthelloMobility) -> Check:
    """Every game of the result's length played out twice, merging transpositions and symmetric images and
    merging nothing; the first route's witness replayed on the rules."""
    from gameproof.certify.mobility_check import check_mobility
    from gameproof.games.othello.mobility import most_legal_moves, most_legal_moves_plainly

    report = Check(result.name, False)
    peak = most_legal_moves(result.plies, threads=CUBE_WORKERS)
    report.checks.append(f"{peak.most} legal moves: witness {peak.witness.record} replayed")
    report.checks.append(f"every game of {result.plies} moves played out: at most {peak.most} legal moves "
                         f"({peak.kept:,} positions after {peak.kept_plies} moves, transpositions and symmetric "
                         f"images merged)")
    plainly = most_legal_moves_plainly(result.plies, threads=CUBE_WORKERS)
    report.checks.append(f"every game followed on with nothing merged: at most {plainly} legal moves")
    if peak.most != result.most or plainly != result.most:
        report.problem = f"played out: {peak.most} and {plainly} legal moves, not {result.most}"
        return report
    if result.plies <= INDEPENDENT_PLIES:
        counted = check_mobility(result.plies, peak.witness.record, workers=CUBE_WORKERS)
        report.checks.append(f"counted again by the independent checker (the rules on Python ints, no search code): "
                             f"at most {counted.most} legal moves, the witness "
                             f"{'reaches them' if counted.witness_reaches else 'does not reach them'}")
        if not counted.holds(result.most):
            report.problem = f"the independent checker counts {counted.most} legal moves, not {result.most}, or the " \
                             f"witness does not reach them"
            return report
    report.holds = True
    return report


#: The longest games an enumerated mobility point is also counted for by the independent checker (about ten
#: minutes on two processes for 11 moves, seven times as long a move more).
INDEPENDENT_PLIES = 11


#: Workers for the large refutations, which run as jobs (cube-and-conquer, docs/results.md).
CUBE_WORKERS = 2


def _refuted_by_cubes(report: Check, min_legal: int, plies: int) -> bool:
    """Whether `min_legal` legal moves after exactly `plies` moves is refuted by cubes solved as jobs, every
    cube's DRAT proof and the proof that the cubes cover every game accepted by its checker (noted in
    `report`)."""
    from gameproof.games.othello.cubes import solve_by_cubes
    from gameproof.logic.drat import Verdict

    what = f"{min_legal} legal moves"
    with tempfile.TemporaryDirectory() as folder, _environment(_proof_checker()):
        refuted = solve_by_cubes(min_legal, plies, Path(folder) / "journal.db", workers=CUBE_WORKERS,
                                 proof_dir=folder, exact=True)
    coverage = refuted.coverage
    if refuted.status is not Status.UNSAT or coverage is None or not coverage.accepted or \
            refuted.cube_proofs != Counter({Verdict.VERIFIED.value: refuted.cubes}):
        verdicts = ", ".join(f"{count} {verdict}" for verdict, count in refuted.cube_proofs.items())
        report.problem = f"{what}: {refuted.status}, cube proofs {verdicts or 'none'}, coverage " \
                         f"{coverage and coverage.describe()}"
        return False
    report.checks.append(f"{what} refuted by {refuted.cubes} cubes on {CUBE_WORKERS} workers; every cube's DRAT "
                         f"proof and the coverage proof {coverage.describe()}")
    return True


def _refuted(report: Check, what: str, solve: Callable[[Path], Any]) -> bool:
    """Whether `solve(proof path)` refutes `what` with a DRAT proof its checker accepts (noted in `report`).
    Without drat-trim, dratify checks the proof whatever its size: a re-check that skips the proof proves
    nothing."""
    with tempfile.TemporaryDirectory() as folder, _environment(_proof_checker()):
        refuted = solve(Path(folder) / "refutation.drat")
    if refuted.status is not Status.UNSAT or refuted.proof is None or not refuted.proof.accepted:
        report.problem = f"{what}: {refuted.status}, proof {refuted.proof and refuted.proof.describe()}"
        return False
    report.checks.append(f"{what} refuted; DRAT proof {refuted.proof.describe()}")
    return True


def _proof_checker() -> dict[str, str]:
    """The environment that makes every proof be checked: dratify whatever the proof's size when drat-trim is
    missing (a re-check that skips the proof proves nothing)."""
    from gameproof.logic.drat import CHECKER_VARIABLE, Checker, find_drat_trim

    return {} if find_drat_trim() is not None else {CHECKER_VARIABLE: Checker.DRATIFY.value}


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """These environment variables set for the duration."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
