"""Exact amounts written by people: `12`, `10.5`, `21/2`, `5%`, `-1` — read into `Fraction`s.

Python's `Fraction("1e999999999")` expands the exponent (it hangs), and a number of thousands
of digits is no amount of money; so the text is matched against a plain pattern first, with a
bounded number of digits, and nothing else is handed to `Fraction`.
"""

from __future__ import annotations

import re
from fractions import Fraction

MAX_DIGITS = 15  # in each part: whole, decimals, denominator

_AMOUNT = re.compile(rf"([+-]?)(\d{{1,{MAX_DIGITS}}})(?:\.(\d{{1,{MAX_DIGITS}}}))?(?:/(\d{{1,{MAX_DIGITS}}}))?")


def exact_amount(text: str, percent: bool = True) -> Fraction | None:
    """The exact value of `text`, or None if it is not a plain amount. `5%` is 1/20 when
    `percent` allows it. ASCII digits only (a superscript ² is no digit here)."""
    text = text.strip()
    scale = Fraction(1)
    if percent and text.endswith("%"):
        text, scale = text[:-1].strip(), Fraction(1, 100)
    if not text.isascii():
        return None
    match = _AMOUNT.fullmatch(text)
    if match is None:
        return None
    sign, whole, decimals, denominator = match.groups()
    value = Fraction(int(whole))
    if decimals:
        value += Fraction(int(decimals), 10 ** len(decimals))
    if denominator is not None:
        if int(denominator) == 0:
            return None
        value /= int(denominator)
    return (-value if sign == "-" else value) * scale
