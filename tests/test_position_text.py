"""Positions from text (``--position``): every game's positions write and read back unchanged; text that is no position
is refused on one line; a position given as text is answered as the moves that reach it are; a certificate of one is
accepted by the checker; Othello reads the FForum endgame positions that edax ships."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.widgets import Static

from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.diagram import format_position, parse_position, position_problem
from gameproof.framework.game import Game
from gameproof.framework.registry import declared_specs, is_builtin, load_game, unchecked_game
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.parallel import Ask, answer_question, journal_identity
from gameproof.search.solve import solve
from gameproof.tui.app import GameproofApp
from gameproof.tui.game_model import GameSession
from gameproof.tui.oracle import Oracle

FFORUM = Path(__file__).parent / "data" / "othello_fforum.txt"
#: Small boards of every built-in game besides its default one (which the round trip also plays).
SMALL = ("mnk:3,3,3", "mnk-misere:4,4,3", "mnk-notakto:3,3,3", "connect4:4,4", "connect4:12,4", "othello:4",
         "othello:6", "hex:3", "amazons:4,4", "breakthrough:4,3", "clobber:3,3")
ROUND_TRIP = settings(max_examples=12, deadline=None, database=None)


def run(argv: list[str]) -> tuple[int, str, str]:
    """The command line run in this process: its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def builtin_games() -> list[str]:
    """Every built-in game with its default parameters, and the small boards above."""
    return sorted({*(spec.example for spec in declared_specs() if is_builtin(spec)), *SMALL})


# --- every position writes and reads back ----------------------------------------------------------------------


@pytest.mark.parametrize("name", builtin_games())
@ROUND_TRIP
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_a_random_position_of_every_game_writes_and_reads_back(name, seed, plies):
    game = load_game(name)
    state, chooser = RulesState(game), random.Random(seed)
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(chooser.choice(moves))
    text = state.position
    words, to_move = parse_position(game, text)
    assert (words, to_move) == (state.words, state.to_move)
    assert format_position(game, words, to_move) == text
    again = RulesState.from_position(game, text)
    assert again.position == text and again.root == (state.words, state.to_move) and again.record == ""


@pytest.mark.parametrize(("name", "text", "canonical"), [
    ("mnk:3,3,3", "---\n-X-\n... o", "---/-X-/--- O"),
    ("mnk:3,3,3", "  --- -X- O..   X ", "---/-X-/O-- X"),
    ("hex:3", "X--/---/--- w", "X--/---/--- white"),
    ("hex:3", "X--/---/--- WHITE", "X--/---/--- white"),
    ("othello:4", "----.OX..XO.---- black", "-----OX--XO----- X"),
    ("connect4:4,4", "1, 2 3", "123"),
    ("dodgem:3", "B.. B.. .RR  B", "B--/B--/-RR blue"),
    ("dodgem:3", "B--\nB--\n-RR Red", "B--/B--/-RR red"),
    ("morris3", "w.. .b. w..  B", "W--/-B-/W-- black"),
    ("morris3", "---\n-W-\n--- Black", "---/-W-/--- black"),
])
def test_other_spellings_read_as_the_canonical_text(name, text, canonical):
    assert RulesState.from_position(load_game(name), text).position == canonical


def test_the_diagram_puts_row_one_at_the_bottom_and_the_mover_first():
    game = load_game("mnk:3,3,3")
    state = RulesState(game, "a1 c3")  # X on a1, O on c3, X to move
    assert state.position == "--O/---/X-- X"
    o_to_move = RulesState(game, "a1 c3 b2")
    parsed = RulesState.from_position(game, "--O/-X-/X-- O")
    assert parsed.words == o_to_move.words and parsed.to_move == 1  # the side to move's layer first


def test_connect_four_reads_the_columns_played_and_writes_the_smallest():
    game = load_game("connect4:7,6")
    assert RulesState.from_position(game, "4453").words == RulesState(game, "d d e c").words
    assert RulesState(game, "e d c d").position == "3454"  # the same position, the smallest column first
    assert RulesState(game).position == ""


