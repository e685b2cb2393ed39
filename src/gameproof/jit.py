"""Compile rule modules written over Python ints into numba kernels over uint64.

Rule modules (for example :mod:`gameproof.games.othello.rules`) are plain Python over integers so
that the same source can also be traced symbolically. numba would type their small integer
literals as int64 and mix signedness, so :func:`compile_rules` rewrites each function's source
with every integer literal and module constant made an explicit ``uint64`` and compiles the result
with numba. Nothing else about the functions changes.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import re
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType, SimpleNamespace

import numba
import numba.core.event as numba_events
import numpy as np
from numba.core.caching import FunctionCache
from numba.core.compiler_lock import global_compiler_lock
from numba.core.errors import NumbaError
from numba.core.sigutils import normalize_signature

from gameproof.errors import BadInput


class _Uint64Literals(ast.NodeTransformer):
    """Wrap every integer literal in ``_u64(...)``."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if type(node.value) is int:
            call = ast.Call(func=ast.Name(id="_u64", ctx=ast.Load()), args=[node], keywords=[])
            return ast.copy_location(call, node)
        return node


#: Modules of helpers that rule modules may import; they are compiled and traced with the rules.
SHARED_HELPERS = ("gameproof.framework.bits",)


def _rule_functions(module: ModuleType) -> list[Callable]:
    """The functions a rule module defines with ``def``, and those it imports from :data:`SHARED_HELPERS`
    (lambdas and other imported functions are left out)."""
    return [value for value in vars(module).values()
            if inspect.isfunction(value) and value.__module__ in (module.__name__, *SHARED_HELPERS)
            and value.__name__ != "<lambda>"]


def _rebind(module: ModuleType, namespace: dict[str, object], transform: ast.NodeTransformer | None) -> dict[str, Callable]:
    """Execute the source of each of `module`'s functions again in `namespace`; the new functions by name.

    Line numbers and the file name are kept, so tracebacks and ``inspect.getsource`` still point at the rules."""
    rebound = {}
    for function in _rule_functions(module):
        lines, first_line = inspect.getsourcelines(function)
        tree = ast.parse(textwrap.dedent("".join(lines)))
        ast.increment_lineno(tree, first_line - 1)
        if transform is not None:
            tree = ast.fix_missing_locations(transform.visit(tree))
        exec(compile(tree, inspect.getsourcefile(function) or "<rules>", "exec"), namespace)
        rebound[function.__name__] = namespace[function.__name__]
    return rebound


def bind_rules(module: ModuleType, constants: dict[str, int]) -> SimpleNamespace:
    """`module`'s functions as plain Python, with the module constants in `constants` replaced; the
    constants (every module-level int) are attributes too.

    A parametrised game (a board size, say) writes its rules once against module-level constants; this
    gives the rules of one parameter set, to run on Python ints or on symbolic words."""
    namespace: dict[str, object] = dict(vars(module))
    namespace.update(constants)
    integers = {name: value for name, value in namespace.items() if type(value) is int and not name.startswith("_")}
    return SimpleNamespace(**integers, **_rebind(module, namespace, None))


