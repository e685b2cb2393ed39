"""The models behind the TUI screens, without Textual."""

import pytest

from gameproof.answers import Value
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
    entry = SquareEntry(rows=12)
    assert entry.accepts("1") and entry.accepts("B") and entry.accepts("z") and not entry.accepts("-")
    assert entry.push("b") is None and entry.push("1") is None  # b1 or b10..b12?
    assert entry.push("2") == "b12" and entry.text == ""
    entry.push("a"), entry.push("3")  # a3 cannot grow: 30 > 12 rows
    assert entry.text == ""
    assert entry.push("7") == "7"  # a digit with no letter before it: a whole name, which the game refuses
    assert entry.push("Z") is None and entry.push("9") == "z9"  # a square of no board, named all the same
    assert entry.takes("x", "x", commands={"p", "q"}) and not entry.takes("q", "q", commands={"p", "q"})


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


# --- exact scores (`tui GAME --score`) ---------------------------------------------------------------------------

def _rules_state(game: str, moves: str = ""):
    from gameproof.framework.registry import load_game
    from gameproof.framework.state import RulesState

    return RulesState(load_game(game), moves)


@pytest.mark.parametrize("game, records", [
    ("dots-boxes:1,2", ["", "b1", "b1 a2 b3", "b1 a2 b3 c2"]),  # c2 there takes a box and moves again
    ("kalah:2,2", ["", "a1", "a1 b1", "b1"]),  # a1 sows into the store: south moves again
    ("othello:4", ["b1 c1 d3 a1"]),  # black has no move but a pass
])
def test_oracle_scores_are_the_exact_scores(game, records):
    from gameproof.search.score import exact_score

    oracle = Oracle(scores=True)  # one oracle, its score table kept from position to position
    for record in records:
        state = _rules_state(game, record)
        exact = exact_score(state.copy())
        assert dict(oracle.move_values(state)) == exact.moves, record
        assert oracle.value(state) == exact.score, record


def test_oracle_score_of_a_move_that_earns_another_turn_is_its_childs_own():
    state = _rules_state("dots-boxes:1,2", "b1 a2 b3")
    c2 = state.parse_move("c2")
    scores = dict(Oracle(scores=True).move_values(state))
    child = state.copy()
    child.play(c2)
    assert child.to_move == state.to_move  # the box earned another turn
    assert scores[c2] == Oracle(scores=True).value(child) == 2 == max(scores.values())


@pytest.mark.parametrize("game, record", [("dots-boxes:2,2", ""), ("kalah:2,2", ""), ("dots-boxes:1,2", "b1")])
def test_principal_line_with_scores_keeps_the_exact_score(game, record):
    from gameproof.answers import to_mover
    from gameproof.search.score import exact_score, final_score

    state = _rules_state(game, record)
    line = Oracle(scores=True).principal_line(state)
    end = state.copy()
    for move in line:
        end.play(move)
    assert end.is_over()
    assert to_mover(final_score(end), end.to_move != state.to_move) == exact_score(state.copy()).score


def test_oracle_scores_of_a_finished_game_and_of_a_game_without_a_score():
    from gameproof.search.score import final_score

    state = _rules_state("dots-boxes:1,2")
    for move in Oracle(scores=True).principal_line(state):
        state.play(move)
    assert Oracle(scores=True).value(state) == final_score(state)
    with pytest.raises(BadInput, match="declares no score"):
        Oracle(scores=True).value(_rules_state("connect4:4,4"))


def test_oracle_score_search_stops_mid_search_and_keeps_its_table(monkeypatch):
    """The stop callback is polled in chunks of a score search, not only between positions; a cancelled search
    leaves the table right for the next."""
    from gameproof.search.score import exact_score
    from gameproof.tui import oracle as oracle_module

    monkeypatch.setattr(oracle_module, "CHUNK", 64)
    state = _rules_state("dots-boxes:2,2")
    oracle, asked = Oracle(scores=True), []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3  # once before the search, then in its chunks

    with pytest.raises(Cancelled):
        oracle.value(state, stop)
    assert len(asked) == 4
    assert oracle.value(state) == exact_score(state.copy(), with_moves=False).score


def test_score_questions_poll_every_chunk():
    from gameproof.search.score import ScoreQuestions

    state = _rules_state("dots-boxes:2,2")
    polls = {}
    for chunk in (None, 64):
        calls = []
        questions = ScoreQuestions(state.game, progress=lambda *counts: calls.append(counts), chunk=chunk)
        assert questions.exact(state.frames(), state.to_move) == 2
        polls[chunk] = len(calls)
    assert polls[64] > 10 * max(polls[None], 1)


@pytest.mark.parametrize("scored", [True, False])
def test_oracle_scores_from_a_book(tmp_path, scored):
    """Entries of a book built with scores answer; a book without them is searched instead."""
    from gameproof.search import book_build, book_check
    from gameproof.search.dfpn import Options
    from gameproof.search.score import exact_score

    state = _rules_state("dots-boxes:1,2", "b1")
    path = tmp_path / "d12.db"
    book_build.build(state.game, 2, path, scores=scored, options=Options(tt_mb=16))
    oracle = Oracle(path, vetting=book_check.passes_recheck(state.game, 2, book_check.consistency_only), scores=True)
    assert dict(oracle.move_values(state)) == exact_score(state.copy()).moves
    child = state.copy()
    child.play(state.legal_moves()[0])
    assert oracle.from_book(child) == scored


