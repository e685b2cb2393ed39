"""The game screen and the SVG board for declared games: Connect Four (by columns, alpha-beta), Othello 4×4
(passes), Domineering (one kind of piece, loaded from its file) and Amazons 4×4 (moves of three parts, chosen
cell by cell)."""

import asyncio
import random
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from textual.widgets import Static

from gameproof.cli import build_parser, main, with_game_subcommand
from gameproof.errors import BadInput
from gameproof.framework.declaration import PASS
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.render.game_svg import SQUARE_FILL, game_svg
from gameproof.search.solve import solve
from gameproof.tui.app import GameproofApp
from gameproof.tui.game_model import GameSession
from gameproof.tui.game_view import view_of
from gameproof.tui.keys import SquareEntry
from gameproof.tui.oracle import Cancelled, Oracle

sys.path.insert(0, str(Path(__file__).parent))
import amazons_reference  # noqa: E402

DOMINEERING = f"{Path(__file__).parents[2] / 'examples' / 'domineering.py'}:4,4"
CONNECT4 = "connect4:5,4"
AMAZONS = "amazons:4,4"
#: Every first move of Amazons 4×4, by name, from the reference's own move generator.
AMAZONS_MOVES = amazons_reference.moves(amazons_reference.start(4, 4))
SIZE = (100, 35)
NS = "{http://www.w3.org/2000/svg}"
VALUE_WORDS = ("win", "draw", "loss")


@cache
def must_pass_record(name: str = "othello:4") -> str:
    """The shortest record, among seeded random playouts, of a position where the side to move must pass."""
    game = load_game(name)
    found = []
    for seed in range(200):
        rng, state = random.Random(seed), RulesState(game)
        while not state.is_over():
            if state.legal_moves() == [PASS]:
                found.append(state.record)
                break
            state.play(rng.choice(state.legal_moves()))
    assert found, "no playout reached a pass"
    return min(found, key=lambda record: len(record.split()))


def app_for(name: str, moves: str = "") -> GameproofApp:
    return GameproofApp.game(GameSession(RulesState(load_game(name), moves)), Oracle())


