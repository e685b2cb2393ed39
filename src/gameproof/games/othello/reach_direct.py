"""The direct SAT encoding of "a position with at least N legal moves is reachable within P moves".

The board is kept relative to the side whose turn it is: ``mine[t][s]`` / ``theirs[t][s]`` say whether
square ``s`` holds a disc of that side at ply ``t`` or of the other side. Every ply is a move (a disc
placed) or "stop" (the game being looked for ended earlier: every later ply stops and the board stays
put), so a formula of P plies covers every shorter game too. Passes cost no ply: when the side whose
turn it is has no legal move it passes and the other side moves on the same board (``pass[t]``), so P
moves bound every game of P moves however many passes it has — the bound is complete. Legality and
flips are per-square boolean formulas built from chains along the eight directions:

- ``capture[t][q][d]``: q holds a disc of the other side and, walking from q along d, a run of
  such discs ends on a disc of the side to move (so a move just behind q captures toward d);
- ``reach[t][q][d]``: the move was played just behind q along d, or behind a run of the other
  side's discs that ends just behind q;
- a square flips when, for some direction, both hold.

No side is without a legal move within the first ``EARLIEST_PASS`` moves (a test proves it with a
formula that allows passes from the first ply), so relaxed rules from that ply on cover every strict
game: the loose formula (`encode_loose`) that `reach` refutes. Where a pass is possible, the mover's
board is chosen by ``pass[t]`` (a multiplexer per square) and a second set of capture chains gives the
mover's legal moves; the first set only decides the pass.

Symmetry breaking fixes the first move to f5 (the four openings are equivalent; not with an exact
final position), and redundant clauses state that occupied squares stay occupied, that a square never
holds two discs, and that the game cannot stop at a ply whose position cannot have N legal moves.

Constants are folded while building (the literal ``true`` and its negation): the start and the forced
f5 make the first plies constant, squares no disc can reach yet and chains that cannot capture get no
variables, a turn with a certain legal move has no pass, and a gate with a single live input is that
input.
"""

from __future__ import annotations

from dataclasses import dataclass

from gameproof.games.othello import rules
from gameproof.logic.cnf import Cnf

DIRECTIONS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
F5 = 37
RULE_SETS = ("strict", "relaxed")
EARLIEST_PASS = 8  # every position within 7 moves has a legal move for the side to move: no pass before ply 8
CENTRE_SQUARES = frozenset((27, 28, 35, 36))  # d4, e4, d5, e5: occupied from the start, never emptied


def neighbour(square: int, direction: tuple[int, int], distance: int = 1) -> int | None:
    """The square `distance` steps from `square` along `direction`, or None off the board."""
    row, col = square // 8 + direction[0] * distance, square % 8 + direction[1] * distance
    return row * 8 + col if 0 <= row < 8 and 0 <= col < 8 else None


