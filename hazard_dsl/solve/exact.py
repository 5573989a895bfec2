"""Exact elimination arithmetic: the numbers the chain solver (`solve.chain`) runs in.

`exact_sum` adds Fractions with one normalisation at the end; `Smooth` keeps a chance whose
denominator is a product of small primes unnormalised (no gcd until a figure is read);
`FRACTIONS` and `SMOOTH` are the two arithmetics the forward pass may run in, and `Visits`
its result, read like a dict.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

ZERO, ONE = Fraction(0), Fraction(1)


# A short chain's chances have few digits, and Fractions (in C-backed integers) beat Smooth's
# Python bookkeeping there; from this many nodes on, the digits grow enough for Smooth to win.
SMOOTH_FROM = 500

# Denominators below this are factored (by trial division, once each): a dice game's chances
# are counts over 36, their complements, and a choice's 1/n.
SMALL_DENOMINATOR = 1 << 20


class Rough(ArithmeticError):
    """A chance whose denominator is too large to factor: the chain is solved in Fractions."""


_FACTORS: dict = {}


def _factors(n: int) -> tuple:
    """The prime factors of a small positive integer, with multiplicity: 36 → (2, 2, 3, 3)."""
    found = _FACTORS.get(n)
    if found is None:
        out, m, p = [], n, 2
        while p * p <= m:
            while m % p == 0:
                out.append(p)
                m //= p
            p += 1
        if m > 1:
            out.append(m)
        found = _FACTORS[n] = tuple(out)
    return found


_POWERS: dict = {}


def _power(p: int, e: int) -> int:
    """p ** e, remembered: the same large powers recur when terms from different parts of a
    long game are summed (bounded, so a long solve cannot fill memory with them)."""
    found = _POWERS.get((p, e))
    if found is None:
        if len(_POWERS) > 4096:
            _POWERS.clear()
        found = _POWERS[p, e] = p ** e
    return found


class Smooth:
    """An exact non-negative rational numerator / Π pᵉ kept unnormalised, its denominator a
    product of small primes held as exponents. Multiplying by a small fraction cancels what it
    can against the exponents and multiplies the rest; sums bring the terms to the larger
    exponents. Nothing takes a gcd until `fraction()`, once per figure reported."""

    __slots__ = ("exponents", "numerator")

    def __init__(self, numerator: int, exponents: dict):
        self.numerator = numerator
        self.exponents = exponents  # prime -> power of the denominator

    @classmethod
    def of(cls, value) -> Smooth:
        value = Fraction(value)
        if value.denominator >= SMALL_DENOMINATOR:
            raise Rough
        return cls(value.numerator, {}).times(1, value.denominator)

    def times(self, k: int, m: int) -> Smooth:
        """self · k / m, for a small m (k any non-negative integer)."""
        if m >= SMALL_DENOMINATOR:
            raise Rough
        if not k:
            return Smooth(0, {})
        exponents = dict(self.exponents)
        numerator = self.numerator
        if k < SMALL_DENOMINATOR:
            for p in _factors(k):
                if exponents.get(p):
                    exponents[p] -= 1
                else:
                    numerator *= p
        else:
            numerator *= k
        for p in _factors(m):
            exponents[p] = exponents.get(p, 0) + 1
        return Smooth(numerator, exponents)

    @staticmethod
    def total(parts) -> Smooth:
        """The exact sum. Terms arrive roughly in order of growing exponents (sources first), so
        bringing the running sum up to each term multiplies it by a small number."""
        parts = list(parts)
        if len(parts) == 1:
            return parts[0]
        numerator, exponents = 0, {}
        for part in parts:
            n = part.numerator
            if not n:
                continue
            up_sum = up_part = 1
            for p, e in part.exponents.items():
                have = exponents.get(p, 0)
                if e > have:
                    up_sum *= _power(p, e - have)
                    exponents[p] = e
            for p, have in exponents.items():
                e = part.exponents.get(p, 0)
                if have > e:
                    up_part *= _power(p, have - e)
            numerator = numerator * up_sum + n * up_part
        return Smooth(numerator, exponents)

    def fraction(self) -> Fraction:
        denominator = 1
        for p, e in self.exponents.items():
            denominator *= p ** e
        return Fraction(self.numerator, denominator)


class _Fractions:
    """The forward pass's arithmetic in Fractions: short chains, and large prime denominators."""

    of = staticmethod(Fraction)
    fraction = staticmethod(lambda x: x)
    nonzero = staticmethod(bool)

    @staticmethod
    def total(parts) -> Fraction:
        return exact_sum(parts)

    @staticmethod
    def leave(x: Fraction, p_self: Fraction) -> Fraction:
        """x / (1 − p_self): the visits of a state that throws again with chance p_self."""
        return x / (ONE - p_self)

    @staticmethod
    def times(x: Fraction, p: Fraction) -> Fraction:
        return x * p


class _Smooths:
    """The same arithmetic over `Smooth` numbers: no gcd until a figure is read."""

    of = staticmethod(lambda value: Smooth.of(value))
    fraction = staticmethod(lambda x: x.fraction())
    nonzero = staticmethod(lambda x: bool(x.numerator))

    @staticmethod
    def total(parts) -> Smooth:
        return Smooth.total(parts)

    @staticmethod
    def leave(x: Smooth, p_self: Fraction) -> Smooth:
        return x.times(p_self.denominator, p_self.denominator - p_self.numerator)  # x · b / (b − a)

    @staticmethod
    def times(x: Smooth, p: Fraction) -> Smooth:
        return x.times(p.numerator, p.denominator)


FRACTIONS, SMOOTH = _Fractions, _Smooths


class Visits:
    """The forward pass's result, {node: expected visits or probability}, read like a dict. Its
    values are made Fractions when read; `total` sums a set of nodes exactly first, so a figure
    over thousands of end states is normalised once, not once per state."""

    def __init__(self, raw: dict, number=FRACTIONS):
        self._raw = raw
        self._number = number  # the arithmetic the values are in
        self._read: dict = {}

    def __getitem__(self, node) -> Fraction:
        found = self._read.get(node)
        if found is None:
            found = self._read[node] = self._number.fraction(self._raw[node])
        return found

    def get(self, node, default=None):
        return self[node] if node in self._raw else default

    def __contains__(self, node) -> bool:
        return node in self._raw

    def __iter__(self):
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def items(self):
        return ((node, self[node]) for node in self._raw)

    def total(self, nodes) -> Fraction:
        """Σ visits over `nodes` (those never reached count 0), normalised once."""
        raw = self._raw
        parts = [raw[n] for n in nodes if n in raw]
        if not parts:
            return ZERO
        return self._number.fraction(self._number.total(parts))


def exact_sum(values) -> Fraction:
    """The exact sum of Fractions, normalised once at the end. The chances of a dice game have
    denominators that divide one another (powers of 36, mostly), so the running sum is kept
    over the larger denominator with a division, not a gcd per addition — the difference
    between seconds and milliseconds when the denominators have thousands of digits."""
    if values.__class__ is list and len(values) == 1 and values[0].__class__ is Fraction:
        return values[0]  # already in lowest terms: no gcd at all
    numerator, denominator = 0, 1
    for value in values:
        n, d = value.numerator, value.denominator
        if d == denominator:
            numerator += n
        elif denominator % d == 0:
            numerator += n * (denominator // d)
        elif d % denominator == 0:
            numerator = numerator * (d // denominator) + n
            denominator = d
        else:
            g = gcd(denominator, d)
            numerator = numerator * (d // g) + n * (denominator // g)
            denominator = denominator // g * d
    return Fraction(numerator, denominator)

