"""The models behind the TUI screens, without Textual."""

import pytest

from gameproof.errors import BadInput
from gameproof.games.mnk.state import MnkGame, MnkState
from gameproof.games.othello.notation import PASS, parse_square
from gameproof.games.othello.position import Position
from gameproof.tui.keys import SquareEntry
from gameproof.tui.game_model import GameSession
from gameproof.tui.oracle import Cancelled, Oracle
from gameproof.tui.othello_model import RecordViewer

MISERE3 = MnkGame(3, 3, 3, "misere")
RECORD33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"
MUST_PASS = "c4c3e6b4a4a5b2a3"  # black to move has no legal square here


def test_oracle_move_values_misere_3x3():
    state = MnkState(MISERE3)
    values = dict(Oracle().move_values(state))
    assert values == {sq: "draw" if sq == state.parse_move("b2") else "loss" for sq in range(9)}


def test_principal_line_plays_perfectly_to_the_end():
    oracle = Oracle()
    state = MnkState("mnk-notakto:3,3,3")
    line = oracle.principal_line(state)
    assert line[0] == state.parse_move("b2")  # Notakto 3x3: only the centre wins
    for move in line:
        state.play(move)
    assert state.is_over() and state.outcome() == 1  # the first player won


def test_oracle_stops_when_asked():
    with pytest.raises(Cancelled):
        list(Oracle().move_values(MnkState(MISERE3), stop=lambda: True))


def test_oracle_answers_from_a_book(tmp_path):
    from gameproof.games.mnk import book

    path = tmp_path / "m3.db"
    book.build(MISERE3, 2, path)
    oracle = Oracle(path, vetting=book.passes_recheck(MISERE3, 2))
    assert dict(oracle.move_values(MnkState(MISERE3, "a1"))) == dict(Oracle().move_values(MnkState(MISERE3, "a1")))
    # The book holds the positions 2 plies deep: the children of "a1", not those of "a1 b2".
    assert oracle.from_book(MnkState(MISERE3, "a1 b2"))
    list(oracle.move_values(MnkState(MISERE3, "a1 b2")))
    assert not oracle.from_book(MnkState(MISERE3, "a1 b2 c3"))
    assert not Oracle().from_book(MnkState(MISERE3, "a1 b2"))


def test_oracle_answers_no_book_entry_that_fails_its_recheck(tmp_path):
    """A forged entry is not shown: the search answers instead, and the position is not "from the book"."""
    from dataclasses import replace

    from gameproof.answers import Value
    from gameproof.games.mnk import book

    path = tmp_path / "m3.db"
    book.build(MISERE3, 1, path)
    state = MnkState(MISERE3, "b2")
    truth = Oracle().value(state)
    forged = Value.WIN if truth != Value.WIN else Value.LOSS
    with book.Book(path, writable=True) as opened:
        opened.put(replace(opened.get(state.key), value=forged))
    with book.Book(path) as opened:
        trusting = Oracle(path, vetting=lambda opened, entry: True)
        assert trusting.value(state, book=opened) == forged and trusting.from_book(state)  # as the screen was
        oracle = Oracle(path, vetting=book.passes_recheck(MISERE3, 1))
        assert oracle.value(state, book=opened) == truth and not oracle.from_book(state)


def test_oracle_searches_a_book_entry_whose_children_are_missing(tmp_path):
    import sqlite3

    from gameproof.games.mnk import book

    path = tmp_path / "m3.db"
    book.build(MISERE3, 2, path)
    with sqlite3.connect(path) as connection:
        assert connection.execute("DELETE FROM positions WHERE key = ?",
                                  (str(MnkState(MISERE3, "a1 b2").key),)).rowcount == 1
    state = MnkState(MISERE3, "a1")
    with book.Book(path) as opened:
        oracle = Oracle(path, vetting=book.passes_recheck(MISERE3, 2))
        assert oracle.value(state, book=opened) == Oracle().value(state) and not oracle.from_book(state)