# --- text that is no position -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "says"), [
    (["perft", "mnk:3,3,3", "1", "--position", "---/--- X"], "2 rows, but the board has 3"),
    (["perft", "mnk:3,3,3", "1", "--position", "----/---/--- X"], "row 3 has 4 cells, but the board has 3 columns"),
    (["perft", "mnk:3,3,3", "1", "--position", "--Z/---/--- X"], "row 3: unknown piece 'Z'"),
    (["perft", "mnk:3,3,3", "1", "--position", "---/-x-/--- X"], "row 2: unknown piece 'x'"),
    (["perft", "mnk:3,3,3", "1", "--position", "---/---/--- Q"], "unknown side to move 'Q'"),
    (["perft", "mnk:3,3,3", "1", "--position=---/---/---"], "no side to move"),
    (["perft", "mnk:3,3,3", "1", "--position", "(XO)--/---/--- X"], "cell a3 holds 2 pieces"),
    (["perft", "mnk:3,3,3", "1", "--position", "(X--/---/--- X"], "row 3: a cell of several pieces"),
    (["perft", "mnk:3,3,3", "1", "--moves", "b2", "--position", "---/---/--- X"], "not allowed with argument"),
    (["solve", "othello:4", "--position=-----OX--XO---- X"], "15 squares, but othello:4 has 16"),
    (["solve", "othello:4", "--position=-----OX--XO--Z-- X"], "'Z' on b4 is no disc"),
    (["solve", "othello:4", "--position=-----OX--XO----- Z"], "unknown side to move 'Z'"),
    (["solve", "connect4:4,4", "--position", "15"], "move 2 ('5') is no column 1..4"),
    (["solve", "connect4:4,4", "--position", "11111"], "move 5 (column 1): the column is full"),
    (["solve", "connect4:4,4", "--position", "12121212"], "move 8 (column 2): the column is full or the game is over"),
    (["render", "hex:3", "--position", "---/---/--- red", "--svg", "-"], "unknown side to move 'red'"),
    (["tui", "breakthrough:4,3", "--position", "WWW/---/BBB white"], "3 rows, but the board has 4"),
    (["book", "query", "no-such.book", "--position", "x", "--moves", "a"], "not allowed with argument"),
    (["perft", "dodgem:3", "1", "--position=B--/B--/-RR"], "no side to move"),
    (["perft", "dodgem:3", "1", "--position=B--/B--/-RR x"], "unknown side to move 'x'"),
    (["perft", "dodgem:3", "1", "--position=blue"], "no board"),
    (["perft", "dodgem:3", "1", "--position="], "no side to move"),
    (["perft", "dodgem:3", "1", "--position=B--/B--/-RR green"], "unknown side to move 'green'"),
    (["perft", "dodgem:3", "1", "--position=B--/-RR blue"], "2 rows, but the board has 3"),
    (["perft", "dodgem:3", "1", "--position=B--/B---/-RR blue"], "row 2 has 4 squares, but the board has 3 columns"),
    (["perft", "dodgem:3", "1", "--position=B--/BX-/-RR blue"], "row 2: unknown piece 'X'"),
    (["perft", "dodgem:3", "1", "--position=BBB/---/-RR blue"], "3 blue cars, but each side has 2 at most"),
    (["perft", "morris3", "1", "--position=---/---/---"], "no side to move"),
    (["perft", "morris3", "1", "--position=white"], "no board"),
    (["perft", "morris3", "1", "--position=---/---/--- green"], "unknown side to move 'green'"),
    (["perft", "morris3", "1", "--position=---/--- white"], "2 rows, but the board has 3"),
    (["perft", "morris3", "1", "--position=---/----/--- white"], "row 2 has 4 points, but the board has 3 columns"),
    (["perft", "morris3", "1", "--position=---/-X-/--- white"], "row 2: unknown piece 'X'"),
    (["perft", "morris3", "1", "--position=WWW/W--/BBB black"], "4 white pieces, but each side has 3"),
    (["perft", "morris3", "1", "--position=W--/W--/--- black"], "2 white and 0 black pieces"),
    (["perft", "morris3", "1", "--position=W--/---/--- white"], "black is to place, not white"),
    (["perft", "morris3", "1", "--position=W--/-B-/--- black"], "white is to place, not black"),
])
def test_text_that_is_no_position_is_one_line_and_exit_2(argv, says):
    code, out, err = run(argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gameproof: error: ") and says in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", ["mnk:3,3,3", "othello:4", "connect4:4,4", "amazons:4,4"])
@settings(max_examples=40, deadline=None, database=None)
@given(text=st.one_of(st.text(max_size=40), st.text(alphabet="-./()XOWBx \n1234", max_size=40)))
def test_any_text_is_a_position_or_one_line(name, text):
    code, out, err = run(["perft", name, "1", f"--position={text}", "--json"])
    assert (code == 0 and "position" in json.loads(out)) or (code == 2 and err.count("\n") == 1), err
    assert "Traceback" not in err


def test_a_position_the_rules_cannot_answer_is_named():
    game = load_game("mnk:3,3,3")
    assert "is a tuple of 2 words, not 3" in position_problem(game, (0, 0, 0), 0)
    assert "not a 64-bit word" in position_problem(game, (1 << 64, 0), 0)
    assert "not 0 or 1" in position_problem(game, (0, 0), 2)
    assert "bit 9, which is no cell" in position_problem(game, (1 << 9, 0), 0)
    assert "cell b2 holds two pieces" in position_problem(game, (16, 16), 0)
    assert position_problem(game, (16, 1), 1) is None


