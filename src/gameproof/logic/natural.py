"""Natural control flow over symbolic values: ``@natural`` rewrites a function so that ``if``, ``and``,
``or``, ``not``, conditional expressions, ``all()``, ``any()``, ``min()``, ``max()``, ``in`` and early
``return`` work on symbolic :class:`~gameproof.logic.words.Bit` and :class:`~gameproof.logic.words.Word`
values::

    @natural
    def is_solution(grid, n):
        for group in groups(n):
            if not all(v in [grid[i] for i in group] for v in range(1, n * n + 1)):
                return False
        return True

The decorator parses the function's source and rewrites its syntax tree once, at import. Each construct
becomes a call into this module's runtime, which runs plain Python when its operands are concrete (so
the function behaves exactly as written on ints; ``replay`` runs this same rewritten function) and
builds ``ite`` gates when they are symbolic:

- an ``if`` on a symbolic condition runs both branches (each turned into a function of the variables
  it assigns) and merges every variable: Bits and bools into a Bit, Words and ints into a Word (two
  different plain ints into an ``INT_WIDTH``-bit Word), lists and tuples element by element. A variable
  that cannot be merged becomes :class:`Unmerged`, which raises only if it is used again; a variable
  bound on one side only keeps that side's value (Python would raise on the other path);
- ``return`` inside a branch or loop sets a "returned" flag and a result, merged the same way; the code
  after it runs under ``if not returned:``, whose merge ignores the paths that have returned, so loop
  counters stay plain ints;
- ``and``/``or`` keep Python's value semantics (``ite(a, b, a)``); ``not``, ``x if c else y``,
  comparison chains, ``in``/``not in`` over tuples, lists and ranges, ``all()``/``any()`` (filters of
  their generator included), ``min()``/``max()``.

``for`` loops run as Python loops, so they must range over concrete collections. What cannot be made
symbolic (``while`` on a symbolic condition, ``break`` under a symbolic ``if``, a symbolic filter in a
list comprehension, assigning into a list under a symbolic ``if``) raises :class:`NaturalError` naming
the construct and its line. Helper functions that branch on symbolic values need ``@natural`` too; put
it closest to the ``def``.

Rewritten functions also refuse what would look at the tracer's objects instead of the values they stand
for, raising :class:`~gameproof.logic.untraceable.Untraceable`: ``is``/``is not`` between a symbolic value
and an int, a bool or another symbolic value, and ``id``, ``type``, ``repr``, ``ascii``, ``!r`` in
f-strings, ``isinstance(x, int)`` (or ``bool``) of one, and a word in a literal ``x < 0`` or ``x >= 0``
(always false, always true: signed reasoning such as ``w - 1 < 0``). :func:`guard` applies only these refusals,
leaving control flow as written (for harnesses, whose ``verify`` must not run under a symbolic ``if``).
"""

from __future__ import annotations

import ast
import builtins
import enum
import inspect
import itertools
import textwrap
import types
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from gameproof.logic.untraceable import Untraceable, forget_refusal, record_refusal
from gameproof.logic.words import Bit, Word, ite, zext

F = TypeVar("F", bound=Callable[..., Any])

_RT = "_gp_natural"  # the name under which rewritten code sees this module's runtime
_RESULT, _DONE = "_gp_result", "_gp_returned"
_DEFINED = "_gp_defined"  # the name a rewritten function is defined under, inside the factory that closes over it


class NaturalError(TypeError):
    """A construct that cannot be made symbolic, met with a symbolic value (the message names the line); raised
    during a trace, it voids the trace whatever catches it (:func:`~gameproof.logic.untraceable.record_refusal`)."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        record_refusal(self)


class _Marker:
    """A sentinel: an unbound variable, or a result not yet returned; merges with anything."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNBOUND = _Marker("UNBOUND")
INT_WIDTH = 32  # two different plain ints merged by a symbolic condition become a Word this wide (or wider)
_merged_width: ContextVar[int] = ContextVar("merged_width", default=INT_WIDTH)


@contextmanager
def ints_merged_as(width: int) -> Iterator[None]:
    """Within it, two different plain ints merged by a symbolic condition become a Word `width` bits wide (or
    wider): the width of the words they meet next, such as a game's 64-bit position words."""
    token = _merged_width.set(width)
    try:
        yield
    finally:
        _merged_width.reset(token)


class Unmerged:
    """A variable whose two values after a symbolic ``if`` cannot be merged; any use raises the reason.

    Variables that are never read again (a loop's scratch list, say) cost nothing.
    """

    def __init__(self, reason: str) -> None:
        self._reason = reason

    def _fail(self, *args: object) -> Any:
        raise NaturalError(self._reason)

    def __repr__(self) -> str:
        return f"Unmerged({self._reason!r})"


