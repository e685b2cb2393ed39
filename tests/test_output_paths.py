"""No command destroys a user's file: an output that is an input of the run, two outputs on one file, and an
existing file that is not what an output writes are refused (exit 2, one line, before any work, the files as
they were); `--force` allows only the last. An interrupted journalled solve keeps its work and says so."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gameproof.certify.records import CertificateReader
from gameproof.cli import main
from gameproof.search.solve_journal import SolveJournal

ROOT = Path(__file__).resolve().parents[1]
FACTOR = ROOT / "examples" / "factor.py"
PRECIOUS = b"# a file nobody may lose\nprint('hello')\n"
NEVER = "def never(*words):\n    return words[0] == words[0] + 1\n"


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A folder with a rules file, a harness, a reach predicate, a note, and a link to the rules."""
    shutil.copy(ROOT / "examples" / "domineering.py", tmp_path / "rules.py")
    shutil.copy(FACTOR, tmp_path / "harness.py")
    (tmp_path / "predicate.py").write_text(NEVER)
    (tmp_path / "notes.txt").write_bytes(PRECIOUS)
    (tmp_path / "link.py").symlink_to(tmp_path / "rules.py")
    (tmp_path / "sub").mkdir()
    return tmp_path


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def _refused(argv: list[str], folder: Path, capsys: pytest.CaptureFixture[str], *words: str) -> str:
    """Run `argv`: exit 2 with one line naming `words`, and every file under `folder` byte for byte as it was."""
    before = _contents(folder)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gameproof: error: ") and err.count("\n") == 1, err
    assert all(word in err for word in words), err
    assert _contents(folder) == before
    return err


@pytest.mark.parametrize("spelling", ["rules.py", "link.py", "sub/../rules.py"])
def test_a_certificate_over_the_rules_file_is_refused(place, capsys, spelling):
    _refused(["solve", f"{place / 'rules.py'}:4,4", "--certificate", str(place / spelling), "--quiet"], place, capsys,
             "rules file", "which this run reads")


@pytest.mark.parametrize("argv", [
    ["check", "{place}/harness.py::impossible", "--playback", "{place}/harness.py"],
    ["check", "{place}/harness.py::impossible", "--proof", "{place}/harness.py"],
    ["reach", "mnk:3,3,3", "--plies", "2", "--where", "{place}/predicate.py::never", "--proof", "{place}/predicate.py"],
    ["reach", "{place}/rules.py:3,3", "--plies", "1", "--where", "{place}/predicate.py::never", "--dimacs",
     "{place}/link.py"],
    ["render", "{place}/rules.py:3,3", "--svg", "{place}/sub/../rules.py"],
], ids=["playback over the harness", "proof over the harness", "proof over the predicate", "dimacs over the rules",
        "svg over the rules"])
def test_an_output_over_a_file_the_run_reads_is_refused_even_with_force(place, capsys, argv):
    argv = [word.replace("{place}", str(place)) for word in argv]
    for force in ([], ["--force"]):
        _refused([*argv, *force], place, capsys, "which this run reads")


@pytest.mark.parametrize("argv", [
    ["solve", "mnk:3,3,3", "--certificate", "{first}", "--journal", "{second}", "--quiet", "--tt-mb", "1"],
    ["check", f"{FACTOR}::impossible", "--proof", "{first}", "--dimacs", "{second}"],
    ["reach", "mnk:3,3,3", "--plies", "2", "--where", "{place}/predicate.py::never", "--proof", "{first}", "--dimacs",
     "{second}"],
    ["othello", "reach", "--legal-moves", "18", "--plies", "2", "--proof", "{first}", "--dimacs", "{second}"],
], ids=["certificate and journal", "check: proof and dimacs", "reach: proof and dimacs", "othello reach"])
@pytest.mark.parametrize("existing", [False, True])
def test_two_outputs_on_one_file_are_refused(place, capsys, argv, existing):
    first, second = place / "out", place / "sub" / ".." / "out"
    if existing:
        first.write_bytes(PRECIOUS)
    argv = [word.replace("{place}", str(place)).replace("{first}", str(first)).replace("{second}", str(second))
            for word in argv]
    _refused([*argv, "--force"], place, capsys, "are one file")


def test_a_certificate_of_another_question_is_kept_unless_forced(place, capsys):
    path = place / "game.cert"
    assert main(["solve", "mnk:3,3,3", "--moves", "b2", "--certificate", str(path), "--quiet"]) == 0
    for other in (["mnk:3,3,3"], ["mnk-misere:3,3,3", "--moves", "b2"], [f"{place / 'rules.py'}:3,3"]):
        _refused(["solve", *other, "--certificate", str(path), "--quiet"], place, capsys, "is a certificate of "
                 "mnk:3,3,3 after b2", "--force")
    assert main(["solve", "mnk:3,3,3", "--moves", "b2", "--certificate", str(path), "--quiet"]) == 0  # the same one
    assert main(["solve", "mnk:3,3,3", "--certificate", str(path), "--quiet", "--force"]) == 0
    with CertificateReader(path) as replaced:
        assert (replaced.header.game, replaced.header.moves) == ("mnk:3,3,3", ())


