"""Certificates of game values: built from df-pn, checked by the independent checker, tampered ones rejected."""

import json
import os
import subprocess
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.certify.check import Images, check_certificate
from gameproof.certify.records import CertificateReader, Goal, Part, Value, no_move, record_layout, write_certificate
from gameproof.cli import main
from gameproof.errors import BadInput
from gameproof.framework.declaration import DRAW, LOSS, ONGOING, WIN
from gameproof.games.mnk import reference
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search.certificate import certify
from gameproof.search.dfpn import Options
from gameproof.search.solve import kept_search

GAMES = {  # game -> value for the first player from the empty board
    "mnk-misere:4,4,3": Value.LOSS,
    "mnk-misere:3,3,3": Value.DRAW,
    "mnk:3,3,3": Value.DRAW,
    "mnk:4,3,3": Value.WIN,
    "mnk-notakto:3,3,3": Value.WIN,
    "othello:4": Value.LOSS,  # with forced passes
}


@cache
def built(name: str, moves: str = ""):
    state = RulesState(load_game(name), moves)
    return certify(state, kept_search(state.game, Options(tt_mb=16)))


def write(path: Path, certificate) -> Path:
    write_certificate(path, certificate.header, certificate.parts)
    return path


def load(path: Path):
    """The header and each part with its records, for tampering."""
    with CertificateReader(path) as reader:
        return reader.header, [(part, list(records)) for part, records in reader.parts()]


def save(path: Path, header, parts) -> Path:
    layout = record_layout(header.words, header.word_bytes)
    write_certificate(path, header, [(replace(part, nodes=len(records)), b"".join(layout.pack(*r) for r in records))
                                     for part, records in parts])
    return path


@pytest.mark.parametrize("name", GAMES)
def test_certificates_of_small_games_are_accepted(tmp_path, name):
    certificate = built(name)
    assert certificate.header.value is GAMES[name]
    assert len(certificate.parts) == (2 if GAMES[name] is Value.DRAW else 1)
    report = check_certificate(str(write(tmp_path / "c.cert", certificate)))
    assert report.accepted, report.finding
    assert report.value is GAMES[name] and report.to_move == 0
    assert [p.checked for p in report.parts] == [p.nodes for p, _ in certificate.parts]


def test_a_position_after_moves_and_the_parts_claimed():
    certificate = built("mnk-misere:4,4,3", "b2 c3")  # after two moves X is to move again: still lost
    assert certificate.header.value is Value.LOSS and certificate.header.played == "b2 c3"
    assert [(p.claimant, p.goal) for p, _ in certificate.parts] == [(1, Goal.WIN)]
    draw = built("mnk:3,3,3")
    assert [(p.claimant, p.goal) for p, _ in draw.parts] == [(0, Goal.DRAW), (1, Goal.DRAW)]


def test_the_misere_4x4_certificate_stays_small():
    assert built("mnk-misere:4,4,3").nodes < 20_000  # 16,417 when written


def test_a_walk_reports_its_progress_even_while_it_keeps_asking_df_pn():
    """Positions written and the nodes df-pn spent proving again what a small table lost, every 16,384 positions
    entered (a walk that asked df-pn more often than that once reported nothing at all)."""
    state = RulesState(load_game("mnk-misere:4,4,3"))
    reports = []
    certificate = certify(state, kept_search(state.game, Options(tt_mb=0.25)), lambda *now: reports.append(now))
    written = sum(part.nodes for part, _ in certificate.parts)
    assert reports and all(0 < positions <= written and reproved > 0 for positions, reproved in reports)


# --- tampering --------------------------------------------------------------------------------------


@pytest.fixture
def misere(tmp_path):
    """The misère 4×4 certificate (second player wins), its header and its records."""
    path = write(tmp_path / "misere.cert", built("mnk-misere:4,4,3"))
    header, parts = load(path)
    return path, header, parts


def rejected(path: Path):
    report = check_certificate(str(path))
    assert not report.accepted
    return report.finding


def test_a_missing_position_is_found_and_named(misere, tmp_path):
    _, header, [(part, records)] = misere
    finding = rejected(save(tmp_path / "t.cert", header, [(part, records[1:])]))  # the first position written
    assert "not in the certificate" in finding.message and finding.node is not None
    assert finding.board is not None and "a b c d" in finding.board and "to move" in finding.position


