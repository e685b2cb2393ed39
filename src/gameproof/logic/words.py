"""Symbolic unsigned words and bits over a :class:`~gameproof.logic.circuit.Circuit`.

A :class:`Word` is a tuple of circuit literals, least significant bit first; a :class:`Bit` is one
literal. Operators mirror Python's int operators but wrap modulo ``2**width``; comparisons are unsigned
(signed ones are named: :func:`slt`, :func:`sle`, :func:`sgt`, :func:`sge`, :func:`ashr`). Python ints mix
freely on either side and are folded modulo ``2**width``. Constant words need no circuit: their bits are
the constant literals, so ``x & 0xFFFF_FFFF_FFFF_FFFF`` on a 64-bit ``x`` is ``x`` itself, for free.

What would not depend on the value a word or bit stands for raises
:class:`~gameproof.logic.untraceable.Untraceable` instead of answering: ``hash``, ``str``, ``format``
(f-strings), iteration, a truth test, a comparison with anything but an int or a word, and any comparison
of a word with a negative int (a word is unsigned: ``w - 1 == -1`` is always false, so it is refused; the
rewriters of :mod:`~gameproof.logic.natural` refuse a literal ``w < 0`` too). ``repr`` stays, for
debugging: it shows ``symbolic`` and never a value.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Union

from gameproof.logic.circuit import FALSE, TRUE, Circuit
from gameproof.logic.untraceable import Untraceable

_FOLD = Circuit()  # operations whose operands are all constant never allocate a gate here


class SymbolicBoolError(Untraceable, TypeError):
    """Raised when Python asks a symbolic value for a single truth value (``if``, ``and``, ``not``...)."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"a truth test on a symbolic {what}",
            "it has no single truth value while tracing: write `ite(cond, a, b)` instead of "
            "`a if cond else b`, `&` `|` `~` instead of `and` `or` `not`, and `assume(cond)` instead of an "
            "early return (natural control flow over symbolic values is not supported yet)"
        )


def _pick(a: Circuit | None, b: Circuit | None) -> Circuit | None:
    if a is None:
        return b
    if b is not None and a is not b:
        raise ValueError("cannot mix symbolic values from two different circuits")
    return a


def _refuse_text(value: Bit | Word, what: str) -> None:
    raise Untraceable(f"{what} of a symbolic {type(value).__name__}",
                      "it would show the tracer's object, not the value it stands for")


def _refuse_hash(value: Bit | Word) -> int:
    raise Untraceable(f"hash() of a symbolic {type(value).__name__} (a set member or dict key)",
                      "`==` on it builds a Bit, so it cannot be looked up; use a list, or compare with `==`")


def _refuse_operand(value: Bit | Word, other: object) -> None:
    raise Untraceable(f"combining a symbolic {type(value).__name__} with {type(other).__name__} {other!r}"[:120],
                      "words and bits stand for unsigned ints and bools; use an int, a bool, a Word or a Bit")


