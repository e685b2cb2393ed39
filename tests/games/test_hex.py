"""Hex (gameproof.games.hex): the rule functions against a slow obvious reference (random playouts on every
size, every position of the smallest boards), and the engine (perft, solve, render) against the reference."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from gameproof.certify.check import check_certificate
from gameproof.certify.records import Value, write_certificate
from gameproof.certify.won import won_verifier
from gameproof.cli import main
from gameproof.framework.declaration import LOSS, ONGOING, WIN
from gameproof.framework.game import Game
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.certificate import certify
from gameproof.search.dfpn import Options
from gameproof.search.parallel import solve_on_workers
from gameproof.search.perft import fast_perft, perft
from gameproof.search.solve import kept_search, solve

sys.path.insert(0, str(Path(__file__).parent))
import hex_reference as reference  # noqa: E402
from engine_checks import check_random_positions  # noqa: E402

SIZES = range(2, 12)


def rules_of(n: int):
    return load_game(f"hex:{n}").rules


def layer(lo: int, hi: int) -> int:
    return lo | hi << 64


def as_reference(rules, words: tuple[int, int, int, int], to_move: int) -> reference.Position:
    black, white = layer(*words[:2]), layer(*words[2:])
    n, stride = rules.N, rules.STRIDE
    grid = tuple("".join(reference.BLACK if black >> (r * stride + c) & 1 else reference.WHITE
                         if white >> (r * stride + c) & 1 else reference.EMPTY for c in range(n)) for r in range(n))
    return reference.Position(grid, (reference.BLACK, reference.WHITE)[to_move])


def rule_moves(rules, words, to_move: int) -> list[str]:
    """The cells legal() offers, by name."""
    mask = layer(*rules.legal(to_move, *words))
    n, stride = rules.N, rules.STRIDE
    return [reference.name((r, c)) for r in range(n) for c in range(n) if mask >> (r * stride + c) & 1]


def cell_words(rules, move: str) -> tuple[int, int]:
    """The one-hot mask of a cell as its two words."""
    bit = (int(move[1:]) - 1) * rules.STRIDE + ord(move[0]) - ord("a")
    return (1 << bit) & 0xFFFF_FFFF_FFFF_FFFF, (1 << bit) >> 64


def check_position(rules, words, to_move: int) -> list[str]:
    """The rules and the reference agree at this position; its moves."""
    position = as_reference(rules, words, to_move)
    expected = reference.moves(position)
    assert rule_moves(rules, words, to_move) == expected, position
    assert all(0 <= count <= rules.N for count in rules.estimate(to_move, *words))
    if not expected:
        assert reference.has_won(position, (reference.WHITE, reference.BLACK)[to_move])
        assert rules.result(to_move, *words) == LOSS
    return expected


def test_every_board_takes_two_words_a_layer():
    for n in SIZES:
        game = load_game(f"hex:{n}")
        assert game.board.words == 2 and len(game.rules.start()) == 4
        assert sorted(game.spec.move_order(n)) == sorted(game.board.cells)


@pytest.mark.parametrize("n", SIZES)
def test_random_playouts_agree_with_the_reference(n):
    rules = rules_of(n)
    rng = random.Random(f"hex:{n}")
    for _ in range(10 if n < 8 else 3):
        words, to_move, history = rules.start(), 0, []
        while moves := check_position(rules, words, to_move):
            move = rng.choice(moves)
            history.append(move)
            position = as_reference(rules, words, to_move)
            words = rules.play(to_move, *words, *cell_words(rules, move))
            to_move = 1 - to_move
            assert as_reference(rules, words, to_move) == reference.play(position, move), history
        assert len(history) <= n * n


@pytest.mark.parametrize("n", [2, 3])
def test_every_position_of_the_smallest_boards_agrees(n):
    rules = rules_of(n)
    seen = set()

    def visit(words, to_move):
        if (words, to_move) in seen:
            return
        seen.add((words, to_move))
        for move in check_position(rules, words, to_move):
            visit(rules.play(to_move, *words, *cell_words(rules, move)), 1 - to_move)

    visit(rules.start(), 0)
    assert len(seen) > 3 ** (n * n) // 20


def test_a_chain_across_the_word_boundary_joins():
    """On 11x11 rows 6 and 7 straddle bit 64: black's column f, white's row 6, each joined only across it."""
    rules = rules_of(11)
    black = [f"f{row}" for row in range(1, 12)]
    white = [f"{col}6" for col in "abcdeghijk"]  # row 6 but for f6, black's
    words, to_move = rules.start(), 0
    for move in [m for pair in zip(black, white + ["a1"]) for m in pair][:-1]:
        words = rules.play(to_move, *words, *cell_words(rules, move))
        to_move = 1 - to_move
    assert rules.legal(to_move, *words) == (0, 0)
    assert reference.has_won(as_reference(rules, words, to_move), reference.BLACK)


# --- decided: connections by pairs of cells, against the reference's search -----------------------------------


def reachable(n: int) -> set[tuple[tuple[int, int, int, int], int]]:
    """Every unfinished position of hex:n (its words and the side to move)."""
    rules, seen = rules_of(n), set()

    def visit(words, to_move):
        if (words, to_move) in seen or rules.legal(to_move, *words) == (0, 0):
            return
        seen.add((words, to_move))
        for move in rule_moves(rules, words, to_move):
            visit(rules.play(to_move, *words, *cell_words(rules, move)), 1 - to_move)

    visit(rules.start(), 0)
    return seen


def sampled(n: int, count: int, fewest_stones: int) -> list[tuple[tuple[int, int, int, int], int]]:
    """`count` unfinished positions of hex:n with `fewest_stones` stones or more, from random games."""
    rules, rng, found = rules_of(n), random.Random(f"decided:{n}"), []
    while len(found) < count:
        words, to_move = rules.start(), 0
        for ply in range(rng.randrange(fewest_stones, n * n)):
            moves = rule_moves(rules, words, to_move)
            if not moves:
                break
            words, to_move = rules.play(to_move, *words, *cell_words(rules, rng.choice(moves))), 1 - to_move
        if rules.legal(to_move, *words) != (0, 0) and bin(layer(*words[:2]) | layer(*words[2:])).count("1") \
                >= fewest_stones:
            found.append((words, to_move))
    return found


def check_decided(n: int, positions) -> Counter:
    """Each of `positions` that `decided` settles has the reference's value; what it said, by kind (the side to
    move winning; losing to a connection; losing to two connections a key cell away each)."""
    rules, kinds = rules_of(n), Counter()
    for words, to_move in positions:
        if reference.wins.cache_info().currsize > 2_000_000:
            reference.wins.cache_clear()  # the memory of a test process: it keeps every position it searched
        code = rules.decided(to_move, *words)
        if code == ONGOING:
            kinds["ongoing"] += 1
            continue
        assert code in (WIN, LOSS)
        assert (code == WIN) == reference.wins(as_reference(rules, words, to_move)), (words, to_move)
        other, _, _ = (rules.connection(*words[2:], *words[:2], rules.FIRST_COL_LO, rules.FIRST_COL_HI,
                                        rules.LAST_COL_LO, rules.LAST_COL_HI, 1) if to_move == 0 else
                       rules.connection(*words, rules.FIRST_ROW_LO, rules.FIRST_ROW_HI, rules.LAST_ROW_LO,
                                        rules.LAST_ROW_HI, 1))
        kinds["win" if code == WIN else "loss" if other == rules.JOINED else "loss to two"] += 1
    return kinds


def test_decided_is_true_at_every_position_of_3x3():
    kinds = check_decided(3, reachable(3))
    assert kinds["win"] > 500 and kinds["loss"] > 100 and kinds["loss to two"] > 10 and kinds["ongoing"] > 100


@pytest.mark.parametrize("n, count, fewest_stones", [(4, 1500, 2), (5, 100, 12)])
def test_decided_is_true_at_random_positions(n, count, fewest_stones):
    kinds = check_decided(n, sampled(n, count, fewest_stones))
    assert min(kinds["win"], kinds["loss"], kinds["loss to two"], kinds["ongoing"]) > 0, kinds


def test_a_bridge_chain_is_decided_before_it_is_joined():
    """Black's b1 c2 b4 on 5×5: row 1, a bridge to c2 (over c1 and b2), a bridge to b4 (b3, c3), a bridge to row 5
    (a5, b5). Decided for the side to move, black or white (the searches above check such values)."""
    rules = rules_of(5)
    words, to_move = rules.start(), 0
    for move in ("b1", "a1", "c2", "a2", "b4", "a3", "e1"):
        words, to_move = rules.play(to_move, *words, *cell_words(rules, move)), 1 - to_move
        if move == "a3":
            assert rules.decided(to_move, *words) == WIN
    assert rules.legal(to_move, *words) != (0, 0) and rules.decided(to_move, *words) == LOSS
    intruded = rules.play(to_move, *words, *cell_words(rules, "b3"))  # white takes one cell of a pair
    assert rules.decided(0, *intruded) == WIN and rules.legal(0, *intruded) != (0, 0)


# --- won: joined by pairs, the claim a certificate stops at, and the checker's own verdict on it ------------


def check_won(n: int, positions) -> Counter:
    """At each of `positions`, the rules' `won` and the certificate checker's verifier (which shares no code with
    them) give the same verdict, and where a side has won by it the reference's search agrees; the verdicts by kind."""
    game = load_game(f"hex:{n}")
    rules, joined_by_pairs, kinds = game.rules, won_verifier(game), Counter()
    try:
        for words, to_move in positions:
            code = rules.won(to_move, *words)
            mover, other = joined_by_pairs(words, to_move), joined_by_pairs(words, 1 - to_move)
            assert (code == WIN, code == LOSS) == (mover, other), (words, to_move)
            if code != ONGOING:
                assert (code == WIN) == reference.wins(as_reference(rules, words, to_move)), (words, to_move)
            kinds[{WIN: "win", LOSS: "loss", ONGOING: "ongoing"}[code]] += 1
    finally:
        reference.wins.cache_clear()  # its positions, kept for the whole process, would outgrow the memory
    return kinds