def test_a_reply_removed(misere, tmp_path):
    _, header, [(part, records)] = misere
    game = load_game(header.game)
    rules, images = game.rules, Images(game)
    root = records[-1]  # the empty board, X to move
    reply = tuple(rules.play(*root[:2], 1))  # X plays a1
    kept = [r for r in records if images.key(r[:2], r[2]) != images.key(reply, 1)]
    assert len(kept) == len(records) - 1
    finding = rejected(save(tmp_path / "t.cert", header, [(part, kept)]))
    assert "the reply a1 leads to a position that is not in the certificate" in finding.message
    assert finding.node == len(kept) and finding.position.startswith("-" * 16)


def test_a_chosen_move_changed_to_a_losing_one(misere, tmp_path):
    _, header, [(part, records)] = misere
    rules = load_game(header.game).rules
    for index, (mine, theirs, to_move, move) in enumerate(records):
        if to_move != 1:
            continue
        legal = rules.legal(mine, theirs)
        losing = [b for b in range(16) if legal >> b & 1 and not rules.legal(*rules.play(mine, theirs, 1 << b))]
        if losing:  # O completes three in a row: O loses at once (misère)
            break
    tampered = list(records)
    tampered[index] = (mine, theirs, to_move, losing[0])
    finding = rejected(save(tmp_path / "t.cert", header, [(part, tampered)]))
    assert "leads to a finished game that O loses" in finding.message and finding.node == index + 1


def test_a_chosen_move_changed_to_an_illegal_one(misere, tmp_path):
    _, header, [(part, records)] = misere
    index, (mine, theirs, to_move, move) = next((i, r) for i, r in enumerate(records) if r[2] == 1 and (r[0] | r[1]))
    occupied = ((mine | theirs) & -(mine | theirs)).bit_length() - 1
    tampered = records[:index] + [(mine, theirs, to_move, occupied)] + records[index + 1:]
    assert "is not legal" in rejected(save(tmp_path / "t.cert", header, [(part, tampered)])).message


def test_a_position_changed(misere, tmp_path):
    _, header, [(part, records)] = misere
    mine, theirs, to_move, move = records[0]
    swapped = records[:]
    swapped[0] = (theirs, mine, to_move, move)  # the same stones, the other owners
    assert rejected(save(tmp_path / "t.cert", header, [(part, swapped)])).board is not None


def test_a_wrong_root(misere, tmp_path):
    _, header, parts = misere
    game = load_game(header.game)
    rules, images = game.rules, Images(game)
    finding = rejected(save(tmp_path / "t.cert", replace(header, moves=(5,), played="b2"), parts))
    assert "claims loss for O (to move), but its parts prove win" in finding.message  # X's b2 is covered: O wins
    stored = {images.key(r[:2], r[2]) for r in parts[0][1]}
    after_b2 = tuple(rules.play(0, 0, 1 << 5))
    elsewhere = next(m for m in range(16) if m != 5 and images.key(tuple(rules.play(*after_b2, 1 << m)), 0) not in stored)
    finding = rejected(save(tmp_path / "t.cert", after(header, 5, elsewhere), parts))
    assert "root is not among its positions" in finding.message
    finding = rejected(save(tmp_path / "t.cert", after(header, 5, 5), parts))
    assert "not legal" in finding.message


def after(header, *moves: int):
    """The header with the root after `moves` (its `played` naming them, as it must)."""
    names = RulesState(load_game(header.game))
    return replace(header, moves=moves, played=" ".join(names.move_name(move) for move in moves))


def test_a_wrong_claimed_value(tmp_path):
    draw = write(tmp_path / "draw.cert", built("mnk:3,3,3"))
    header, parts = load(draw)
    assert "claims win" in rejected(save(tmp_path / "t.cert", replace(header, value=Value.WIN), parts)).message
    one_part = rejected(save(tmp_path / "t.cert", replace(header, parts=1), parts[:1]))
    assert "between draw and win" in one_part.message