async def settle(app, pilot) -> None:
    """Wait for the solver's worker, then for the screen to catch up."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def side_text(app: GameproofApp) -> str:
    """The text beside the board: status, value and principal line."""
    return "\n".join(str(app.query_one(f"#{name}", Static).render()) for name in ("status", "value", "line"))


def cell_classes(app: GameproofApp, move: int) -> set[str]:
    return set(app.query_one(f"#sq-{app.screen.session.view.cell_of(move)}").classes)


# --- the model, without Textual -----------------------------------------------------------------------

def test_view_maps_cells_to_the_games_moves():
    state = RulesState(load_game(CONNECT4))
    view = view_of(state)
    assert view.cell_moves == tuple(state.game.board.cells) and (view.rows, view.cols) == (4, 5)
    assert view.cell_of(state.parse_move("c")) == 2 and view.cell_of(PASS) is None


def test_session_plays_a_column_from_any_of_its_cells():
    session = GameSession(RulesState(load_game(CONNECT4)))
    assert session.cursor == 2 * 5 + 2  # the centre
    session.play_cell(3 * 5 + 2)  # c4, the top of column c
    assert session.record == "c" and session.cursor == 2  # the piece landed on c1
    session.play_cell(2)
    assert session.record == "c c" and session.cursor == 7 and session.mover == "X"
    session.play_named("c"), session.play_named("c")
    with pytest.raises(BadInput, match="full"):
        session.play_cell(2)
    assert session.undo() and session.record == "c c c" and session.cursor == 17


def test_session_passes_only_when_it_must():
    session = GameSession(RulesState(load_game("othello:4"), must_pass_record()))
    assert session.must_pass
    cursor, mover = session.cursor, session.mover
    session.pass_turn()
    assert session.state.history[-1] == PASS and session.cursor == cursor and not session.must_pass
    assert {mover, session.mover} == {"black", "white"}
    with pytest.raises(BadInput, match="cannot pass"):
        session.pass_turn()


def parts_of(moves: list[str], depth: int) -> set[str]:
    """The cells named as part `depth` (0: from, 1: to, 2: arrow) of the Amazons moves `moves`."""
    return {move.replace("/", "-").split("-")[depth] for move in moves}


def test_a_move_of_several_parts_is_chosen_cell_by_cell():
    session = GameSession(RulesState(load_game(AMAZONS)))
    board = session.state.game.board

    def cell(name: str) -> int:
        return session.view.cell_moves.index(board.parse_cell(name))

    def offered() -> set[str]:
        return {board.cell_name(bit) for bit in session.next_cells()}

    assert offered() == parts_of(AMAZONS_MOVES, 0)
    with pytest.raises(BadInput, match="no legal move starts on c2"):
        session.play_cell(cell("c2"))
    session.play_cell(cell("b1"))
    assert offered() == parts_of([m for m in AMAZONS_MOVES if m.startswith("b1-")], 1)
    with pytest.raises(BadInput, match="no legal move goes b1 d4"):
        session.play_cell(cell("d4"))
    assert session.clear_choice() and not session.clear_choice() and offered() == parts_of(AMAZONS_MOVES, 0)
    session.play_named("b1"), session.play_named("b3")  # typed squares choose parts as clicks do
    arrows = parts_of([m for m in AMAZONS_MOVES if m.startswith("b1-b3/")], 2)
    assert offered() == arrows and session.record == ""
    session.play_cell(cell(min(arrows)))
    assert session.record == f"b1-b3/{min(arrows)}" and session.chosen == [] and session.mover == "black"
    assert session.undo() and session.record == ""


@pytest.mark.parametrize("name, moves", [(CONNECT4, ""), (CONNECT4, "c c b"), (DOMINEERING, "b2"),
                                         ("othello:4", must_pass_record())])
def test_oracle_agrees_with_solve(name, moves):
    state = RulesState(load_game(name), moves)
    assert dict(Oracle().move_values(state)) == solve(state).moves


def test_oracle_principal_line_and_stop():
    oracle = Oracle()
    state = RulesState(load_game(DOMINEERING))
    line = oracle.principal_line(state)
    for move in line:
        state.play(move)
    assert state.is_over() and state.outcome() == 1  # Domineering 4x4: the first (vertical) player wins
    with pytest.raises(Cancelled):
        list(Oracle().move_values(RulesState(load_game(CONNECT4)), stop=lambda: True))


def test_square_entry_takes_a_column_letter_as_a_whole_move():
    entry = SquareEntry(rows=4, columns_only=True)
    assert entry.push("c") == "c" and entry.text == ""
    assert entry.push("f") == "f" and entry.push("1") == "1"  # no column of the board: the game refuses each


# --- the screen, driven by Pilot ------------------------------------------------------------------------

def test_connect4_clicks_columns_shows_values_and_plays_perfectly():
    async def scenario():
        app = app_for(CONNECT4)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.click("#sq-17")  # c4: the top cell of column c
            assert app.screen.session.record == "c"
            await pilot.press("d")  # a typed column
            assert app.screen.session.record == "c d"
            await settle(app, pilot)
            state = app.screen.session.state
            expected = solve(state).moves
            assert app.screen.session.values == expected
            assert {state.move_name(m) for m in expected} == set("abcde")
            for move, value in expected.items():
                assert value in cell_classes(app, move)
            value = app.screen.session.value
            await pilot.press("p")
            played = app.screen.session.state.history[-1]
            assert expected[played] == value and app.screen.session.record.count(" ") == 2
    asyncio.run(scenario())


def test_othello_says_the_side_must_pass_and_passes():
    async def scenario():
        app = app_for("othello:4", must_pass_record())
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await settle(app, pilot)
            text, mover = side_text(app), app.screen.session.mover
            assert f"{mover} to move: no move but a pass (space)" in text
            assert f"value for {mover}: {app.screen.session.values[PASS]}" in text
            await pilot.click("#sq-0")  # a1: no square can be played
            await pilot.pause()
            assert app.screen.session.state.history[-1] != PASS
            assert any("not legal" in n.message for n in app._notifications)
            await pilot.press("space")
            assert app.screen.session.state.history[-1] == PASS and app.screen.session.mover != mover
            await settle(app, pilot)
            assert app.screen.session.complete and "no move but a pass" not in side_text(app)
    asyncio.run(scenario())


def test_domineering_from_its_file_played_perfectly():
    async def scenario():
        app = app_for(DOMINEERING)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert "value for vertical: win" in side_text(app)
            await pilot.press("b", "2")  # a winning move, typed
            assert app.screen.session.state.marks().count("#") == 2
            await settle(app, pilot)
            while not app.screen.session.state.is_over():
                await pilot.press("p")
                await settle(app, pilot)
            assert app.screen.session.result() == "vertical won"
            assert "game over: vertical won" in side_text(app)
    asyncio.run(scenario())


def test_amazons_clicks_choose_an_amazon_its_target_and_its_arrow():
    async def scenario():
        app = app_for(AMAZONS)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await settle(app, pilot)
            session = app.screen.session
            values = dict(session.values)
            assert {session.state.move_name(m) for m in values} == set(AMAZONS_MOVES)
            assert "value for white: loss" in side_text(app)  # 4×4 is a second-player win
            await pilot.click("#sq-1")  # b1
            await pilot.pause()
            assert "chosen" in app.query_one("#sq-1").classes and session.values == values
            targets = {cell for cell in range(16) if {"win", "loss"} & set(app.query_one(f"#sq-{cell}").classes)}
            assert {session.state.game.board.cell_name(session.view.cell_moves[c]) for c in targets} == \
                parts_of([m for m in AMAZONS_MOVES if m.startswith("b1-")], 1)
            await pilot.click("#sq-3")  # d1: no amazon of white's reaches it from b1 (c1 is in the way)
            await pilot.pause()
            assert any("no legal move goes b1 d1" in n.message for n in app._notifications)
            await pilot.press("escape")
            assert session.chosen == [] and "chosen" not in app.query_one("#sq-1").classes
            await pilot.click("#sq-1")
            await pilot.click("#sq-9")  # b3
            await pilot.press("b", "2")  # the arrow, typed
            assert session.record == "b1-b3/b2" and session.mover == "black"
            await settle(app, pilot)
            assert "value for black: win" in side_text(app)
    asyncio.run(scenario())


# --- SVG ---------------------------------------------------------------------------------------------

def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


@pytest.mark.parametrize("name, moves", [(CONNECT4, "c c d"), ("othello:4", must_pass_record()),
                                         (DOMINEERING, "a1 a3")])
def test_svg_pieces_match_the_marks(name, moves):
    state = RulesState(load_game(name), moves)
    root = parse(game_svg(state))
    marks = state.marks()
    circles = list(root.iter(f"{NS}circle"))
    squares = [r for r in root.iter(f"{NS}rect") if r.get("fill") == SQUARE_FILL]
    if len(state.game.spec.pieces) == 1:
        assert not circles and len(squares) == marks.count("#")
    else:
        dark = [c for c in circles if c.get("fill") == "#222"]
        assert not squares and len(circles) == len(marks) - marks.count("-")
        assert len(dark) == marks.count(state.game.spec.pieces[0])
    assert len([r for r in root.iter(f"{NS}rect") if r.get("stroke") == "#e0a000"]) == 1  # the last move
    board = state.game.board
    labels = [t.text for t in root.iter(f"{NS}text")]
    assert labels == [chr(ord("a") + c) for c in range(board.cols)] + [str(r + 1) for r in range(board.rows)]


def test_svg_draws_a_first_player_named_white_light():
    state = RulesState(load_game("breakthrough:4,4"), "a1-a2")
    circles = list(parse(game_svg(state)).iter(f"{NS}circle"))
    light = [c for c in circles if c.get("fill") == "#f7f7f2"]
    assert len(circles) == 8 and len(light) == state.marks().count("W") == 4
    rows = sorted({float(c.get("cy")) for c in circles})
    assert {float(c.get("cy")) for c in circles if c.get("fill") == "#222"} == {rows[0]}  # black on row 4, on top


def test_svg_values_tint_each_legal_move():
    state = RulesState(load_game(CONNECT4), "c")
    values = solve(state).moves
    texts = [t.text for t in parse(game_svg(state, values)).iter(f"{NS}text")]
    assert sorted(t for t in texts if t in VALUE_WORDS) == sorted(values.values())
    assert "values for O, the side to move" in texts
    passing = RulesState(load_game("othello:4"), must_pass_record())
    texts = [t.text for t in parse(game_svg(passing, solve(passing).moves)).iter(f"{NS}text")]
    assert not any(t in VALUE_WORDS for t in texts) and any("a pass: " in t for t in texts)


# --- the command line ---------------------------------------------------------------------------------

def test_render_connect4_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "out.svg"
    assert main(["render", CONNECT4, "--moves", "c c", "--svg", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    circles = list(ET.parse(out).getroot().iter(f"{NS}circle"))
    assert sorted(c.get("fill") for c in circles) == ["#222", "#f7f7f2"]


def test_render_domineering_file_with_values(tmp_path):
    out = tmp_path / "dom.svg"
    assert main(["render", DOMINEERING, "--values", "--svg", str(out)]) == 0
    texts = [t.text for t in ET.parse(out).getroot().iter(f"{NS}text")]
    assert sorted(t for t in texts if t in VALUE_WORDS) == ["loss"] * 8 + ["win"] * 4
    assert "values for vertical, the side to move" in texts


@pytest.mark.parametrize("args, message", [
    (["tui", "no-such-game:3"], "unknown game"),
    (["tui", CONNECT4, "--moves", "c z"], "move 2"),
    (["render", CONNECT4, "--moves", "f", "--values"], "not a column"),
])
def test_bad_game_or_moves_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    out = tmp_path / "x.svg"
    assert main([*args, *(["--svg", str(out)] if args[0] == "render" else [])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gameproof: error: ") and err.count("\n") == 1 and message in err
    assert not out.exists()


def test_render_checks_the_output_before_solving(tmp_path, capsys, monkeypatch):
    def no_solving(*_args, **_kwargs):
        raise AssertionError("solved before the output path was checked")

    monkeypatch.setattr("gameproof.search.solve.solve", no_solving)
    assert main(["render", CONNECT4, "--values", "--svg", str(tmp_path / "missing" / "x.svg")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_a_game_name_after_tui_or_render_gets_the_game_subcommand(capsys):
    parser = build_parser()
    assert with_game_subcommand(parser, ["tui", CONNECT4]) == ["tui", "game", CONNECT4]
    assert with_game_subcommand(parser, ["render", "othello:6", "--svg", "x"]) == \
        ["render", "game", "othello:6", "--svg", "x"]
    for argv in (["tui", "othello"], ["tui", "mnk", "--rows", "3"], ["tui", "--help"], ["render", "game", "x"],
                 ["solve", CONNECT4], ["tui"]):
        assert with_game_subcommand(parser, argv) == argv
    args = parser.parse_args(["render", DOMINEERING, "--svg", "x.svg"])
    assert (args.render_command, args.game) == ("game", DOMINEERING)
    with pytest.raises(SystemExit):
        main(["tui", "--help"])
    assert "game" in capsys.readouterr().out
