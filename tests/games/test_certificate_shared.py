"""A certificate's check shared among processes (`certificate check --workers N`) holds every record to what
the check in one process holds it to: the same verdict, the same finding, on sound and on tampered files."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameproof.certify import check
from gameproof.certify.check import check_certificate, shares
from gameproof.cli import main

sys.path.insert(0, str(Path(__file__).parent))
from test_certificate import built, load, save, write  # noqa: E402


@pytest.fixture
def shared(monkeypatch):
    """Every part shared, however small."""
    monkeypatch.setattr(check, "SHARED_LEAST", 1)


@given(st.integers(1, 10**9), st.integers(1, 16))
def test_the_stretches_cover_the_records_in_order_and_take_about_as_long(nodes, workers):
    stretches = shares(nodes, workers)
    assert stretches[0][0] == 0 and stretches[-1][1] == nodes
    assert all(first < last for first, last in stretches)
    assert all(a[1] == b[0] for a, b in zip(stretches, stretches[1:]))
    assert len(stretches) <= min(workers, nodes)
    costs = [first * check._KEY_COST + last - first for first, last in stretches]
    assert max(costs) - min(costs) <= 2 or len(stretches) < min(workers, nodes)


@pytest.mark.parametrize("name", ["mnk-misere:4,4,3", "mnk:3,3,3"])  # one part (a loss), two (a draw)
def test_a_sound_certificate_is_accepted_with_every_position_checked(shared, tmp_path, name):
    certificate = built(name)
    path = str(write(tmp_path / "c.cert", certificate))
    alone, together = check_certificate(path), check_certificate(path, workers=3)
    assert together.accepted and together.value is alone.value is certificate.header.value
    assert [p.checked for p in together.parts] == [p.nodes for p, _ in certificate.parts]


def tampered_copies(tmp_path):
    """The misère 4×4 certificate with one record dropped in each stretch, the root dropped, and a chosen move
    changed near the end."""
    path = write(tmp_path / "misere.cert", built("mnk-misere:4,4,3"))
    header, [(part, records)] = load(path)
    for first, last in shares(len(records), 3):
        at = (first + last) // 2
        yield save(tmp_path / f"without-{at}.cert", header, [(part, records[:at] + records[at + 1:])])
    yield save(tmp_path / "rootless.cert", header, [(part, records[:-1])])
    index = max(i for i, r in enumerate(records) if r[2] == 1 and (r[0] | r[1]))
    mine, theirs, to_move, move = records[index]
    occupied = ((mine | theirs) & -(mine | theirs)).bit_length() - 1
    yield save(tmp_path / "illegal.cert", header, [(part, records[:index] + [(mine, theirs, to_move, occupied)]
                                                   + records[index + 1:])])


def test_a_tampered_certificate_gets_the_finding_of_the_check_in_one_process(shared, tmp_path):
    for path in tampered_copies(tmp_path):
        alone, together = check_certificate(str(path)), check_certificate(str(path), workers=3)
        assert not alone.accepted, path
        assert together.finding == alone.finding, path


def test_the_command_shares_the_check_and_refuses_a_bad_worker_count(shared, tmp_path, capsys):
    path = str(write(tmp_path / "c.cert", built("mnk-misere:4,4,3")))
    assert main(["certificate", "check", path, "--workers", "2", "--quiet"]) == 0
    assert "ACCEPTED" in capsys.readouterr().out
    assert main(["certificate", "check", path, "--workers", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--workers must be between 1 and" in err and len(err.splitlines()) == 1


def test_a_truncated_certificate_is_bad_input_from_the_workers_too(shared, tmp_path, capsys):
    path = write(tmp_path / "c.cert", built("mnk-misere:4,4,3"))
    data = gzip.decompress(path.read_bytes())
    cut = tmp_path / "cut.cert"
    cut.write_bytes(gzip.compress(data[: len(data) - 1000]))
    assert main(["certificate", "check", str(cut), "--workers", "2", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "truncated" in err and len(err.splitlines()) == 1