def compile_rules(module: ModuleType, constants: dict[str, int] | None = None,
                  entry_points: Iterable[str] = (), game: str | None = None) -> SimpleNamespace:
    """numba-compiled (uint64) versions of every function defined in `module`, by name.

    Integer constants defined at module level, and those in `constants` (which replace them), become
    ``np.uint64`` constants. Functions are compiled lazily on first use with the argument types they
    receive (callers pass uint64), so a caller that numba loads from its on-disk cache never recompiles
    them. Helpers are inlined into their callers; the functions named in `entry_points` are not, so that
    generic kernels may call them with ``f(*words)``; they release the GIL (``nogil``), so that a rule that
    loops forever cannot keep :mod:`gameproof.interrupts` from ending the process. An entry point that numba
    cannot compile (a module-level list, the module ``random``) raises BadInput, one line naming `game` (by
    default the module), the function and what it uses, from wherever it is first compiled.
    """
    namespace: dict[str, object] = {"_u64": np.uint64}
    for name, value in [*vars(module).items(), *(constants or {}).items()]:
        if type(value) is int:
            namespace[name] = np.uint64(value & 0xFFFF_FFFF_FFFF_FFFF)
    entry_points = set(entry_points)
    compiled = {name: numba.njit(nogil=True) if name in entry_points else numba.njit(inline="always")
                for name in (f.__name__ for f in _rule_functions(module))}
    plain = _rebind(module, namespace, _Uint64Literals())
    tag = source_fingerprint([module, *map(importlib.import_module, SHARED_HELPERS)]) + repr(sorted((constants or {}).items()))
    compiled = {name: decorate(_named_apart(plain[name], tag)) for name, decorate in compiled.items()}
    if not numba.config.DISABLE_JIT:
        for name in entry_points & compiled.keys():
            _refusing_compile_errors(compiled[name], name, module, game or module.__name__)
    namespace.update(compiled)
    return SimpleNamespace(**compiled)


def _refusing_compile_errors(dispatcher: Callable, function: str, module: ModuleType, game: str) -> None:
    """Make numba's error while compiling `dispatcher` (`module`'s rule `function`), or a compiled rule that returns
    something other than ints (which the kernels calling it cannot take), a BadInput of one line.

    The error passes up through the kernels that call the rule as it is (numba re-raises errors of its own
    kind only with its context added), so wherever the rule is first compiled, the command says this line."""
    compile_signature = dispatcher.compile

    def compile_or_refuse(signature):
        try:
            entry_point = compile_signature(signature)
        except NumbaError as error:
            raise BadInput(f"{game}: {function}() cannot be compiled: {_uncompilable(error, module)}") from None
        returned = dispatcher.overloads[tuple(normalize_signature(signature)[0])].signature.return_type
        if not _of_ints(returned):
            raise BadInput(f"{game}: {function}() compiles to return {returned}, not ints (a / makes a float: "
                           "// does not)")
        return entry_point

    dispatcher.compile = compile_or_refuse


def _of_ints(kind: numba.types.Type) -> bool:
    """Whether a compiled function's return type `kind` is an int or a tuple of ints."""
    if isinstance(kind, numba.types.BaseTuple):
        return all(map(_of_ints, kind.types))
    return isinstance(kind, numba.types.Integer)


def _uncompilable(error: NumbaError, module: ModuleType) -> str:
    """What numba could not compile, and where (the line of the rules that numba names)."""
    loc = getattr(error, "loc", None)
    where = f"line {loc.line} of {loc.filename}" if loc is not None and loc.line is not None else "the rules"
    text = str(error)
    missing = re.search(r"NameError: name '(\w+)' is not defined", text)
    if missing is not None:
        name = missing[1]
        return (f"{where} uses {name}, {_what(module, name)}; compiled rules see only the rules module's int "
                "constants and functions")
    said = [line.strip() for line in text.splitlines()
            if line.strip() and not line.startswith(("Failed in", "During:"))]
    return f"{where}: {' '.join(said[:2])[:200]} (compiled rules use ints, if, while and loops over range only)"


def _what(module: ModuleType, name: str) -> str:
    """What `name` is in `module`, for :func:`_uncompilable`."""
    if not hasattr(module, name):
        return "which the rules module does not define"
    value = getattr(module, name)
    if isinstance(value, ModuleType):
        return f"the module {value.__name__}"
    if callable(value):
        return f"a function of {getattr(value, '__module__', None) or 'another module'}, not of the rules module"
    return f"a module-level {type(value).__name__}"


def _named_apart(function: Callable, fingerprint: str) -> Callable:
    """`function`, its qualified name suffixed with a hash of `fingerprint`.

    numba names compiled symbols after the qualified name and a counter that restarts in every process,
    so two variants of one function (one game's rules and another's, say) loaded from the disk cache
    into one process could otherwise share a symbol, and one would run the other's code."""
    function.__qualname__ = f"{function.__qualname__}_{hashlib.sha256(fingerprint.encode()).hexdigest()[:12]}"
    return function