for _method in ("bool", "eq", "ne", "lt", "le", "gt", "ge", "add", "radd", "sub", "rsub", "mul", "rmul", "and",
                "rand", "or", "ror", "xor", "rxor", "invert", "neg", "lshift", "rshift", "getitem", "iter", "len",
                "contains", "index", "int", "call", "getattr"):
    setattr(Unmerged, f"__{_method}__", Unmerged._fail)


# --- the runtime that rewritten code calls ----------------------------------------------------------


def _symbolic(value: object) -> bool:
    """True for a Bit or a Word, constant ones included (their ``==`` builds a Bit too)."""
    return isinstance(value, (Bit, Word))


def truth(value: object) -> Bit | bool:
    """Python's truth value of ``value``: a Bit when it is symbolic, else a bool (``bool()`` called once)."""
    if isinstance(value, Bit):
        return value if value.circuit is not None else bool(value.lit)
    if isinstance(value, Word):
        return value != 0 if value.circuit is not None else value.value != 0
    return bool(value)


def merge(cond: Bit, then: object, other: object, what: str = "a value", line: int = 0) -> Any:
    """``then if cond else other`` for values of any shape: Bits, Words, ints, tuples and lists of them."""
    if then is other or other is UNBOUND:
        return then
    if then is UNBOUND:
        return other
    bits = (Bit, bool)
    if isinstance(then, bits) and isinstance(other, bits):
        return ite(cond, then, other)
    if isinstance(then, Word) or isinstance(other, Word):
        if isinstance(then, (Word, int)) and isinstance(other, (Word, int)) \
                and not any(isinstance(v, int) and v < 0 for v in (then, other)):
            width = max(_width(then), _width(other))  # zero-extending keeps every unsigned value
            return ite(cond, _widen(then, width), _widen(other, width))
    elif isinstance(then, (tuple, list)) and type(then) is type(other) and len(then) == len(other):
        merged = [merge(cond, a, b, what, line) for a, b in zip(then, other)]
        return type(then)(merged)
    elif not _symbolic(then) and not _symbolic(other) and type(then) is type(other) and then == other:
        return then
    elif type(then) is int and type(other) is int and then >= 0 and other >= 0:
        return ite(cond, Word.constant(then, max(_merged_width.get(), _width(then), _width(other))), other)
    raise NaturalError(f"line {line}: {what} is {_describe(then)} on one side of a symbolic condition and "
                       f"{_describe(other)} on the other; give both sides Words of one width (Word.constant(v, w)), "
                       "Bits or non-negative ints")


def _width(value: Word | int) -> int:
    return value.width if isinstance(value, Word) else max(value.bit_length(), 1)


def _widen(value: Word | int, width: int) -> Word | int:
    return zext(value, width) if isinstance(value, Word) and value.width < width else value


def _describe(value: object) -> str:
    if isinstance(value, (Bit, Word)):
        return repr(value)
    return f"{type(value).__name__} {value!r}"[:60]


def and_(first: object, *rest: Callable[[], object]) -> Any:
    """``first and rest...``: short-circuits on concrete operands, ``&`` (or ite) on symbolic ones."""
    return _connect(first, rest, decisive=False, what="an `and` operand")


def or_(first: object, *rest: Callable[[], object]) -> Any:
    """``first or rest...``: short-circuits on concrete operands, ``|`` (or ite) on symbolic ones."""
    return _connect(first, rest, decisive=True, what="an `or` operand")


def _connect(first: object, rest: tuple[Callable[[], object], ...], decisive: bool, what: str) -> Any:
    """and (decisive False) or or (decisive True): an operand whose truth is `decisive` is the result;
    one whose truth is symbolic chooses by ite between itself and the rest."""
    value = first
    for thunk in rest:
        cond = truth(value)
        if cond is decisive:
            return value
        if isinstance(cond, bool):
            value = thunk()
        else:
            later = thunk()
            value = merge(cond, value, later, what) if decisive else merge(cond, later, value, what)
    return value


def not_(value: object) -> Bit | bool:
    """``not value``."""
    cond = truth(value)
    return ~cond if isinstance(cond, Bit) else not cond


def ifexp(cond: object, then: Callable[[], object], other: Callable[[], object], line: int) -> Any:
    """``then() if cond else other()``; both are evaluated and merged when ``cond`` is symbolic."""
    test = truth(cond)
    if isinstance(test, bool):
        return then() if test else other()
    return merge(test, then(), other(), "a conditional expression", line)


