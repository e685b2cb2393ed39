"""The m,n,k rules declared in gameproof.games.mnk.rules against the pure-Python rules and minimax
(reference), open lines and symmetries counted here, and published values (golden data)."""

import random
from functools import cache

import pytest

from gameproof.errors import BadInput
from gameproof.framework.game import Game
from gameproof.games.mnk import reference
from gameproof.games.mnk.rules import GAMES
from gameproof.games.mnk.state import MnkGame
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.perft import fast_perft, perft
from gameproof.search.solve import solve

from .conftest import GOLDEN

SPECS = {spec.name: spec for spec in GAMES}
VARIANT = {"mnk": "normal", "mnk-misere": "misere", "mnk-notakto": "notakto"}
VALUE = {1: "win", 0: "draw", -1: "loss"}
# (rows, cols, k): square and oblong boards, k = 1, boards narrower than k, lines of two.
BOARDS = [(3, 3, 3), (4, 3, 3), (4, 4, 3), (3, 5, 2), (2, 2, 1), (5, 5, 4), (2, 5, 3), (1, 4, 2), (2, 2, 3)]
NAMES = [f"{name}:{r},{c},{k}" for r, c, k in BOARDS for name in SPECS]


@cache
def game(name: str) -> Game:
    """One Game per name, so that each compiles once."""
    base, _, numbers = name.partition(":")
    rows, cols, k = (int(n) for n in numbers.split(","))
    return Game(SPECS[base], {"rows": rows, "cols": cols, "k": k})


def declared(name: str) -> RulesState:
    return RulesState(game(name))


def cells_of(name: str) -> int:
    rows, cols, _ = name.partition(":")[2].split(",")
    return int(rows) * int(cols)


def random_play(name: str, plies: int, rng: random.Random) -> RulesState:
    """A position after random moves (at most `plies`, fewer if the game ends)."""
    state = declared(name)
    while len(state.history) < plies and not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    return state


def lines(name: str) -> list[int]:
    """Every k-window of the board as a mask, enumerated cell by cell."""
    rows, cols, k = (int(n) for n in name.partition(":")[2].split(","))
    found = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    found.add(sum(1 << (rr * cols + cc) for rr, cc in cells))
    return sorted(found)


@pytest.mark.parametrize("name", NAMES)
def test_random_playouts_follow_the_reference_rules(name):
    rows, cols, k = (int(n) for n in name.partition(":")[2].split(","))
    variant = VARIANT[name.partition(":")[0]]
    rng = random.Random(name)
    for _ in range(25):
        state, board, ended = declared(name), "-" * cells_of(name), None
        while True:
            assert state.legal_moves() == ([] if ended is not None else [i for i, m in enumerate(board) if m == "-"])
            assert state.marks() == board and state.is_over() == (ended is not None)
            if state.is_over():
                break
            move = rng.choice(state.legal_moves())
            board, ended = reference.move_result(board, rows, cols, k, variant, move)
            state.play(move)
        mover_sign = -1 if state.to_move == 0 else 1  # the last mover: the side not to move
        assert state.outcome() == ended * mover_sign


@pytest.mark.parametrize("name", NAMES)
def test_estimates_count_open_lines(name):
    """The rules' estimate: the open lines (k-windows free of the other side's stones) of each side, in favour
    of their owner in the normal game; in misère against him, with the empty cells where a stone of his would
    complete a line (the window's other k − 1 cells his); none in Notakto."""
    rng = random.Random(name)
    for _ in range(20):
        state = random_play(name, rng.randrange(cells_of(name)), rng)
        if len(state.words) == 1:
            assert state.game.rules.estimate(*state.words) == (0, 0)
            continue
        mine, theirs = state.words
        own = sum(1 for line in lines(name) if not line & theirs)
        other = sum(1 for line in lines(name) if not line & mine)
        expected = (own, other)
        if name.startswith("mnk-misere"):
            empty = [1 << cell for cell in range(cells_of(name)) if not (mine | theirs) >> cell & 1]

            def dead(stones):  # empty cells with a window whose other cells are all `stones`
                return sum(1 for cell in empty if any(line & cell and line & ~cell & ~stones == 0 for line in lines(name)))

            expected = (other + dead(theirs), own + dead(mine))
        assert state.game.rules.estimate(*state.words) == expected


@pytest.mark.parametrize("name", ["mnk:3,4,3", "mnk-misere:4,4,3", "mnk-notakto:4,4,3"])
def test_the_compiled_estimate_matches_the_rules(name):
    rng = random.Random(name)
    for _ in range(20):
        state = random_play(name, rng.randrange(cells_of(name)), rng)
        for_mover, for_other = state.game.rules.estimate(*state.words)
        for attacker in (0, 1):
            # the derived kernel's mapping (gameproof.framework.derived.estimate): threats against the attacker first
            expected = (for_other, for_mover) if state.to_move == attacker else (for_mover, for_other)
            derived = state.game.kernels.estimate(state.frames(), state.game.tables, attacker)
            assert tuple(int(x) for x in derived) == expected


