"""The direct SAT encoding of "a position with at least N legal moves is reachable within P plies".

The board is kept relative to the side to move: ``mine[t][s]`` / ``theirs[t][s]`` say whether square
``s`` holds a disc of the side to move at ply ``t`` or of the other side. Each ply chooses exactly one
of 64 squares, a pass, or "stop" (the game being looked for ended earlier: every later ply stops and
the board stays put), so a formula of P plies covers every shorter game too. Legality and flips are
per-square boolean formulas built from chains along the eight directions:

- ``capture[t][q][d]``: q holds a disc of the other side and, walking from q along d, a run of
  such discs ends on a disc of the side to move (so a move just behind q captures toward d);
- ``reach[t][q][d]``: the move was played just behind q along d, or behind a run of the other
  side's discs that ends just behind q;
- a square flips when, for some direction, both hold.

Symmetry breaking fixes the first move to f5 (the four openings are equivalent), and redundant
clauses state that occupied squares stay occupied and that a square never holds two discs.
"""

from __future__ import annotations

from dataclasses import dataclass

from gameproof.games.othello import rules
from gameproof.logic.cnf import Cnf

DIRECTIONS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
F5 = 37
RULE_SETS = ("strict", "relaxed")


def neighbour(square: int, direction: tuple[int, int], distance: int = 1) -> int | None:
    """The square `distance` steps from `square` along `direction`, or None off the board."""
    row, col = square // 8 + direction[0] * distance, square % 8 + direction[1] * distance
    return row * 8 + col if 0 <= row < 8 and 0 <= col < 8 else None


@dataclass
class ReachFormula:
    """A CNF with the variables needed to read a game back out of a model."""

    cnf: Cnf
    plies: int
    min_legal: int
    rule_set: str
    moves: list[list[int]]  # moves[t][s]: the side to move at ply t plays square s
    passes: list[int]
    stops: list[int]
    final_legal: list[int]  # final_legal[s]: s is a legal move in the final position (empty with `final`)


@dataclass(frozen=True)
class FinalPosition:
    """An exact position to reach: discs and the side to move."""

    black: int
    white: int
    black_to_move: bool