class Bit:
    """A symbolic Boolean: one circuit literal."""

    __slots__ = ("circuit", "lit")
    __hash__ = _refuse_hash  # type: ignore[assignment]  # == builds a Bit, so a Bit cannot be a dict key

    def __init__(self, circuit: Circuit | None, lit: int) -> None:
        self.circuit = circuit if lit > 1 else None
        self.lit = lit

    @property
    def value(self) -> bool | None:
        """The Python bool when this bit is constant, else None."""
        return bool(self.lit) if self.lit <= 1 else None

    def _other(self, other: object) -> tuple[Circuit, int]:
        if isinstance(other, Bit):
            return _pick(self.circuit, other.circuit) or _FOLD, other.lit
        if isinstance(other, int) and other in (0, 1):
            return self.circuit or _FOLD, int(other)
        if not isinstance(other, (int, Word)):
            _refuse_operand(self, other)
        return NotImplemented  # type: ignore[return-value]

    def _binary(self, other: object, op: str) -> Bit:
        pair = self._other(other)
        if pair is NotImplemented:
            return NotImplemented
        circuit, lit = pair
        return Bit(circuit, getattr(circuit, op)(self.lit, lit))

    def __and__(self, other: object) -> Bit:
        return self._binary(other, "and_")

    def __or__(self, other: object) -> Bit:
        return self._binary(other, "or_")

    def __xor__(self, other: object) -> Bit:
        return self._binary(other, "xor")

    __rand__ = __and__
    __ror__ = __or__
    __rxor__ = __xor__
    __ne__ = __xor__  # type: ignore[assignment]

    def __eq__(self, other: object) -> Bit:  # type: ignore[override]
        result = self._binary(other, "xor")
        return result if result is NotImplemented else ~result

    def __invert__(self) -> Bit:
        return Bit(self.circuit, self.lit ^ 1)

    def __bool__(self) -> bool:
        raise SymbolicBoolError("Bit")

    def __str__(self) -> str:
        _refuse_text(self, "str()")

    def __format__(self, spec: str) -> str:
        _refuse_text(self, "format() or an f-string")

    def __repr__(self) -> str:
        return f"Bit({self.value})" if self.lit <= 1 else f"Bit(lit={self.lit})"


_UNSUPPORTED = {
    "floordiv": "`//` (for a power of two, shift: w >> k)", "rfloordiv": "`//`",
    "truediv": "`/`", "rtruediv": "`/`", "mod": "`%` (for a power of two, mask: w & (2**k - 1))", "rmod": "`%`",
    "divmod": "divmod()", "rdivmod": "divmod()", "pow": "`**`", "rpow": "`**`", "abs": "abs()", "round": "round()",
}


def _refuse_unsupported(name: str, what: str) -> Callable[..., None]:
    """A special method ``__name__`` that raises Untraceable for ``what`` (an operator words do not have)."""

    def refuse(self: Bit | Word, *args: object) -> None:
        raise Untraceable(f"{what} of a symbolic {type(self).__name__}",
                          "the tracer does not model it: words have + - * & | ^ ~ << >>, comparisons and popcount")
    refuse.__name__ = f"__{name}__"
    return refuse


for _name, _what in {**_UNSUPPORTED, "index": "using it as an index or an int (a bool is one)"}.items():
    setattr(Bit, f"__{_name}__", _refuse_unsupported(_name, _what))

WordLike = Union["Word", int]