EXTRA_TURNS = '''"""A row of four cells filled one by one, each side filling two in a row: the rules say who moves."""
import sys

from gameproof.framework.declaration import LOSS, Board, GameSpec


def start():
    return (0,)


def legal(filled):
    return ~filled & 15


def play(filled, move):
    return (filled | move,)


def result(filled):
    return LOSS


def to_move(filled):
    count = (filled & 1) + (filled >> 1 & 1) + (filled >> 2 & 1) + (filled >> 3 & 1)
    return (count >> 1) & 1


GAME = GameSpec(name="extra-turns", rules=sys.modules[__name__], summary="a test", board=lambda: Board(1, 4),
                perspective=False, pieces="#", player_names=("first", "second"))
'''


def test_a_game_whose_rules_say_who_moves_refuses_another_side(tmp_path):
    path = tmp_path / "extra_turns.py"
    path.write_text(EXTRA_TURNS)
    game: Game = unchecked_game(str(path))
    assert parse_position(game, "#--- first") == ((1,), 0)  # one cell filled: the first player moves again
    assert parse_position(game, "##-- second") == ((3,), 1)
    with pytest.raises(BadInput, match="second is said to move, but the position has first to move"):
        parse_position(game, "#--- second")
    assert format_position(game, (1,), 1) == "#--- first"  # the side the words say


# --- a position given as text is answered as the moves that reach it --------------------------------------------


@pytest.mark.parametrize(("name", "moves"), [("mnk:3,3,3", "b2 a1"), ("connect4:4,4", "b c b"), ("othello:4", "b1")])
def test_solve_and_perft_of_a_position_are_those_of_the_moves_that_reach_it(name, moves):
    text = RulesState(load_game(name), moves).position
    by_moves = json.loads(run(["solve", name, "--moves", moves, "--json", "--quiet"])[1])
    by_text = json.loads(run(["solve", name, f"--position={text}", "--json", "--quiet"])[1])
    assert by_text["position"] == by_moves["position"] == text and by_text["played"] == ""
    for field in ("value", "moves", "to_move"):
        assert by_text[field] == by_moves[field]
    for depth in (1, 3):
        perft_moves = json.loads(run(["perft", name, str(depth), "--moves", moves, "--json"])[1])
        perft_text = json.loads(run(["perft", name, str(depth), f"--position={text}", "--json"])[1])
        assert perft_text["paths"] == perft_moves["paths"] and perft_text["position"] == text


def test_the_report_names_the_position_given():
    code, out, _ = run(["solve", "mnk:3,3,3", "--position", "---/-X-/--- O", "--quiet"])
    assert code == 0 and "mnk:3,3,3  position: ---/-X-/--- O  to move: O" in out
    code, out, _ = run(["perft", "mnk:3,3,3", "2", "--position", "---/-X-/--- O"])
    assert code == 0 and "perft(2) = 56  from ---/-X-/--- O" in out


def test_a_book_answers_a_position_given_as_text_as_the_moves_that_reach_it(tmp_path):
    book = str(tmp_path / "m3.db")
    assert run(["book", "build", "mnk:3,3,3", book, "--depth", "1", "--quiet"])[0] == 0
    by_moves = json.loads(run(["book", "query", book, "--moves", "b2", "--json"])[1])
    by_text = json.loads(run(["book", "query", book, "--position", "---/-X-/--- O", "--json"])[1])
    assert by_text["source"] == by_moves["source"] == "book"
    assert {field: by_text[field] for field in ("position", "value", "moves")} == {
        field: by_moves[field] for field in ("position", "value", "moves")}
    code, out, _ = run(["book", "query", book, "--position", "---/-X-/--- O"])
    assert code == 0 and "mnk:3,3,3  position: ---/-X-/--- O  (book" in out


