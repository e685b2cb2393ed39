"""The tutorial's game (docs/new_game.md): examples/domineering.py through every command, from its one file;
and games joining the registry through the entry-point group."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework import registry
from gameproof.framework.declaration import MAX_WORDS
from gameproof.framework.derived import FAR
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.perft import perft

ROOT = Path(__file__).resolve().parents[2]
GAME = str(ROOT / "examples" / "domineering.py")
QUESTIONS = str(ROOT / "examples" / "domineering_questions.py")
TUTORIAL = (ROOT / "docs" / "new_game.md").read_text()


def _json(capsys, argv):
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_file_declares_its_game(capsys):
    code, listed = _json(capsys, ["games", GAME])
    assert code == 0 and [g["usage"] for g in listed["games"]] == ["domineering:ROWS,COLS"]


def test_perft_as_the_tutorial_says(capsys):
    code, answer = _json(capsys, ["perft", f"{GAME}:5,5", "4"])
    assert code == 0 and answer["paths"] == 57564 == perft(RulesState(load_game(f"{GAME}:5,5")), 4)
    assert "57564 move paths of 4 plies" in TUTORIAL


@pytest.mark.parametrize(("size", "value"), [("2,2", "win"), ("3,3", "win"), ("4,4", "win"), ("5,5", "loss")])
def test_published_domineering_values(capsys, size, value):
    code, answer = _json(capsys, ["solve", f"{GAME}:{size}", "--value-only", "--quiet"])
    assert code == 0 and answer["value"] == value and answer["to_move"] == "vertical"


def test_move_values_agree_with_plain_minimax(capsys):
    game = load_game(f"{GAME}:3,4")
    code, answer = _json(capsys, ["solve", f"{GAME}:3,4", "--quiet"])
    state = RulesState(game)
    for name, value in answer["moves"].items():
        state.play(state.parse_move(name))
        assert value == {1: "loss", -1: "win"}[_winner_to_move(state)], name
        state.undo()


def _winner_to_move(state: RulesState) -> int:
    """+1 if the side to move wins (plain minimax; Domineering has no draws)."""
    if state.is_over():
        return -1
    for move in state.legal_moves():
        state.play(move)
        lost = _winner_to_move(state) == -1
        state.undo()
        if lost:
            return 1
    return -1


def test_reach_as_the_tutorial_says(capsys):
    where = ["--where", f"{QUESTIONS}::horizontal_stuck"]
    code, found = _json(capsys, ["reach", f"{GAME}:5,5", "--plies", "7", *where])
    assert code == 0 and len(found["moves"]) == 7 and found["to_move"] == 1
    rows = [found["position"][r * 5 : r * 5 + 5] for r in range(5)]
    assert all("--" not in row for row in rows)  # no room for a horizontal domino
    code, refuted = _json(capsys, ["reach", f"{GAME}:5,5", "--plies", "5", *where])
    assert code == 1 and refuted["status"] == "unsat"


def test_every_command_of_the_tutorial_parses():
    commands = re.findall(r"^gameproof (.+?)(?:\s+#.*)?$", TUTORIAL, flags=re.MULTILINE)
    assert len(commands) >= 7
    from gameproof.cli import build_parser

    for command in commands:
        words = [w.strip('"') for w in re.findall(r'"[^"]*"|\S+', command)]
        build_parser().parse_args(words)


def test_an_installed_package_adds_its_game_through_the_entry_point_group(monkeypatch):
    class Entry:
        name = "domineering"

        @staticmethod
        def load():
            return registry.games_in_file(GAME)[0]

    monkeypatch.setattr(registry, "entry_points", lambda group: [Entry()] if group == registry.ENTRY_POINT_GROUP else [])
    registry.specs.cache_clear()
    registry.load_game.cache_clear()
    try:
        assert "domineering" in registry.specs()
        assert load_game("domineering:3,3").name == "domineering:3,3"
    finally:
        registry.specs.cache_clear()
        registry.load_game.cache_clear()


def test_a_broken_plug_in_is_reported_and_skipped(monkeypatch, capsys):
    class Broken:
        name = "broken"

        @staticmethod
        def load():
            raise ImportError("no module named nowhere")

    monkeypatch.setattr(registry, "entry_points", lambda group: [Broken()])
    registry.specs.cache_clear()
    try:
        assert "connect4" in registry.specs()
        assert "broken" in capsys.readouterr().err
    finally:
        registry.specs.cache_clear()


# --- what the tutorial promises a newcomer: perspective, parameters, words, --brute-force ------------------------

TRUST = (ROOT / "docs" / "trust.md").read_text()


def says(document: str, phrase: str) -> bool:
    """Whether `document` has `phrase`, however its lines are wrapped."""
    return " ".join(phrase.split()) in " ".join(document.split())


def test_under_perspective_play_returns_the_next_movers_view():
    game = load_game("connect4:4,4")
    b1 = 1 << 5  # column b, row 1: bit col * (height + 1) + row
    assert game.rules.play(0, 0, b1) == (0, b1)  # O, to move next, first: no pieces yet
    assert RulesState(game, "b").words == (0, b1)
    assert says(TUTORIAL, "`play` returns it from the view of the side that moves *next*")


@pytest.mark.parametrize(("size", "problem"), [("9,5", "rows must be 1..8, not 9"), ("0,5", "rows must be 1..8, not 0"),
                                               ("5,9", "cols must be 1..8, not 9")])
def test_parameter_bounds_are_inclusive(size, problem):
    assert load_game(f"{GAME}:8,1").parameters == {"rows": 8, "cols": 1}
    with pytest.raises(BadInput, match=re.escape(problem)):
        load_game(f"{GAME}:{size}")
    assert says(TUTORIAL, "**both included**") and says(TUTORIAL, "The fifth argument, `help`")


WIDE_GAME = '''import sys
from gameproof.framework.declaration import LOSS, Board, GameSpec
def start():
    return (0,) * {words}
def legal(*words):
    return 0
def play(*words):
    return words[:-1]
def result(*words):
    return LOSS
GAME = GameSpec(name="wide", rules=sys.modules[__name__], summary="a position of many words", board=lambda: Board(1, 1),
                perspective=False, pieces="ABCDEFGHIJKLMNOPQ"[:{words}])
'''


def test_the_limit_on_words_is_the_one_both_documents_state(tmp_path):
    for words in (MAX_WORDS, MAX_WORDS + 1):
        (tmp_path / f"wide{words}.py").write_text(WIDE_GAME.format(words=words))
    assert load_game(str(tmp_path / f"wide{MAX_WORDS}.py")).words == MAX_WORDS
    with pytest.raises(BadInput, match=f"returned {MAX_WORDS + 1} words, not 1..{MAX_WORDS}"):
        load_game(str(tmp_path / f"wide{MAX_WORDS + 1}.py"))
    assert says(TUTORIAL, f"a tuple of 1 to {MAX_WORDS} words") and says(TUTORIAL, f"At most {MAX_WORDS} words")
    assert says(TRUST, f"(1..{MAX_WORDS}: `MAX_WORDS`") and says(TRUST, f"a tuple of 1..{MAX_WORDS} words")
    assert "1..4" not in TRUST


@pytest.mark.parametrize(("name", "moves", "left"), [
    (f"{GAME}:4,4", "a1 b1", 12),  # one cell a move: the cells no word holds
    ("clobber:2,3", "", 5),  # plies_left: from the stone counts, with no cell empty
    (str(ROOT / "examples" / "hexapawn.py") + ":3,3", "", FAR),  # from-to moves, no plies_left: never
])
def test_what_brute_force_counts_as_the_tutorial_and_help_say(name, moves, left):
    game = load_game(name)
    state = RulesState(game, moves)
    assert game.kernels.remaining(state.frames(), game.tables) == left
    if game.has_plies_left:
        assert game.rules.plies_left(*state.words) == left
    assert says(TUTORIAL, "12 on 4×4 after `a1 b1`") and says(TUTORIAL, "5 on its 2×3 start")


def test_the_brute_force_help_says_what_it_counts(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    help_text = capsys.readouterr().out
    assert says(help_text, "plies_left()") and says(help_text, "the board cells no word of the position holds")