class Word:
    """A symbolic unsigned integer of a fixed width: a tuple of literals, least significant first."""

    __slots__ = ("circuit", "bits")
    __hash__ = _refuse_hash  # type: ignore[assignment]

    def __init__(self, circuit: Circuit | None, bits: Sequence[int]) -> None:
        if not bits:
            raise ValueError("a word needs a width of at least 1")
        self.bits = tuple(bits)
        self.circuit = circuit if max(self.bits) > 1 else None

    @classmethod
    def constant(cls, value: int, width: int) -> Word:
        """The constant ``value mod 2**width`` as a word."""
        if width < 1:
            raise ValueError("a word needs a width of at least 1")
        return cls(None, [(value >> i) & 1 for i in range(width)])

    @property
    def width(self) -> int:
        """Number of bits."""
        return len(self.bits)

    @property
    def value(self) -> int | None:
        """The Python int when every bit is constant, else None."""
        if self.circuit is not None:
            return None
        return sum(1 << i for i, b in enumerate(self.bits) if b)

    def __getitem__(self, index: int) -> Bit:
        """Bit ``index`` (0 is the least significant)."""
        return Bit(self.circuit, self.bits[index])

    def __iter__(self) -> Iterator[Bit]:
        raise Untraceable("iterating over a symbolic Word (a for loop, list(), any(), `in`)",
                          "an int is not a sequence: take its bits with w[i] for i in range(w.width)")

    def __repr__(self) -> str:
        value = self.value
        shown = "symbolic" if value is None else hex(value)
        return f"Word<{self.width}>({shown})"

    def __bool__(self) -> bool:
        raise SymbolicBoolError("Word")

    def __str__(self) -> str:
        _refuse_text(self, "str()")

    def __format__(self, spec: str) -> str:
        _refuse_text(self, "format() or an f-string")

    # --- operands --------------------------------------------------------------------------------

    def _operand(self, other: object) -> tuple[Circuit, tuple[int, ...]]:
        """The circuit to build in and the other operand's bits; NotImplemented for foreign types."""
        if isinstance(other, Word):
            if other.width != self.width:
                raise ValueError(f"width mismatch: {self.width}-bit and {other.width}-bit words")
            return _pick(self.circuit, other.circuit) or _FOLD, other.bits
        if isinstance(other, int):
            return self.circuit or _FOLD, tuple((other >> i) & 1 for i in range(self.width))
        if isinstance(other, Bit):
            raise TypeError("cannot combine a Bit with a Word: widen it first with zext(bit, width)")
        return NotImplemented  # type: ignore[return-value]

    def _bitwise(self, other: object, op: str) -> Word:
        if isinstance(other, int):  # masks are wiring: keep, drop, set or flip each bit
            ones = format(other & ((1 << self.width) - 1), f"0{self.width}b")[::-1]
            if op == "and_":
                bits = [b if one == "1" else FALSE for b, one in zip(self.bits, ones)]
            elif op == "or_":
                bits = [TRUE if one == "1" else b for b, one in zip(self.bits, ones)]
            else:
                bits = [b ^ 1 if one == "1" else b for b, one in zip(self.bits, ones)]
            return Word(self.circuit, bits)
        pair = self._operand(other)
        if pair is NotImplemented:
            return NotImplemented
        circuit, bits = pair
        return Word(circuit, list(map(getattr(circuit, op), self.bits, bits)))

    def __and__(self, other: object) -> Word:
        return self._bitwise(other, "and_")

    def __or__(self, other: object) -> Word:
        return self._bitwise(other, "or_")

    def __xor__(self, other: object) -> Word:
        return self._bitwise(other, "xor")

    __rand__ = __and__
    __ror__ = __or__
    __rxor__ = __xor__

    def __invert__(self) -> Word:
        return Word(self.circuit, [b ^ 1 for b in self.bits])

    # --- arithmetic ------------------------------------------------------------------------------

    def __add__(self, other: object) -> Word:
        pair = self._operand(other)
        if pair is NotImplemented:
            return NotImplemented
        circuit, bits = pair
        return Word(circuit, _add(circuit, self.bits, bits, FALSE)[0])

    __radd__ = __add__

    def __sub__(self, other: object) -> Word:
        pair = self._operand(other)
        if pair is NotImplemented:
            return NotImplemented
        circuit, bits = pair
        return Word(circuit, _add(circuit, self.bits, [b ^ 1 for b in bits], TRUE)[0])

    def __rsub__(self, other: object) -> Word:
        pair = self._operand(other)
        if pair is NotImplemented:
            return NotImplemented
        circuit, bits = pair
        return Word(circuit, _add(circuit, bits, [b ^ 1 for b in self.bits], TRUE)[0])

    def __neg__(self) -> Word:
        return 0 - self

    def __pos__(self) -> Word:
        return self

    def __mul__(self, other: object) -> Word:
        pair = self._operand(other)
        if pair is NotImplemented:
            return NotImplemented
        circuit, bits = pair
        return Word(circuit, _multiply(circuit, self.bits, bits))

    __rmul__ = __mul__

    def bit_count(self) -> Word:
        """Number of one bits, as a word of the same width (like ``int.bit_count``)."""
        circuit = self.circuit or _FOLD
        return Word(circuit, _compress(circuit, [[b for b in self.bits if b]], self.width))

    # --- shifts ----------------------------------------------------------------------------------

    def _shift(self, amount: object, left: bool) -> Word:
        width = self.width
        if isinstance(amount, int):
            if amount < 0:
                raise ValueError("negative shift count")
            k = min(amount, width)
            zeros = (FALSE,) * k
            return Word(self.circuit, zeros + self.bits[: width - k] if left else self.bits[k:] + zeros)
        if isinstance(amount, Word):
            circuit = _pick(self.circuit, amount.circuit) or _FOLD
            return Word(circuit, _barrel(circuit, self.bits, amount.bits, left))
        return NotImplemented

    def __lshift__(self, amount: object) -> Word:
        return self._shift(amount, left=True)

    def __rshift__(self, amount: object) -> Word:
        return self._shift(amount, left=False)

    def __rlshift__(self, other: object) -> Word:
        raise TypeError("`int << Word` has no width: write `Word.constant(value, width) << amount`")

    __rrshift__ = __rlshift__

    # --- comparisons (unsigned) ------------------------------------------------------------------

    def _compare(self, other: object, op: str) -> Bit:
        other = _comparable(self, other, op)
        if isinstance(other, int) and not 0 <= other < 1 << self.width:
            # Out of range: answer as Python does for an unsigned value of this width.
            above = other >= 1 << self.width
            truth = {"eq": False, "ne": True, "lt": above, "le": above, "gt": not above, "ge": not above}[op]
            return Bit(None, TRUE if truth else FALSE)
        pair = self._operand(other)
        if pair is NotImplemented:
            return NotImplemented  # type: ignore[return-value]
        circuit, bits = pair
        if op in ("eq", "ne"):
            lit = circuit.and_all([circuit.xor(a, b) ^ 1 for a, b in zip(self.bits, bits)])
            return Bit(circuit, lit if op == "eq" else lit ^ 1)
        mine, theirs = (self.bits, bits) if op in ("lt", "ge") else (bits, self.bits)
        lit = _less_than(circuit, mine, theirs)
        return Bit(circuit, lit if op in ("lt", "gt") else lit ^ 1)

    def __eq__(self, other: object) -> Bit:  # type: ignore[override]
        return self._compare(other, "eq")

    def __ne__(self, other: object) -> Bit:  # type: ignore[override]
        return self._compare(other, "ne")

    def __lt__(self, other: object) -> Bit:
        return self._compare(other, "lt")

    def __le__(self, other: object) -> Bit:
        return self._compare(other, "le")

    def __gt__(self, other: object) -> Bit:
        return self._compare(other, "gt")

    def __ge__(self, other: object) -> Bit:
        return self._compare(other, "ge")


