"""The m,n,k rules declared in gameproof.games.mnk.rules against the hand-written m,n,k kernels (MnkState),
the pure-Python minimax (reference) and published values (golden data)."""

import random
from functools import cache

import pytest

from gameproof.errors import BadInput
from gameproof.games.game import Game
from gameproof.games.mnk import kernels as hand
from gameproof.games.mnk import reference
from gameproof.games.mnk.rules import GAMES
from gameproof.games.mnk.state import MnkState
from gameproof.games.state import RulesState
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


def random_play(name: str, plies: int, rng: random.Random) -> tuple[RulesState, MnkState]:
    """The same random moves (at most `plies`, fewer if the game ends) in both implementations."""
    ours, theirs = declared(name), MnkState(name)
    while len(ours.history) < plies and not ours.is_over():
        move = rng.choice(ours.legal_moves())
        ours.play(move)
        theirs.play(move)
    return ours, theirs


@pytest.mark.parametrize("name", NAMES)
def test_random_playouts_agree_with_the_hand_kernels(name):
    rng = random.Random(name)
    for _ in range(25):
        ours, theirs = declared(name), MnkState(name)
        while True:
            assert ours.legal_moves() == theirs.legal_moves()
            assert ours.is_over() == theirs.is_over()
            assert ours.outcome() == theirs.outcome()
            assert ours.marks() == theirs.marks()
            assert ours.to_move == theirs.to_move
            if ours.is_over():
                break
            move = rng.choice(ours.legal_moves())
            ours.play(move)
            theirs.play(move)


@pytest.mark.parametrize("name", NAMES)
def test_estimates_match_the_hand_kernel(name):
    """The rules' estimate, as the derived kernel hands it to df-pn, counts what the hand kernel counts."""
    rng = random.Random(name)
    for _ in range(20):
        ours, theirs = random_play(name, rng.randrange(cells_of(name)), rng)
        for_mover, for_other = ours.game.rules.estimate(*ours.words)
        for attacker in (0, 1):
            # the derived kernel's mapping (gameproof.games.derived.estimate)
            mine = (for_other, for_mover) if ours.to_move == attacker else (for_mover, for_other)
            assert mine == tuple(int(x) for x in hand.estimate(theirs.words, theirs.tables, attacker))


@pytest.mark.parametrize("name", ["mnk:3,4,3", "mnk-misere:4,4,3", "mnk-notakto:4,4,3"])
def test_the_compiled_estimate_matches_the_hand_kernel(name):
    rng = random.Random(name)
    for _ in range(20):
        ours, theirs = random_play(name, rng.randrange(cells_of(name)), rng)
        for attacker in (0, 1):
            derived = ours.game.kernels.estimate(ours.frames(), ours.game.tables, attacker)
            assert tuple(int(x) for x in derived) == tuple(int(x) for x in hand.estimate(theirs.words, theirs.tables, attacker))


@pytest.mark.parametrize("name", NAMES)
def test_the_derived_perft_counts_the_hand_kernels_paths(name):
    cells = cells_of(name)
    depth = min(cells, 5 if cells <= 9 else 3)
    for plies in range(depth + 1):
        assert fast_perft(declared(name), plies) == perft(MnkState(name), plies), plies
    rng = random.Random(name)
    for _ in range(3):  # from later positions, where games end
        ours, theirs = random_play(name, max(0, cells - 6), rng)
        for plies in range(min(4, cells) + 1):
            assert fast_perft(ours, plies) == perft(theirs, plies), (ours.record, plies)


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
        ours, theirs = random_play(name, stones, rng)
        if ours.is_over():
            continue
        tried += 1
        expected = reference.move_values(theirs.marks(), rows, cols, k, variant)
        solution = solve(ours, Options(tt_mb=4), with_moves=True)
        assert solution.moves == {m: VALUE[v] for m, v in expected.items()}, ours.record
        assert solution.value == VALUE[max(expected.values())]


@pytest.mark.parametrize("name", ["mnk:4,4,3", "mnk-misere:3,5,3", "mnk-notakto:4,4,3", "mnk:5,5,4"])
def test_symmetric_positions_share_a_key(name):
    rng = random.Random(name)
    kernels, tables = game(name).kernels, game(name).tables
    for _ in range(10):
        ours, _ = random_play(name, rng.randrange(1, 8), rng)
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
def test_keys_tell_positions_apart_as_the_hand_kernels_do(name):
    """Two positions get the same key exactly when the hand kernels' keys are equal (equal up to symmetry)."""
    rng = random.Random(name)
    pairs = [random_play(name, 4, rng) for _ in range(120)]
    ours = {}
    theirs = {}
    for a, b in pairs:
        ours.setdefault(a.key, set()).add(b.key)
        theirs.setdefault(b.key, set()).add(a.key)
    assert all(len(keys) == 1 for keys in ours.values())
    assert all(len(keys) == 1 for keys in theirs.values())
    assert len(ours) < len(pairs)  # some positions met again up to symmetry


def test_parameters_that_do_not_fit_are_refused():
    with pytest.raises(BadInput, match="64"):
        Game(SPECS["mnk"], {"rows": 8, "cols": 9, "k": 3})
    assert SPECS["mnk"].parse_parameters("") == {"rows": 3, "cols": 3, "k": 3}
    assert "notakto" in SPECS["mnk-notakto"].aliases