def test_a_truncated_or_malformed_file_is_bad_input(misere, tmp_path):
    path = misere[0]
    data = path.read_bytes()
    for cut in (0, 10, len(data) // 2, len(data) - 3):
        (tmp_path / "cut.cert").write_bytes(data[:cut])
        with pytest.raises(BadInput):
            check_certificate(str(tmp_path / "cut.cert"))
    header, [(part, records)] = load(path)
    layout = record_layout(header.words, header.word_bytes)
    short = [(replace(part, nodes=len(records) + 1), b"".join(layout.pack(*r) for r in records))]
    write_certificate(tmp_path / "short.cert", header, short)
    with pytest.raises(BadInput, match="truncated"):
        check_certificate(str(tmp_path / "short.cert"))
    (tmp_path / "text.cert").write_text("not a certificate\n")
    with pytest.raises(BadInput):
        check_certificate(str(tmp_path / "text.cert"))
    for game in ("no-such-game", "mnk:9,9,3", "evil.py", "mnk-notakto:4,4,3"):  # the last: one word, not two
        with pytest.raises(BadInput):
            check_certificate(str(save(tmp_path / "game.cert", replace(header, game=game), [(part, records)])))


# --- soundness: a naive certificate, built apart, is accepted exactly when its claim is true -----------


def reference_value(game, words, to_move) -> int:
    """+1/0/-1 for the side to move, by the m,n,k reference minimax."""
    p = game.parameters
    return reference.value(RulesState.at(game, words, to_move).marks(), p["rows"], p["cols"], p["k"],
                           {"mnk": "normal", "mnk-misere": "misere", "mnk-notakto": "notakto"}[game.spec.name])


def naive_part(game, root, claimant: int, goal: Goal) -> list[tuple[int, ...]]:
    """Records of a part with no symmetry merging: the claimant plays a best move by the reference minimax
    (any move where none reaches the goal), the other side every move."""
    rules, records, seen = game.rules, [], set()

    def outcome(words, to_move) -> int | None:
        """The finished game's value for the claimant, or None while it goes on."""
        if rules.legal(*words):
            return None
        status = rules.result(*words)
        assert status != ONGOING  # m,n,k games never pass
        return 0 if status == DRAW else (1 if (status == WIN) == (to_move == claimant) else -1)

    def visit(words, to_move):
        if (words, to_move) in seen:
            return
        seen.add((words, to_move))
        legal = rules.legal(*words)
        moves = [b for b in range(64) if legal >> b & 1]
        children = {m: tuple(rules.play(*words, 1 << m)) for m in moves}
        if to_move == claimant:
            def worth(m):
                done = outcome(children[m], 1 - to_move)
                return done if done is not None else -reference_value(game, children[m], 1 - to_move)
            chosen = max(moves, key=worth)
            moves = [chosen]
        for m in moves:
            if outcome(children[m], 1 - to_move) is None:
                visit(children[m], 1 - to_move)
        records.append((*words, to_move, chosen if to_move == claimant else no_move(1)))

    visit(*root)
    return records


CLAIMS = {Value.WIN: lambda me: [(me, Goal.WIN)], Value.LOSS: lambda me: [(1 - me, Goal.WIN)],
          Value.DRAW: lambda me: [(me, Goal.DRAW), (1 - me, Goal.DRAW)]}


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(["mnk:3,3,3", "mnk-misere:3,3,3", "mnk-notakto:3,3,3", "mnk:3,4,3"]),
       picks=st.lists(st.integers(0, 11), max_size=5), claimed=st.sampled_from(list(Value)))
def test_the_checker_accepts_a_claim_exactly_when_it_is_true(tmp_path_factory, name, picks, claimed):
    game = load_game(name)
    state = RulesState(game)
    for pick in picks:
        if state.is_over() or not state.legal_moves():
            break
        moves = state.legal_moves()
        state.play(moves[pick % len(moves)])
    if state.is_over():
        return
    truth = (Value.LOSS, Value.DRAW, Value.WIN)[reference_value(game, state.words, state.to_move) + 1]
    parts = [(Part(claimant, goal, 0), naive_part(game, (state.words, state.to_move), claimant, goal))
             for claimant, goal in CLAIMS[claimed](state.to_move)]
    header = built("mnk:3,3,3").header
    header = replace(header, game=name, moves=tuple(state.history), played=state.record, value=claimed,
                     words=game.words, parts=len(parts))
    path = save(tmp_path_factory.mktemp("naive") / "c.cert", header, parts)
    report = check_certificate(str(path))
    assert report.accepted == (claimed is truth), report.finding


# --- the command line -------------------------------------------------------------------------------


