"""Numbers written by people: exact amounts (`12`, `10.5`, `21/2`, `5%`, `-1`, read into
`Fraction`s) and whole numbers (a flag's `--games 1000`, a YAML integer in a rule file).

Python's `Fraction("1e999999999")` expands the exponent (it hangs), and a number of thousands
of digits is no amount of money; so the text is matched against a plain pattern first, with a
bounded number of digits, and nothing else is handed to `Fraction`. `int()` and `Fraction()`
also take any Unicode digit (`int("٣") == 3`, `"²".isdigit()` is true but `int("²")` fails) and
refuse more than 4,300 decimal digits with an error of their own; so every number is matched
against ASCII digits, bounded in length, before it is converted.
"""

from __future__ import annotations

import re
from fractions import Fraction

MAX_DIGITS = 15  # in each part: whole, decimals, denominator

MAX_WHOLE_DIGITS = 20  # a whole number on the command line: a seed is below 2**64 (20 digits)
MAX_YAML_DIGITS = 64  # a YAML integer in a rule file, in any base (`0x…`, `0b…`, `1_000`)

MAX_EXACT_DIGITS = 64  # in each part of an exact amount a program wrote (a purse after commissions)


def _pattern(digits: int):
    return re.compile(rf"([+-]?)(\d{{1,{digits}}})(?:\.(\d{{1,{digits}}}))?(?:/(\d{{1,{digits}}}))?")


_AMOUNT = _pattern(MAX_DIGITS)
_EXACT = _pattern(MAX_EXACT_DIGITS)


def exact_amount(text: str, percent: bool = True, written: bool = False) -> Fraction | None:
    """The exact value of `text`, or None if it is not a plain amount. `5%` is 1/20 when
    `percent` allows it. ASCII digits only (a superscript ² is no digit here). An amount a
    program `written` (a log's, an action's: a purse after commissions may be 758400665310189/
    1250000000000000) may have up to MAX_EXACT_DIGITS digits in each part; a person's, MAX_DIGITS."""
    text = text.strip()
    scale = Fraction(1)
    if percent and text.endswith("%"):
        text, scale = text[:-1].strip(), Fraction(1, 100)
    if not text.isascii():
        return None
    match = (_EXACT if written else _AMOUNT).fullmatch(text)
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


_WHOLE = re.compile(r"([+-]?)([0-9]+)")  # [0-9], not \d: ASCII digits only


def whole_number(text: str, max_digits: int = MAX_WHOLE_DIGITS) -> int | None:
    """The whole number `text` spells in ASCII digits 0-9, with an optional sign and spaces
    around it; None for anything else: a Unicode digit (`٣`, `３`, `²`), an underscore, a
    fraction, or more than `max_digits` digits."""
    match = _WHOLE.fullmatch(text.strip())
    if match is None or len(match.group(2)) > max_digits:  # checked before int() is asked
        return None
    value = int(match.group(2))
    return -value if match.group(1) == "-" else value


def spells_whole(text: str) -> bool:
    """Whether `text` is written as a whole number in ASCII digits, however many."""
    return _WHOLE.fullmatch(text.strip()) is not None


def yaml_int_digits(text: str) -> int:
    """How many digits a YAML 1.1 integer is written with (`-0x_ff` has 2, `0755` has 3,
    `1:30:00` has 5): the size that decides whether it is sensible to convert it at all.
    Leading zeros count (beyond the `0` of an octal number): int() refuses 5,000 of them too."""
    text = text.strip().lstrip("+-").replace("_", "").replace(":", "")
    if text[:2].lower() in ("0x", "0o", "0b"):
        text = text[2:]
    elif len(text) > 1 and text[0] == "0":  # 0755: octal
        text = text[1:]
    return len(text)


def exact_money(value) -> str:
    """An amount as events, logs and JSON write it, exactly: "3", "5/2"."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
