"""Certificates of games loaded from a file (FILE.py:PARAMS), and the record layout's move field.

The header names the rules file by its path as given and the sha256 of its content; the checker loads the
same file through the registry and refuses (one line, exit 2) a file that is missing or holds other content."""

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameproof.certify.check import check_certificate
from gameproof.certify.records import (CertificateReader, Header, RulesFile, move_bytes, no_move, record_layout,
                                       write_certificate)
from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.certificate import certify, check_certifiable
from gameproof.search.dfpn import Options
from gameproof.search.solve import kept_search

ROOT = Path(__file__).parents[2]
EXAMPLE = "examples/domineering.py"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def header_of(path: Path) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()).partition(b"\n")[0])


def solve_and_check(game: str, certificate: Path, capsys) -> tuple[int, str, str]:
    assert main(["solve", game, "--certificate", str(certificate), "--quiet", "--value-only"]) == 0
    capsys.readouterr()
    return check(certificate, capsys)


def check(certificate: Path, capsys) -> tuple[int, str, str]:
    code = main(["certificate", "check", str(certificate), "--quiet"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def copied(tmp_path) -> Path:
    """A copy of the Domineering example in its own folder."""
    rules = tmp_path / "rules" / "domineering.py"
    rules.parent.mkdir()
    shutil.copy(ROOT / EXAMPLE, rules)
    return rules


def test_the_example_file_is_named_as_given_and_accepted(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    certificate = tmp_path / "d.cert"
    code, out, _ = solve_and_check(f"{EXAMPLE}:4,4", certificate, capsys)
    assert code == 0 and "domineering:4,4 after (start)" in out and "ACCEPTED: win for vertical (to move)" in out
    header = header_of(certificate)
    assert (header["game"], header["rules_file"], header["rules_sha256"]) == ("domineering:4,4", EXAMPLE,
                                                                              sha256(ROOT / EXAMPLE))
    assert "move_bytes" not in header  # Domineering's moves fit a byte
    assert main(["certificate", "check", str(certificate), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["accepted"] and checked["rules_file"] == {"path": EXAMPLE, "sha256": sha256(ROOT / EXAMPLE)}


def test_a_copy_elsewhere_is_accepted_then_refused_once_changed(copied, tmp_path, capsys):
    certificate = tmp_path / "d.cert"
    code, out, _ = solve_and_check(f"{copied}:4,4", certificate, capsys)
    assert code == 0 and "ACCEPTED: win" in out
    assert header_of(certificate)["rules_file"] == str(copied)
    copied.write_text(copied.read_text() + "\n# changed\n")
    code, out, err = check(certificate, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"the rules file changed since the certificate was written ({str(copied)!r} has sha256 " in err


def test_a_missing_rules_file_is_refused(copied, tmp_path, capsys):
    certificate = tmp_path / "d.cert"
    assert solve_and_check(f"{copied}:4,4", certificate, capsys)[0] == 0
    copied.unlink()
    code, out, err = check(certificate, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "is missing" in err


def test_a_rules_file_moved_elsewhere_is_named_with_rules_and_must_hold_the_same(copied, tmp_path, capsys):
    certificate = tmp_path / "d.cert"
    assert solve_and_check(f"{copied}:4,4", certificate, capsys)[0] == 0
    moved = tmp_path / "elsewhere.py"
    copied.rename(moved)
    code, out, err = check(certificate, capsys)
    assert code == 2 and "is missing (give its place with --rules FILE)" in err
    assert main(["certificate", "check", str(certificate), "--rules", str(moved), "--quiet"]) == 0
    assert "ACCEPTED: win" in capsys.readouterr().out
    moved.write_text(moved.read_text().replace("Domineering", "Domineering, moved"))
    assert main(["certificate", "check", str(certificate), "--rules", str(moved), "--quiet"]) == 2
    assert "the rules file changed since the certificate was written" in capsys.readouterr().err
    assert main(["certificate", "check", str(certificate), "--rules", str(ROOT / "missing.py"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "is missing" in err and "--rules" not in err


def test_rules_for_a_built_in_game_is_refused(tmp_path, capsys):
    certificate = tmp_path / "c.cert"
    assert main(["solve", "mnk-misere:3,3,3", "--certificate", str(certificate), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["certificate", "check", str(certificate), "--rules", str(ROOT / EXAMPLE), "--quiet"]) == 2
    assert "is built in, not loaded from a rules file" in capsys.readouterr().err


@pytest.mark.parametrize("forged", [{"rules_sha256": "0" * 64}, {"rules_sha256": "not hex"},
                                    {"rules_file": None}, {"rules_file": "\x00.py"}])
def test_a_forged_rules_file_in_the_header_is_refused(copied, tmp_path, capsys, forged):
    certificate = tmp_path / "d.cert"
    assert solve_and_check(f"{copied}:4,4", certificate, capsys)[0] == 0
    header, _, rest = gzip.decompress(certificate.read_bytes()).partition(b"\n")
    certificate.write_bytes(gzip.compress(json.dumps(json.loads(header) | forged).encode() + b"\n" + rest))
    code, out, err = check(certificate, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_a_rules_file_that_declares_another_game_is_refused(copied, tmp_path, capsys):
    certificate = tmp_path / "d.cert"
    assert solve_and_check(f"{copied}:4,4", certificate, capsys)[0] == 0
    header, _, rest = gzip.decompress(certificate.read_bytes()).partition(b"\n")
    certificate.write_bytes(gzip.compress(json.dumps(json.loads(header) | {"game": "other:4,4"}).encode()
                                          + b"\n" + rest))
    code, _, err = check(certificate, capsys)
    assert code == 2 and "declares domineering:4,4, not 'other:4,4'" in err


def test_a_source_that_is_not_the_game_is_refused(monkeypatch):
    monkeypatch.chdir(ROOT)
    state = RulesState(load_game("mnk:3,3,3"))
    assert check_certifiable(state) is None and check_certifiable(state, "mnk:3,3,3") is None
    with pytest.raises(BadInput, match=f"{EXAMPLE}:3,3,3 is not this game"):
        check_certifiable(state, EXAMPLE)


def test_the_checker_of_a_file_game_loads_nothing_of_the_search(copied, tmp_path):
    game = f"{copied}:3,3"
    state = RulesState(load_game(game))
    certificate = certify(state, kept_search(state.game, Options(tt_mb=1)), source=game)
    path = tmp_path / "d.cert"
    write_certificate(path, certificate.header, certificate.parts)
    code = ("import sys; from gameproof.certify.check import check_certificate; "
            f"assert check_certificate({str(path)!r}).accepted; "
            "print(sorted(m for m in sys.modules if m.startswith(('gameproof.search', 'gameproof.framework.derived'))))")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "[]"


# --- the move field ---------------------------------------------------------------------------------


@given(st.integers(0, (1 << 63) - 2))
def test_the_move_field_is_the_narrowest_that_holds_every_move_and_no_move_above_them(pass_move):
    size = move_bytes(pass_move)
    assert size in (1, 2, 4, 8) and pass_move < no_move(size)
    assert size == 1 or pass_move >= no_move(size // 2)


def test_move_fields_of_today_and_of_issue_25():
    # the pass of a one-word placement game, of a 10x10 board (two words), of Amazons on 10x10 (three parts)
    assert [move_bytes(p) for p in (64, 128, 254, 255, 128 ** 3)] == [1, 1, 1, 2, 4]


def test_todays_certificates_keep_their_bytes(tmp_path):
    """Golden: the content of the certificate of notakto 3x3 as written before games from files and wider
    move fields (the sha256 of the gzip's content; the gzip also stores the file's name)."""
    state = RulesState(load_game("mnk-notakto:3,3,3"))
    path = tmp_path / "n.cert"
    certificate = certify(state, kept_search(state.game, Options(tt_mb=1)))
    write_certificate(path, certificate.header, certificate.parts)
    content = gzip.decompress(path.read_bytes())
    assert content.partition(b"\n")[0] == (b'{"format":"gameproof-certificate","version":1,"game":"mnk-notakto:3,3,3",'
                                           b'"moves":[],"played":"","value":"win","words":1,"word_bytes":2,"parts":1}')
    assert hashlib.sha256(content).hexdigest() == "d8da1319594e052c51bf9c3c43d6bf2c117c8b46e02217cb1f765bb94c123065"


@pytest.mark.parametrize("size", [2, 4, 8])
def test_a_wider_move_field_is_recorded_and_read_back(tmp_path, size):
    """The same proof with its moves in `size` bytes: the header says so, and the checker accepts it."""
    state = RulesState(load_game("mnk:4,3,3"))
    certificate = certify(state, kept_search(state.game, Options(tt_mb=1)))
    narrow = record_layout(certificate.header.words, certificate.header.word_bytes)
    wide = record_layout(certificate.header.words, certificate.header.word_bytes, size)
    header: Header = replace(certificate.header, move_bytes=size)
    parts = []
    for part, records in certificate.parts:
        unpacked = [(*r[:-1], header.no_move if r[-1] == certificate.header.no_move else r[-1])
                    for r in narrow.iter_unpack(records.read())]
        parts.append((part, b"".join(wide.pack(*r) for r in unpacked)))
    path = tmp_path / "w.cert"
    write_certificate(path, header, parts)
    assert header_of(path)["move_bytes"] == size
    with CertificateReader(path) as reader:
        assert reader.header == header and reader.layout.size == narrow.size + size - 1
    report = check_certificate(str(path))
    assert report.accepted and report.value is certificate.header.value


def test_rules_file_of_reads_the_content_hash(copied):
    assert RulesFile.of(str(copied)) == RulesFile(str(copied), sha256(copied))
    with pytest.raises(BadInput, match="is missing"):
        RulesFile.of(str(copied.with_name("gone.py")))
