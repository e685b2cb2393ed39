"""The tracer never guesses: supported Python on small words agrees with brute force, the rest is refused."""

from __future__ import annotations

import itertools
import linecache
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameproof.logic import Word, any_uint, check, verify
from gameproof.logic.circuit import Circuit, lit_value
from gameproof.logic.tseitin import tseitin
from gameproof.logic.harness import Outcome
from gameproof.logic.natural import guard, natural
from gameproof.logic.solvers import open_solver
from gameproof.logic.untraceable import Untraceable

WIDTH = 4
MASK = (1 << WIDTH) - 1

# --- a grammar of supported constructs: expression trees, printed as Python and evaluated on ints ----------


@dataclass(frozen=True)
class Node:
    kind: str
    parts: tuple = ()


WORD_OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
            "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b}
COMPARISONS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
               "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
VARIABLES = ("x", "y", "r")


def words(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(st.sampled_from(VARIABLES).map(lambda v: Node("var", (v,))),
                     st.integers(0, MASK).map(lambda c: Node("word", (c,))))
    if depth == 0:
        return leaf
    smaller = words(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(sorted(WORD_OPS)), smaller, smaller).map(lambda t: Node("op", t)),
        st.tuples(st.sampled_from(sorted(WORD_OPS)), smaller, st.integers(0, 3 * MASK)).map(lambda t: Node("opint", t)),
        smaller.map(lambda w: Node("invert", (w,))),
        st.tuples(st.sampled_from(("<<", ">>")), smaller, st.integers(0, WIDTH + 1)).map(lambda t: Node("shift", t)),
        st.tuples(st.sampled_from(("<<", ">>")), smaller, smaller).map(lambda t: Node("shiftw", t)),
        st.tuples(bits(depth - 1), smaller, smaller).map(lambda t: Node("ifexp", t)),
        st.tuples(st.sampled_from(("and", "or")), smaller, smaller).map(lambda t: Node("wordbool", t)),
        st.tuples(st.sampled_from(("min", "max")), smaller, smaller).map(lambda t: Node("extreme", t)),
    )


def bits(depth: int) -> st.SearchStrategy[Node]:
    operand = words(max(depth - 1, 0))
    compare = st.tuples(st.sampled_from(sorted(COMPARISONS)), operand, operand).map(lambda t: Node("cmp", t))
    compare_int = st.tuples(st.sampled_from(sorted(COMPARISONS)), operand, st.integers(1, MASK)).map(
        lambda t: Node("cmpint", t))
    member = st.tuples(operand, operand, operand).map(lambda t: Node("member", t))
    if depth == 0:
        return st.one_of(compare, compare_int, member)
    smaller = bits(depth - 1)
    return st.one_of(compare, compare_int, member, operand.map(lambda w: Node("notword", (w,))),
                     st.tuples(st.sampled_from(("and", "or")), smaller, smaller).map(lambda t: Node("bool", t)),
                     smaller.map(lambda b: Node("not", (b,))))


def source(node: Node) -> str:
    """The node as Python over Words (constants are Word.constant or plain ints)."""
    k, p = node.kind, node.parts
    if k == "var":
        return p[0]
    if k == "word":
        return f"Word.constant({p[0]}, {WIDTH})"
    if k in ("op", "shiftw"):
        return f"({source(p[1])} {p[0]} {source(p[2])})"
    if k in ("opint", "shift"):
        return f"({source(p[1])} {p[0]} {p[2]})"
    if k == "invert":
        return f"(~{source(p[0])})"
    if k == "ifexp":
        return f"({source(p[1])} if {source(p[0])} else {source(p[2])})"
    if k == "cmp":
        return f"({source(p[1])} {p[0]} {source(p[2])})"
    if k == "cmpint":
        return f"({source(p[1])} {p[0]} {p[2]})"
    if k in ("bool", "wordbool"):
        return f"({source(p[1])} {p[0]} {source(p[2])})"
    if k == "extreme":
        return f"{p[0]}({source(p[1])}, {source(p[2])})"
    if k == "member":
        return f"({source(p[0])} in ({source(p[1])}, {source(p[2])}))"
    return f"(not {source(p[0])})"


