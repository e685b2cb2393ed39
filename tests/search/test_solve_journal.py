"""`solve --journal FILE`: a solve killed with SIGKILL resumes from its last save and loses at most the work
since; a journal of another question, a damaged one or a forged one never gives a wrong answer."""

import hashlib
import json
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from gameproof.cli import main
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.parallel import solve_on_workers
from gameproof.search.solve_journal import SAVING_SHARE, SolveJournal

GAME, MOVES = "mnk-misere:5,5,3", "c3"  # a win for the side to move, about 5 s of df-pn
CHECKPOINT = 0.5
SOLVE = [sys.executable, "-m", "gameproof.cli", "solve", GAME, "--moves", MOVES, "--value-only", "--tt-mb", "64",
         "--json", "--checkpoint", str(CHECKPOINT)]
#: Nodes a second, at most, of df-pn on this game here (two threads): what one checkpoint interval may lose.
RATE = 4_000_000


def _solve(journal, *extra):
    done = subprocess.run([*SOLVE, "--journal", str(journal), *extra], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _header(path):
    with open(path, "rb") as file:
        file.readline()
        return json.loads(file.readline())


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_killed_solve_resumes_with_the_same_value_repeating_at_most_a_checkpoint_of_work(tmp_path, workers):
    whole = _solve(tmp_path / "whole.journal", "--workers", workers)
    journal = tmp_path / "killed.journal"
    driver = subprocess.Popen([*SOLVE, "--journal", str(journal), "--workers", workers], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not journal.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(CHECKPOINT / 2)
    assert driver.poll() is None, "the solve finished before it could be killed"
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    saved = _header(journal)["nodes"]
    resumed = _solve(journal, "--workers", workers)
    assert resumed["value"] == whole["value"] == "win"
    assert resumed["journal"]["resumed_nodes"] == saved > 0
    assert "accepted by the independent checker" in resumed["journal"]["confirmed"]
    repeated = saved + resumed["nodes"] - whole["nodes"]
    assert repeated < RATE * CHECKPOINT + whole["nodes"] // 10  # a checkpoint's worth, and the noise of two threads


def test_a_journal_of_another_question_is_refused_and_left_as_it_was(tmp_path, capsys):
    journal = tmp_path / "j"
    assert main(["solve", "mnk:3,3,3", "--journal", str(journal), "--tt-mb", "1", "--quiet"]) == 0
    before = hashlib.sha256(journal.read_bytes()).hexdigest()
    for other in (["mnk:3,3,3", "--moves", "b2"], ["mnk:3,3,3", "--value-only"], ["mnk:3,3,3", "--no-wpns"],
                  ["mnk-misere:3,3,3"]):
        assert main(["solve", "--journal", str(journal), "--quiet", "--tt-mb", "1", *other]) == 2
        err = capsys.readouterr().err
        assert "journal" in err and len(err.strip().splitlines()) == 1
    assert hashlib.sha256(journal.read_bytes()).hexdigest() == before


def test_a_journal_of_a_larger_table_is_refused(tmp_path, capsys):
    journal = tmp_path / "j"
    assert main(["solve", "mnk-misere:4,4,3", "--journal", str(journal), "--tt-mb", "2", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["solve", "mnk-misere:4,4,3", "--journal", str(journal), "--tt-mb", "1", "--quiet"]) == 2
    assert "holds a table of 2097152 bytes, more than the 1048576 of this solve's" in capsys.readouterr().err


def test_a_journal_of_a_smaller_table_resumes_in_a_larger_one(tmp_path):
    """A long solve whose table filled up goes on with a larger --tt-mb, keeping what it had learnt."""
    journal = tmp_path / "j"
    driver = subprocess.Popen([*SOLVE, "--journal", str(journal)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (journal.exists() and _header(journal)["nodes"] > 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert driver.poll() is None, "the solve finished before it could be killed"
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    saved = _header(journal)
    assert saved["table_bytes"] == 64 << 20 and saved["nodes"] > 0
    resumed = _solve(journal, "--tt-mb", "256")
    assert resumed["value"] == "win" and resumed["journal"]["resumed_nodes"] == saved["nodes"]
    assert "accepted by the independent checker" in resumed["journal"]["confirmed"]
    assert _header(journal)["table_bytes"] == 256 << 20


def test_a_regrown_table_finds_every_entry_with_its_numbers():
    from gameproof.search.tt import TranspositionTable, census, lookup, regrow, store

    small, large = TranspositionTable(1), TranspositionTable(4)
    rng = np.random.default_rng(7)
    keys = rng.integers(1, 2**63, size=3 * small.capacity, dtype=np.uint64)
    for index, key in enumerate(keys):
        store(small.words, small.bits, key, np.int64(index % 1000 + 1), np.int64(index % 777), np.int64(index))
    kept = [(key, lookup(small.words, small.bits, key)) for key in keys]
    kept = [(key, numbers) for key, (found, *numbers) in kept if found]
    assert len(kept) == sum(census(small.words)) > small.capacity * 0.9  # full: later keys evicted earlier ones
    regrow(small.words, large.words, large.bits)
    assert sum(census(large.words)) == len(kept)
    for key, numbers in kept:
        found, *regrown = lookup(large.words, large.bits, key)
        assert found and regrown == numbers


@pytest.mark.parametrize("damage", ["a flipped bit", "cut short", "not a journal", "a bad header", "an endless count"])
def test_a_damaged_journal_is_refused_and_left_as_it_was(tmp_path, capsys, damage):
    journal = tmp_path / "j"
    assert main(["solve", "mnk:3,3,3", "--journal", str(journal), "--tt-mb", "1", "--quiet"]) == 0
    data = bytearray(journal.read_bytes())
    if damage == "a flipped bit":
        data[len(data) // 2] ^= 4
    elif damage == "cut short":
        data = data[:len(data) - 100]
    elif damage == "not a journal":
        data = bytearray(b"SQLite format 3\x00" + bytes(200))
    elif damage == "a bad header":
        data = data.replace(b'"nodes": ', b'"nodes": -', 1)
    else:
        data = bytearray(re.sub(rb'"nodes": [0-9]+', b'"nodes": Infinity', bytes(data), count=1))
    journal.write_bytes(bytes(data))
    assert main(["solve", "mnk:3,3,3", "--journal", str(journal), "--tt-mb", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(journal) in err
    assert journal.read_bytes() == bytes(data)


def test_a_forged_journal_is_caught_by_the_certificates_and_the_position_solved_again(tmp_path):
    """Swap every proven entry's numbers (the table then claims the opposite answers) and write the hash again:
    the journal passes every check but the certificates of its answer, so the solve starts afresh."""
    state = RulesState(load_game("mnk-misere:4,4,3"))
    options = Options(tt_mb=4)
    journal = tmp_path / "j"
    honest = solve_on_workers(state, options, workers=2, journal=journal, checkpoint_seconds=1e-9)
    assert honest.saves >= 1
    with open(journal, "rb") as file:
        magic, header = file.readline(), file.readline()
    words = np.frombuffer(journal.read_bytes()[len(magic) + len(header):-72], dtype=np.uint64).copy()
    packed = words[1::2]
    field = np.uint64((1 << 28) - 1)
    pn, dn = packed & field, (packed >> np.uint64(28)) & field
    solved = (packed != 0) & ((pn == 0) | (dn == 0))
    swapped = (packed & ~(field | (field << np.uint64(28)))) | dn | (pn << np.uint64(28))
    tags = words[0::2] ^ packed  # the key, complemented
    packed[solved] = swapped[solved]
    words[0::2] = np.where(solved, tags ^ packed, words[0::2])
    saved = json.loads(header)
    SolveJournal(journal, saved["question"]).save(words, saved["nodes"], 1.0)  # a fresh hash over the forged table
    resumed = solve_on_workers(state, options, workers=2, journal=journal)
    assert (resumed.value, resumed.moves) == (honest.value, honest.moves)
    assert resumed.confirmed == "the journal's answer was not confirmed by its certificates: solved again afresh"


def test_sigint_ends_a_solve_on_workers_at_once_keeping_the_last_save(tmp_path):
    journal = tmp_path / "j"
    driver = subprocess.Popen([*SOLVE, "--journal", str(journal), "--workers", "2"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not journal.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    stopped = time.monotonic()
    driver.send_signal(signal.SIGINT)
    out, err = driver.communicate(timeout=10)
    assert time.monotonic() - stopped < 3
    assert driver.returncode == 130 and "interrupted" in err and out == ""
    assert _header(journal)["nodes"] > 0
    assert not list(tmp_path.glob(".*.partial"))


def test_a_resumed_solve_writes_the_certificate_that_confirmed_its_answer(tmp_path, capsys, monkeypatch):
    """The certificate a resumed answer was confirmed by is the one `--certificate` writes: built once."""
    from gameproof.certify.check import check_certificate
    from gameproof.search import certificate as certificates

    journal, path = tmp_path / "j", tmp_path / "c.cert"
    command = ["solve", "mnk-misere:4,4,3", "--value-only", "--journal", str(journal), "--tt-mb", "1", "--json"]
    assert main(command) == 0
    built = []
    certify = certificates.certify
    monkeypatch.setattr(certificates, "certify", lambda *args, **kwargs: built.append(1) or certify(*args, **kwargs))
    capsys.readouterr()
    assert main([*command, "--certificate", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["journal"]["resumed_nodes"] > 0 and "accepted" in report["journal"]["confirmed"]
    assert built == [1]
    checked = check_certificate(str(path))
    assert checked.accepted and checked.value.value == report["value"] == "loss"


def test_saves_that_take_long_come_less_often_than_the_checkpoint(tmp_path, monkeypatch):
    """Saves that take `slow` seconds each, asked for every millisecond: the solve goes on between them for
    SAVING_SHARE times as long as the last one took (back to back, it would save about ten times a second)."""
    slow = 0.1
    save = SolveJournal.save
    monkeypatch.setattr(SolveJournal, "save", lambda *args: time.sleep(slow) or save(*args))
    state = RulesState(load_game(GAME), MOVES)
    solution = solve_on_workers(state, Options(tt_mb=16), workers=1, with_moves=False, journal=tmp_path / "j",
                                checkpoint_seconds=1e-3)
    assert solution.value.value == "win" and solution.seconds > 1, "too short a solve to tell"
    assert 2 <= solution.saves <= solution.seconds / (SAVING_SHARE * slow) + 2