for _name, _what in _UNSUPPORTED.items():
    setattr(Word, f"__{_name}__", _refuse_unsupported(_name, _what))


_SYMBOL = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def _comparable(word: Word, other: object, op: str) -> Word | int:
    """`other` as a word or a non-negative int; Untraceable for anything a comparison would answer blindly."""
    if isinstance(other, (Word, Bit)):
        return other  # type: ignore[return-value]  # a Bit is refused by _operand with its own message
    if not isinstance(other, int) and hasattr(other, "__index__") and not isinstance(other, float):
        other = other.__index__()  # numpy integers
    if not isinstance(other, int):
        raise Untraceable(f"`word {_SYMBOL[op]} {type(other).__name__}`",
                          "a word stands for an unsigned int: compare it with an int or a word "
                          f"(comparing it with {other!r} would answer without looking at its value)"[:200])
    if other < 0:
        raise Untraceable(f"`word {_SYMBOL[op]} {other}`",
                          "words are unsigned and wrap modulo 2**width, so a word is never negative "
                          "(`w - 1 == -1` is always false); compare without subtracting (`w == 0`), or use "
                          "slt/sle/sgt/sge for two's complement")
    return other


# --- circuits for the operators ------------------------------------------------------------------


def _add(circuit: Circuit, a: Sequence[int], b: Sequence[int], carry: int) -> tuple[list[int], int]:
    """Ripple-carry sum bits and carry out: each full adder is one XOR3 and one MAJ gate."""
    xor3, maj = circuit.xor3, circuit.maj
    out = []
    for x, y in zip(a, b):
        out.append(xor3(x, y, carry))
        carry = maj(x, y, carry)
    return out, carry