def evaluate(node: Node, env: dict[str, int]) -> int | bool:
    """The node on plain ints, every word result masked to WIDTH bits (the documented semantics)."""
    k, p = node.kind, node.parts
    if k == "var":
        return env[p[0]]
    if k == "word":
        return p[0]
    if k in ("op", "opint"):
        right = evaluate(p[2], env) if k == "op" else p[2]
        return WORD_OPS[p[0]](evaluate(p[1], env), right) & MASK
    if k == "invert":
        return ~evaluate(p[0], env) & MASK
    if k in ("shift", "shiftw"):
        amount = evaluate(p[2], env) if k == "shiftw" else p[2]
        word = evaluate(p[1], env)
        return (word << amount if p[0] == "<<" else word >> amount) & MASK
    if k == "ifexp":
        return evaluate(p[1], env) if evaluate(p[0], env) else evaluate(p[2], env)
    if k in ("cmp", "cmpint"):
        right = evaluate(p[2], env) if k == "cmp" else p[2]
        return COMPARISONS[p[0]](evaluate(p[1], env), right)
    if k in ("bool", "wordbool"):
        left = evaluate(p[1], env)
        return (left and evaluate(p[2], env)) if p[0] == "and" else (left or evaluate(p[2], env))
    if k == "extreme":
        return (min if p[0] == "min" else max)(evaluate(p[1], env), evaluate(p[2], env))
    if k == "member":
        return evaluate(p[0], env) in (evaluate(p[1], env), evaluate(p[2], env))
    return not evaluate(p[0], env)


_compiled = itertools.count()


def compile_function(text: str):
    """Define ``f`` from source that Python can find again (``@natural`` re-reads it)."""
    filename = f"<tracer-test-{next(_compiled)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"Word": Word}
    exec(compile(text, filename, "exec"), namespace)
    return namespace["f"]


@settings(max_examples=100, deadline=None)
@given(test=bits(2), then=words(2), other=words(2), result=bits(2))
def test_traced_predicates_agree_with_brute_force(test, then, other, result):
    """A random `if`/else and condition, traced with @natural, simulated on every input and solved with SAT."""
    text = (f"def f(x, y):\n    r = Word.constant(0, {WIDTH})\n    if {source(test)}:\n        r = {source(then)}\n"
            f"    else:\n        r = {source(other)}\n    return {source(result)}\n")
    f = natural(compile_function(text))

    def expected(x: int, y: int) -> bool:
        env = {"x": x, "y": y, "r": 0}
        env["r"] = evaluate(then if evaluate(test, env) else other, env)
        return bool(evaluate(result, env))

    truth = {(x, y): expected(x, y) for x in range(MASK + 1) for y in range(MASK + 1)}
    circuit = Circuit()
    x, y = (Word(circuit, [circuit.new_input() for _ in range(WIDTH)]) for _ in "xy")
    answer = f(x, y)  # a Bit, or a bool where @natural folded a constant
    lit = answer if isinstance(answer, bool) else answer.lit
    lanes = list(truth)
    inputs = {bits_of.bits[i] >> 1: sum(((value[which] >> i) & 1) << lane for lane, value in enumerate(lanes))
              for which, bits_of in enumerate((x, y)) for i in range(WIDTH)}
    values = circuit.simulate(inputs, lanes=len(lanes))
    traced = lit_value(values, lit, len(lanes))
    assert [bool(traced >> lane & 1) for lane in range(len(lanes))] == list(truth.values()), text
    encoding = tseitin(circuit, [lit, lit ^ 1])
    queries = {True: encoding.lit(lit), False: encoding.lit(lit ^ 1)}  # before the clauses are copied
    with open_solver("cadical195") as sat:
        sat.add(encoding.cnf)
        for polarity, query in queries.items():
            found = sat.solve([query])
            assert found == (polarity in truth.values()), text
            if found:
                model = sat.model()
                point = tuple(sum(encoding.value(model, b) << i for i, b in enumerate(w.bits)) for w in (x, y))
                assert truth[point] is polarity, text

    def harness() -> None:
        verify(f(any_uint(WIDTH, "x"), any_uint(WIDTH, "y")))

    report = check(harness)  # as a harness: verified exactly when it holds everywhere
    if isinstance(answer, bool):  # worked out without the inputs: the harness checks nothing
        assert report.outcome is Outcome.ERROR and "checks nothing" in report.message, text
    elif all(truth.values()):
        assert report.outcome is Outcome.VERIFIED, text
    elif report.outcome is Outcome.COUNTEREXAMPLE:
        assert truth[report.inputs["x"], report.inputs["y"]] is False, text
    else:  # the replay on plain ints differs (a wrap, or ints mixed with Word.constant): an error, not a finding
        assert report.outcome is Outcome.ERROR and "replay" in report.message, text


