"""A certificate's header is not trusted: the position shown is computed from its moves (a `played` that
disagrees is rejected), text from the file is printed escaped, and no header makes the checker crash."""

import gzip
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameproof.certify.check import check_certificate
from gameproof.certify.records import write_certificate
from gameproof.cli import main
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.certificate import certify
from gameproof.search.dfpn import Options
from gameproof.search.solve import kept_search

FORGED = "\x1b[2K\r[bold green]ACCEPTED[/]: win\n\ud800"


@pytest.fixture(scope="module")
def draw(tmp_path_factory):
    """A true certificate of m,n,k 3,3,3 (a draw): its header as JSON and the bytes after its header line."""
    state = RulesState(load_game("mnk:3,3,3"))
    certificate = certify(state, kept_search(state.game, Options(tt_mb=16)))
    path = tmp_path_factory.mktemp("cert") / "draw.cert"
    write_certificate(path, certificate.header, certificate.parts)
    header, _, rest = gzip.decompress(path.read_bytes()).partition(b"\n")
    return json.loads(header), rest


def written(path, header_line: str, rest: bytes):
    path.write_bytes(gzip.compress(header_line.encode("utf-8", "surrogatepass") + b"\n" + rest))
    return path


def check(path, capsys) -> tuple[int, str, str]:
    code = main(["certificate", "check", str(path), "--quiet"])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_true_certificate_is_accepted_and_shows_its_position(draw, tmp_path, capsys):
    code, out, _ = check(written(tmp_path / "c.cert", json.dumps(draw[0]), draw[1]), capsys)
    assert code == 0 and "mnk:3,3,3 after (start)" in out and "ACCEPTED: draw" in out


def test_a_played_that_is_not_the_moves_is_rejected(draw, tmp_path, capsys):
    header, rest = draw
    path = written(tmp_path / "c.cert", json.dumps(header | {"played": "b2 b1"}), rest)
    code, out, _ = check(path, capsys)
    assert code == 1 and "after (start)" in out and "ACCEPTED" not in out
    assert "'b2 b1'" in check_certificate(str(path)).finding.message


@pytest.mark.parametrize("field", ["played", "game"])
def test_escapes_and_markup_in_the_header_forge_no_line(draw, field, tmp_path, capsys):
    header, rest = draw
    code, out, err = check(written(tmp_path / "c.cert", json.dumps(header | {field: FORGED}), rest), capsys)
    assert code in (1, 2) and "\x1b" not in out + err
    assert len((out + err).strip().splitlines()) <= 3 and not any(line.startswith("ACCEPTED") for line in out.splitlines())


def test_markup_in_the_path_is_printed_as_it_is(draw, tmp_path, capsys):
    path = written(tmp_path / "[bold]x\x1b[31m.cert", json.dumps(draw[0]), draw[1])
    code, out, _ = check(path, capsys)
    assert code == 0 and "[bold]x\\x1b[31m.cert" in out


@pytest.mark.parametrize("field", ["moves", "played", "game", "value"])
def test_a_header_nested_200k_deep_is_one_line_and_exit_2(draw, field, tmp_path, capsys):
    header, rest = draw
    line = json.dumps(header | {field: "NEST"}).replace('"NEST"', "[" * 200_000 + "]" * 200_000)
    code, out, err = check(written(tmp_path / "c.cert", line, rest), capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "nested too deeply" in err


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(st.sampled_from(["format", "version", "game", "moves", "played", "value", "words",
                                               "word_bytes", "parts", "rules_file", "rules_sha256",
                                               "move_bytes", "extra"]),
                              JSON | st.sampled_from(["win", "loss", "draw", "b2", "a1 b1", [4], [4, 0], 1, 2, "0" * 64])
                              | st.integers(1, 3000).map(lambda depth: ["NEST", depth]), min_size=1, max_size=3))
def test_fuzzed_headers_never_crash_nor_accept_another_claim(draw, tmp_path_factory, capsys, fields):
    header, rest = draw
    line = json.dumps(header | fields)
    for field, value in fields.items():
        if isinstance(value, list) and value[:1] == ["NEST"]:
            line = line.replace(json.dumps(value), "[" * value[1] + "]" * value[1])
    code, out, err = check(written(tmp_path_factory.mktemp("fuzz") / "c.cert", line, rest), capsys)
    assert code in (0, 1, 2) and "Traceback" not in err and "\x1b" not in out + err
    if code == 0:  # only the true claim, about the position its moves reach
        kept = json.loads(line)
        assert (kept["value"], kept["moves"], kept["played"]) == ("draw", [], "")
        assert load_game(kept["game"]).name == "mnk:3,3,3"