def _line_order(direction: tuple[int, int], from_far_end: bool) -> list[int]:
    sign = -1 if from_far_end else 1
    return sorted(range(64), key=lambda s: sign * (s // 8 * direction[0] * 8 + s % 8 * direction[1]))


_ORDER_FROM_FAR_END = [_line_order(direction, True) for direction in DIRECTIONS]
_ORDER_FROM_NEAR_END = [_line_order(direction, False) for direction in DIRECTIONS]


@dataclass
class ReachFormula:
    """A CNF with the variables needed to read a game back out of a model."""

    cnf: Cnf
    plies: int
    min_legal: int
    rule_set: str
    moves: list[list[int]]  # moves[t][s]: the side that moves at ply t plays square s
    passes: list[int]  # passes[t]: the side whose turn it is at ply t passes, and the other side moves
    stops: list[int]
    final_legal: list[int]  # final_legal[s]: s is a legal move in the final position (empty with `final`)
    final_pass: int  # the side whose turn it is at the end passes; the count is the other side's
    chosen: list[int]  # chosen[s]: the goal's square (the move that flips, for `encode_flips`)


@dataclass(frozen=True)
class FinalPosition:
    """An exact position to reach: discs and the side to move."""

    black: int
    white: int
    black_to_move: bool


class _Builder:
    def __init__(self, plies: int, min_legal: int, rule_set: str, final: FinalPosition | None = None,
                 passes: bool = True, exact: bool = False, earliest_pass: int = 1) -> None:
        if rule_set not in RULE_SETS:
            raise ValueError(f"unknown rule set {rule_set!r}; choose from {', '.join(RULE_SETS)}")
        self.cnf = Cnf()
        self.plies, self.min_legal, self.strict = plies, min_legal, rule_set == "strict"
        self.rule_set, self.final, self.passes, self.exact = rule_set, final, passes, exact
        self.earliest_pass = max(earliest_pass, 1)  # the first ply where a pass may be chosen
        self.full_legal = False  # the mover's legal squares only bounded from above (enough for every goal)
        self.true = self.cnf.new_var()
        self.cnf.add_clause([self.true])

    # Constant folding: the literals `true` / `-true` stand for the constants, and every helper below
    # simplifies them away, so that squares no disc can reach yet cost no variables and no clauses.

    def var(self) -> int:
        return self.cnf.new_var()

    def clause(self, *lits: int) -> None:
        true, kept = self.true, []
        for lit in lits:
            if lit == true or -lit in kept:
                return  # satisfied
            if lit != -true and lit not in kept:
                kept.append(lit)
        self.cnf.add_clause(kept or [-true])

    def and_(self, lits: list[int]) -> int:
        """A literal equivalent to the conjunction of `lits` (a constant or one of them where possible)."""
        true, kept = self.true, []
        for lit in lits:
            if lit == -true or -lit in kept:
                return -true
            if lit != true and lit not in kept:
                kept.append(lit)
        if not kept:
            return true
        if len(kept) == 1:
            return kept[0]
        gate = self.var()
        for lit in kept:
            self.clause(-gate, lit)
        self.clause(gate, *(-lit for lit in kept))
        return gate

    def or_(self, lits: list[int]) -> int:
        return -self.and_([-lit for lit in lits])

    def start_board(self) -> tuple[list[int], list[int]]:
        mine = [self.true if rules.START_BLACK >> s & 1 else -self.true for s in range(64)]
        theirs = [self.true if rules.START_WHITE >> s & 1 else -self.true for s in range(64)]
        return mine, theirs

    def captures(self, mine: list[int], theirs: list[int]) -> dict[tuple[int, int], int]:
        """capture[(q, d)] for every q whose neighbour along d is on the board (`-true` where impossible)."""
        false, capture = -self.true, {}
        for d_index, direction in enumerate(DIRECTIONS):
            # Walk each line from its far end so the next chain variable already exists.
            for q in _ORDER_FROM_FAR_END[d_index]:
                ahead = neighbour(q, direction)
                if ahead is None:
                    continue
                tq, ma, further = theirs[q], mine[ahead], capture.get((ahead, d_index), false)
                if tq == self.true:
                    cap = self.or_([ma, further])
                elif self.true in (ma, further):
                    cap = tq
                elif ma == false or further == false:
                    cap = self.and_([tq, ma if further == false else further])
                else:
                    cap = self.var()
                    self.clause(-cap, tq)
                    self.clause(-tq, -ma, cap)
                    self.clause(-cap, ma, further)
                    self.clause(-tq, -further, cap)
                capture[(q, d_index)] = cap
        return capture

    def legal(self, mine, theirs, capture, both_ways: bool) -> list[int]:
        """legal[s] for every square: empty and capturing along some direction."""
        false, legal = -self.true, []
        for s in range(64):
            caps = [
                cap for d_index, direction in enumerate(DIRECTIONS)
                if (ahead := neighbour(s, direction)) is not None
                and (cap := capture.get((ahead, d_index), false)) != false
            ]
            if s in CENTRE_SQUARES or not caps or self.true in (mine[s], theirs[s]):
                legal.append(false)  # the centre is never empty
                continue
            if self.true in caps:
                legal.append(self.and_([-mine[s], -theirs[s]]))
                continue
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
        false, reach = -self.true, {}
        terms: list[list[int]] = [[] for _ in range(64)]
        for d_index, direction in enumerate(DIRECTIONS):
            for q in _ORDER_FROM_NEAR_END[d_index]:
                behind = neighbour(q, (-direction[0], -direction[1]))
                if behind is None or (q, d_index) not in capture:
                    continue
                mb, tb, earlier = move[behind], theirs[behind], reach.get((behind, d_index), false)
                if mb == false or mb == self.true:
                    r = mb if mb == self.true else self.and_([tb, earlier])
                elif tb == false or earlier == false:
                    r = mb
                else:
                    r = self.var()
                    self.clause(-mb, r)
                    self.clause(-tb, -earlier, r)
                    self.clause(-r, mb, tb)
                    self.clause(-r, mb, earlier)
                reach[(q, d_index)] = r
                both = self.and_([r, capture[(q, d_index)]])
                if both != false:
                    terms[q].append(both)
        return [self.or_(terms[q]) for q in range(64)]

    def ite(self, cond: int, then: int, other: int) -> int:
        """A literal equal to `then` where `cond` holds and to `other` elsewhere."""
        true = self.true
        if cond == true or then == other:
            return then
        if cond == -true:
            return other
        if then == -other:
            return self.xor(cond, other)
        if abs(then) == true or abs(other) == true:
            return self.or_([self.and_([cond, then]), self.and_([-cond, other])])
        out = self.var()
        self.clause(-cond, -then, out)
        self.clause(-cond, then, -out)
        self.clause(cond, -other, out)
        self.clause(cond, other, -out)
        self.clause(-then, -other, out)  # redundant, helps propagation
        self.clause(then, other, -out)
        return out

    def xor(self, a: int, b: int) -> int:
        """A literal equal to `a` xor `b`."""
        true = self.true
        if abs(a) == true:
            return -b if a == true else b
        if abs(b) == true:
            return -a if b == true else a
        out = self.var()
        self.clause(-a, -b, -out)
        self.clause(a, b, -out)
        self.clause(a, -b, out)
        self.clause(-a, b, out)
        return out

    def turn(self, mine: list[int], theirs: list[int], ply: int):
        """Who moves on this board and where they may: (pass, mover's discs, other discs, captures, legal).

        ``mine`` is the side whose turn it is; it passes when it has no legal move (strict rules) or
        whenever it likes (relaxed), and then the other side moves on the same board. Without passes
        (`passes` False: games that never pass), a side without a legal move ends the game."""
        false, may_pass = -self.true, ply >= self.earliest_pass and self.passes
        if may_pass and not self.strict:
            pass_ = self.var()  # a voluntary pass: no capture chains needed to allow it
        else:
            capture = self.captures(mine, theirs)
            pass_ = false
            if may_pass:  # a forced pass: the side to move has no legal move
                pass_ = self.and_([-lit for lit in self.legal(mine, theirs, capture, both_ways=True)])
            if pass_ == false:
                return pass_, mine, theirs, capture, self.legal(mine, theirs, capture, both_ways=self.full_legal)
        mover = [self.ite(pass_, o, m) for m, o in zip(mine, theirs)]
        other = [self.ite(pass_, m, o) for m, o in zip(mine, theirs)]
        capture = self.captures(mover, other)
        return pass_, mover, other, capture, self.legal(mover, other, capture, both_ways=self.full_legal)

    def build(self) -> ReachFormula:
        false = -self.true
        mine, theirs = self.start_board()
        moves, passes, stops = [], [], []
        for ply in range(self.plies):
            pass_, mover, other, capture, legal = self.turn(mine, theirs, ply)
            can_stop = self.final is None and not self.exact and self.may_stop(legal)
            stop = self.var() if can_stop else false
            playable = legal
            if ply == 0 and self.final is None:
                # Symmetry: the four openings are equivalent, so the first move is f5 (or nothing, when
                # the start's 4 legal moves are enough). With `final`, every opening stays open.
                playable = [lit if s == F5 else false for s, lit in enumerate(legal)]
            options = sum(lit != false for lit in playable) + (stop != false)
            # A choice with a single option is a constant (the forced f5, or a forced move later).
            move = [false if lit == false else self.true if options == 1 else self.var() for lit in playable]
            self.choose(move, stop, legal)
            if stops:
                self.clause(-stops[-1], stop)
            if not self.strict:
                self.clause(-stop, -pass_)  # a voluntary pass before a stop changes nothing: the final turn passes
            flips = self.reaches_and_flips(other, move, capture)
            mine, theirs = self.transition(mine, theirs, mover, other, move, flips, stop)
            moves.append(move)
            passes.append(pass_)
            stops.append(stop)
        if self.final is not None:
            self.fix_final(mine, theirs, passes)
            final_legal, final_pass, chosen = [], false, []
        else:
            final_pass, final_legal, chosen = self.goal(mine, theirs, stops)
        return ReachFormula(self.cnf, self.plies, self.min_legal, self.rule_set, moves, passes, stops, final_legal,
                            final_pass, chosen)

    def may_stop(self, legal: list[int]) -> bool:
        """Whether the game may end on a board with these legal moves: only if it can have enough of them."""
        return sum(lit != -self.true for lit in legal) >= self.min_legal

    def goal(self, mine: list[int], theirs: list[int], stops: list[int]) -> tuple[int, list[int], list[int]]:
        """Constrain the final position: at least `min_legal` legal moves. Returns the final pass, the final
        legal moves and the squares the goal chose (none here)."""
        final_pass, _, _, _, final_legal = self.turn(mine, theirs, self.plies)
        self.at_least(final_legal, self.min_legal)
        if self.plies > 60 - self.min_legal:
            # Redundant: N legal moves need N empty squares, so at most 60 - N discs were placed.
            self.at_most([-stop for stop in stops], 60 - self.min_legal)
        return final_pass, final_legal, []

    def exactly_one(self, lits: list[int]) -> None:
        open_lits = [lit for lit in lits if abs(lit) != self.true]
        fixed = sum(lit == self.true for lit in lits)
        if fixed > 1:
            self.clause(-self.true)
        elif fixed:
            for lit in open_lits:
                self.clause(-lit)
        elif len(open_lits) <= 1:
            self.clause(*open_lits)
        else:
            self.cnf.exactly(open_lits, 1)

    def at_least(self, lits: list[int], k: int) -> None:
        open_lits = [lit for lit in lits if abs(lit) != self.true]
        k -= sum(lit == self.true for lit in lits)
        if k > len(open_lits):
            self.clause(-self.true)
        elif k > 0:
            self.cnf.atleast(open_lits, k, encoding="seqcounter")

    def at_most(self, lits: list[int], k: int) -> None:
        open_lits = [lit for lit in lits if abs(lit) != self.true]
        k -= sum(lit == self.true for lit in lits)
        if k < 0:
            self.clause(-self.true)
        elif k < len(open_lits):
            self.cnf.atmost(open_lits, k, encoding="seqcounter")

    def fix_final(self, mine: list[int], theirs: list[int], passes: list[int]) -> None:
        """The game ends on `self.final`. Whose turn it is follows from the passes (each ply is a move, so
        the turn changes hands unless the other side passed); the position "X to move" is also reached
        when Y has the turn but no legal move."""
        final = self.final
        black_turn = self.true  # black has the turn at ply 0
        for pass_ in passes:
            black_turn = self.xor(black_turn, -pass_)  # the turn changes hands after a move by its owner
        other_side_stuck = final.black_to_move and not rules.legal_moves(final.white, final.black) or (
            not final.black_to_move and not rules.legal_moves(final.black, final.white))
        if not other_side_stuck:
            self.clause(black_turn if final.black_to_move else -black_turn)
        for s in range(64):
            black, white = final.black >> s & 1, final.white >> s & 1
            # black_turn: mine are the black discs; otherwise the white ones.
            self.clause(-black_turn, mine[s] if black else -mine[s])
            self.clause(-black_turn, theirs[s] if white else -theirs[s])
            self.clause(black_turn, mine[s] if white else -mine[s])
            self.clause(black_turn, theirs[s] if black else -theirs[s])

    def choose(self, move: list[int], stop: int, legal: list[int]) -> None:
        """One choice per ply: exactly one legal square, or stop."""
        self.exactly_one([*move, stop])
        for s in range(64):
            self.require(-move[s], legal[s])

    def require(self, *lits: int) -> None:
        """A clause that constrains the game rather than defines a gate (the equivalence check collects them)."""
        self.clause(*lits)

    def transition(self, mine, theirs, mover, other, move, flips, stop):
        """The next board, from the side whose turn comes next: after a move, the mover's and the other
        side's discs swapped; after a stop, the board as the turn began (``mine``/``theirs``, before any
        pass: the final turn passes again if it must)."""
        false = -self.true
        next_mine, next_theirs = [], []
        for s in range(64):
            m, o, f, mv = mover[s], other[s], flips[s], move[s]
            before_mine, before_theirs = mine[s], theirs[s]
            if stop == false:
                # The next side to move owns the other side's unflipped discs; the other side now owns
                # the mover's discs, the new disc and the flipped ones.
                nm, no = self.and_([o, -f]), self.or_([m, mv, f])
            elif before_mine == before_theirs == mv == f == false:
                nm = no = false  # no disc can be here yet
            else:
                nm, no = self.var(), self.var()
                # stop: the board stays as it is.
                self.clause(-stop, -before_mine, nm)
                self.clause(-stop, before_mine, -nm)
                self.clause(-stop, -before_theirs, no)
                self.clause(-stop, before_theirs, -no)
                # otherwise: as above.
                self.clause(stop, -o, f, nm)
                self.clause(stop, -nm, o)
                self.clause(stop, -nm, -f)
                self.clause(stop, -m, no)
                self.clause(stop, -mv, no)
                self.clause(stop, -f, no)
                self.clause(stop, -no, m, mv, f)
            # Redundant: occupied squares stay occupied; no square holds two discs.
            self.require(-m, nm, no)
            self.require(-o, nm, no)
            self.require(-nm, -no)
            next_mine.append(nm)
            next_theirs.append(no)
        return next_mine, next_theirs


def encode_direct(
    min_legal: int, plies: int, rule_set: str = "strict", final: FinalPosition | None = None, passes: bool = True,
    exact: bool = False, earliest_pass: int = 1,
) -> ReachFormula:
    """The direct encoding: is a position with >= `min_legal` legal moves reachable within `plies` moves
    (after exactly `plies` moves with `exact`: no ply stops)? With `final`, the question is instead whether
    that exact position is reached after the last move (`min_legal` is then ignored). Without `passes`,
    only games that never pass are covered. `earliest_pass` is the first ply that may pass (relaxed rules
    from `EARLIEST_PASS` on cover every strict game, in a smaller formula than the strict one)."""
    return _Builder(plies, min_legal, rule_set, final, passes, exact, earliest_pass).build()


def encode_loose(min_legal: int, plies: int, exact: bool = False) -> ReachFormula:
    """The loose formula: relaxed rules (a pass whenever a side likes) from `EARLIEST_PASS` on and no pass
    before. Every strict game is one of its games, so its refutation answers a strict question; its
    models may pass by choice."""
    return encode_direct(min_legal, plies, "relaxed", exact=exact, earliest_pass=EARLIEST_PASS)


class _FlipsBuilder(_Builder):
    """The goal "some legal move flips at least `min_flips` discs" instead of a count of legal moves."""

    def __init__(self, plies: int, min_flips: int, passes: bool = True) -> None:
        super().__init__(plies, 0, "strict", None, passes)
        self.min_flips = min_flips

    def may_stop(self, legal: list[int]) -> bool:
        return any(lit != -self.true for lit in legal)

    def goal(self, mine: list[int], theirs: list[int], stops: list[int]) -> tuple[int, list[int], list[int]]:
        """One chosen legal square; along each direction the k-th disc from it flips when the capture chains
        of the first k discs all hold, so the flips are a sum of such literals, at least `min_flips`."""
        false = -self.true
        final_pass, _, _, capture, final_legal = self.turn(mine, theirs, self.plies)
        # Only squares with room for `min_flips` discs along their eight lines can be chosen.
        chosen = [false if lit == false or most_flips(square) < self.min_flips else self.var()
                  for square, lit in enumerate(final_legal)]
        for square, lit in enumerate(chosen):
            self.clause(-lit, final_legal[square])
        self.at_most(chosen, 1)
        flipped = []
        for square, pick in enumerate(chosen):
            if pick == false:
                continue
            for d_index, direction in enumerate(DIRECTIONS):
                run, distance = self.true, 1
                while (q := neighbour(square, direction, distance)) is not None and (q, d_index) in capture:
                    run = self.and_([run, capture[(q, d_index)]])
                    flipped.append(self.and_([pick, run]))
                    distance += 1
        self.at_least(flipped, self.min_flips)
        return final_pass, final_legal, chosen


def most_flips(square: int) -> int:
    """The most discs a move on `square` could flip on an empty board's geometry: along each direction,
    the squares between it and the edge but the last."""
    total = 0
    for direction in DIRECTIONS:
        distance = 1
        while neighbour(square, direction, distance) is not None:
            distance += 1
        total += max(distance - 2, 0)
    return total


def encode_flips(min_flips: int, plies: int, passes: bool = True) -> ReachFormula:
    """The direct encoding of "a position where some legal move flips at least `min_flips` discs is reachable
    within `plies` moves" (strict rules)."""
    return _FlipsBuilder(plies, min_flips, passes).build()