@pytest.mark.parametrize("name", NAMES)
def test_the_derived_perft_counts_the_python_rules_paths(name):
    cells = cells_of(name)
    depth = min(cells, 5 if cells <= 9 else 3)
    for plies in range(depth + 1):
        assert fast_perft(declared(name), plies) == perft(declared(name), plies), plies
    rng = random.Random(name)
    for _ in range(3):  # from later positions, where games end
        state = random_play(name, max(0, cells - 6), rng)
        for plies in range(min(4, cells) + 1):
            assert fast_perft(state, plies) == perft(state, plies), (state.record, plies)


def test_tic_tac_toe_perft():
    state = declared("mnk:3,3,3")
    # 1440 of the 15120 five-ply paths end in a win for X, 5328 six-ply paths in a win for O, …
    assert [fast_perft(state, d) for d in range(1, 10)] == [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    # … and counting the games that end sooner: the 255168 games of tic-tac-toe.
    assert fast_perft(state, 9, count_finished=True) == 255168


@pytest.mark.parametrize("case", GOLDEN["games"], ids=lambda c: c["game"])
def test_golden_values(case):
    state = declared(case["game"])
    solution = solve(state, Options(tt_mb=16), with_moves=True)
    named = {state.move_name(m): v for m, v in solution.moves.items()}
    assert solution.value == case["value"]
    assert {cell: named[cell] for cell in case.get("moves", {})} == case.get("moves", {})
    assert len(named) == state.game.cells


@pytest.mark.parametrize("name", ["mnk:3,3,3", "mnk-misere:3,3,3", "mnk-notakto:3,3,3", "mnk:4,3,3",
                                  "mnk-misere:4,3,3", "mnk-notakto:4,4,3", "mnk-misere:4,4,3", "mnk:4,4,4"])
def test_values_match_minimax(name):
    rng = random.Random(name)
    rows, cols, k = (int(n) for n in name.partition(":")[2].split(","))
    variant = VARIANT[name.partition(":")[0]]
    cells = rows * cols
    tried = 0
    while tried < 6:
        stones = rng.randrange(cells - 10, cells - 2) if cells > 12 else rng.randrange(2, cells - 1)
        ours = random_play(name, stones, rng)
        if ours.is_over():
            continue
        tried += 1
        expected = reference.move_values(ours.marks(), rows, cols, k, variant)
        solution = solve(ours, Options(tt_mb=4), with_moves=True)
        assert solution.moves == {m: VALUE[v] for m, v in expected.items()}, ours.record
        assert solution.value == VALUE[max(expected.values())]


@pytest.mark.parametrize("name", ["mnk:4,4,3", "mnk-misere:3,5,3", "mnk-notakto:4,4,3", "mnk:5,5,4"])
def test_symmetric_positions_share_a_key(name):
    rng = random.Random(name)
    kernels, tables = game(name).kernels, game(name).tables
    for _ in range(10):
        ours = random_play(name, rng.randrange(1, 8), rng)
        board = ours.game.board
        for symmetry in ours.game.symmetries:
            image = board.permutation(symmetry)
            twin = declared(name)
            for move in ours.history:
                twin.play(image[move])
            assert twin.key == ours.key, (symmetry, ours.record)
            # the derived kernels' key, updated move by move from the changed cells, is the same
            frames = declared(name).frames()
            for move in twin.history:
                kernels.play(frames, tables, move)
            assert int(kernels.key(frames, tables)) == ours.key, (symmetry, ours.record)


@pytest.mark.parametrize("name", ["mnk:4,4,3", "mnk-misere:4,3,3", "mnk-notakto:3,4,3"])
def test_keys_tell_positions_apart_up_to_symmetry(name):
    """Two positions get the same key exactly when one is a symmetric image of the other, with the same side to move."""
    rng = random.Random(name)
    game = MnkGame.from_name(name)
    positions = [random_play(name, rng.randrange(3, 6), rng) for _ in range(120)]
    by_key: dict[int, set[tuple[str, int]]] = {}
    for state in positions:
        marks = state.marks()
        canonical = min("".join(marks[perm.index(i)] for i in range(game.cells)) for perm in game.permutations)
        by_key.setdefault(state.key, set()).add((canonical, state.to_move))
    assert all(len(kinds) == 1 for kinds in by_key.values())
    assert len({kind for kinds in by_key.values() for kind in kinds}) == len(by_key)
    assert len(by_key) < len(positions)  # some positions met again up to symmetry


def test_parameters_that_do_not_fit_are_refused():
    with pytest.raises(BadInput, match="64"):
        Game(SPECS["mnk"], {"rows": 8, "cols": 9, "k": 3})
    assert SPECS["mnk"].parse_parameters("") == {"rows": 3, "cols": 3, "k": 3}
    assert "notakto" in SPECS["mnk-notakto"].aliases
