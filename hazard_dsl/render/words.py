"""Narration templates: ``{name}`` or ``{name:word}`` filled from the game's state.

A tiny substitution of our own rather than ``str.format``: rule files are untrusted, and a
format string could reach into attributes. ``:word`` spells a number the period's way
("seven is the main").
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..model import NUMBER_WORDS, plural

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::(word|Word))?\}")


def template_names(template: str) -> set[str]:
    return {m.group(1) for m in _FIELD.finditer(template)}


def number_word(value) -> str:
    if isinstance(value, int) and 0 <= value < len(NUMBER_WORDS):
        return NUMBER_WORDS[value]
    return str(value)


def fill(template: str, values: dict) -> str:
    def one(match: re.Match) -> str:
        name, style = match.group(1), match.group(2)
        if name not in values:
            return match.group(0)
        value = values[name]
        if style == "word":
            return number_word(value)
        if style == "Word":
            return number_word(value).capitalize()
        return str(value)

    return _FIELD.sub(one, template)


_SENTENCE_END = re.compile(r"([.!?][)\"'’”]*\s+)([a-z])")


def sentences(text: str) -> str:
    """Text whose sentences each begin with a capital: the first letter, and a letter after ".",
    "!" or "?" and a space ("Crabs! Deuce-ace is out to every main.")."""
    text = text.strip()
    if text[:1].islower():
        text = text[0].upper() + text[1:]
    return _SENTENCE_END.sub(lambda m: m.group(1) + m.group(2).upper(), text)


# Fractions a reader knows at sight, written as the period wrote them (10½d); others as n/m.
_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}


def number(value, places: int = 2, glyphs: bool = False) -> str:
    """An exact amount as a person reads it, never an improper fraction: 12, 12.50 (a decimal to
    `places` where that is exact), else a whole number and a proper fraction: 1 7/8 (with
    `glyphs`, ½ ¼ ¾ as such: 10½)."""
    value = Fraction(value)
    sign, value = ("-" if value < 0 else ""), abs(value)
    whole, part = divmod(value, 1)
    if not part:
        return f"{sign}{whole}"
    scaled = value * 10**places
    if places and scaled.denominator == 1:
        digits = str(scaled.numerator).rjust(places + 1, "0")
        return f"{sign}{digits[:-places]}.{digits[-places:]}"
    if glyphs and part in _GLYPHS:
        return f"{sign}{whole or ''}{_GLYPHS[part]}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


def amount(value, unit: str, units: str | None = None) -> str:
    """Money in the rule file's unit: "1 shilling", "2 pence", "1 7/8 shillings" — the unit for
    one, its plural (`units`, else made by rule) for any other amount; never an improper fraction."""
    value = Fraction(value)
    return f"{number(value)} {unit if abs(value) == 1 else units or plural(unit)}"


def money_amount(ruleset, value) -> str:
    """Money as the ruleset's players tell it: a sum the period names ("half a guinea"), else in
    its coinage (`money: coins:`, "1s 10½d"), else in its unit ("21/2" → "10.50 shillings")."""
    return money_told(ruleset.table, value)


def money_told(table, value) -> str:
    """`money_amount` for a ruleset's `Table` (its `money:`). What is left below the smallest
    coin is told exactly as a fraction of that coin: 1/96 shilling is "⅛d" ("1/8d"), a farthing
    ¼d."""
    value = Fraction(value)
    if value < 0:
        return "-" + money_told(table, -value)
    for named in table.sums:
        if named.amount == value:
            return named.words
    coins = table.coins
    if not coins:
        return amount(value, table.unit, table.units)
    if value == 0:
        coin = next((c for c in coins if c.worth == 1), coins[-1])
        return _coin(coin, Fraction(0))
    parts, rest = [], value
    for i, coin in enumerate(coins):
        if i == len(coins) - 1:
            count = rest / coin.worth
        else:
            count = Fraction(rest // coin.worth)
        rest -= count * coin.worth
        if count:
            parts.append(_coin(coin, count))
    if all(c.short for c in coins):
        return " ".join(parts)
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _coin(coin, count: Fraction) -> str:
    """A count of one coin: "6d", "£1", "$12.50", "6 pence"."""
    shown = number(count, coin.places, glyphs=True) if coin.places else number(count, 0, glyphs=True)
    if coin.short:
        return coin.short.replace("{n}", shown)
    return f"{shown} {coin.name if count == 1 or 0 < count < 1 else coin.names}"
