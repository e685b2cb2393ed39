"""`gameproof tablebase check` (gameproof.certify.tablebase_check): every table the builder writes is accepted, and
a table with one entry changed is rejected, naming the entry."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from gameproof.certify.tablebase_check import MOST_PROBLEMS, check_tablebase, read_tablebase
from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.registry import load_game
from gameproof.search.tablebase.build import build
from gameproof.search.tablebase.table import write_table

EXAMPLES = Path(__file__).parents[2] / "examples"

#: A token on a row of five cells, moved one cell left or right a ply; who moves it onto the last cell wins. Play
#: can shuttle for ever (a draw), so its table holds wins, losses and draws in cycles.
SHUTTLE = (Path(__file__).parents[2] / "examples" / "shuttle.py").read_text()

BUILT_IN = ["mnk:3,3,3", "connect4:4,4", "dots-boxes:1,2", "dots-boxes:2,2", "othello:4", "kalah:2,2"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> Callable[[str], Path]:
    """``table(name)``: the tablebase of the game `name` (built once; a file game's rules copied to a folder of its
    own first: "domineering" and "shuttle" are the files of this module)."""
    folder = tmp_path_factory.mktemp("tables")
    built: dict[str, Path] = {}

    def table(name: str) -> Path:
        if name not in built:
            loading = name
            if name.startswith("domineering"):
                rules = folder / "domineering.py"
                shutil.copy(EXAMPLES / "domineering.py", rules)
                loading = f"{rules}:{name.partition(':')[2]}"
            elif name == "shuttle":
                rules = folder / "shuttle.py"
                rules.write_text(SHUTTLE)
                loading = str(rules)
            path = folder / (name.replace(":", "_").replace(",", "_") + ".tb")
            build(load_game(loading), path)
            built[name] = path
        return built[name]

    return table


def arrays_of(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    table = read_tablebase(path)
    header = {name: value for name, value in table.header.items() if name != "arrays"}
    return header, {name: np.array(array) for name, array in table.arrays.items()}


def rewritten(source: Path, target: Path, edit: Callable[[dict, dict[str, np.ndarray]], None],
              consistent: bool = True) -> Path:
    """A copy of the table `source` at `target` after `edit(header, arrays)`; with `consistent`, the header's
    positions, counts and start value and distance are then made to agree with the arrays again, so that only the
    edit itself is left to find."""
    header, arrays = arrays_of(source)
    edit(header, arrays)
    if consistent:
        value = arrays["value"]
        header["positions"] = len(arrays["keys"])
        header["counts"] = {name: int((value == number).sum())
                            for name, number in (("win", 1), ("draw", 0), ("loss", -1))}
        header["start_value"] = int(value[header["start"]])
        header["start_distance"] = int(arrays["distance"][header["start"]])
    write_table(target, header, arrays)
    return target


def first_row(arrays: dict[str, np.ndarray], where: np.ndarray, avoid: int | None = None) -> int:
    rows = [row for row in np.flatnonzero(where).tolist() if row != avoid]
    assert rows, "the table has no such row"
    return rows[len(rows) // 2]


def rejected(path: Path, *expected: str, row: int | None = None) -> list[str]:
    """The problems of the table at `path`, which must be rejected with one naming `row` (if given) and saying each
    of `expected`."""
    report = check_tablebase(str(path))
    assert not report.accepted
    assert report.problem_count >= len(report.problems) > 0
    named = f"row {row:,}," if row is not None else ""
    assert any(named in problem and all(text in problem for text in expected) for problem in report.problems), \
        report.problems
    return report.problems


# --- every table built is accepted -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*BUILT_IN, "domineering:3,3", "shuttle", "dodgem:3"])
def test_every_table_built_is_accepted(tables, name):
    path = tables(name)
    report = check_tablebase(str(path))
    assert report.accepted, report.problems
    header = read_tablebase(path).header
    assert report.positions == header["positions"] == report.checked
    assert report.counts == header["counts"]
    assert report.game == header["game"]
    assert report.summary().startswith(f"{report.game}: {header['positions']:,} positions, ")
    document = report.to_json()
    assert document["accepted"] and document["positions"] == header["positions"] and document["problems"] == []


def test_what_the_checked_tables_say(tables):
    """The start of each table, as the check reads it (known values; the shuttle's start is a draw that goes on)."""
    starts = {"mnk:3,3,3": ("draw", -1), "connect4:4,4": ("draw", -1), "othello:4": ("loss", 12),
              "shuttle": ("draw", -1)}
    for name, (value, distance) in starts.items():
        report = check_tablebase(str(tables(name)))
        assert (report.start["value"], report.start["distance"]) == (value, distance)
    assert check_tablebase(str(tables("othello:4"))).start["score"] == -10
    report = check_tablebase(str(tables("mnk:3,3,3")))
    assert report.summary() == "mnk:3,3,3: 765 positions, 390 wins, 151 draws, 224 losses; start: draw"
    shuttle = check_tablebase(str(tables("shuttle"))).counts
    assert shuttle["draw"] and shuttle["win"] and shuttle["loss"]


def test_a_row_held_as_an_image_of_its_position_is_accepted(tables, tmp_path):
    """A built-in game's symmetries merge positions: any image of a row's position may stand for its class."""
    def mirrored(header, arrays):
        game = load_game("mnk:3,3,3")
        for row in range(len(arrays["keys"])):
            words = tuple(int(word) for word in arrays["words"][row])
            image = tuple(sum(1 << (3 * (bit // 3) + 2 - bit % 3) for bit in range(9) if word >> bit & 1)
                          for word in words)  # mirrored left to right
            if image != words:
                assert game.key(image, int(arrays["to_move"][row])) == int(arrays["keys"][row])
                arrays["words"][row] = image
                break
        else:
            raise AssertionError("no row that a mirror changes")

    path = rewritten(tables("mnk:3,3,3"), tmp_path / "image.tb", mirrored)
    assert check_tablebase(str(path)).accepted


# --- one entry changed: rejected -----------------------------------------------------------------------------------


def unfinished(arrays: dict[str, np.ndarray], value: int) -> np.ndarray:
    """The rows whose game goes on and that the table values `value` (draws that go on are at distance -1)."""
    distance = arrays["distance"]
    return (arrays["value"] == value) & (distance > 0 if value else distance == -1)


def test_a_win_made_a_draw_is_rejected(tables, tmp_path):
    source = tables("mnk:3,3,3")
    row = first_row(arrays_of(source)[1], unfinished(arrays_of(source)[1], 1))

    def edit(header, arrays):
        arrays["value"][row], arrays["distance"][row] = 0, -1

    rejected(rewritten(source, tmp_path / "t.tb", edit), "the table says draw, but its moves make it win in", row=row)


def test_a_loss_made_a_win_is_rejected(tables, tmp_path):
    source = tables("connect4:4,4")
    row = first_row(arrays_of(source)[1], unfinished(arrays_of(source)[1], -1))

    def edit(header, arrays):
        arrays["value"][row] = 1

    rejected(rewritten(source, tmp_path / "t.tb", edit), "the table says win in", "make it loss in", row=row)


@pytest.mark.parametrize("distance", [3, -1])
def test_a_draw_made_a_loss_is_rejected(tables, tmp_path, distance):
    """Made a loss in 3, or only its value changed (a loss at distance -1, which no well-founded loss has)."""
    source = tables("mnk:3,3,3")
    row = first_row(arrays_of(source)[1], unfinished(arrays_of(source)[1], 0))

    def edit(header, arrays):
        arrays["value"][row], arrays["distance"][row] = -1, distance

    said = "loss in 3" if distance == 3 else "loss at distance -1"
    rejected(rewritten(source, tmp_path / "t.tb", edit), f"the table says {said}, but its moves make it draw", row=row)


@pytest.mark.parametrize("value", [1, -1])
@pytest.mark.parametrize("step", [1, -1])
def test_a_distance_moved_by_one_is_rejected(tables, tmp_path, value, step):
    source = tables("mnk:3,3,3")
    arrays = arrays_of(source)[1]
    row = first_row(arrays, unfinished(arrays, value) & (arrays["distance"] > 1))
    distance = int(arrays["distance"][row])
    name = "win" if value == 1 else "loss"

    def edit(header, arrays):
        arrays["distance"][row] = distance + step

    rejected(rewritten(source, tmp_path / "t.tb", edit), f"the table says {name} in {distance + step}, but its moves "
             f"make it {name} in {distance}", row=row)


@pytest.mark.parametrize("name", ["kalah:2,2", "othello:4", "dots-boxes:2,2"])
def test_a_score_moved_by_one_is_rejected(tables, tmp_path, name):
    source = tables(name)
    arrays = arrays_of(source)[1]
    row = first_row(arrays, (arrays["distance"] > 0) & (arrays["score"] > 0))  # its sign stays the value's
    score = int(arrays["score"][row])

    def edit(header, arrays):
        arrays["score"][row] = score + 1

    rejected(rewritten(source, tmp_path / "t.tb", edit), f"score {score + 1:+d}, but its moves make it",
             f"score {score:+d}", row=row)


def test_a_score_whose_sign_is_not_the_value_is_rejected(tables, tmp_path):
    """A finished game's score and value both moved: each is the rules' no more."""
    source = tables("kalah:2,2")
    arrays = arrays_of(source)[1]
    row = first_row(arrays, (arrays["distance"] == 0) & (arrays["score"] > 0))

    def edit(header, arrays):
        arrays["score"][row] = -arrays["score"][row]

    rejected(rewritten(source, tmp_path / "t.tb", edit), "the game is over", row=row)


@pytest.mark.parametrize("name", ["mnk:3,3,3", "dots-boxes:1,2"])
def test_a_finished_games_value_changed_is_rejected(tables, tmp_path, name):
    source = tables(name)
    arrays = arrays_of(source)[1]
    row = first_row(arrays, arrays["distance"] == 0)
    value = int(arrays["value"][row])

    def edit(header, arrays):
        arrays["value"][row] = 1 if value != 1 else -1

    rejected(rewritten(source, tmp_path / "t.tb", edit), "the game is over", "at distance 0, but the table says",
             row=row)


def test_two_rows_keys_swapped_are_rejected(tables, tmp_path):
    source = tables("mnk:3,3,3")

    def edit(header, arrays):
        keys = arrays["keys"]
        keys[100], keys[101] = keys[101], keys[100]

    problems = rejected(rewritten(source, tmp_path / "t.tb", edit), "keys not strictly increasing")
    assert any("row 100," in problem and "its key is" in problem for problem in problems)


@pytest.mark.parametrize("name", ["connect4:4,4", "kalah:2,2"])
def test_two_rows_words_swapped_are_rejected(tables, tmp_path, name):
    """The keys stay sorted, but a lookup by key would find another position (in a game with symmetries, one that is
    no image of it)."""
    source = tables(name)
    arrays = arrays_of(source)[1]
    first = first_row(arrays, arrays["to_move"] == 0)
    other = first_row(arrays, (arrays["to_move"] == 0) & (arrays["value"] != arrays["value"][first]))

    def edit(header, arrays):
        words = arrays["words"]
        words[[first, other]] = words[[other, first]]

    problems = rejected(rewritten(source, tmp_path / "t.tb", edit), "its key is", "but the position's is", row=first)
    assert any(f"row {other:,}," in problem and "its key is" in problem for problem in problems)
    # A lookup from a parent finds the row of the key, and sees another position there.
    image = ", not an image of it" if name == "connect4:4,4" else ""
    assert any("the row of its key" in problem and problem.endswith(f"to move){image}") for problem in problems)


def test_a_row_that_is_no_position_is_rejected(tables, tmp_path):
    """A piece on a bit that is no cell leaves the key as it was (keys weigh cells alone): still no position."""
    source = tables("connect4:4,4")
    arrays = arrays_of(source)[1]
    row = first_row(arrays, arrays["distance"] == 0)
    off_board = 4  # cell (row, col) is bit row + 5 * col on the 4x4 board: bit 4 is the sentinel above column a

    def edit(header, arrays):
        arrays["words"][row, 0] |= np.uint64(1 << off_board)

    rejected(rewritten(source, tmp_path / "t.tb", edit), "not a position of connect4:4,4", row=row)


def test_a_child_row_removed_is_rejected(tables, tmp_path):
    """The table cut: a position reached by a move is missing."""
    source = tables("connect4:4,4")
    header, arrays = arrays_of(source)
    start = header["start"]
    row = first_row(arrays, unfinished(arrays, 1), avoid=start)

    def edit(header, arrays):
        for name in list(arrays):
            arrays[name] = np.delete(arrays[name], row, axis=0)
        header["start"] = start - (row < start)

    rejected(rewritten(source, tmp_path / "t.tb", edit), "which the table lacks")


def test_the_headers_start_value_changed_is_rejected(tables, tmp_path):
    source = tables("othello:4")

    def edit(header, arrays):
        header["start_value"] = 1

    path = rewritten(source, tmp_path / "t.tb", edit, consistent=False)
    problems = rejected(path, "the header says the start's value is 1, but its row says -1")
    assert len(problems) == 1


def test_the_headers_start_row_and_counts_changed_are_rejected(tables, tmp_path):
    source = tables("mnk:3,3,3")

    def edit(header, arrays):
        header["start"] = 1
        header["counts"] = {"win": 391, "draw": 150, "loss": 224}

    path = rewritten(source, tmp_path / "t.tb", edit, consistent=False)
    problems = rejected(path, "the header says the start is row 1")
    assert any("the header's counts" in problem for problem in problems)


def test_a_draw_in_a_cycle_made_a_win_is_rejected(tables, tmp_path):
    """In a game that may repeat a position, a draw that goes on round a cycle cannot pass as a win: a win's distance
    must come down to a finished game."""
    source = tables("shuttle")
    arrays = arrays_of(source)[1]
    row = first_row(arrays, unfinished(arrays, 0))

    def edit(header, arrays):
        arrays["value"][row], arrays["distance"][row] = 1, 3

    rejected(rewritten(source, tmp_path / "t.tb", edit), "the table says win in 3, but its moves make it draw", row=row)


def test_a_win_in_a_cycle_made_a_draw_is_rejected(tables, tmp_path):
    source = tables("shuttle")
    arrays = arrays_of(source)[1]
    row = first_row(arrays, unfinished(arrays, 1))

    def edit(header, arrays):
        arrays["value"][row], arrays["distance"][row] = 0, -1

    rejected(rewritten(source, tmp_path / "t.tb", edit), "the table says draw, but its moves make it win in 1", row=row)


def test_problems_are_counted_and_the_first_kept(tables, tmp_path):
    source = tables("connect4:4,4")

    def edit(header, arrays):
        arrays["distance"][arrays["distance"] > 0] += 1  # every win and loss one ply too far: each row wrong

    report = check_tablebase(str(rewritten(source, tmp_path / "t.tb", edit)))
    assert not report.accepted and len(report.problems) == MOST_PROBLEMS < report.problem_count
    assert f"{report.problem_count:,} problems" in report.summary()


# --- a game from a user's file ---------------------------------------------------------------------------------------


def test_a_file_games_table_must_be_built_without_its_symmetries(tables, tmp_path):
    source = tables("domineering:3,3")

    def edit(header, arrays):
        header["symmetries"] = ["identity", "mirror-cols", "mirror-rows", "rotate-180"]

    rejected(rewritten(source, tmp_path / "t.tb", edit), "built without its declared symmetries")


def test_a_changed_rules_file_is_bad_input(tables, tmp_path):
    source = tables("domineering:3,3")
    header = read_tablebase(source).header
    assert Path(header["file"]).is_file() and "sha256" in header

    def edit(header, arrays):
        header["sha256"] = "0" * 64  # what the rules file's hash was when the table was built, as far as it says

    with pytest.raises(BadInput, match="the rules file changed since the tablebase was built") as raised:
        check_tablebase(str(rewritten(source, tmp_path / "t.tb", edit)))
    assert "\n" not in str(raised.value)


def test_a_changed_rules_file_is_refused(tmp_path):
    rules = tmp_path / "shuttle.py"
    rules.write_text(SHUTTLE)
    table = tmp_path / "shuttle.tb"
    build(load_game(str(rules)), table)
    assert check_tablebase(str(table)).accepted
    rules.write_text(SHUTTLE + "\n# changed\n")
    with pytest.raises(BadInput, match="changed since"):
        check_tablebase(str(table))
    rules.unlink()
    with pytest.raises(BadInput, match="cannot be read"):
        check_tablebase(str(table))


# --- bad files ---------------------------------------------------------------------------------------------------


def test_files_that_are_no_tablebase_are_bad_input(tables, tmp_path):
    whole = tables("mnk:3,3,3").read_bytes()
    cases = {"other.tb": b"hello\n" * 10, "cut.tb": whole[:3000], "empty.tb": b""}
    damaged = bytearray(whole)
    damaged[40:44] = b"\xff\xfe{]"
    cases["damaged.tb"] = bytes(damaged)
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(BadInput) as raised:
            check_tablebase(str(tmp_path / name))
        assert "\n" not in str(raised.value) and name in str(raised.value)
    with pytest.raises(BadInput, match="no tablebase"):
        check_tablebase(str(tmp_path / "missing.tb"))


def test_a_game_that_no_longer_loads_is_bad_input(tables, tmp_path):
    def edit(header, arrays):
        header["game"] = "no-such-game:3"

    with pytest.raises(BadInput, match="does not load"):
        check_tablebase(str(rewritten(tables("kalah:2,2"), tmp_path / "t.tb", edit)))


# --- the command ---------------------------------------------------------------------------------------------------


def test_the_command_exit_codes(tables, tmp_path, capsys):
    good = tables("dots-boxes:2,2")
    assert main(["tablebase", "check", str(good), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "ACCEPTED" in out and "dots-boxes:2,2: 776 positions" in out

    assert main(["tablebase", "check", str(good), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["accepted"] is True and document["positions"] == 776 and document["game"] == "dots-boxes:2,2"

    def edit(header, arrays):
        arrays["value"][header["start"]] = 0

    bad = rewritten(good, tmp_path / "bad.tb", edit)
    assert main(["tablebase", "check", str(bad), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "REJECTED" in out and "problem: row " in out
    assert main(["tablebase", "check", str(bad), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["accepted"] is False and document["problems"] and document["problem_count"] >= 1

    other = tmp_path / "notes.txt"
    other.write_text("not a table\n")
    assert main(["tablebase", "check", str(other)]) == 2
    err = capsys.readouterr().err
    assert "is not a gameproof tablebase" in err and len(err.strip().splitlines()) == 1


def test_a_table_whose_start_is_over_is_accepted(tmp_path):
    """The builder once expanded a finished start as a game that goes on (a pass it does not have)."""
    rules = tmp_path / "domineering.py"
    shutil.copy(EXAMPLES / "domineering.py", rules)
    report = build(load_game(f"{rules}:1,2"), tmp_path / "t.tb")  # vertical cannot place a domino: it has lost
    assert report.positions == 1 and report.counts["loss"] == 1
    assert check_tablebase(str(tmp_path / "t.tb")).accepted
