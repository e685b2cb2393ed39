"""Harness semantics: outcomes, vacuity, covers, concrete replay, and what happens when things go wrong."""

from pathlib import Path

import pytest

from gameproof.errors import BadInput
from gameproof.logic import Outcome, any_bool, any_uint, assume, check, cover, ite, replay, verify
from gameproof.logic.harness import EXIT_CODES, load_harness

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
N = 65519 * 65521


def test_factoring_finds_the_factors_and_playback_confirms_them():
    report = check(load_harness(f"{EXAMPLES / 'factor.py'}::factor"))
    assert report.outcome is Outcome.COUNTEREXAMPLE
    a, b = report.inputs["a"], report.inputs["b"]
    assert a * b == N and {a, b} == {65519, 65521}
    events = replay(load_harness(f"{EXAMPLES / 'factor.py'}::factor"), report.inputs)
    assert [e.is_finding for e in events] == [True]


def test_true_properties_are_verified_and_contradictions_vacuous():
    assert check(load_harness(f"{EXAMPLES / 'factor.py'}::identities")).outcome is Outcome.VERIFIED
    assert check(load_harness(f"{EXAMPLES / 'factor.py'}::impossible")).outcome is Outcome.VACUOUS


def test_assumptions_apply_to_later_properties_only():
    def harness():
        x = any_uint(8, "x")
        verify(x != 200, "first")  # fails: no assumption yet
        assume(x < 100)
        verify(x != 200, "second")  # holds under x < 100

    report = check(harness)
    assert [p.outcome for p in report.properties] == [Outcome.COUNTEREXAMPLE, Outcome.VERIFIED]
    assert report.properties[0].inputs == {"x": 200}
    assert report.outcome is Outcome.COUNTEREXAMPLE


def test_cover_is_satisfied_by_a_witness_or_proven_unsatisfiable():
    def reachable():
        x = any_uint(16, "x")
        b = any_bool("b")
        cover(ite(b, x * 3, x) == 51, "reach 51")

    report = check(reachable)
    assert report.outcome is Outcome.SATISFIED and report.message == "cover 'reach 51': witness found"
    x, b = report.inputs["x"], report.inputs["b"]
    assert (x * 3 if b else x) % 65536 == 51

    def unreachable():
        x = any_uint(8, "x")
        cover((x * x) & 3 == 2, "a square that is 2 mod 4")

    report = check(unreachable)
    assert report.outcome is Outcome.UNSATISFIABLE and report.inputs is None
    assert report.message == ("cover 'a square that is 2 mod 4': no input that meets the assumptions before it "
                              "satisfies it")


def test_a_harness_reports_its_worst_property_whatever_its_kind():
    def mixed(broken: bool, coverable: bool):
        def harness():
            x = any_uint(8, "x")
            verify(x != 7 if broken else x == x, "verify")
            cover(x == 5 if coverable else x != x, "cover")

        return harness

    outcomes = {(broken, coverable): check(mixed(broken, coverable)) for broken in (False, True)
                for coverable in (False, True)}
    assert [[p.outcome for p in report.properties] for report in outcomes.values()] == [
        [Outcome.VERIFIED, Outcome.UNSATISFIABLE], [Outcome.VERIFIED, Outcome.SATISFIED],
        [Outcome.COUNTEREXAMPLE, Outcome.UNSATISFIABLE], [Outcome.COUNTEREXAMPLE, Outcome.SATISFIED]]
    assert [report.outcome for report in outcomes.values()] == [
        Outcome.UNSATISFIABLE, Outcome.SATISFIED, Outcome.COUNTEREXAMPLE, Outcome.COUNTEREXAMPLE]
    both = outcomes[False, True]
    assert both.inputs == {"x": 5} and both.message == "cover 'cover': witness found; all 2 properties succeed"
    assert outcomes[True, True].inputs == {"x": 7}


def test_witness_that_does_not_replay_is_an_error():
    def overflow():
        x = any_uint(8, "x")
        verify(x + 1 != 0, "wraps symbolically, not in Python")

    report = check(overflow)
    assert report.outcome is Outcome.ERROR and "replay" in report.message
    assert report.inputs == {"x": 255}


def test_harness_that_fails_only_on_plain_ints_is_an_error():
    def symbolic_only():
        x = any_uint(8, "x")
        width = x.width  # plain ints have no width
        verify(x != width)

    report = check(symbolic_only)
    assert report.outcome is Outcome.ERROR and "AttributeError" in report.message


def test_harness_that_branches_on_a_symbol_is_an_error():
    def branches():
        x = any_uint(8, "x")
        if x > 3:
            verify(x != 0)

    report = check(branches)
    assert report.outcome is Outcome.ERROR and "ite" in report.message


def test_time_limit_gives_unknown():
    def hard():
        x, y = any_uint(24, "x"), any_uint(24, "y")
        verify(x * y == y * x, "commutes")

    report = check(hard, seconds=0.5)
    assert report.outcome is Outcome.UNKNOWN


def test_outcomes_are_ordered_and_harness_helpers_need_a_context():
    assert (Outcome.VERIFIED < Outcome.SATISFIED < Outcome.UNSATISFIABLE < Outcome.COUNTEREXAMPLE < Outcome.VACUOUS
            < Outcome.UNKNOWN < Outcome.ERROR)
    assert [EXIT_CODES[outcome] for outcome in Outcome] == [0, 0, 1, 1, 1, 3, 2]
    with pytest.raises(RuntimeError, match="gameproof check"):
        any_uint(8)


def test_duplicate_input_names_are_rejected():
    def twice():
        any_uint(8, "x")
        any_uint(8, "x")
        verify(True)

    assert check(twice).outcome is Outcome.ERROR


@pytest.mark.parametrize("spec, problem", [
    ("missing.py::f", "no such file"),
    (f"{EXAMPLES / 'factor.py'}::nope", "no function"),
    (f"{EXAMPLES / 'factor.py'}", "FILE.py::FUNCTION"),
])
def test_loading_bad_targets(spec, problem):
    with pytest.raises(BadInput, match=problem):
        load_harness(spec)


def test_import_errors_are_bad_input(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import no_such_module_here\n")
    with pytest.raises(BadInput, match="ModuleNotFoundError"):
        load_harness(f"{broken}::f")