# --- constructs the tracer refuses --------------------------------------------------------------------------

REFUSED = {
    "is": "return x is len(\"abc\")",
    "is not on a Bit": "return (x == 3) is not True",
    "is between words": "return x is y",
    "id": "return id(x) == id(y)",
    "hash": "return hash(x) == 0",
    "str": 'return str(x) == "0"',
    "repr": 'return repr(x) == "0"',
    "format": 'return format(x) == "0"',
    "f-string": 'return f"{x}" == "0"',
    "f-string repr": 'return f"{x!r}" == "0"',
    "type ==": "return type(x) == int",
    "isinstance int": "return isinstance(x, int)",
    "== str": 'return x == "0"',
    "== float": "return x == 1.5",
    "== None": "return x != None",
    "Bit == None": "return (x == 1) == None",
    "negative constant": "return x == -1",
    "w - 1 < 0": "return x - 1 < 0",
    "~w < 0": "return ~x < 0",
    "0 > w": "return 0 > x",
    ">= 0": "return x >= 0",
    "set member": "return x in {1, 2}",
    "bool()": "return bool(x)",
    "iterate": "return any(x)",
    "print": "return print(x)",
    "floor division": "return x // 2 == 1",
    "remainder": "return x % 3 == 1",
    "power": "return x ** 2 == 4",
    "abs": "return abs(x) == 1",
    "Bit as an index": "return [x, y][x == 1]",
    "in a word": "return 1 in x",
}


@pytest.mark.parametrize("rewrite", [natural, guard], ids=["natural", "guard"])
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_unsupported_constructs_are_refused_with_their_line(name, rewrite):
    f = rewrite(compile_function(f"def f(x, y):\n    {REFUSED[name]}\n"))
    circuit = Circuit()
    x, y = (Word(circuit, [circuit.new_input() for _ in range(WIDTH)]) for _ in "xy")
    with pytest.raises(Untraceable, match=r"tracer-test-\d+>?:2: "):
        f(x, y)


def test_concrete_ints_keep_their_meaning_under_the_guard():
    f = guard(compile_function("def f(x, y):\n    return (x is None, type(x) == int, x - 1 < 0, f'{x!r}')\n"))
    assert f(0, 0) == (False, True, True, "0")


def test_isinstance_on_word_is_a_fair_question():
    f = natural(compile_function("def f(x, y):\n    return isinstance(x, Word) and x is not None\n"))
    circuit = Circuit()
    assert f(Word(circuit, [circuit.new_input() for _ in range(WIDTH)]), 0) is True


# --- harnesses that check nothing ------------------------------------------------------------------------


def flag_is_not_true():
    x = any_uint(8, "x")
    flag = x == 3
    verify(flag is not True)


def reaches_no_verify():
    any_uint(8, "x")


def verifies_a_constant():
    any_uint(8, "x")
    verify(True)


