"""Games that may repeat a position (``GameSpec(repetition=Repetition.DRAW)``): such a declaration has no longest
game, every search that assumes each game ends refuses it in one line pointing to its tablebase (before any screen
opens, for the TUI), and perft and the rules self-check still take it. Dodgem is the built-in one; Shuttle, below,
is a file game that also declares a score, so that the score's searches meet the repetition first."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "games"))
import dodgem_reference as reference  # noqa: E402

from gameproof.cli import main  # noqa: E402
from gameproof.errors import BadInput  # noqa: E402
from gameproof.framework.declaration import Repetition  # noqa: E402
from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402
from gameproof.search.perft import fast_perft, perft  # noqa: E402
from gameproof.search.score import exact_score  # noqa: E402
from gameproof.search.solve import solve  # noqa: E402
from gameproof.tui.app import GameproofApp  # noqa: E402

#: A token on a row of five cells, moved one cell left or right a ply; the side that moves it onto the last cell
#: wins (by 1). Play can shuttle for ever.
SHUTTLE = (Path(__file__).parents[1] / "examples" / "shuttle.py").read_text()


@pytest.fixture
def shuttle(tmp_path) -> str:
    path = tmp_path / "shuttle.py"
    path.write_text(SHUTTLE)
    return str(path)


def refused(capsys, argv: list[str], game: str) -> str:
    """The one line of stderr with which `argv` is refused (exit 2), naming the game's repetition and tablebase."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("gameproof: error: ") and "Traceback" not in captured.err
    assert f"{game} may repeat a position" in captured.err
    assert f"gameproof tablebase build {game}" in captured.err
    return captured.err


# --- the declaration ----------------------------------------------------------------------------------------------


def test_a_declaration_with_both_repetition_and_a_longest_game_is_refused():
    spec = load_game("dodgem:3").spec
    assert spec.repetition is Repetition.DRAW and spec.max_plies is None
    with pytest.raises(TypeError, match="repetition"):
        dataclasses.replace(spec, max_plies=lambda size: 100)


def test_a_declaration_with_repetition_and_no_draws_is_refused():
    """A game that may never end is drawn (or lost) by that: it cannot claim that it has no draws, which would let
    df-pn read "can the side to move at least draw?" as "can it win?"."""
    spec = load_game("dodgem:3").spec
    assert spec.draws
    with pytest.raises(TypeError, match="draws=False"):
        dataclasses.replace(spec, draws=False)


def test_a_declaration_with_repetition_and_plies_left_is_refused(shuttle):
    from gameproof.framework.registry import games_in_file

    spec = games_in_file(shuttle)[0]
    rules = type(sys)("shuttle_with_plies_left")
    rules.__dict__.update({name: getattr(spec.rules, name) for name in ("start", "legal", "play", "result")})
    rules.plies_left = lambda token: 4
    with pytest.raises(TypeError, match="repetition"):
        dataclasses.replace(spec, rules=rules)


def test_the_game_says_a_position_may_repeat(capsys):
    assert main(["games", "dodgem"]) == 0
    out = capsys.readouterr().out
    assert "a position may repeat (draw if play never ends)" in out and "`gameproof tablebase build` solves it" in out
    assert main(["games", "dodgem:4", "--json"]) == 0
    described = json.loads(capsys.readouterr().out)
    assert described["repetition"] == "draw" and described["max_plies"] is None and described["engine"] == "tablebase"
    game = load_game("dodgem:5")
    assert game.may_repeat
    with pytest.raises(BadInput, match="tablebase"):
        _ = game.max_plies


# --- searches that assume every game ends ------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["solve", "dodgem:3"],
    ["solve", "dodgem:4", "--value-only"],
    ["solve", "dodgem:3", "--engine", "alphabeta"],
    ["solve", "dodgem:3", "--distance"],
    ["solve", "dodgem:3", "--moves", "a3-b3"],
    ["book", "build", "dodgem:3", "{tmp}/dodgem.book", "--depth", "2"],
    ["tui", "dodgem:3"],
    ["tui", "game", "dodgem:3", "--position", "B--/B--/-RR red"],
    ["solve", "morris3"],
    ["solve", "morris3", "--moves", "b2-b2"],
])
def test_every_search_refuses_a_built_in_repeating_game_in_one_line(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(GameproofApp, "run", lambda self, *a, **k: pytest.fail("a screen opened"))
    game = next(arg for arg in argv if arg.startswith(("dodgem", "morris3")))
    refused(capsys, [arg.replace("{tmp}", str(tmp_path)) for arg in argv], game)
    assert not (tmp_path / "dodgem.book").exists()


def test_solve_score_refuses_dodgem_in_one_line(capsys):
    """Dodgem has no score: that refusal comes first (the repetition's is the scored Shuttle's, below)."""
    assert main(["solve", "dodgem:3", "--score"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "declares no score" in captured.err


@pytest.mark.parametrize("argv", [
    ["solve", "{file}"],
    ["solve", "{file}", "--score"],
    ["solve", "{file}", "--distance"],
    ["book", "build", "{file}", "{tmp}/shuttle.book", "--depth", "2"],
    ["book", "build", "{file}", "{tmp}/shuttle.book", "--depth", "2", "--score"],
    ["tui", "{file}"],
    ["tui", "{file}", "--score"],
])
def test_every_search_refuses_a_repeating_file_game_with_a_score(argv, shuttle, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(GameproofApp, "run", lambda self, *a, **k: pytest.fail("a screen opened"))
    refused(capsys, [arg.replace("{file}", shuttle).replace("{tmp}", str(tmp_path)) for arg in argv], "shuttle")
    assert not (tmp_path / "shuttle.book").exists()


def test_the_python_searches_refuse(shuttle):
    for game in ("dodgem:3", "morris3"):
        with pytest.raises(BadInput, match="may repeat a position"):
            solve(RulesState(load_game(game)))
    with pytest.raises(BadInput, match="may repeat a position"):
        exact_score(RulesState(load_game(shuttle)))


# --- what still works ----------------------------------------------------------------------------------------------


def test_perft_of_dodgem_to_depth_6(capsys):
    assert main(["perft", "dodgem:3", "6", "--json"]) == 0
    paths = json.loads(capsys.readouterr().out)["paths"]
    assert paths == reference.perft(reference.start(3), 6) == 757
    state = RulesState(load_game("dodgem:3"))
    assert perft(state, 6) == fast_perft(state, 6) == paths


def test_perft_goes_past_any_longest_game(shuttle, capsys):
    """Shuttle's token has 2 moves a ply until it reaches the end: 40 plies, more than its 5 cells."""
    assert main(["perft", shuttle, "12", "--json"]) == 0
    state = RulesState(load_game(shuttle))
    assert json.loads(capsys.readouterr().out)["paths"] == perft(state, 12) == fast_perft(state, 12) > 0
    assert fast_perft(state, 40) > 0


def test_the_self_check_takes_a_repeating_game(shuttle, capsys):
    assert main(["games", "dodgem:3", "--check", "--games", "50"]) == 0
    assert "of a game that may repeat" in capsys.readouterr().out
    assert main(["games", shuttle, "--check", "--games", "50", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)["checked"]
    assert report["max_plies"] is None and report["longest"] == 400  # half the games avoid the end: stopped at 400
    assert load_game(shuttle).may_repeat  # a file game is self-checked when it loads
