"""Narration templates: ``{name}`` or ``{name:word}`` filled from the game's state.

A tiny substitution of our own rather than ``str.format``: rule files are untrusted, and a
format string could reach into attributes. ``:word`` spells a number the period's way
("seven is the main").
"""

from __future__ import annotations

import re

from ..model import NUMBER_WORDS
from ..money import (MAX_MONEY_TEXT, MoneyText, amount, money_amount, money_examples,  # noqa: F401 - re-exported:
                     money_read, money_told, money_typed, number)  # the money's words live below play
from ..parse.templates import FIELD as _FIELD, template_names  # noqa: F401 - the template's syntax is parse's


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


def sentences(text: str, keep=()) -> str:
    """Text whose sentences each begin with a capital: the first letter, and a letter after ".",
    "!" or "?" and a space ("Crabs! Deuce-ace is out to every main."). A letter inside one of
    `keep` (the names of the people at the table) is left as written: a name is not a sentence's
    word, and "Mrs. de Vere" or "e. e. cummings" must not become "Mrs. De Vere", "E. E. Cummings"."""
    text = text.strip()
    kept = [(m.start(), m.end()) for name in keep if name for m in re.finditer(re.escape(name), text)]

    def free(at: int) -> bool:
        return not any(start <= at < end for start, end in kept)

    if text[:1].islower() and free(0):
        text = text[0].upper() + text[1:]
    return _SENTENCE_END.sub(lambda m: m.group(1) + (m.group(2).upper() if free(m.start(2)) else m.group(2)),
                             text)