@pytest.mark.parametrize("harness", [flag_is_not_true, reaches_no_verify, verifies_a_constant])
def test_a_harness_that_checks_nothing_is_an_error(harness):
    report = check(harness)
    assert report.outcome is Outcome.ERROR and not report.properties
    assert report.message.startswith("cannot trace: ") and "test_tracer.py:" in report.message


# --- the command line -------------------------------------------------------------------------------------

HARNESSES = '''
from gameproof.logic import any_uint, verify


def flag_is_not_true():
    flag = any_uint(8, "x") == 3
    verify(flag is not True)


def helper_uses_identity():
    verify(is_zero(any_uint(8, "x")))


def is_zero(x):
    return x is len("")


def nothing():
    any_uint(8, "x")


def ƒ():
    verify(any_uint(8, "x") != 300)
'''


@pytest.fixture
def harness_file(tmp_path):
    path = tmp_path / "harnesses.py"
    path.write_text(HARNESSES, encoding="utf-8")
    return path


@pytest.mark.parametrize("name, line", [("flag_is_not_true", 7), ("helper_uses_identity", 15), ("nothing", 18)])
def test_check_refuses_in_one_line_with_exit_2(harness_file, capsys, name, line):
    from gameproof.cli import main

    assert main(["check", f"{harness_file}::{name}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"harnesses.py:{line}: " in err and "Traceback" not in err


def test_dimacs_of_a_harness_with_a_non_ascii_name(harness_file, tmp_path, capsys):
    from gameproof.cli import main

    out = tmp_path / "out.cnf"
    assert main(["check", f"{harness_file}::ƒ", "--dimacs", str(out)]) == 0
    assert out.read_text(encoding="ascii").startswith("c gameproof check: \\u0192\n")


def test_loading_a_harness_guards_a_copy_of_its_module(harness_file):
    from gameproof.loading import import_file
    from gameproof.logic.harness import load_harness

    harness = load_harness(f"{harness_file}::helper_uses_identity")
    module = import_file(harness_file)
    assert harness.__globals__["is_zero"] is not module.is_zero  # the copy's helper is guarded
    assert not hasattr(module.is_zero, "gp_rewritten") and not hasattr(module.helper_uses_identity, "gp_rewritten")


def test_a_variable_that_happens_to_be_zero_compares_as_usual():
    f = natural(compile_function("def f(x, y):\n    return [x < i for i in range(2)]\n"))
    circuit = Circuit()
    first, second = f(Word(circuit, [circuit.new_input() for _ in range(WIDTH)]), 0)
    assert first.value is False and second.circuit is not None



def test_a_range_test_from_zero_is_traced_and_a_bare_sign_test_refused():
    """`0 <= x < n` is the usual bounds idiom (its upper bound decides); `x - 1 >= 0` alone means nothing."""
    in_range = natural(compile_function("def f(x):\n    return 0 <= x < 10\n"))
    circuit = Circuit()
    x = Word(circuit, [circuit.new_input() for _ in range(WIDTH)])
    lit = in_range(x).lit
    values = range(2**WIDTH)
    inputs = {x.bits[i] >> 1: sum((value >> i & 1) << lane for lane, value in enumerate(values)) for i in range(WIDTH)}
    traced = lit_value(circuit.simulate(inputs, lanes=len(values)), lit, len(values))
    assert [bool(traced >> lane & 1) for lane in values] == [value < 10 for value in values]
    with pytest.raises(Untraceable):
        natural(compile_function("def f(x):\n    return x - 1 >= 0\n"))(x)


# --- a refusal cannot be swallowed: whatever the traced code catches, a refused trace is void -------------

SWALLOWING = '''
from gameproof.logic import any_uint, verify
from gameproof.logic.natural import natural


def catches_identity():
    x = any_uint(8, "x")
    try:
        small = x is len("")
    except Exception:
        small = True  # the fallback, traced instead of the refused test, would make the property hold
    verify(small | (x != 0))


def catches_a_truth_test_with_a_bare_except():
    x = any_uint(8, "x")
    try:
        y = 1 if x > 3 else 2
    except:  # noqa: E722
        y = 1
    verify(x + y != 0)


def catches_base_exception():
    x = any_uint(8, "x")
    try:
        text = str(x)
    except BaseException:
        text = "0"
    verify((x == 0) | (text != "0"))


@natural
def countdown(x):
    while x != 0:
        x = x - 1
    return x


def catches_a_natural_refusal():
    x = any_uint(8, "x")
    try:
        zero = countdown(x)
    except TypeError:
        zero = 0
    verify(zero == 0)


def fails_otherwise_after_catching():
    x = any_uint(8, "x")
    try:
        hash(x)
    except Exception:
        raise KeyError("gone")
    verify(x == x)
'''


@pytest.fixture
def swallowing_file(tmp_path):
    path = tmp_path / "swallowing.py"
    path.write_text(SWALLOWING)
    return path


@pytest.mark.parametrize("name", ["catches_identity", "catches_a_truth_test_with_a_bare_except", "catches_base_exception",
                                  "catches_a_natural_refusal", "fails_otherwise_after_catching"])
def test_a_refusal_the_harness_catches_still_voids_the_trace(swallowing_file, name):
    """Each of these was answered "verified" (with a DRAT proof that checks) when the refusal could be caught."""
    from gameproof.logic.harness import load_harness

    report = check(load_harness(f"{swallowing_file}::{name}"))
    assert report.outcome is Outcome.ERROR and not report.properties
    where = "line 35" if name == "catches_a_natural_refusal" else "swallowing.py:"  # @natural names lines
    assert report.message.startswith("cannot trace: ") and where in report.message
    assert "caught this refusal" in report.message


def test_a_merge_the_tracer_answers_itself_is_no_refusal():
    """Two values that cannot be merged make a variable that refuses only when used: unused, nothing is void."""
    @natural
    def pick(x):
        if x > 3:
            scratch = "big"
        else:
            scratch = ["small"]
        return x + 1

    def harness():
        x = any_uint(8, "x")
        verify(pick(x) != x)

    assert check(harness).outcome is Outcome.VERIFIED


RECURSIVE = '''
from gameproof.logic import any_uint, verify
from gameproof.logic.natural import natural


def nested(depth=0):
    x = any_uint(8, f"x{depth}")
    if depth < 2:
        nested(depth + 1)
    verify(x + 1 != x)


def factorial(n):
    return 1 if n == 0 else n * factorial(n - 1)


def times_six():
    x = any_uint(8, "x")
    verify(x * factorial(3) == x * 6)


@natural
def count(x):
    if x == 0:
        return 0
    return 1 + count(x - 1)


def counts():
    x = any_uint(8, "x")
    verify(count(x) == x)
'''


def test_recursion_on_plain_ints_is_traced_and_on_symbolic_values_refused(tmp_path):
    """A function that calls itself by name once failed with "'types.SimpleNamespace' object is not callable"."""
    from gameproof.logic.harness import load_harness

    path = tmp_path / "recursive.py"
    path.write_text(RECURSIVE)
    nested = check(load_harness(f"{path}::nested"))
    assert nested.outcome is Outcome.VERIFIED and len(nested.properties) == 3
    assert check(load_harness(f"{path}::times_six")).outcome is Outcome.VERIFIED
    counts = check(load_harness(f"{path}::counts"))
    assert counts.outcome is Outcome.ERROR and "recursion on a symbolic value is not traced" in counts.message


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_refusal_raised_in_a_thread_the_harness_starts_still_voids_the_trace():
    """A thread sees no context of the trace's, and its exception never reaches the harness: still recorded."""
    import threading

    def harness():
        x = any_uint(8, "x")
        answer = [x == x]

        def describe():
            answer[0] = str(x) != ""  # refused: the thread dies with it, and the harness goes on

        thread = threading.Thread(target=describe)
        thread.start()
        thread.join()
        verify(answer[0])

    report = check(harness)
    assert report.outcome is Outcome.ERROR and "caught this refusal" in report.message