class _FingerprintedCache(FunctionCache):
    """numba's on-disk function cache, keyed also on the source of the modules a kernel depends on.

    numba only checks the kernel's own file, so a cached perft kernel would otherwise keep running
    old rules after :mod:`rules` changes.
    """

    def __init__(self, py_func, fingerprint: str) -> None:
        super().__init__(py_func)
        self._fingerprint = fingerprint

    def _index_key(self, sig, codegen):
        return (*super()._index_key(sig, codegen), self._fingerprint)


def source_fingerprint(modules: Iterable[ModuleType]) -> str:
    """A hash of the source files of `modules`."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(Path(inspect.getfile(module)).read_bytes())
    return digest.hexdigest()


def cached_kernel(depends_on: Iterable[ModuleType], parallel: bool = False, vectorise: bool = False) -> Callable:
    """Decorator: ``numba.njit(cache=True)`` with the cache invalidated when any module in `depends_on`
    changes (for kernels built on :func:`compile_rules`). Compiled on first call: public wrappers
    pass explicitly typed arguments (np.uint64, np.int64, bool). Kernels release the GIL while they run
    (``nogil``: see :mod:`gameproof.interrupts`).

    `vectorise` compiles the kernel with LLVM's SLP vectoriser, which packs the same operation on
    several words (a bitboard's eight directions) into one vector instruction. numba leaves it off
    because it once miscompiled code, so use it only on kernels whose results tests compare with a
    reference, and only where a benchmark shows the gain."""
    fingerprint = source_fingerprint(depends_on) + (";slp" if vectorise else "")

    def decorate(function: Callable) -> Callable:
        dispatcher = numba.njit(cache=True, parallel=parallel, nogil=True)(function)
        if not numba.config.DISABLE_JIT:
            dispatcher._cache = _FingerprintedCache(function, fingerprint)
            if vectorise:
                dispatcher.compile = _with_slp_vectoriser(dispatcher.compile)
        return dispatcher

    return decorate


def _with_slp_vectoriser(compile_signature: Callable) -> Callable:
    """`compile_signature` run with numba's SLP vectoriser switched on (under numba's compiler lock, so
    no other compilation sees the setting)."""

    def compile_vectorised(signature):
        with global_compiler_lock:
            previous = numba.config.SLP_VECTORIZE
            numba.config.SLP_VECTORIZE = 1
            try:
                return compile_signature(signature)
            finally:
                numba.config.SLP_VECTORIZE = previous

    return compile_vectorised


def specialise(templates: Iterable[Callable], bindings: dict[str, Callable | int], depends_on: Iterable[ModuleType],
               fingerprint: str = "") -> SimpleNamespace:
    """numba kernels (``njit(cache=True, nogil=True)``) made from the Python functions `templates`, with the global
    names in `bindings` bound to the given compiled functions, or to integers (compile-time constants:
    loops over them unroll).

    numba cannot cache a kernel that takes compiled functions as arguments, so an algorithm generic
    over a game writes those calls against global names and is compiled once per game here. Templates
    see each other (and themselves) by name, so they may recurse. The disk cache is keyed on the
    sources of `depends_on`, on which functions were bound and on `fingerprint` (what else the bound
    functions depend on, such as the constants of a game's parameters). A bound function may carry its own
    fingerprint in an attribute ``gameproof_fingerprint``; the kernels made here carry theirs (all of the
    above), so that a kernel compiled against them is cached apart for every variant of them (one game
    with its symmetries and without, say, whose own fingerprints differ only in a bound constant).
    """
    templates = list(templates)
    first = templates[0]
    namespace = dict(first.__globals__)
    namespace.update(bindings)
    bound = sorted(f"{name}={value}" if isinstance(value, int) else
                   f"{name}={value.__module__}.{value.__name__}{getattr(value, 'gameproof_fingerprint', '')}"
                   for name, value in bindings.items())
    fingerprint = source_fingerprint([inspect.getmodule(first), *depends_on]) + ";".join(bound) + fingerprint
    compiled = {}
    for template in templates:
        lines, first_line = inspect.getsourcelines(template)
        tree = ast.parse(textwrap.dedent("".join(lines)))
        ast.increment_lineno(tree, first_line - 1)  # numba names its cache files after the line
        exec(compile(tree, inspect.getsourcefile(template) or "<template>", "exec"), namespace)
        function = _named_apart(namespace[template.__name__], fingerprint)
        dispatcher = numba.njit(cache=True, nogil=True)(function)
        if not numba.config.DISABLE_JIT:
            dispatcher._cache = _FingerprintedCache(function, fingerprint)
        dispatcher.gameproof_fingerprint = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
        compiled[template.__name__] = dispatcher
    namespace.update(compiled)
    return SimpleNamespace(**compiled)


def inlined(kernel: Callable) -> Callable:
    """A twin of `kernel` (made by :func:`specialise`) that numba compiles into each kernel calling it instead of
    calling it: a compiled call passes each array it takes as some ten words (a game's ``play`` takes the position
    and the game's tables, 46 words), which a search calling the game's kernels for every child pays many times a
    node. The callers take longer to compile."""
    if numba.config.DISABLE_JIT:
        return kernel
    twin = numba.njit(inline="always", nogil=True)(kernel.py_func)
    twin.gameproof_fingerprint = kernel.gameproof_fingerprint
    return twin


class CompileTime(numba_events.Listener):
    """The time numba spends compiling kernels or loading them from its disk cache, while :func:`compile_timer`
    listens: the spans in which some thread holds numba's compiler lock (``perf_counter`` times; a span nested
    in another, or waiting for another thread's, counts once). `compiled`: whether numba compiled anything (a
    first run), rather than only loading what an earlier run compiled."""

    def __init__(self, on_compiling: Callable[[], None] | None = None) -> None:
        self._on_compiling = on_compiling
        self._depth = 0
        self._began = 0.0
        self.spans: list[tuple[float, float]] = []
        self.compiled = False

    def on_start(self, event: numba_events.Event) -> None:
        if event.kind == COMPILING:
            if not self.compiled and self._on_compiling is not None:
                self._on_compiling()
            self.compiled = True
            return
        self._depth += 1
        if self._depth == 1:
            self._began = time.perf_counter()

    def on_end(self, event: numba_events.Event) -> None:
        if event.kind == COMPILING:
            return
        self._depth -= 1
        if self._depth == 0:
            self.spans.append((self._began, time.perf_counter()))

    def _spans(self) -> list[tuple[float, float]]:
        return [*self.spans, (self._began, time.perf_counter())] if self._depth else self.spans

    @property
    def seconds(self) -> float:
        """The time spent compiling or loading so far (a span still open counts up to now)."""
        return sum(end - start for start, end in self._spans())

    def within(self, start: float, end: float) -> float:
        """The time spent compiling or loading between the ``perf_counter`` times `start` and `end`."""
        return sum(max(0.0, min(end, stop) - max(start, begun)) for begun, stop in self._spans())


#: numba's events: its compiler lock held (compiling, or loading from the disk cache), and a compilation.
HOLDING_LOCK, COMPILING = "numba:compiler_lock", "numba:compile"


@contextmanager
def compile_timer(on_compiling: Callable[[], None] | None = None) -> Iterator[CompileTime]:
    """Within the block, measure the time numba takes to compile, or load from its cache, the kernels that calls
    need, whichever thread they run on; `on_compiling` is called when numba first compiles (not when it only
    loads): for a notice that a first run compiles."""
    timer = CompileTime(on_compiling)
    with numba_events.install_listener(HOLDING_LOCK, timer), numba_events.install_listener(COMPILING, timer):
        yield timer
