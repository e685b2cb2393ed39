"""`gameproof reach`: reachability by SAT for any declared game, witnesses replayed on the engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gameproof.errors import BadInput

from gameproof.cli import main
from gameproof.answers import Status
from gameproof.framework.reach import solve_reach
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.logic import any_uint, assume

sys.path.insert(0, str(Path(__file__).parent))
import breakthrough_reference  # noqa: E402
import hex_reference  # noqa: E402


def first_player_stack(player, opponent, to_move, height=3):
    """The first player holds the bottom `height` cells of column a (Connect Four)."""
    pieces = opponent if to_move else player
    column = (1 << height) - 1
    return (pieces & column) == column


def flips_at_least(player, opponent, to_move, rules, n=4):
    """Some legal move of the side to move flips at least `n` discs (Othello)."""
    move = any_uint(64, "move")
    assume((move & (move - 1)) == 0)
    assume((rules.legal(player, opponent) & move) != 0)
    return rules.popcount(rules.flips(player, opponent, move)) >= n


def test_connect4_stack_needs_five_moves():
    game = load_game("connect4:5,4")
    found = solve_reach(game, 5, first_player_stack, "cadical195")
    assert found.status is Status.SAT
    assert found.final.record == " ".join(found.moves) and len(found.moves) == 5
    assert first_player_stack(*found.final.words, found.final.to_move)
    assert solve_reach(game, 4, first_player_stack, "cadical195").status is Status.UNSAT


def test_a_witness_is_a_legal_game_on_the_engine():
    game = load_game("othello:4")
    found = solve_reach(game, 6, flips_at_least, "cadical195", parameters={"n": 2})
    assert found.status is Status.SAT
    replayed = RulesState(game, " ".join(found.moves).replace("pass", ""))
    assert replayed.words == found.final.words
    move = found.inputs["move"]
    assert bin(game.rules.flips(*replayed.words, move)).count("1") >= 2


def test_the_othello_4x4_flip_limit_against_brute_force():
    """The most discs one move flips in any reachable 4×4 position, by enumeration and by SAT."""
    game = load_game("othello:4")
    most, seen, frontier = 0, set(), [RulesState(game)]
    while frontier:
        state = frontier.pop()
        if (state.words, state.to_move) in seen:
            continue
        seen.add((state.words, state.to_move))
        for move in state.legal_moves():
            if move < 64:
                most = max(most, bin(game.rules.flips(*state.words, 1 << move)).count("1"))
            child = state.copy()
            child.play(move)
            frontier.append(child)
    assert solve_reach(game, 12, flips_at_least, "cadical195", parameters={"n": most}).status is Status.SAT
    assert solve_reach(game, 12, flips_at_least, "cadical195", parameters={"n": most + 1}).status is Status.UNSAT


def test_cli_reach_json_and_exit_codes(tmp_path, capsys, dratify_only):
    predicate = tmp_path / "stack.py"
    predicate.write_text("def stack(player, opponent, to_move, height=3):\n"
                         "    pieces = opponent if to_move else player\n"
                         "    return (pieces & ((1 << height) - 1)) == (1 << height) - 1\n")
    assert main(["reach", "connect4:5,4", "--plies", "5", "--where", f"{predicate}::stack", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "sat" and len(answer["moves"]) == 5
    proof = tmp_path / "r.drat"
    assert main(["reach", "connect4:5,4", "--plies", "6", "--where", f"{predicate}::stack", "--set", "height=4",
                 "--proof", str(proof)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert proof.stat().st_size > 0 and "unsat" in out and f"DRAT proof: {proof} (checked by dratify)" in out


@pytest.mark.parametrize("argv", [["reach", "nogame", "--plies", "3", "--where", "x.py::f"],
                                  ["reach", "connect4", "--plies", "3", "--where", "missing.py::f"],
                                  ["reach", "connect4", "--plies", "3", "--where", "x.py::f", "--set", "oops"]])
def test_bad_reach_input_is_one_line_and_exit_2(argv, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1


def _most_threats_by_enumeration(game) -> int:
    """The most threat cells the first player holds in any reachable position of a game still going on."""
    rules = game.rules
    seen, frontier, most = set(), [(tuple(rules.start()), 0)], 0
    while frontier:
        words, to_move = frontier.pop()
        if (words, to_move) in seen:
            continue
        seen.add((words, to_move))
        legal = rules.legal(*words)
        if legal == 0:
            continue
        empty = rules.CELLS & ~(words[0] | words[1])
        most = max(most, rules.threats(words[to_move], empty))
        while legal:
            move = legal & -legal
            legal ^= move
            frontier.append((tuple(rules.play(*words, move)), to_move ^ 1))
    return most


def test_the_connect4_threat_question_against_enumeration():
    """examples/connect4_questions.py on 4×4 (161,029 positions): the SAT maximum is the enumerated one."""
    from gameproof.loading import import_file

    question = import_file(Path(__file__).resolve().parents[2] / "examples" / "connect4_questions.py")
    game = load_game("connect4:4,4")
    most = _most_threats_by_enumeration(game)
    found = solve_reach(game, 16, question.first_player_threats, "cadical195", parameters={"n": most})
    assert found.status is Status.SAT
    refuted = solve_reach(game, 16, question.first_player_threats, "cadical195", parameters={"n": most + 1})
    assert refuted.status is Status.UNSAT


DOMINEERING = Path(__file__).resolve().parents[2] / "examples" / "domineering.py"
WRONG_PREDICATES = {
    "identity": "return covered is len('')",
    "negated identity": "return (covered == 0) is not True",
    "text": "return str(covered) == '0'",
    "subtract below zero": "return covered - 1 < 0",
    "complement below zero": "return ~covered < 0",
    "returns nothing": "covered == 0",
    "ignores the position": "return True",
    "returns a word": "return covered & 1",
}


@pytest.mark.parametrize("name", sorted(WRONG_PREDICATES))
def test_predicates_the_tracer_cannot_follow_are_refused_not_unsat(name, tmp_path, capsys):
    """Each of these was once answered "unsat" (with a DRAT proof) without looking at the position."""
    predicate = tmp_path / "wrong.py"
    predicate.write_text(f"def wrong(covered, to_move):\n    {WRONG_PREDICATES[name]}\n")
    assert main(["reach", f"{DOMINEERING}:3,3", "--plies", "2", "--where", f"{predicate}::wrong"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "wrong.py:" in err and "Traceback" not in err


def _domineering_with_play(tmp_path, body: str) -> str:
    """examples/domineering.py with `play` replaced by `body` (indented) and no symmetry declared (the rules
    self-check would find that the variant breaks them), as a GAME argument."""
    source = DOMINEERING.read_text()
    start = source.index("def play(covered, move):")
    end = source.index("\ndef result(")
    source = source[:start] + "def play(covered, move):\n" + body + "\n\n" + source[end:]
    symmetries = source.index("    symmetries=(")
    source = source[:symmetries] + source[source.index("\n", symmetries) + 1:]
    path = tmp_path / "domineering_variant.py"
    path.write_text(source)
    return f"{path}:7,7"


def test_a_rule_returning_plain_int_words_is_traced_exactly(tmp_path, capsys):
    """Two plain ints merged by a symbolic `if` make a 49-bit word; reach widens it instead of failing."""
    game = _domineering_with_play(tmp_path, "    if move & 1:\n        return (CELLS,)\n    return (CELLS >> 1,)\n")
    predicate = tmp_path / "full.py"
    predicate.write_text("def full(covered, to_move):\n    return covered == (1 << 49) - 1\n")
    assert main(["reach", game, "--plies", "1", "--where", f"{predicate}::full", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == ["a1"]


def test_a_rule_returning_no_position_is_named(tmp_path):
    """Loaded from a file, the rules self-check refuses such a rule first; built through the API (no
    self-check), the tracer names it."""
    from gameproof.framework.game import Game
    from gameproof.framework.reach import solve_reach
    from gameproof.framework.registry import games_in_file

    path, _, parameters = _domineering_with_play(tmp_path, "    return covered | move\n").rpartition(":")
    assert main(["reach", f"{path}:{parameters}", "--plies", "1", "--where", f"{tmp_path}/none.py::f"]) == 2
    spec = games_in_file(path)[0]
    game = Game(spec, spec.parse_parameters(parameters))
    with pytest.raises(BadInput, match=r"domineering_variant\.py:\d+: play\(\) returned Word"):
        solve_reach(game, 1, lambda covered, to_move: covered != 0, "cadical195")


def test_a_predicate_helper_is_guarded_too(tmp_path, capsys):
    predicate = tmp_path / "helped.py"
    predicate.write_text("def empty(word):\n    return word is len('')\n\n\n"
                         "def helped(covered, to_move):\n    return empty(covered)\n")
    assert main(["reach", f"{DOMINEERING}:3,3", "--plies", "2", "--where", f"{predicate}::helped"]) == 2
    assert "helped.py:2: `is`" in capsys.readouterr().err


# --- moves of several parts, boards of several words: against breadth-first walks of the references --------


def fewest_plies(start, moves, play, holds, most):
    """The fewest plies (at most `most`) after which some game reaches a position where `holds` is true, or None;
    `moves(position)` names the legal moves and `play(position, name)` gives the next position."""
    level = {start}
    for plies in range(most + 1):
        if any(holds(position) for position in level):
            return plies
        level = {play(position, move) for position in level for move in moves(position)}
    return None


def black_pieces_at_most(white, black, to_move, rules, most=3):
    """Black has at most `most` pieces left (Breakthrough)."""
    return rules.popcount(black) <= most


def white_joined(black_lo, black_hi, white_lo, white_hi, to_move, rules):
    """White has joined columns a and n (Hex)."""
    return rules.white_joined(white_lo, white_hi)


@pytest.mark.parametrize("most", [3, 2])
def test_breakthrough_captures_are_reached_as_a_walk_of_the_reference_finds(most):
    """Moves from a cell to a cell (two parts), the side to move an argument of the rules."""
    game = load_game("breakthrough:4,4")
    plies = fewest_plies((breakthrough_reference.start(4, 4), 0), lambda p: breakthrough_reference.moves(*p),
                         lambda p, move: (breakthrough_reference.play(p[0], p[1], move), 1 - p[1]),
                         lambda p: sum(row.count(breakthrough_reference.BLACK) for row in p[0]) <= most, 8)
    assert plies is not None
    found = solve_reach(game, plies, black_pieces_at_most, "cadical195", parameters={"most": most})
    assert found.status is Status.SAT and found.final.words[1].bit_count() <= most
    assert len(found.moves) == plies and all("-" in move for move in found.moves)
    refuted = solve_reach(game, plies - 1, black_pieces_at_most, "cadical195", parameters={"most": most})
    assert refuted.status is Status.UNSAT


def test_a_hex_chain_is_reached_as_a_walk_of_the_reference_finds():
    """A layer of two words (Hex 3×3 is spread over both), the side to move an argument of the rules."""
    game = load_game("hex:3")
    plies = fewest_plies(hex_reference.start(3), hex_reference.moves, hex_reference.play,
                         lambda p: hex_reference.has_won(p, hex_reference.WHITE), 6)
    assert plies == 6  # white's three stones, black's three elsewhere
    found = solve_reach(game, plies, white_joined, "cadical195")
    assert found.status is Status.SAT and found.final.is_over()
    assert solve_reach(game, plies - 1, white_joined, "cadical195").status is Status.UNSAT


def test_a_predicate_that_catches_a_refusal_is_refused_not_unsat(tmp_path, capsys):
    """The fallback path was traced instead and answered "unsat" with a DRAT proof that checks."""
    predicate = tmp_path / "catching.py"
    predicate.write_text("def catching(covered, to_move):\n    try:\n        return covered is len('')\n"
                         "    except Exception:\n        return covered == (1 << 64) - 1\n")
    assert main(["reach", f"{DOMINEERING}:3,3", "--plies", "2", "--where", f"{predicate}::catching"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "catching.py:3: `is`" in err and "caught this refusal" in err


def test_a_rule_that_catches_a_refusal_is_refused_not_unsat(tmp_path, capsys):
    """A refusal inside the game's own rules, caught there, voids the trace of `reach` too."""
    game = _domineering_with_play(tmp_path, "    try:\n        across = str(move) != '' and not vertical_to_move(covered)\n"
                                  "    except Exception:\n        across = True\n"
                                  "    if across:\n        return (covered | move | (move << 1),)\n"
                                  "    return (covered | move | (move << COLS),)\n")
    predicate = tmp_path / "stacked.py"
    predicate.write_text("def stacked(covered, to_move):\n    return (covered & 0x81) == 0x81\n")
    assert main(["reach", game, "--plies", "1", "--where", f"{predicate}::stacked"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "domineering_variant.py:" in err and "caught this refusal" in err


CONSTANT_CHOSEN_BY_A_SYMBOLIC_IF = '''
import sys
from gameproof.framework.declaration import LOSS, Board, GameSpec

CELLS = 0x3F
LEFT = 0x01
RIGHT = 0x20


def start():
    return (0,)


def legal(w):
    return CELLS & ~w


def play(w, move):
    edge = LEFT                # a module constant ...
    if (w & LEFT) != 0:        # ... replaced under a condition on the position (symbolic from the second ply on)
        edge = RIGHT
    return (w | move | (w & edge),)


def result(w):
    return LOSS


GAME = GameSpec(name="fill", rules=sys.modules[__name__], summary="a row filled one cell a move",
                board=lambda: Board(1, 6), perspective=False, pieces="#")
'''


def test_a_constant_chosen_by_a_symbolic_if_meets_the_position_words(tmp_path):
    """Found by the tutorial trial of 2026-12-06: two module constants merged by a symbolic `if` became a 32-bit
    word, which the 64-bit position words then refused ("width mismatch") at two plies and more."""
    (tmp_path / "fill.py").write_text(CONSTANT_CHOSEN_BY_A_SYMBOLIC_IF)
    game = load_game(str(tmp_path / "fill.py"))
    full = solve_reach(game, 3, lambda w, to_move: w == 0b111, "cadical195")
    assert full.status is Status.SAT and len(full.moves) == 3
    never = solve_reach(game, 2, lambda w, to_move: w == 0b111, "cadical195")
    assert never.status is Status.UNSAT