def all_(function: Callable[[Iterable[object]], Any], iterable: Iterable[object]) -> Any:
    """``all(iterable)``, folding symbolic elements with ``&`` (stops at the first concrete false one)."""
    if function is not builtins.all:
        return function(iterable)
    return _quantify(iterable, decisive=False, fold="and_all")


def any_(function: Callable[[Iterable[object]], Any], iterable: Iterable[object]) -> Any:
    """``any(iterable)``, folding symbolic elements with ``|`` (stops at the first concrete true one)."""
    if function is not builtins.any:
        return function(iterable)
    return _quantify(iterable, decisive=True, fold="or_all")


def _quantify(iterable: Iterable[object], decisive: bool, fold: str) -> Any:
    """all (decisive False) or any (decisive True): a concrete `decisive` element settles it at once;
    symbolic elements are folded with the circuit's `fold`; with none left, the answer is `not decisive`."""
    lits = []
    for item in iterable:
        cond = truth(item)
        if cond is decisive:
            return decisive
        if cond is not (not decisive):
            lits.append(cond)
    return _fold(lits, fold) if lits else not decisive


def extreme(function: Callable[..., Any], *args: Any) -> Any:
    """``min(...)``/``max(...)`` without ``key``: the first least/greatest item, by ``ite`` when symbolic."""
    if function not in (builtins.min, builtins.max):
        return function(*args)
    items = list(args[0]) if len(args) == 1 else list(args)
    if not any(map(_symbolic, items)):
        return function(*args)
    if not items:
        raise ValueError(f"{function.__name__}() arg is an empty sequence")
    best = items[0]
    for item in items[1:]:
        better = item > best if function is builtins.max else item < best
        best = ifexp(better, lambda: item, lambda: best, 0)
    return best


def _fold(bits: list[Bit], how: str) -> Bit:
    circuit = bits[0].circuit
    return Bit(circuit, getattr(circuit, how)([b.lit for b in bits]))


def contains(item: object, container: object) -> Any:
    """``item in container``: for a symbolic item or elements of a tuple, list or range, an OR of ``==``."""
    if isinstance(container, (tuple, list)) and (_symbolic(item) or any(map(_symbolic, container))):
        return any_(builtins.any, (True if element is item else element == item for element in container))
    if isinstance(container, range) and _symbolic(item):
        if container.step == 1:  # an unsigned word is >= any start <= 0 (and refuses a negative one)
            above = item >= container.start if container.start > 0 else True
            return and_(above, lambda: item < container.stop) if container else False
        return any_(builtins.any, (element == item for element in container))
    return item in container


def identity(left: object, right: object) -> bool:
    """``left is right``, refused where a symbolic operand stands for a value it might be (an int, a bool)."""
    values = (Bit, Word, int)
    symbolic = isinstance(left, (Bit, Word)) or isinstance(right, (Bit, Word))
    if symbolic and isinstance(left, values) and isinstance(right, values):
        raise Untraceable("`is` / `is not` on a symbolic value",
                          "identity asks whether two Python objects are the same one, not whether their values "
                          "are equal: use `==` / `!=`")
    return left is right


_INSPECTORS = {builtins.id: "id()", builtins.type: "type()", builtins.repr: "repr()", builtins.ascii: "ascii()",
               builtins.isinstance: "isinstance()"}


def inspect_(function: Callable[..., Any], *args: Any, **keywords: Any) -> Any:
    """A call of ``id``, ``type``, ``repr``, ``ascii`` or ``isinstance`` (the names, as rewritten): refused on a
    symbolic value, where the answer would describe the tracer's object (``isinstance`` only when it asks
    for ``int`` or ``bool``: ``isinstance(x, Word)`` is a fair question)."""
    what = next((name for inspector, name in _INSPECTORS.items() if inspector is function), None)
    if what and args and isinstance(args[0], (Bit, Word)) and (function is not isinstance or _asks_int(args[1:])):
        raise Untraceable(f"{what} of a symbolic {type(args[0]).__name__}",
                          "it describes the tracer's object, not the value it stands for")
    return function(*args, **keywords)


def _asks_int(classinfo: tuple[Any, ...]) -> bool:
    """True when an isinstance class (or tuple of classes) holds int, bool or a superclass of them but object."""
    pending, seen = list(classinfo), []
    while pending:
        item = pending.pop()
        if isinstance(item, tuple):
            pending.extend(item)
        else:
            seen.append(item)
    return any(isinstance(c, type) and c is not object and (issubclass(int, c) or issubclass(bool, c)) for c in seen)


