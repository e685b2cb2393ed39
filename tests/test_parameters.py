"""A game's parameters (docs/games.md, "Parameters"): by position as they always were, by name or alias in any order
after those, and the remarks a declaration makes on a degenerate parameter set."""

import dataclasses
import gzip
import json
import re

import pytest

from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.declaration import Parameter, RulesError
from gameproof.framework.game import Game
from gameproof.framework.registry import declared_specs, load_game, specs


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- by position, as before; by name, the same games --------------------------------------------------------------

def test_every_game_reads_its_parameters_by_position_as_before():
    for spec in declared_specs():
        chosen = {p.name: p.default for p in spec.parameters}
        assert spec.parse_parameters(",".join(map(str, chosen.values()))) == chosen == spec.parse_parameters("")
        assert spec.parse_parameters(spec.named_example.partition(":")[2]) == chosen


@pytest.mark.parametrize("name, same", [
    ("amazons:5,4", ["amazons:rows=4,cols=5", "amazons:cols=5,rows=4", "amazons:5,rows=4"]),
    ("breakthrough:4,5", ["breakthrough:cols=5,rows=4", "breakthrough:4,cols=5", "Breakthrough:ROWS=4,Cols=5"]),
    ("connect4:5,4", ["connect4:width=5,height=4", "connect4:rows=4,cols=5", "connect4:5,rows=4"]),
    ("connect4:7,4", ["connect4:height=4", "connect4:rows=4"]),
    ("mnk:3,3,4", ["mnk:3,3,k=4", "mnk:k=4", "mnk: k = 4 , rows=3"]),
    ("othello:6", ["othello:n=6", "othello:size=6"]),
    ("dodgem:4", ["dodgem:size=4", "dodgem:n=4"]),
])
def test_a_game_named_by_its_parameters_names_is_the_same_game(name, same):
    """Files (certificates, books, journals) record ``game.name``: by position, whatever form the user wrote."""
    game = load_game(name)
    assert game.name == name
    for other in same:
        assert load_game(other).name == name and load_game(other).parameters == game.parameters


def test_each_game_keeps_its_positional_order():
    """amazons:COLS,ROWS but breakthrough:ROWS,COLS and connect4:WIDTH,HEIGHT, as files name them."""
    for name in ("amazons:5,4", "breakthrough:4,5", "connect4:5,4", "clobber:4,5", "dots-boxes:1,2"):
        board = load_game(name).board
        assert (board.rows, board.cols) == ((3, 5) if name.startswith("dots") else (4, 5)), name


def test_an_mnk_state_takes_the_named_forms_too():
    from gameproof.games.mnk.state import MnkGame, MnkState

    assert MnkState("mnk:3,3,k=3", "b2").game == MnkGame.from_name("mnk:3,3,3")
    assert MnkGame.from_name("mnk-misere:cols=5,rows=4,k=3").name == "mnk-misere:4,5,3"
    with pytest.raises(BadInput, match="mnk takes 3 whole-number parameters"):
        MnkGame.from_name("mnk:\u0663,3,3")  # an Arabic-Indic 3: digits 0-9 only, as load_game reads them


def test_a_certificate_records_the_game_by_position(tmp_path):
    path = tmp_path / "m.cert"
    assert main(["solve", "mnk:rows=3,cols=3,k=3", "--certificate", str(path), "--quiet"]) == 0
    assert json.loads(gzip.decompress(path.read_bytes()).partition(b"\n")[0])["game"] == "mnk:3,3,3"
    distance = tmp_path / "d.cert"
    assert main(["solve", "mnk:2,2,k=2", "--distance", "--certificate", str(distance), "--quiet"]) == 0
    assert json.loads(gzip.decompress(distance.read_bytes()))["game"] == "mnk:2,2,2"


@pytest.mark.parametrize("name, said", [
    ("mnk:3,3,3,k=3", "mnk: k is given twice (3 by position and k=3)"),
    ("connect4:width=5,cols=6", "connect4: width is given twice (width=5 and cols=6)"),
    ("mnk:kk=3", "mnk has no parameter 'kk' (did you mean k?); its parameters: rows, cols, k"),
    ("connect4:widht=5", "connect4 has no parameter 'widht' (did you mean width?); its parameters: width (or cols), "
                         "height (or rows)"),
    ("hex:x=5", "hex has no parameter 'x'; its parameters: n (or size)"),
    ("morris3:size=3", "morris3 has no parameter 'size'; its parameters: none"),
    ("mnk:k=3,3", "mnk: '3' comes after a parameter given by name; give those by position first, in their order, as "
                  "in mnk:3,3,k=3"),
    ("mnk:k=x", "mnk: k must be 1..26, not 'x'"),
    ("mnk:k=", "mnk: k must be 1..26, not ''"),
    ("mnk:rows=30", "mnk: rows must be 1..26, not 30"),
    ("mnk:3", "mnk takes 3 whole-number parameters: mnk:ROWS,COLS,K (e.g. mnk:3,3,3), or by name "
              "(mnk:rows=3,cols=3,k=3: any order, any left out at its default), or none for the defaults; got '3'"),
    ("mnk:3,3,3,3,k=3", "mnk takes 3 whole-number parameters"),
    ("mnk:x,3,k=3", "mnk takes 3 whole-number parameters"),
])
def test_parameters_given_wrongly_are_one_line(capsys, name, said):
    with pytest.raises(BadInput, match="^" + re.escape(said)):
        load_game(name)
    code, out, err = run(capsys, "games", name)
    assert code == 2 and out == "" and err.count("\n") == 1 and said in err