def test_oracle_does_not_answer_a_score_from_an_entry_that_fails_its_vetting(tmp_path):
    """A forged score is not shown: the entry fails its re-check against its children, and the search answers."""
    from dataclasses import replace

    from gameproof.search import book_build, book_check
    from gameproof.search.book import Book
    from gameproof.search.dfpn import Options

    state = _rules_state("dots-boxes:1,2")
    path = tmp_path / "d12.db"
    book_build.build(state.game, 1, path, scores=True, options=Options(tt_mb=16))
    truth = Oracle(scores=True).value(state)
    with Book(path, writable=True) as opened:
        opened.put(replace(opened.get(state.key), score=truth + 2))
    with Book(path) as opened:
        trusting = Oracle(path, vetting=lambda book, entry: True, scores=True)
        assert trusting.value(state, book=opened) == truth + 2 and trusting.from_book(state)
        vetting = book_check.passes_recheck(state.game, 1, book_check.consistency_only)
        vetted = Oracle(path, vetting=vetting, scores=True)
        assert vetted.value(state, book=opened) == truth and not vetted.from_book(state)


def test_session_with_scores_best_move_and_zero():
    state = _rules_state("dots-boxes:1,2")
    session = GameSession(state, scores=True)
    moves = state.legal_moves()
    for move in moves[:-1]:
        session.add_value(session.record, move, -2)
    assert session.value is None and session.best_move() is None  # a score needs every move's
    session.add_value(session.record, moves[-1], 0)
    assert session.complete and session.value == 0 and session.best_move() == moves[-1]
    for move, score in Oracle(scores=True).move_values(state):
        session.add_value(session.record, move, score)
    assert session.value == 0 and session.state.move_name(session.best_move()) == "c2"  # the only move that keeps the draw


def test_session_with_scores_through_a_cell_of_a_move_of_several_parts():
    session = GameSession(_rules_state("breakthrough:4,4"), scores=True)
    first = sorted(session.next_cells())[0]
    through = session.continuing([first])
    assert len(through) > 1
    for score, move in enumerate(through[:-1]):
        session.add_value(session.record, move, score - 3)
    assert session.value_through(first) is None
    session.add_value(session.record, through[-1], -9)
    assert session.value_through(first) == len(through) - 5


def test_session_with_scores_when_the_mover_must_pass():
    state = _rules_state("othello:4", "b1 c1 d3 a1")
    session = GameSession(state, scores=True)
    assert session.must_pass
    for move, score in Oracle(scores=True).move_values(state):
        session.add_value(session.record, move, score)
    assert session.best_move() == session.view.pass_move and isinstance(session.value, int)


def _trust_module():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("symmetry_trust", Path(__file__).parents[1] / "games" / "test_symmetry_trust.py")
    trust = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(trust)
    return trust


def test_oracle_values_a_file_games_positions_without_its_declared_symmetries(tmp_path):
    """The same false mirror made the game screen show the start as a draw; it is a win for the first player."""
    from gameproof.framework.registry import load_game
    from gameproof.framework.state import RulesState
    from gameproof.search.solve import solve

    trust = _trust_module()
    (tmp_path / "columns.py").write_text(trust.TEMPLATE.format(symmetries="Symmetry.MIRROR_COLS,", **trust.TRAPPED))
    (tmp_path / "plain.py").write_text(trust.TEMPLATE.format(symmetries="", **trust.TRAPPED))
    state = RulesState(load_game(str(tmp_path / "columns.py")))
    truth = solve(RulesState(load_game(str(tmp_path / "plain.py"))), with_moves=True)
    oracle = Oracle()
    assert truth.value == Value.WIN and oracle.value(state) == truth.value
    assert dict(oracle.move_values(state)) == truth.moves


def test_oracle_scores_a_file_games_positions_without_its_declared_symmetries(tmp_path):
    """A mirror that the rules of a file's game break five plies deep (tests/games/test_symmetry_trust.py) makes a
    search that merges positions by it score the start 0; the oracle searches, and remembers positions, without
    it, as `solve --score` does: the trap and its mirror image keep their own scores."""
    from gameproof.framework.registry import load_game
    from gameproof.framework.state import RulesState
    from gameproof.search.score import ScoreQuestions, exact_score

    trust = _trust_module()
    scored = trust.TEMPLATE.format(symmetries="Symmetry.MIRROR_COLS,", **trust.TRAPPED).replace("\n\nGAME = ", '''

def score(first, second):
    outcome = result(first, second)
    return 1 if outcome == WIN else -1 if outcome == LOSS else 0


GAME = ''')
    (tmp_path / "columns.py").write_text(scored)
    state = RulesState(load_game(str(tmp_path / "columns.py")))
    assert ScoreQuestions(state.game).exact(state.frames(), 0) == 0  # merged by the false mirror: wrong
    oracle = Oracle(scores=True)
    assert oracle.value(state) == exact_score(state.copy()).score == 1  # the first player wins, as minimax says
    trap, mirror = (RulesState(state.game, moves) for moves in ("a1 c2 c1 d2 d1", "d1 b2 b1 a2 a1"))
    assert trap.key == mirror.key and trap.legal_moves() == [] != mirror.legal_moves()
    assert oracle.value(trap) == -1 and oracle.value(mirror) == exact_score(mirror.copy()).score != -1
