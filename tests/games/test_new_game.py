"""The tutorial's game (docs/new_game.md): examples/domineering.py through every command, from its one file;
and games joining the registry through the entry-point group."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gameproof.cli import main
from gameproof.framework import registry
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