def test_session_values_cursor_and_undo():
    session = GameSession(MnkState(MISERE3))
    assert session.state.move_name(session.cursor) == "b2"  # the centre
    assert session.state.move_name(GameSession(MnkState(MISERE3, "a1 c3")).cursor) == "c3"  # the last move
    session.move_cursor(5, -5)
    assert session.state.move_name(session.cursor) == "a3"
    session.move_cursor(-1, 1)
    assert session.state.move_name(session.cursor) == "b2"
    assert not session.add_value("a1", 0, "win")  # stale: another position
    assert session.value is None and session.best_move() is None
    for move, value in Oracle().move_values(session.state):
        session.add_value("", move, value)
    assert session.complete and session.value == "draw"
    assert session.state.move_name(session.best_move()) == "b2"
    session.play_named("b2")
    assert session.values == {} and session.mover == "O"
    assert session.undo() and session.record == "" and not session.undo()


def test_session_knows_a_win_before_every_move_is_proven():
    session = GameSession(MnkState(MnkGame(3, 3, 3), "a1 a2 b1 b2"))
    session.add_value(session.record, session.state.parse_move("c1"), "win")
    assert not session.complete and session.value == "win"
    session.play_named("c1")
    assert session.result() == "X won" and session.value is None


def test_square_entry():
    entry = SquareEntry(rows=12, cols=3, reserved="c")
    assert not entry.accepts("1") and not entry.accepts("c") and entry.accepts("B")
    assert entry.push("b") is None and entry.push("1") is None  # b1 or b10..b12?
    assert entry.push("2") == "b12" and entry.text == ""
    entry.push("a"), entry.push("3")  # a3 cannot grow: 30 > 12 rows
    assert entry.text == ""


def test_viewer_steps_through_the_33_move_record():
    viewer = RecordViewer.from_record(RECORD33)
    assert viewer.ply == 0 and len(viewer.moves) == 27
    viewer.end()
    assert viewer.legal_counts[viewer.ply] == 33 and viewer.position.color == "white"
    assert viewer.most_moves_ply() == 27
    viewer.step(-30)
    assert viewer.ply == 0 and viewer.last_move is None
    viewer.step(2)
    assert viewer.record.startswith("f5f6") and viewer.last_move == parse_square("f6")


def test_viewer_enter_drops_the_rest_and_keeps_illegal_moves_out():
    viewer = RecordViewer.from_record(RECORD33)
    viewer.go(1)
    with pytest.raises(BadInput):
        viewer.enter_named("a1")
    assert len(viewer.moves) == 27
    viewer.enter_named("d6")
    assert viewer.record == "f5d6" and viewer.legal_counts == [4, 3, 5]


def test_viewer_inserts_passes():
    viewer = RecordViewer.from_record(MUST_PASS)
    viewer.end()
    assert viewer.position.legal_moves() == [PASS]
    white_move = Position.from_record(MUST_PASS + "pa").legal_moves()[0]
    viewer.enter(white_move)
    assert viewer.moves[-2:] == [PASS, white_move] and viewer.ply == len(MUST_PASS) // 2 + 2
    assert "pa" in viewer.record


def test_viewer_bad_record_names_the_move():
    with pytest.raises(BadInput, match="move 2"):
        RecordViewer.from_record("f5f5")


def test_oracle_keeps_games_apart():
    oracle = Oracle()
    normal, misere = MnkState("mnk:3,3,3", "b1"), MnkState(MISERE3, "b1")
    b2 = normal.parse_move("b2")
    assert dict(oracle.move_values(normal))[b2] == "draw"
    assert dict(oracle.move_values(misere))[b2] == "loss"


def test_oracle_gives_a_move_that_earns_another_turn_its_childs_own_value():
    from gameproof.framework.registry import load_game
    from gameproof.framework.state import RulesState
    from gameproof.search.solve import solve

    state = RulesState(load_game("dots-boxes:1,2"), "b1 a2 b3")  # c2 takes the left box and moves again
    assert dict(Oracle().move_values(state)) == solve(state).moves