#: A command writing each kind of file to {out}, and the exit code it ends with when it writes it.
WRITERS = {
    "certificate": (["solve", "mnk:3,3,3", "--quiet", "--certificate", "{out}"], 0),
    "mnk certificate": (["mnk", "solve", "--rows", "3", "--cols", "3", "--k", "3", "--quiet", "--certificate",
                         "{out}"], 0),
    "check proof": (["check", f"{FACTOR}::impossible", "--proof", "{out}"], 1),
    "check dimacs": (["check", f"{FACTOR}::impossible", "--dimacs", "{out}"], 1),
    "playback": (["check", f"{FACTOR}::factor", "--playback", "{out}", "--timeout", "60"], 1),
    "reach proof": (["reach", "mnk:3,3,3", "--plies", "2", "--where", "{place}/predicate.py::never", "--proof",
                     "{out}"], 1),
    "othello reach dimacs": (["othello", "reach", "--legal-moves", "18", "--plies", "2", "--dimacs", "{out}"], 1),
    "othello reach proof": (["othello", "reach", "--legal-moves", "18", "--plies", "2", "--proof", "{out}"], 1),
    "render svg": (["render", "mnk:3,3,3", "--svg", "{out}", "--format", "svg"], 0),
    "render png": (["render", "mnk:3,3,3", "--out", "{out}", "--format", "png"], 0),
    "othello show svg": (["othello", "show", "f5", "--svg", "{out}"], 0),
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_an_existing_file_of_another_kind_is_replaced_only_with_force(place, capsys, writer):
    argv, code = WRITERS[writer]
    out = place / "notes.txt"
    argv = [word.replace("{place}", str(place)).replace("{out}", str(out)) for word in argv]
    _refused(argv, place, capsys, f"{out} exists and is not", "--force")
    assert main([*argv, "--force"]) == code
    assert out.read_bytes() != PRECIOUS
    capsys.readouterr()
    assert main(argv) == code, capsys.readouterr().err  # what it wrote, it may write again


def test_a_journal_says_whether_it_was_saved_at_the_stop(tmp_path):
    words = np.zeros(1 << 10, dtype=np.uint64)
    journal = SolveJournal(tmp_path / "j", {"game": "x"})
    assert journal.describe() == f"journal {tmp_path / 'j'} not saved: the solve stopped before its first save"
    assert journal.quick_to_save(words)
    journal.save(words, 1234, 1.0)
    assert journal.describe() == f"journal {tmp_path / 'j'} saved (1,234 nodes of work)"
    journal.save_seconds = 3.0  # a slow disk: a save would not fit in the stop
    assert not journal.quick_to_save(words)
    assert journal.describe().startswith(f"journal {tmp_path / 'j'} not saved at the stop (a save takes about 3.0 s): "
                                         "it keeps the save of 0 s before (1,234 nodes of work)")
    assert SolveJournal(tmp_path / "j", {"game": "x"}).describe().endswith("not saved: it holds what it held before")


def _header(path: Path) -> dict:
    with open(path, "rb") as file:
        file.readline()
        return json.loads(file.readline())


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_journalled_solve_saves_its_work_and_says_so(tmp_path, signum):
    """A checkpoint of 1000 s: the journal appears only through the first save, seconds in; the interruption
    saves again (more nodes than that first save) within the two seconds, and the line says so."""
    journal = tmp_path / "j"
    run = subprocess.Popen([sys.executable, "-m", "gameproof", "solve", "mnk-misere:5,5,3", "--value-only", "--tt-mb",
                            "16", "--quiet", "--checkpoint", "1000", "--journal", str(journal)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not journal.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert journal.exists(), "no journal saved within the first seconds"
    first = _header(journal)["nodes"]
    time.sleep(1)  # let the search go on past the first save
    stopped = time.monotonic()
    run.send_signal(signum)
    out, err = run.communicate(timeout=30)
    assert time.monotonic() - stopped < 3
    assert run.returncode == 128 + signum and out == ""
    assert err.startswith("gameproof: interrupted; journal ") and err.count("\n") == 1, err
    saved = _header(journal)["nodes"]
    assert f" saved ({saved:,} nodes of work)" in err and saved > first
    assert not list(tmp_path.glob(".*.partial"))
    assert os.path.getsize(journal) > 16 << 20