def test_the_game_screen_starts_at_the_position_given():
    async def scenario():
        state = RulesState.from_position(load_game("connect4:4,4"), "1223")
        app = GameproofApp.game(GameSession(state), Oracle())
        async with app.run_test(size=(100, 35)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            status = str(app.query_one("#status", Static).render())
            assert "position: 1223" in status
            assert app.screen.session.values == solve(state.copy()).moves
            await pilot.press("a")
            assert app.screen.session.record == "a" and "position: 1223  then: a" in str(
                app.query_one("#status", Static).render())
    asyncio.run(scenario())


def test_reach_starts_from_the_position_given():
    domineering = str(Path(__file__).parent.parent / "examples" / "domineering.py") + ":4,4"
    where = str(Path(__file__).parent.parent / "examples" / "domineering_questions.py") + "::horizontal_stuck"
    code, out, _ = run(["reach", domineering, "--plies", "1", "--where", where, "--json",
                        "--position", "#-#-/-#-#/#-#-/-#-# h"])
    answer = json.loads(out)
    assert code == 0 and answer["status"] == "sat" and answer["moves"] == []
    assert answer["from_position"] == "#-#-/-#-#/#-#-/-#-# horizontal"


def test_a_search_on_ray_workers_asks_about_the_position_given():
    """Ray's jobs carry the root (words and side to move): the same answer as the moves that reach it."""
    game, options = "mnk:3,3,3", Options(tt_mb=8)
    state = RulesState(load_game(game), "b2")
    root = RulesState.from_position(load_game(game), state.position).root
    for ask in (Ask.DRAW, Ask.WIN):
        by_moves = answer_question(game, None, "b2 a1", ask.value, 1, options, "dfpn")[0]
        assert answer_question(game, root, "a1", ask.value, 1, options, "dfpn")[0] == by_moves


def test_a_journal_of_a_position_is_resumed_by_that_position_only(tmp_path):
    journal = str(tmp_path / "m3.journal")
    solve = ["solve", "mnk:3,3,3", "--journal", journal, "--quiet", "--value-only", "--json"]
    assert run([*solve, "--position", "---/-X-/--- O", "--checkpoint", "0.001"])[0] == 0
    assert json.loads(run([*solve, "--position", "---/-X-/--- O"])[1])["journal"]["resumed_nodes"] > 0
    for other in ([], ["--moves", "b2"], ["--position", "---/--X/--- O"]):
        code, _, err = run([*solve, *other])
        assert code == 2 and "is of another solve" in err and err.count("\n") == 1


def test_a_journal_tells_positions_apart():
    game, options = load_game("mnk:3,3,3"), Options()
    start = journal_identity(RulesState(game), "mnk:3,3,3", True, options)
    given = journal_identity(RulesState.from_position(game, "---/-X-/--- O"), "mnk:3,3,3", True, options)
    assert start["position"] is None and given["position"] == [[0, 16], 1] and given["played"] == start["played"]


# --- certificates of a position given as text -----------------------------------------------------------------


@pytest.mark.parametrize(("name", "text"), [("mnk:3,3,3", "---/-X-/--- O"), ("othello:4", "-X---XX--XO----- O")])
def test_a_certificate_of_a_position_given_as_text_is_accepted(name, text, tmp_path):
    path = tmp_path / "position.cert"
    code, _, err = run(["solve", name, "--position", text, "--certificate", str(path), "--quiet", "--value-only"])
    assert code == 0, err
    header = json.loads(gzip.decompress(path.read_bytes()).partition(b"\n")[0])
    state = RulesState.from_position(load_game(name), text)
    assert header["position"] == {"words": list(state.words), "to_move": state.to_move} and header["moves"] == []
    code, out, _ = run(["certificate", "check", str(path), "--json", "--quiet"])
    report = json.loads(out)
    assert code == 0 and report["accepted"] and report["position"] == text


def test_a_certificate_whose_position_is_none_is_refused(tmp_path):
    path = tmp_path / "position.cert"
    assert run(["solve", "mnk:3,3,3", "--position", "---/-X-/--- O", "--certificate", str(path), "--quiet"])[0] == 0
    header_line, _, rest = gzip.decompress(path.read_bytes()).partition(b"\n")
    header = json.loads(header_line)
    for position, code, says in [({"words": [0, 16, 0], "to_move": 1}, 2, "a list of 2 words"),
                                 ({"words": [0, 16], "to_move": 2}, 2, "\"to_move\" must be a whole number 0..1"),
                                 ({"words": [0, 1 << 9], "to_move": 1}, 1, "bit 9, which is no cell")]:
        path.write_bytes(gzip.compress(json.dumps(header | {"position": position}).encode() + b"\n" + rest))
        result, out, err = run(["certificate", "check", str(path), "--quiet"])
        assert result == code and says in out + err and "Traceback" not in err


# --- Othello's FForum positions ---------------------------------------------------------------------------------


def fforum_lines() -> list[str]:
    return [line for line in FFORUM.read_text().splitlines() if line and not line.startswith("#")]


def test_every_fforum_position_reads_and_writes_back_as_the_file_gives_it():
    game = load_game("othello:8")
    lines = fforum_lines()
    assert len(lines) >= 14
    for line in lines:
        text, *scored = (field.strip() for field in line.split(";") if field.strip())
        assert 14 <= text[:64].count("-") <= 20
        state = RulesState.from_position(game, text)
        assert state.position == text
        named = {state.move_name(move).upper() for move in state.legal_moves()}
        assert {field.partition(":")[0] for field in scored} <= named  # the file's moves are legal there



@pytest.mark.parametrize("option", ["--moves=--", "--position=--"])
def test_an_option_whose_value_is_two_dashes_is_read_as_given(option):
    code, _, err = run(["solve", "mnk:3,3,3", option])
    assert code == 2 and err.count("\n") == 1 and "'--'" in err and "Traceback" not in err