class _Builder:
    def __init__(self, plies: int, min_legal: int, rule_set: str, final: FinalPosition | None = None) -> None:
        if rule_set not in RULE_SETS:
            raise ValueError(f"unknown rule set {rule_set!r}; choose from {', '.join(RULE_SETS)}")
        self.cnf = Cnf()
        self.plies, self.min_legal, self.strict = plies, min_legal, rule_set == "strict"
        self.rule_set, self.final = rule_set, final
        self.true = self.cnf.new_var()
        self.cnf.add_clause([self.true])

    def var(self) -> int:
        return self.cnf.new_var()

    def clause(self, *lits: int) -> None:
        self.cnf.add_clause(lits)

    def board_vars(self) -> list[int]:
        return [self.var() for _ in range(64)]

    def start_board(self) -> tuple[list[int], list[int]]:
        mine = [self.true if rules.START_BLACK >> s & 1 else -self.true for s in range(64)]
        theirs = [self.true if rules.START_WHITE >> s & 1 else -self.true for s in range(64)]
        return mine, theirs

    def captures(self, mine: list[int], theirs: list[int]) -> dict[tuple[int, int], int]:
        """capture[(q, d)] for every q whose neighbour along d is on the board."""
        capture: dict[tuple[int, int], int] = {}
        for d_index, direction in enumerate(DIRECTIONS):
            # Walk each line from its far end so the next chain variable already exists.
            order = sorted(range(64), key=lambda s: -(s // 8 * direction[0] * 8 + s % 8 * direction[1]))
            for q in order:
                ahead = neighbour(q, direction)
                if ahead is None:
                    continue
                cap = self.var()
                further = capture.get((ahead, d_index))
                self.clause(-cap, theirs[q])
                self.clause(-theirs[q], -mine[ahead], cap)
                if further is None:
                    self.clause(-cap, mine[ahead])
                else:
                    self.clause(-cap, mine[ahead], further)
                    self.clause(-theirs[q], -further, cap)
                capture[(q, d_index)] = cap
        return capture

    def legal(self, mine, theirs, capture, both_ways: bool) -> list[int]:
        """legal[s] for every square: empty and capturing along some direction."""
        legal = []
        for s in range(64):
            caps = [
                capture[(ahead, d_index)]
                for d_index, direction in enumerate(DIRECTIONS)
                if (ahead := neighbour(s, direction)) is not None and (ahead, d_index) in capture
            ]
            is_legal = self.var()
            self.clause(-is_legal, -mine[s])
            self.clause(-is_legal, -theirs[s])
            self.clause(-is_legal, *caps)
            if both_ways:
                for cap in caps:
                    self.clause(-cap, mine[s], theirs[s], is_legal)
            legal.append(is_legal)
        return legal

    def reaches_and_flips(self, theirs, move, capture) -> list[int]:
        """flip[q] for every square, from reach chains behind q and capture chains ahead of it."""
        reach: dict[tuple[int, int], int] = {}
        terms: list[list[int]] = [[] for _ in range(64)]
        for d_index, direction in enumerate(DIRECTIONS):
            order = sorted(range(64), key=lambda s: s // 8 * direction[0] * 8 + s % 8 * direction[1])
            for q in order:
                behind = neighbour(q, (-direction[0], -direction[1]))
                if behind is None or (q, d_index) not in capture:
                    continue
                r = self.var()
                earlier = reach.get((behind, d_index))
                self.clause(-move[behind], r)
                if earlier is None:
                    self.clause(-r, move[behind])
                else:
                    self.clause(-theirs[behind], -earlier, r)
                    self.clause(-r, move[behind], theirs[behind])
                    self.clause(-r, move[behind], earlier)
                reach[(q, d_index)] = r
                both = self.var()
                cap = capture[(q, d_index)]
                self.clause(-both, r)
                self.clause(-both, cap)
                self.clause(-r, -cap, both)
                terms[q].append(both)
        flips = []
        for q in range(64):
            flip = self.var()
            self.clause(-flip, *terms[q])
            for term in terms[q]:
                self.clause(-term, flip)
            flips.append(flip)
        return flips

    def build(self) -> ReachFormula:
        mine, theirs = self.start_board()
        moves, passes, stops = [], [], []
        for ply in range(self.plies):
            capture = self.captures(mine, theirs)
            legal = self.legal(mine, theirs, capture, both_ways=self.strict)
            move = [self.var() for _ in range(64)]
            pass_, stop = self.var(), self.var()
            self.cnf.exactly([*move, pass_, stop], 1)
            for s in range(64):
                self.clause(-move[s], legal[s])
            if self.strict:
                for s in range(64):
                    self.clause(-pass_, -legal[s])
            if stops:
                self.clause(-stops[-1], stop)
            if ply == 0:
                self.clause(move[F5], stop)  # symmetry: the four openings are equivalent
            flips = self.reaches_and_flips(theirs, move, capture)
            mine, theirs = self.transition(mine, theirs, move, flips, stop)
            moves.append(move)
            passes.append(pass_)
            stops.append(stop)
        if self.final is not None:
            self.fix_final(mine, theirs, stops)
            final_legal = []
        else:
            capture = self.captures(mine, theirs)
            final_legal = self.legal(mine, theirs, capture, both_ways=False)
            self.cnf.atleast(final_legal, self.min_legal, encoding="seqcounter")
        return ReachFormula(self.cnf, self.plies, self.min_legal, self.rule_set, moves, passes, stops, final_legal)

    def fix_final(self, mine: list[int], theirs: list[int], stops: list[int]) -> None:
        """The game ends on `self.final`: its discs, and a number of plies whose parity gives its side to move."""
        final = self.final
        to_move, other = (final.black, final.white) if final.black_to_move else (final.white, final.black)
        for s in range(64):
            self.clause(mine[s] if to_move >> s & 1 else -mine[s])
            self.clause(theirs[s] if other >> s & 1 else -theirs[s])
        wanted_parity = 0 if final.black_to_move else 1  # black moves at even plies
        for ply, stop in enumerate(stops):
            if ply % 2 != wanted_parity:  # the game may not end after `ply` plies
                self.clause(-stop, stops[ply - 1]) if ply else self.clause(-stop)
        if self.plies % 2 != wanted_parity:
            self.clause(stops[-1]) if stops else self.clause(-self.true)

    def transition(self, mine, theirs, move, flips, stop):
        """The next board: swapped sides after a move or pass; unchanged after a stop."""
        next_mine, next_theirs = self.board_vars(), self.board_vars()
        for s in range(64):
            m, o, nm, no, f = mine[s], theirs[s], next_mine[s], next_theirs[s], flips[s]
            # stop: the board stays as it is.
            self.clause(-stop, -m, nm)
            self.clause(-stop, m, -nm)
            self.clause(-stop, -o, no)
            self.clause(-stop, o, -no)
            # otherwise: the next side to move owns the other side's unflipped discs ...
            self.clause(stop, -o, f, nm)
            self.clause(stop, -nm, o)
            self.clause(stop, -nm, -f)
            # ... and the other side now owns the mover's discs, the new disc and the flipped ones.
            self.clause(stop, -m, no)
            self.clause(stop, -move[s], no)
            self.clause(stop, -f, no)
            self.clause(stop, -no, m, move[s], f)
            # Redundant: occupied squares stay occupied; no square holds two discs.
            self.clause(-m, nm, no)
            self.clause(-o, nm, no)
            self.clause(-nm, -no)
        return next_mine, next_theirs


def encode_direct(
    min_legal: int, plies: int, rule_set: str = "strict", final: FinalPosition | None = None
) -> ReachFormula:
    """The direct encoding: is a position with >= `min_legal` legal moves reachable within `plies` plies?
    With `final`, the question is instead whether that exact position is reached after the last
    played ply (`min_legal` is then ignored)."""
    return _Builder(plies, min_legal, rule_set, final).build()