def against_zero(value: object) -> object:
    """The operand of a literal ``< 0`` or ``>= 0`` (``0 > x``, ``0 <= x``): refused when it is a Word, which is
    unsigned, so the test is always false (true): the trace of signed reasoning such as ``w - 1 < 0``."""
    if isinstance(value, Word):
        raise Untraceable("`word < 0` (or `>= 0`)", "words are unsigned and wrap modulo 2**width, so a word is never "
                          "negative (`w - 1 < 0` and `~w < 0` are always false); compare without subtracting "
                          "(`w < 1`), or use slt/sle/sgt/sge for two's complement")
    return value


def shown(value: object) -> object:
    """A value put into an f-string: refused when symbolic (``!r`` would show the tracer's object)."""
    if isinstance(value, (Bit, Word)):
        raise Untraceable(f"an f-string of a symbolic {type(value).__name__}",
                          "it would show the tracer's object, not the value it stands for")
    return value


_COMPARE = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
    ast.Is: identity, ast.IsNot: lambda a, b: not identity(a, b),
    ast.In: contains, ast.NotIn: lambda a, b: not_(contains(a, b)),
}
_OPS = list(_COMPARE.values())


def compare(first: object, *steps: object) -> Any:
    """A comparison chain ``a < b <= c``: ``steps`` alternate operator index and a thunk for the operand."""
    left, value = first, True
    for index, thunk in zip(steps[::2], steps[1::2]):
        right = thunk()  # type: ignore[operator]
        result = _OPS[index](left, right)  # type: ignore[index]
        value = result if value is True else and_(value, lambda: result)
        if truth(value) is False:
            return value
        left = right
    return value


def need_concrete(cond: object, construct: str, line: int) -> bool:
    """The truth value of a condition that must be concrete (``while``, a comprehension filter, ...)."""
    value = truth(cond)
    if isinstance(value, Bit):
        raise NaturalError(f"line {line}: {construct} needs a concrete condition, got a symbolic one")
    return value


def branch(cond: object, then: Callable[..., tuple], other: Callable[..., tuple], values: tuple,
           names: tuple[str, ...], line: int, mutates: str, guard: bool) -> tuple:
    """Run an ``if`` statement whose branches were turned into functions of the variables they assign.

    A ``guard`` is the ``if not returned:`` put around code after a ``return``: where it is false the
    function has already returned, so only its result and flag need merging; every other variable
    simply takes the value of the code that ran (loop counters stay concrete).
    """
    value = truth(cond)
    if isinstance(value, bool):
        return (then if value else other)(*values)
    if guard:
        ran = then(*values)
        return tuple(_merge_variable(value, x, y, name, line) if name in (_RESULT, _DONE) else x
                     for name, x, y in zip(names, ran, values))
    if mutates:
        raise NaturalError(f"line {line}: an `if` on a symbolic condition {mutates}; only assignments to "
                           "plain names can be merged (build a new list instead)")
    a, b = then(*values), other(*values)
    return tuple(_merge_variable(value, x, y, name, line) for name, x, y in zip(names, a, b))


def _merge_variable(cond: Bit, then: object, other: object, name: str, line: int) -> Any:
    what = "the return value" if name == _RESULT else f"`{name}`"
    try:
        return merge(cond, then, other, what, line)
    except (NaturalError, ValueError, TypeError) as error:
        forget_refusal(error)  # answered here: the variable raises again only if it is used
        return Unmerged(str(error) if "line" in str(error) else f"line {line}: {what}: {error}")


def load(getter: Callable[[], object]) -> object:
    """The value of a variable, or UNBOUND when it has none yet."""
    try:
        return getter()
    except NameError:
        return UNBOUND


def result(value: object, returned: object, line: int) -> Any:
    """The value a rewritten function returns: ``value`` where it returned, None where it fell off the end."""
    if isinstance(value, Unmerged):
        value._fail()
    done = truth(returned)
    if isinstance(done, bool):
        return value if done else None
    return merge(done, value, None, "the return value (falling off the end returns None)", line)


def is_true(value: object) -> bool:
    """True only for a concrete true value (a loop may stop early once a function has surely returned)."""
    return truth(value) is True


# --- the rewriting ----------------------------------------------------------------------------------


