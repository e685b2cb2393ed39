"""Notation round-trips, the friendly Position, SVG, and the game protocol."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.errors import BadInput
from gameproof.games.othello.notation import (
    PASS,
    format_board,
    format_hex_bitboard,
    parse_board,
    parse_hex_bitboard,
    parse_square,
    square_name,
    tokenize_record,
)
from gameproof.games.othello.position import Position
from gameproof.games.othello.svg import position_svg
from gameproof.framework.state import GameState

RECORD_33 = "f5f6e6f4g7c6g3e7d6f3e3d3b7d7c2g2g1c3b2b3b4f7g5c4c7c8e2"


def test_square_names_round_trip_and_follow_the_coordinate_convention():
    assert [square_name(s) for s in (0, 7, 8, 63)] == ["a1", "h1", "a2", "h8"]
    assert all(parse_square(square_name(s)) == s for s in range(65))
    assert parse_square("F5") == 37 and parse_square("PS") == PASS


def test_start_position():
    start = Position.start()
    assert (start.black, start.white) == (0x0000000810000000, 0x0000001008000000)
    assert start.color == "black"
    assert [square_name(m) for m in start.legal_moves()] == ["d3", "c4", "f5", "e6"]


def test_the_33_move_position():
    position = Position.from_record(RECORD_33)
    assert position.color == "white"
    empties = 64 - sum(position.disc_counts())
    assert len(position.legal_moves()) == empties == 33


def test_records_accept_case_spaces_and_explicit_passes():
    assert tokenize_record("F5 d6\nc3") == [37, 43, 18]
    board = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--"
    explicit, implicit = Position(board, "white"), Position(board, "white")
    explicit.play(parse_square("pa"))
    explicit.play(parse_square("g8"))
    implicit.play_forced(parse_square("g8"))
    assert explicit == implicit and explicit.color == "white"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 63), max_size=70))
def test_play_undo_repr_and_board_round_trips(choices):
    position = Position.start()
    keys = [position.key]
    for choice in choices:
        moves = position.legal_moves()
        if not moves:
            assert position.is_over() and position.outcome() in (-1, 0, 1)
            break
        position.play(moves[choice % len(moves)])
        keys.append(position.key)
        assert eval(repr(position)) == position
        assert parse_board(position.board) == (position.black, position.white)
        assert format_board(position.black, position.white) == position.board
        assert parse_hex_bitboard(format_hex_bitboard(position.player)) == position.player
        copy = Position.from_bitboards(position.player, position.opponent, position.color)
        assert copy == position
    for key in reversed(keys[:-1]):
        position.undo()
        assert position.key == key


def test_position_follows_the_game_protocol():
    assert isinstance(Position.start(), GameState)


def test_printed_grid_marks_legal_moves():
    text = str(Position.start())
    assert text.splitlines()[3] == "3 - - - * - - - -"
    assert "black to move, 4 legal moves" in text


def test_svg_has_every_disc_and_move_marker():
    svg = position_svg(Position.from_record("f5d6"))
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count('fill="#111"/>') == 3 and svg.count('fill="#fafafa"') == 3
    assert svg.count('r="4"') == len(Position.from_record("f5d6").legal_moves())


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Position.from_record("f5f5"), "move 2 \\(f5\\)"),
        (lambda: Position.from_record("f5z9"), "bad move record"),
        (lambda: Position("XO"), "64 cells"),
        (lambda: Position("Q" * 64), "bad board cell"),
        (lambda: Position("-" * 64, "green"), "not a side"),
        (lambda: parse_hex_bitboard("xyz"), "not a hex"),
        (lambda: parse_hex_bitboard("1" * 17), "out of 64-bit"),
        (lambda: Position.start().undo(), "no move to undo"),
    ],
)
def test_bad_input_is_reported_clearly(call, message):
    with pytest.raises(BadInput, match=message):
        call()
