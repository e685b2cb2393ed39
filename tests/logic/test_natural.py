"""@natural: plain Python semantics on concrete values, the same answers on symbolic ones, clear errors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.logic import Bit, Word, any_uint, check, cover, verify
from gameproof.logic.circuit import Circuit, lit_value
from gameproof.logic.natural import NaturalError, natural

WIDTH = 4


def classify(x):
    if x > 12:
        kind = 3
    elif x > 5 and x != 8:
        kind = 2
    elif not x:
        kind = 0
    else:
        kind = 1
    return kind


def first_match(x):
    for k in range(1, 16, 3):
        if x == k or x == k + 1:
            return k
    else:
        found = 0
    return found


def chains(x):
    return 2 < x <= 9 and x not in (4, 6) or x in range(12, 14)


def quantifiers(x):
    bits = [(x >> i) & 1 for i in range(WIDTH)]
    return all(b == 1 for b in bits if True) or any(b == 1 and i == 2 for i, b in enumerate(bits))


def conditional(x):
    y = x + 1 if x < 3 else x - 1
    return y * 2 if y & 1 else y


def nested_early_returns(x):
    if x < 8:
        if x & 1:
            return 1
        total = 0
    else:
        total = 2
    for step in range(2):
        if x == 9 + step:
            return 4
        total = total + 1
    return total


def loops_and_helpers(x):
    def bump(v):
        if v > 10:
            return v - 10
        return v + 1
    k = 0
    while k < 3:
        try:
            if bump(x) == k + 5:
                return k
        except ZeroDivisionError:
            pass
        k += 1
    for j in [1, 2]:
        if j == 3:  # a concrete break
            break
    else:
        return bump(bump(x))
    return 0


def extremes(x):
    return max(x, 6) - min([x | 1, 9, x]) + max(2, 3)


FUNCTIONS = [classify, first_match, chains, quantifiers, conditional, nested_early_returns, extremes,
             loops_and_helpers]


def symbolic_table(function):
    """The function's value on every WIDTH-bit input, read off the circuit it traces to."""
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(WIDTH)])
    out = function(x)
    lanes = 1 << WIDTH
    inputs = {x.bits[i] >> 1: sum(1 << j for j in range(lanes) if j >> i & 1) for i in range(WIDTH)}
    values = circuit.simulate(inputs, lanes)
    if isinstance(out, Bit):
        out = Word(circuit, [out.lit])
    if isinstance(out, (bool, int)):
        return [int(out)] * lanes
    words = [lit_value(values, lit, lanes) for lit in out.bits]
    return [sum(((w >> j) & 1) << i for i, w in enumerate(words)) for j in range(lanes)]


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_concrete_semantics_are_unchanged(function):
    rewritten = natural(function)
    for x in range(40):
        assert rewritten(x) == function(x)
        assert type(rewritten(x)) is type(function(x))


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_symbolic_agrees_with_concrete_on_every_input(function):
    mask = (1 << WIDTH) - 1
    expected = [int(function(x)) & mask for x in range(1 << WIDTH)]
    assert [v & mask for v in symbolic_table(natural(function))] == expected


def short_circuit(a, b, log):
    def note(v):
        log.append(v)
        return v
    return (note(a) and note(b)) or note(0) or note(a + b)


@settings(max_examples=50, deadline=None)
@given(st.integers(-3, 3), st.integers(-3, 3))
def test_and_or_keep_values_and_short_circuits(a, b):
    expected_log, log = [], []
    assert natural(short_circuit)(a, b, log) == short_circuit(a, b, expected_log)
    assert log == expected_log


def unbound_after_if(flag):
    if flag:
        value = 1
    return value


def closes_over():
    return scale * 2


def test_unbound_variables_and_closures_behave_as_python():
    rewritten = natural(unbound_after_if)
    assert rewritten(True) == 1
    with pytest.raises(UnboundLocalError):
        rewritten(False)
    scale = 3

    def local():
        return scale * 2

    assert natural(local)() == 6


tier = natural(nested_early_returns)


@natural
def _harness():
    x = any_uint(8, "x")
    verify(tier(x) in (1, 2, 4), "three tiers")
    cover(tier(x) == 1 and x > 4, "an odd number from 5 to 7")


def test_check_and_replay_run_a_natural_harness():
    report = check(_harness)
    assert [p.outcome.label for p in report.properties] == ["verified", "satisfied"]
    assert report.inputs["x"] in (5, 7)


def symbolic_while(x):
    while x:
        x = 0


def symbolic_break(x):
    for k in range(3):
        if x == k:
            break


def symbolic_filter(x):
    return [k for k in range(3) if x == k]


def symbolic_mutation(x):
    cells = [0, 0]
    if x == 1:
        cells[0] = 1
    return cells


def symbolic_mismatch(x):
    if x == 1:
        return "one"
    return x


@pytest.mark.parametrize("function, message", [
    (symbolic_while, r"line \d+: a `while` loop needs a concrete condition"),
    (symbolic_break, r"line \d+: an `if` containing break or continue needs a concrete condition"),
    (symbolic_filter, r"line \d+: a comprehension filter needs a concrete condition"),
    (symbolic_mutation, r"line \d+: an `if` on a symbolic condition assigns to `cells\[0\]`"),
    (symbolic_mismatch, r"line \d+: the return value .* str 'one'"),
])
def test_what_cannot_be_symbolic_names_construct_and_line(function, message):
    rewritten = natural(function)
    rewritten(1)  # concrete values still run
    circuit = Circuit()
    with pytest.raises(NaturalError, match=message):
        rewritten(Word(circuit, [circuit.new_input() for _ in range(WIDTH)]))


def uses_global():
    global WIDTH


def generator():
    yield 1


def walrus(x):
    return (y := x)


@pytest.mark.parametrize("function, message", [
    (uses_global, "cannot use `global`"),
    (generator, "cannot be generators"),
    (walrus, "cannot use `:=`"),
])
def test_unsupported_definitions_are_refused_at_decoration(function, message):
    with pytest.raises(NaturalError, match=message):
        natural(function)
    with pytest.raises(NaturalError, match="plain function"):
        natural(len)


def test_line_numbers_point_into_the_original_file():
    import traceback

    def fails(x):
        if x:
            return 1 // 0
        return 0

    try:
        natural(fails)(1)
    except ZeroDivisionError as error:
        frame = traceback.extract_tb(error.__traceback__)[-1]
        assert frame.filename == __file__ and frame.line == "return 1 // 0"


@natural
def _decorated_while(x):
    while x:  # the line the error names
        x = 0


def test_errors_name_the_line_of_a_decorated_function():
    import inspect

    line = inspect.getsourcelines(_decorated_while.__wrapped__)[1] + 2
    circuit = Circuit()
    with pytest.raises(NaturalError, match=f"line {line}: a `while` loop"):
        _decorated_while(Word(circuit, [circuit.new_input() for _ in range(WIDTH)]))