def natural(function: F, *, namespace: dict[str, Any] | None = None) -> F:
    """Rewrite ``function`` so that its control flow also works on symbolic values (see the module doc);
    ``namespace`` replaces its globals (a :func:`guarded_namespace`)."""
    if isinstance(function, (staticmethod, classmethod)) or not inspect.isfunction(function):
        raise NaturalError("@natural takes a plain function (put it closest to the def)")
    namespace = function.__globals__ if namespace is None else namespace
    return _recompile(function, _Rewriter(namespace), Rewritten.NATURAL, namespace)


def guard(function: F, namespace: dict[str, Any] | None = None) -> F:
    """``function`` with only the refusals of :class:`_Guard` (identity, id, type, repr...) put in; as it is
    when it is no plain undecorated function, has been rewritten already, or Python cannot find its source."""
    if not inspect.isfunction(function) or hasattr(function, "__wrapped__"):
        return function
    try:
        return _recompile(function, _Guard(), Rewritten.GUARD,
                          function.__globals__ if namespace is None else namespace)
    except NaturalError:
        return function


def guarded_namespace(module: types.ModuleType) -> dict[str, Any]:
    """A copy of ``module``'s globals in which each function it defines is its :func:`guard` version, so
    that they call each other's guarded versions (the module itself, which a game may share, is untouched)."""
    namespace = dict(vars(module))
    for name, value in vars(module).items():
        if inspect.isfunction(value) and value.__module__ == module.__name__ and value.__name__ == name:
            namespace[name] = guard(value, namespace)
    return namespace


class Rewritten(enum.Enum):
    """How a function was rewritten (its ``gp_rewritten`` attribute)."""

    NATURAL = "natural"
    GUARD = "guard"


def _recompile(function: F, rewriter: ast.NodeTransformer, how: Rewritten, namespace: dict[str, Any]) -> F:
    """``function`` compiled again from its source after ``rewriter`` (in its own file and lines)."""
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        raise NaturalError(f"@natural needs the source of {function.__qualname__}, and Python cannot find it") from None
    try:
        tree = ast.parse(source)
    except SyntaxError:
        raise NaturalError(f"@natural takes a function defined with `def`, not {function.__qualname__}") from None
    definition = tree.body[0]
    if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)) or definition.name != function.__name__:
        raise NaturalError(f"@natural could not find the definition of {function.__qualname__} in its source")
    if isinstance(definition, ast.AsyncFunctionDef):
        raise NaturalError(f"line {function.__code__.co_firstlineno}: @natural does not take async functions")
    if how is Rewritten.GUARD and definition.decorator_list:
        raise NaturalError(f"{function.__qualname__} is decorated: it is left as written")
    _check_decorators(definition, function)
    definition.decorator_list = []
    ast.increment_lineno(tree, function.__code__.co_firstlineno - 1)  # the source starts at the first decorator
    rewriter.visit(definition)
    definition.name = _DEFINED  # not the function's own name, which its body reads from the namespace (recursion)
    freevars = function.__code__.co_freevars
    factory = ast.FunctionDef(
        name="_gp_factory", args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=name) for name in (*freevars, _RT)],
                                               kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[definition, ast.Return(value=ast.Name(id=definition.name, ctx=ast.Load()))], decorator_list=[])
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, function.__code__.co_filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == _DEFINED)
    inner = inner.replace(co_name=function.__name__, co_qualname=function.__qualname__)
    cells = dict(zip(freevars, function.__closure__ or ()))
    runtime = types.CellType(_runtime_namespace())
    closure = tuple(cells.get(name, runtime) for name in inner.co_freevars)
    rewritten = types.FunctionType(inner, namespace, function.__name__, function.__defaults__, closure)
    rewritten.__kwdefaults__ = function.__kwdefaults__
    rewritten.__dict__.update(function.__dict__)
    for attribute in ("__module__", "__qualname__", "__doc__", "__annotations__"):
        setattr(rewritten, attribute, getattr(function, attribute))
    rewritten.__wrapped__ = function  # type: ignore[attr-defined]
    rewritten.gp_rewritten = how  # type: ignore[attr-defined]
    return rewritten  # type: ignore[return-value]


def _check_decorators(definition: ast.FunctionDef, function: Callable) -> None:
    names = [ast.unparse(d) for d in definition.decorator_list]
    position = next((i for i, name in enumerate(names) if name.rsplit(".", 1)[-1] == "natural"), None)
    if position is not None and position != len(names) - 1:
        raise NaturalError(f"line {definition.lineno}: put @natural closest to `def {function.__name__}` "
                           f"(decorators below it would be lost)")


def _runtime_namespace() -> types.SimpleNamespace:
    names = ("and_", "or_", "not_", "ifexp", "all_", "any_", "extreme", "compare", "need_concrete", "branch", "load",
             "result", "is_true", "UNBOUND", "inspect_", "shown", "against_zero")
    return types.SimpleNamespace(**{name: globals()[name] for name in names})