def test_solve_writes_a_certificate_that_certificate_check_accepts(tmp_path, capsys):
    path = tmp_path / "ttt.cert"
    assert main(["solve", "mnk:3,3,3", "--certificate", str(path), "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["value"] == "draw" and solved["certificate"]["path"] == str(path)
    assert [p["goal"] for p in solved["certificate"]["parts"]] == ["draw", "draw"]
    assert main(["certificate", "check", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["accepted"] and checked["value"] == "draw" and checked["finding"] is None
    assert main(["certificate", "check", str(path)]) == 0
    assert "ACCEPTED: draw for X (to move)" in capsys.readouterr().out
    assert sorted(os.listdir(tmp_path)) == ["ttt.cert"]  # no temporary file left behind
    (tmp_path / "plain").write_bytes(b"")
    assert path.stat().st_mode == (tmp_path / "plain").stat().st_mode  # permissions as for any new file


def test_mnk_solve_writes_certificates_too(tmp_path, capsys):
    path = tmp_path / "n.cert"
    assert main(["mnk", "solve", "--rows", "3", "--cols", "3", "--k", "3", "--notakto", "--certificate", str(path)]) == 0
    assert "certificate:" in capsys.readouterr().out
    assert main(["certificate", "check", str(path), "--quiet"]) == 0


@pytest.mark.parametrize(("name", "most"), [("mnk:4,4,3", 250), ("hex:5", 3500)])
def test_the_claimant_keeps_the_move_whose_proof_took_the_least_work(tmp_path, capsys, name, most):
    """After a solve of every first move the table proves several winning moves at the root: the certificate keeps
    the cheapest (mnk:4,4,3 214 positions, hex:5 3,108; the first in move order gave 498 and 5,515)."""
    path = tmp_path / "c.cert"
    assert main(["solve", name, "--certificate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["certificate"]["nodes"] <= most
    assert main(["certificate", "check", str(path), "--quiet"]) == 0


def test_a_rejected_certificate_exits_1_and_names_the_position(misere, tmp_path, capsys):
    _, header, [(part, records)] = misere
    path = save(tmp_path / "t.cert", header, [(part, records[1:])])
    assert main(["certificate", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "REJECTED: part 1 (O wins), position" in out and "a b c d" in out and "position: " in out


@pytest.mark.parametrize("argv", [
    ["solve", "mnk:3,3,3", "--certificate", "/no/such/folder/c.cert"],
    ["solve", "connect4:4,4", "--certificate", "{tmp}/c.cert"],
    ["solve", "mnk:3,3,3", "--moves", "a1 b1 a2 b2 a3", "--certificate", "{tmp}/c.cert"],
    ["certificate", "check", "{tmp}/missing.cert"],
    ["certificate", "check", "{tmp}"],
])
def test_bad_input_is_one_line_exit_2_and_nothing_is_written(tmp_path, capsys, argv):
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("gameproof: error:")
    assert os.listdir(tmp_path) == []


def test_the_checker_loads_nothing_of_the_search(tmp_path):
    path = write(tmp_path / "c.cert", built("mnk:4,3,3"))
    code = ("import sys; from gameproof.certify.check import check_certificate; "
            f"assert check_certificate({str(path)!r}).accepted; "
            "print(sorted(m for m in sys.modules if m.startswith(('gameproof.search', 'gameproof.framework.derived'))))")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", ["mnk:3,3,3", "mnk-misere:5,5,4", "hex:9", "breakthrough:6,5"])
def test_the_checkers_keys_tell_positions_apart_exactly_as_the_games_keys_do(name):
    """The checker's canonical keys (its own, from the board's geometry) against the kernels' keys of the game:
    the same classes of positions, over random games (every position of 3×3, where symmetric ones meet)."""
    import random

    game = load_game(name)
    images = Images(game)
    rng = random.Random(11)
    seen: dict[int, int] = {}  # the game's key -> the checker's
    mine: dict[int, int] = {}  # the checker's -> the game's
    for _ in range(300):
        state = RulesState(game)
        while not state.is_over():
            ours, theirs = images.key(state.words, state.to_move), state.key
            assert seen.setdefault(theirs, ours) == ours and mine.setdefault(ours, theirs) == theirs, state
            state.play(rng.choice(state.legal_moves()))
    assert len(seen) > 400  # 3×3: most of its 765 classes of positions


@pytest.mark.parametrize("name", ["mnk:3,4,3", "mnk-misere:4,4,3", "hex:9", "breakthrough:6,5", "connect4:5,4"])
def test_the_checkers_images_are_the_positions_each_symmetry_maps_a_position_to(name):
    """`Images.others` (lanes of one big integer) against each symmetry's cell permutation applied cell by cell:
    every distinct image but the position itself, on boards of one word and of two (Hex 9×9: 81 cells)."""
    import random

    from gameproof.framework.declaration import joined_words, split_words

    game = load_game(name)
    images = Images(game)
    rng = random.Random(5)
    for _ in range(40):
        state = RulesState(game)
        while not state.is_over():
            layers = game.layer_sets(state.words)
            expected = set()
            for symmetry, _ in images.group:
                permutation = game.board.permutation(symmetry)
                mapped = [sum(1 << permutation[cell] for cell in range(layer.bit_length()) if layer >> cell & 1)
                          for layer in layers]
                expected.add(tuple(word for layer in mapped for word in split_words(layer, game.layer_words)))
            found = [image for _, image in images.others(state.words)]
            assert len(found) == len(set(found)) and set(found) | {state.words} == expected, state
            assert all(joined_words(image) != joined_words(state.words) for image in found)
            state.play(rng.choice(state.legal_moves()))