def test_won_is_the_checkers_verdict_and_true_at_every_position_of_3x3():
    kinds = check_won(3, reachable(3))
    assert min(kinds.values()) > 100 and len(kinds) == 3, kinds


@pytest.mark.parametrize("n, count, fewest_stones", [(4, 1500, 2), (5, 60, 14)])
def test_won_is_the_checkers_verdict_and_true_at_random_positions(n, count, fewest_stones):
    kinds = check_won(n, sampled(n, count, fewest_stones))
    assert len(kinds) == 3, kinds


@pytest.mark.parametrize("n", [6, 9, 11])
def test_won_is_the_checkers_verdict_on_larger_boards(n):
    """Boards too large for the reference's search: the two verdicts agree (on 9×9 and 11×11, across two words)."""
    game = load_game(f"hex:{n}")
    rules, joined_by_pairs, verdicts = game.rules, won_verifier(game), Counter()
    for words, to_move in sampled(n, 300, n * n // 3):
        code = rules.won(to_move, *words)
        assert (code == WIN, code == LOSS) == (joined_by_pairs(words, to_move), joined_by_pairs(words, 1 - to_move))
        verdicts[code] += 1
    assert len(verdicts) == 3, verdicts


def test_a_users_game_named_hex_gets_no_verifier():
    """The checker verifies only gameproof's own Hex: a user's declaration that borrows its name and rules (with,
    say, other edges in a rules file of its own) stops no certificate short of its real ends."""
    import dataclasses

    game = load_game("hex:5")
    borrowed = Game(dataclasses.replace(game.spec), {"n": 5})
    assert won_verifier(game) is not None and won_verifier(borrowed) is None


def test_a_5x5_certificate_stops_where_a_side_has_won(tmp_path):
    """A certificate that the checker accepts, of a few thousand positions (played out to the games' ends, one took
    563,163); checked without the verifier, the same certificate is rejected (its stops are what it rests on)."""
    state = RulesState(load_game("hex:5"))
    search = kept_search(state.game, Options(tt_mb=256))
    certificate = certify(state, search)
    path = tmp_path / "hex5.cert"
    write_certificate(path, certificate.header, certificate.parts)
    report = check_certificate(str(path))
    assert report.accepted and report.value is Value.WIN, report.finding
    assert certificate.nodes < 20_000
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr("gameproof.certify.check.won_verifier", lambda game: None)
        refused = check_certificate(str(path))
    assert not refused.accepted and "not in the certificate" in refused.finding.message


# --- through the engine: RulesState, perft, solve, rendering, certificates ----------------------------------

#: hex:3's move paths by depth, counted by the reference (games end from ply 5 on).
HEX3_PERFT = [1, 9, 72, 504, 3_024, 15_120, 54_720, 146_880, 207_360, 120_960]
#: The winning first moves of the smallest boards, by the reference's minimax (docs/games.md).
WINNING_OPENINGS = {2: {"b1", "a2"}, 3: {"c1", "a2", "b2", "c2", "a3"}, 4: {"d1", "c2", "b3", "a4"}}


def falling(cells: int, depth: int) -> int:
    """Move paths of `depth` plies on an empty board of `cells` cells while no game can have ended."""
    count = 1
    for ply in range(depth):
        count *= cells - ply
    return count


def test_perft_through_the_engine_counts_what_the_reference_counts():
    state = RulesState(load_game("hex:3"))
    assert [fast_perft(state, depth) for depth in range(10)] == HEX3_PERFT
    assert [perft(state, depth) for depth in range(7)] == HEX3_PERFT[:7]
    assert fast_perft(RulesState(load_game("hex:4")), 5) == reference.perft(reference.start(4), 5) == falling(16, 5)


@pytest.mark.parametrize("n", [9, 11])
def test_perft_on_boards_of_two_words(n):
    """Nobody can join their edges before black's n-th stone, so the first plies' paths are a falling factorial."""
    state = RulesState(load_game(f"hex:{n}"))
    assert perft(state, 2) == fast_perft(state, 2) == reference.perft(reference.start(n), 2) == falling(n * n, 2)
    assert fast_perft(state, 3) == falling(n * n, 3)
    state = RulesState(load_game(f"hex:{n}"), "a1 b2 c3")
    assert fast_perft(state, 2) == falling(n * n - 3, 2)


@pytest.mark.parametrize("n", [2, 3])
def test_the_smallest_boards_agree_with_minimax(n):
    state = RulesState(load_game(f"hex:{n}"))
    solution = solve(state, Options(tt_mb=16))
    position = reference.start(n)
    assert solution.value == ("win" if reference.wins(position) else "loss")
    for move, value in solution.moves.items():
        assert value == ("loss" if reference.wins(reference.play(position, state.move_name(move))) else "win")
    assert {state.move_name(move) for move, value in solution.moves.items() if value == "win"} == WINNING_OPENINGS[n]


def test_4x4_every_opening():
    state = RulesState(load_game("hex:4"))
    solution = solve(state, Options(tt_mb=64))
    assert solution.value == "win"
    assert {state.move_name(move) for move, value in solution.moves.items() if value == "win"} == WINNING_OPENINGS[4]


@pytest.mark.heavy
def test_the_4x4_openings_are_the_references():
    position = reference.start(4)
    assert {move for move in reference.moves(position) if not reference.wins(reference.play(position, move))} \
        == WINNING_OPENINGS[4]


@pytest.mark.parametrize("n", [4, 5])
def test_solve_agrees_with_minimax_after_random_stones(n):
    check_random_positions(load_game(f"hex:{n}"), reference.start(n), reference.play, reference.wins, n * n - 9, 6)


def test_positions_of_the_largest_boards_play_and_render(tmp_path):
    game = load_game("hex:11")
    state = RulesState(game, "f6 a1 k11 e7 f7")
    assert len(state.legal_moves()) == 121 - 5 and state.to_move == 1
    drawn = str(state)
    assert drawn.count("X") == 3 and drawn.count("O") == 2
    svg = tmp_path / "hex.svg"
    assert main(["render", "hex:11", "--moves", "f6 a1 k11 e7 f7", "--svg", str(svg)]) == 0
    assert svg.read_text().startswith("<svg")
    assert main(["render", "hex:9", "--moves", "i9 a1", "--svg", str(tmp_path / "nine.svg")]) == 0


def test_a_3x3_certificate_is_accepted(tmp_path):
    state = RulesState(load_game("hex:3"))
    certificate = certify(state, kept_search(state.game, Options(tt_mb=16)))
    path = tmp_path / "hex.cert"
    write_certificate(path, certificate.header, certificate.parts)
    report = check_certificate(str(path))
    assert report.accepted, report.finding
    assert report.value is Value.WIN


def test_the_rules_self_check_passes():
    assert main(["games", "hex:5", "--check"]) == 0
    assert main(["games", "hex:11", "--check", "--games", "20"]) == 0


def rotated(name: str, n: int) -> str:
    """The cell's image under the half-turn."""
    return f"{chr(ord('a') + n - 1 - (ord(name[0]) - ord('a')))}{n + 1 - int(name[1:])}"


#: The winning openings of 5×5 as solved here (2026-12-03, 4–5 minutes: docs/games.md), kept to catch a change.
WINNING_5X5 = {"e1", "b2", "c2", "d2", "e2", "b3", "c3", "d3", "a4", "b4", "c4", "d4", "a5"}


@pytest.mark.heavy
def test_5x5_every_opening():
    """A first-player win; each opening's value equals its half-turn image's, and the centre wins."""
    state = RulesState(load_game("hex:5"))
    solution = solve(state, Options(tt_mb=2048))
    values = {state.move_name(move): value for move, value in solution.moves.items()}
    assert solution.value == "win" and len(values) == 25 and values["c3"] == "win"
    assert all(values[rotated(cell, 5)] == value for cell, value in values.items())
    assert {cell for cell, value in values.items() if value == "win"} == WINNING_5X5


#: The openings of 6×6 that win for black, the first player: Benzene's regression data
#: (regression/dfpn-solve-6x6.tst, the winner after each one-stone position; its cells named as ours).
BENZENE_6X6 = {"a3", "a4", "a5", "a6", "b2", "b3", "b4", "b5", "c2", "c3", "c4", "c5", "d2", "d3", "d4", "d5",
               "e2", "e3", "e4", "e5", "f1", "f2", "f3", "f4"}


@pytest.mark.heavy
def test_6x6_every_opening_is_benzenes():
    """24 of the 36 openings win, each as its half-turn image does (issue 50's target: within an hour on two cores;
    33 minutes on 2026-12-07, 323.3 M nodes, with one question an opening, draws=False)."""
    state = RulesState(load_game("hex:6"))
    solution = solve_on_workers(state, Options(tt_mb=8192), workers=2)
    values = {state.move_name(move): value for move, value in solution.moves.items()}
    assert solution.value == "win" and len(values) == 36
    assert all(values[rotated(cell, 6)] == value for cell, value in values.items())
    assert {cell for cell, value in values.items() if value == "win"} == BENZENE_6X6