def _rt(attribute: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Attribute(value=ast.Name(id=_RT, ctx=ast.Load()), attr=attribute, ctx=ast.Load()),
                    args=list(args), keywords=[])


def _thunk(expr: ast.expr) -> ast.Lambda:
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                      body=expr)


def _name(name: str, store: bool = False) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store() if store else ast.Load())


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_SCOPES = (*_DEFINITIONS, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _walk_scope(nodes: Iterable[ast.AST]) -> Iterable[ast.AST]:
    """Every node under ``nodes`` that belongs to the same function scope (nested defs are not entered)."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            stack.extend(node.decorator_list if isinstance(node, _DEFINITIONS) else ())
            continue
        stack.extend(ast.iter_child_nodes(node))


def _assigned(statements: list[ast.stmt]) -> list[str]:
    """Names bound by ``statements`` in their own scope, in first-seen order."""
    names: dict[str, None] = {}
    for node in _walk_scope(statements):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names[node.id] = None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = None
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = None
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names[node.name] = None
    return list(names)


def _mutation(statements: list[ast.stmt]) -> str:
    """A description of the first store into a subscript or attribute, or ''."""
    for node in _walk_scope(statements):
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            return f"assigns to `{ast.unparse(node)}` (line {node.lineno})"
    return ""


def _has(statements: list[ast.stmt], kinds: tuple[type, ...], loops: bool = True) -> bool:
    """True when ``statements`` hold a node of ``kinds`` in this scope (not inside nested loops unless ``loops``)."""
    stack: list[ast.AST] = list(statements)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, _SCOPES):
            continue
        if not loops and isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            stack.extend(node.orelse)  # a break in a loop's else clause belongs to the enclosing loop
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _guard(body: list[ast.stmt], line: int) -> ast.If:
    """``if not returned: body``, marked so that its merge ignores the paths that have returned."""
    node = ast.If(test=ast.UnaryOp(op=ast.Not(), operand=_name(_DONE)), body=body, orelse=[], lineno=line)
    node.gp_guard = True  # type: ignore[attr-defined]
    return node


class _Guard(ast.NodeTransformer):
    """Rewrites identity comparisons, ``id``/``type``/``repr``/``ascii``/``isinstance`` calls and f-string
    values into runtime calls that refuse symbolic operands (see :func:`identity`, :func:`inspect_`)."""

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        _guard_sign_tests(node)
        if not any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            return node
        return _compare_call(node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        return _inspect_call(node)

    def visit_FormattedValue(self, node: ast.FormattedValue) -> ast.FormattedValue:
        self.generic_visit(node)
        node.value = ast.copy_location(_rt("shown", node.value), node.value)
        return node


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 0


def _guard_sign_tests(node: ast.Compare) -> None:
    """Pass the operand of each literal ``x < 0``, ``x >= 0``, ``0 > x``, ``0 <= x`` through :func:`against_zero`;
    not the lower bound of a range test ``0 <= x < n``, whose upper bound decides."""
    operands = [node.left, *node.comparators]
    in_range = len(node.ops) > 1
    for index, op in enumerate(node.ops):
        left, right = operands[index], operands[index + 1]
        if (isinstance(op, ast.Lt) or isinstance(op, ast.GtE) and not in_range) and _is_zero(right) and not _is_zero(left):
            operands[index] = ast.copy_location(_rt("against_zero", left), left)
        elif (isinstance(op, ast.Gt) or isinstance(op, ast.LtE) and not in_range) and _is_zero(left) \
                and not _is_zero(right):
            operands[index + 1] = ast.copy_location(_rt("against_zero", right), right)
    node.left, node.comparators = operands[0], operands[1:]


def _compare_call(node: ast.Compare) -> ast.Call:
    """A comparison chain as a call of the runtime's :func:`compare`."""
    steps: list[ast.expr] = []
    for op, right in zip(node.ops, node.comparators):
        steps += [ast.Constant(list(_COMPARE).index(type(op))), _thunk(right)]
    return ast.copy_location(_rt("compare", node.left, *steps), node)


def _inspect_call(node: ast.expr) -> ast.expr:
    """A call of a name among id, type, repr, ascii, isinstance routed through :func:`inspect_`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in ("id", "type", "repr", "ascii", "isinstance"):
        call = _rt("inspect_", node.func, *node.args)
        call.keywords = node.keywords
        return ast.copy_location(call, node)
    return node


class _Rewriter(_Guard):
    """Rewrites one function definition (and the functions nested in it) for symbolic control flow."""

    def __init__(self, module_globals: dict[str, Any]) -> None:
        self.counter = itertools.count()
        self.shadowed = {name for name in ("all", "any") if name in module_globals}

    # -- scopes and returns --

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        for child in _walk_scope(node.body):
            if isinstance(child, (ast.Global, ast.Nonlocal)):
                raise NaturalError(f"line {child.lineno}: @natural functions cannot use `global` or `nonlocal`")
            if isinstance(child, (ast.Yield, ast.YieldFrom, ast.Await)):
                raise NaturalError(f"line {child.lineno}: @natural functions cannot be generators or coroutines")
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self.visit(node.args)
        returns = [n for n in _walk_scope(node.body) if isinstance(n, ast.Return)]
        if returns and not (len(returns) == 1 and node.body[-1] is returns[0]):
            node.body = self._flag_returns(node)
        node.body = self._statements(node.body)
        return node

    def _flag_returns(self, node: ast.FunctionDef) -> list[ast.stmt]:
        """Turn every ``return`` into flag and result assignments; guard what follows with the flag."""
        unset = ast.Attribute(value=_name(_RT), attr="UNBOUND", ctx=ast.Load())
        start = [ast.Assign(targets=[_name(_RESULT, True)], value=unset),
                 ast.Assign(targets=[_name(_DONE, True)], value=ast.Constant(False))]
        end = ast.Return(value=_rt("result", _name(_RESULT), _name(_DONE), ast.Constant(node.lineno)))
        return start + self._returns_in(node.body) + [end]

    def _returns_in(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for index, statement in enumerate(statements):
            if isinstance(statement, ast.Return):
                value = statement.value or ast.Constant(None)
                out += [ast.Assign(targets=[_name(_RESULT, True)], value=value, lineno=statement.lineno),
                        ast.Assign(targets=[_name(_DONE, True)], value=ast.Constant(True))]
                return out
            may_return = _has([statement], (ast.Return,))
            if may_return:
                self._returns_inside(statement)
            out.append(statement)
            rest = statements[index + 1:]
            if may_return and rest:
                out.append(_guard(self._returns_in(rest), rest[0].lineno))
                return out
        return out

    def _returns_inside(self, statement: ast.stmt) -> None:
        if isinstance(statement, (ast.For, ast.While, ast.AsyncFor)):
            stop = ast.If(test=_rt("is_true", _name(_DONE)), body=[ast.Break()], orelse=[], lineno=statement.lineno)
            body_returns = _has(statement.body, (ast.Return,))
            if body_returns:
                statement.body = [stop, _guard(self._returns_in(statement.body), statement.lineno)]
            if statement.orelse:
                orelse = self._returns_in(statement.orelse)
                statement.orelse = [_guard(orelse, statement.orelse[0].lineno)] if body_returns else orelse
            return
        for field in ("body", "orelse", "finalbody"):
            block = getattr(statement, field, None)
            if block:
                setattr(statement, field, self._returns_in(block))
        for handler in getattr(statement, "handlers", ()):
            handler.body = self._returns_in(handler.body)
        for case in getattr(statement, "cases", ()):
            case.body = self._returns_in(case.body)

    # -- statements --

    def _statements(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for statement in statements:
            result = self.visit(statement)
            out.extend(result if isinstance(result, list) else [result])
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self._statements(value))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, ast.AST) else v for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        raise NaturalError(f"line {node.lineno}: @natural functions cannot define classes")

    def visit_If(self, node: ast.If) -> ast.stmt | list[ast.stmt]:
        line = node.lineno
        names, mutates = _assigned(node.body + node.orelse), _mutation(node.body + node.orelse)
        jumps = _has(node.body + node.orelse, (ast.Break, ast.Continue), loops=False)
        node.test = self.visit(node.test)
        node.body = self._statements(node.body)
        node.orelse = self._statements(node.orelse)
        if jumps:
            what = ast.Constant("an `if` containing break or continue")
            node.test = _rt("need_concrete", node.test, what, ast.Constant(line))
            return node
        number = next(self.counter)
        then, other = f"_gp_then_{number}", f"_gp_else_{number}"
        out: list[ast.stmt] = [self._branch_function(then, names, node.body, line),
                               self._branch_function(other, names, node.orelse, line)]
        call = _rt("branch", node.test, _name(then), _name(other),
                   ast.Tuple(elts=[_rt("load", _thunk(_name(n))) for n in names], ctx=ast.Load()),
                   ast.Constant(tuple(names)), ast.Constant(line), ast.Constant(mutates),
                   ast.Constant(getattr(node, "gp_guard", False)))
        if names:
            target = ast.Tuple(elts=[_name(n, True) for n in names], ctx=ast.Store())
            out.append(ast.Assign(targets=[target], value=call))
            out += [self._unbind(n) for n in names]
        else:
            out.append(ast.Expr(value=call))
        for statement in out:
            ast.copy_location(statement, node)
        return out

    @staticmethod
    def _unbind(name: str) -> ast.If:
        """``if name is UNBOUND: del name`` — a variable no branch bound stays unbound, as in Python."""
        unbound = ast.Attribute(value=_name(_RT), attr="UNBOUND", ctx=ast.Load())
        return ast.If(test=ast.Compare(left=_name(name), ops=[ast.Is()], comparators=[unbound]),
                      body=[ast.Delete(targets=[ast.Name(id=name, ctx=ast.Del())])], orelse=[])

    def _branch_function(self, name: str, params: list[str], body: list[ast.stmt], line: int) -> ast.FunctionDef:
        result = ast.Tuple(elts=[_rt("load", _thunk(_name(p))) for p in params], ctx=ast.Load())
        statements = [self._unbind(p) for p in params] + (body or [ast.Pass()]) + [ast.Return(value=result)]
        function = ast.FunctionDef(
            name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], kwonlyargs=[],
                                          kw_defaults=[], defaults=[]),
            body=statements, decorator_list=[], lineno=line)
        return function

    def visit_While(self, node: ast.While) -> ast.While:
        self.generic_visit(node)
        node.test = _rt("need_concrete", node.test, ast.Constant("a `while` loop"), ast.Constant(node.lineno))
        return node

    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        self.generic_visit(node)
        node.test = _rt("need_concrete", node.test, ast.Constant("`assert` (use verify() or assume())"),
                        ast.Constant(node.lineno))
        return node

    # -- expressions --

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.Call:
        values = [self.visit(v) for v in node.values]
        how = "and_" if isinstance(node.op, ast.And) else "or_"
        return ast.copy_location(_rt(how, values[0], *map(_thunk, values[1:])), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_rt("not_", node.operand), node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.Call:
        self.generic_visit(node)
        call = _rt("ifexp", node.test, _thunk(node.body), _thunk(node.orelse), ast.Constant(node.lineno))
        return ast.copy_location(call, node)

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        _guard_sign_tests(node)
        if len(node.ops) == 1 and not isinstance(node.ops[0], (ast.In, ast.NotIn, ast.Is, ast.IsNot)):
            return node
        return _compare_call(node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if (isinstance(func, ast.Name) and func.id in ("all", "any") and len(node.args) == 1 and not node.keywords
                and isinstance(node.args[0], ast.GeneratorExp) and func.id not in self.shadowed):
            self._filters_to_elements(node.args[0], func.id)
        self.generic_visit(node)
        if isinstance(func, ast.Name) and func.id in ("all", "any") and len(node.args) == 1 and not node.keywords:
            return ast.copy_location(_rt(f"{func.id}_", func, node.args[0]), node)
        if isinstance(func, ast.Name) and func.id in ("min", "max") and node.args and not node.keywords \
                and not any(isinstance(a, ast.Starred) for a in node.args):
            return ast.copy_location(_rt("extreme", func, *node.args), node)
        return _inspect_call(node)

    @staticmethod
    def _filters_to_elements(generator: ast.GeneratorExp, how: str) -> None:
        """``all(e for x in xs if c)`` → ``all((not c) or e for x in xs)``; ``any``: ``c and e``."""
        last = generator.generators[-1]
        if not last.ifs or last.is_async:
            return
        cond = last.ifs[0] if len(last.ifs) == 1 else ast.BoolOp(op=ast.And(), values=last.ifs)
        if how == "all":
            element: ast.expr = ast.BoolOp(op=ast.Or(), values=[ast.UnaryOp(op=ast.Not(), operand=cond),
                                                                  generator.elt])
        else:
            element = ast.BoolOp(op=ast.And(), values=[cond, generator.elt])
        generator.elt = ast.copy_location(element, generator.elt)
        last.ifs = []

    def visit_comprehension(self, node: ast.comprehension) -> ast.comprehension:
        self.generic_visit(node)
        node.ifs = [_rt("need_concrete", cond, ast.Constant("a comprehension filter"), ast.Constant(cond.lineno))
                    for cond in node.ifs]
        return node

    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.NamedExpr:
        raise NaturalError(f"line {node.lineno}: @natural functions cannot use `:=`")