def test_parameter_names_and_aliases_are_identifiers_that_differ():
    mnk = specs()["mnk"]
    with pytest.raises(TypeError, match="must differ"):
        dataclasses.replace(mnk, parameters=(Parameter("rows", 3, aliases=("n",)), Parameter("cols", 3, aliases=("N",)),
                                             Parameter("k", 3)))
    with pytest.raises(TypeError, match="identifiers"):
        Parameter("rows", 3, aliases=("row count",))


def test_games_shows_the_positional_and_the_named_forms(capsys):
    code, out, _ = run(capsys, "games", "connect4:height=4")
    assert code == 0 and "connect4:7,4: Connect Four" in out
    assert ("usage: connect4:WIDTH,HEIGHT (default connect4:7,6); or by name, in any order: connect4:width=7,height=6, "
            "or after some by position: connect4:7,height=6; any left out keeps its default") in out
    assert "height = 4 (4..16, default 6: rows; also rows)" in out
    code, out, _ = run(capsys, "games", "connect4", "--json")
    described = json.loads(out)
    assert described["named_example"] == "connect4:width=7,height=6" and described["usage"] == "connect4:WIDTH,HEIGHT"
    assert [p["aliases"] for p in described["parameters"]] == [["cols"], ["rows"]] and described["remarks"] == []
    code, out, _ = run(capsys, "games")
    assert "or by name, in any order: mnk:rows=3,cols=3,k=3, or after some by position: mnk:3,3,k=3" in out
    assert json.loads(run(capsys, "games", "--json")[1])["games"][0]["named_example"] == "amazons:cols=5,rows=5"


# --- remarks: degenerate parameter sets are said ------------------------------------------------------------------

@pytest.mark.parametrize("name, said", [
    ("mnk:3,3,4", "k = 4 is longer than any line of the 3x3 board: nobody can make k in a row, so every game fills "
                  "the board and is a draw"),
    ("mnk-misere:1,1,2", "k = 2 is longer than any line of the 1x1 board"),
    ("mnk:2,2,1", "k = 1: the first move makes k in a row, so the first player wins at once, whatever it plays"),
    ("mnk-misere:2,2,1", "the first player loses at once"),
    ("mnk-notakto:3,3,1", "the first player loses at once"),
    ("clobber:1,1", "the first player cannot move and loses at once"),
    ("clobber:1,2", "a 1x2 board holds one stone a side: the first player takes the other with the one move there "
                    "is, and wins"),
    ("dots-boxes:1,1", "the second player wins 1-0 whatever is played"),
    ("kalah:1,5", "one pit a side: every move empties the mover's only pit, so there is one line of play"),
])
def test_a_degenerate_parameter_set_is_remarked(name, said):
    remarks = load_game(name).remarks
    assert len(remarks) == 1 and said in remarks[0]


def test_the_usual_parameter_sets_have_no_remarks():
    for spec in declared_specs():
        assert load_game(spec.example).remarks == (), spec.name
    assert load_game("mnk:1,5,3").remarks == load_game("kalah:2,1").remarks == load_game("clobber:1,3").remarks == ()


def test_commands_say_remarks_on_stderr_not_in_json(capsys, tmp_path):
    note = ("gameproof: note: mnk:3,3,4: k = 4 is longer than any line of the 3x3 board: nobody can make k in a row, "
            "so every game fills the board and is a draw\n")
    code, out, err = run(capsys, "solve", "mnk:3,3,k=4", "--json", "--quiet")
    assert code == 0 and json.loads(out)["value"] == "draw" and err == note
    assert run(capsys, "perft", "mnk:3,3,4", "2")[2] == note
    assert run(capsys, "mnk", "solve", "--rows", "3", "--cols", "3", "--k", "4", "--quiet")[2] == note
    assert run(capsys, "book", "build", "mnk:3,3,4", str(tmp_path / "b.db"), "--depth", "1", "--quiet")[2] == note
    code, out, err = run(capsys, "games", "mnk:3,3,4")
    assert err == "" and "remark: k = 4 is longer than any line of the 3x3 board" in out
    assert json.loads(run(capsys, "games", "mnk:3,3,4", "--json")[1])["remarks"] == [note.split(": ", 3)[3].strip()]
    assert run(capsys, "solve", "mnk:3,3,3", "--quiet")[2] == ""


def test_remarks_that_are_not_texts_are_one_line():
    spec = dataclasses.replace(specs()["mnk"], remarks=lambda **_: "not a list")
    with pytest.raises(RulesError, match="^mnk:3,3,3: remarks\\(\\) must return a list of texts"):
        Game(spec, spec.parse_parameters("")).remarks
    with pytest.raises(TypeError, match="remarks must be a function"):
        dataclasses.replace(specs()["mnk"], remarks="k = 1")
