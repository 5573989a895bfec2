"""The option values a compilation is for: a ruleset's defaults overridden by those chosen, each
checked against the values the ruleset offers ("did you mean" for a misspelt name or value)."""

from __future__ import annotations

from ..diagnostics import did_you_mean
from ..errors import ArgumentError, quoted
from ..model import Ruleset
from ..parse.numbers import whole_number


class OptionError(ValueError):
    """A user's choice of option values that the ruleset does not offer."""


class OptionText(OptionError, ArgumentError):
    """An option's assignment that is not NAME=VALUE: an argument's error (`options`), worded by
    each front end (the command line's --option)."""


def resolve_options(ruleset: Ruleset, chosen: dict | None) -> dict:
    """The ruleset's defaults overridden by `chosen` (values already typed)."""
    options = ruleset.default_options()
    for name, value in (chosen or {}).items():
        option = ruleset.options.get(name)
        if option is None:
            known = ", ".join(ruleset.options) or "none"
            raise OptionError(f"{ruleset.name or ruleset.file} has no option {name!r}"
                              f"{did_you_mean(name, ruleset.options)} (options: {known})")
        if value not in option.values:
            raise OptionError(f"option {name!r} has no value {quoted(value)}{did_you_mean(value, option.values)} "
                              f"(values: {', '.join(map(str, option.values))})")
        options[name] = value
    return options


def parse_option_assignments(ruleset: Ruleset, assignments) -> dict:
    """`["main=called", "first_throw=lose"]` → typed option values, with clear errors."""
    chosen = {}
    for text in assignments or ():
        name, sep, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise OptionText("options", f"takes NAME=VALUE, not {text!r}")
        option = ruleset.options.get(name)
        if option is not None and option.type == "int":
            number = whole_number(value)  # ASCII digits: int() would take "٣" for 3
            if number is not None:
                chosen[name] = number
                continue
        chosen[name] = value
    return resolve_options(ruleset, chosen)
