"""Narration templates: ``{name}`` or ``{name:word}`` filled from the game's state.

A tiny substitution of our own rather than ``str.format``: rule files are untrusted, and a
format string could reach into attributes. ``:word`` spells a number the period's way
("seven is the main").
"""

from __future__ import annotations

import re

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


def amount(value, unit: str, units: str | None = None) -> str:
    """Money in the rule file's unit: "1 shilling", "2 pence", "1/2 penny" — the unit for one,
    its plural (`units`, else made by rule) for any other amount."""
    from fractions import Fraction

    from ..play.wagers import money

    value = Fraction(value)
    return f"{money(value)} {unit if abs(value) == 1 else units or plural(unit)}"


def money_amount(ruleset, value) -> str:
    """`amount` in a ruleset's money unit."""
    return amount(value, ruleset.money_unit, ruleset.money_units)