def _less_than(circuit: Circuit, a: Sequence[int], b: Sequence[int]) -> int:
    """Literal for unsigned ``a < b``: the borrow chain of ``a - b``, one MAJ gate per bit."""
    maj = circuit.maj
    lt = FALSE
    for x, y in zip(a, b):
        lt = maj(x ^ 1, y, lt)
    return lt


def _compress(circuit: Circuit, columns: list[list[int]], width: int) -> list[int]:
    """Sum columns of bits (column ``i`` weighs ``2**i``) into ``width`` bits with full and half adders."""
    xor, xor3, maj, and_ = circuit.xor, circuit.xor3, circuit.maj, circuit.and_
    columns = [deque(col) for col in columns] + [deque() for _ in range(width - len(columns))]
    out = []
    for i in range(width):
        col = columns[i]
        carries = columns[i + 1] if i + 1 < width else None
        while len(col) > 1:
            x, y = col.popleft(), col.popleft()
            if col:
                z = col.popleft()
                col.append(xor3(x, y, z))
                carry = maj(x, y, z)
            else:
                col.append(xor(x, y))
                carry = and_(x, y)
            if carries is not None and carry:
                carries.append(carry)
        out.append(col[0] if col else FALSE)
    return out


def _multiply(circuit: Circuit, a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Low ``width`` bits of ``a * b``: AND partial products summed column-wise (a Wallace-style tree)."""
    width = len(a)
    columns: list[list[int]] = [[] for _ in range(width)]
    for i, x in enumerate(a):
        if x == FALSE:
            continue
        for j in range(width - i):
            p = circuit.and_(x, b[j])
            if p:
                columns[i + j].append(p)
    return _compress(circuit, columns, width)


def _barrel(circuit: Circuit, bits: Sequence[int], amount: Sequence[int], left: bool) -> list[int]:
    """Shift by a symbolic amount: one multiplexer layer per amount bit; a shift >= width gives 0."""
    width = len(bits)
    current = list(bits)
    too_far = []
    for k, s in enumerate(amount):
        step = 1 << k
        if step >= width:
            too_far.append(s)
            continue
        zeros = [FALSE] * step
        shifted = zeros + current[: width - step] if left else current[step:] + zeros
        current = [circuit.ite(s, x, y) for x, y in zip(shifted, current)]
    keep = circuit.or_all(too_far) ^ 1
    return [circuit.and_(b, keep) for b in current]


# --- functions that also accept plain Python values ----------------------------------------------


def ite(cond: Bit | bool, then: WordLike | Bit | bool, other: WordLike | Bit | bool):
    """``then if cond else other``; symbolic when any argument is, plain Python otherwise."""
    if not isinstance(cond, Bit):
        return then if cond else other
    if cond.lit <= 1:
        return then if cond.lit else other
    if isinstance(then, Word) or isinstance(other, Word):
        t, e = _as_word(then, other), _as_word(other, then)
        circuit = _pick(_pick(cond.circuit, t.circuit), e.circuit) or _FOLD
        return Word(circuit, [circuit.ite(cond.lit, x, y) for x, y in zip(t.bits, e.bits)])
    if isinstance(then, (Bit, bool)) and isinstance(other, (Bit, bool)):
        t_lit, e_lit = _bit_lit(then), _bit_lit(other)
        circuit = _pick(_pick(cond.circuit, getattr(then, "circuit", None)), getattr(other, "circuit", None))
        return Bit(circuit, (circuit or _FOLD).ite(cond.lit, t_lit, e_lit))
    raise TypeError("ite over two plain ints has no width: make one branch a Word (Word.constant(v, width))")


def _bit_lit(value: Bit | bool) -> int:
    return value.lit if isinstance(value, Bit) else int(bool(value))


def _as_word(value: WordLike, like: WordLike) -> Word:
    if isinstance(value, Word):
        if isinstance(like, Word) and like.width != value.width:
            raise ValueError(f"width mismatch: {value.width}-bit and {like.width}-bit words")
        return value
    if isinstance(value, int) and isinstance(like, Word):
        return Word.constant(value, like.width)
    raise TypeError(f"expected a Word or an int, got {type(value).__name__}")


def popcount(x: WordLike) -> WordLike:
    """Number of one bits (``int.bit_count``), for a Word or a non-negative int."""
    return x.bit_count()


def extract(x: WordLike, high: int, low: int) -> WordLike:
    """Bits ``high`` down to ``low`` inclusive, as a word of width ``high - low + 1`` (or a plain int)."""
    if not 0 <= low <= high:
        raise ValueError(f"extract needs 0 <= low <= high, got high={high}, low={low}")
    if isinstance(x, Word):
        if high >= x.width:
            raise ValueError(f"extract bit {high} from a {x.width}-bit word")
        return Word(x.circuit, x.bits[low : high + 1])
    return (x >> low) & ((1 << (high - low + 1)) - 1)


def concat(*parts: Word | Bit) -> Word:
    """Join words (and bits), the first part becoming the most significant."""
    bits: list[int] = []
    circuit = None
    for part in reversed(parts):
        if isinstance(part, Bit):
            bits.append(part.lit)
        elif isinstance(part, Word):
            bits.extend(part.bits)
        else:
            raise TypeError("concat takes Words and Bits (a plain int has no width: use Word.constant)")
        circuit = _pick(circuit, part.circuit)
    return Word(circuit, bits)


def zext(x: Word | Bit, width: int) -> Word:
    """Zero-extend a word or a bit to ``width`` bits."""
    bits = (x.lit,) if isinstance(x, Bit) else x.bits
    if width < len(bits):
        raise ValueError(f"cannot zero-extend {len(bits)} bits to {width}")
    return Word(x.circuit, bits + (FALSE,) * (width - len(bits)))


def sext(x: Word, width: int) -> Word:
    """Sign-extend a word to ``width`` bits."""
    if width < x.width:
        raise ValueError(f"cannot sign-extend {x.width} bits to {width}")
    return Word(x.circuit, x.bits + (x.bits[-1],) * (width - x.width))


def _signed_flip(a: WordLike, b: WordLike, width: int | None) -> tuple[WordLike, WordLike]:
    """Flip the sign bits so that unsigned order on the results is signed order on the inputs."""
    known = [v.width for v in (a, b) if isinstance(v, Word)]
    if known:
        width = known[0]
    elif width is None:
        raise TypeError("signed comparison of two plain ints needs width=")
    sign = 1 << (width - 1)
    return (a ^ sign) & ((sign << 1) - 1), (b ^ sign) & ((sign << 1) - 1)


def slt(a: WordLike, b: WordLike, width: int | None = None) -> Bit | bool:
    """Signed (two's complement) ``a < b``; plain ints need ``width``."""
    x, y = _signed_flip(a, b, width)
    return x < y


def sle(a: WordLike, b: WordLike, width: int | None = None) -> Bit | bool:
    """Signed ``a <= b``."""
    x, y = _signed_flip(a, b, width)
    return x <= y


def sgt(a: WordLike, b: WordLike, width: int | None = None) -> Bit | bool:
    """Signed ``a > b``."""
    x, y = _signed_flip(a, b, width)
    return x > y


def sge(a: WordLike, b: WordLike, width: int | None = None) -> Bit | bool:
    """Signed ``a >= b``."""
    x, y = _signed_flip(a, b, width)
    return x >= y


def ashr(x: WordLike, amount: int, width: int | None = None) -> WordLike:
    """Arithmetic (sign-filling) right shift by a constant amount; plain ints need ``width``."""
    if amount < 0:
        raise ValueError("negative shift count")
    if isinstance(x, Word):
        k = min(amount, x.width)
        return Word(x.circuit, x.bits[k:] + (x.bits[-1],) * k)
    if width is None:
        raise TypeError("ashr of a plain int needs width=")
    signed = x - (1 << width) if x >> (width - 1) & 1 else x
    return (signed >> amount) & ((1 << width) - 1)
