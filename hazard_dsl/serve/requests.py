"""The web API's JSON read into the request each command takes (`commands.requests`), as the
command line reads its flags into them (`cli.requests`).

The routes (`serve.api`, `serve.tables`) check the JSON's shape before any work: a ruleset
named by a built-in name or a file of the folder, options an object of words ({"main":
"called"}, a number sent as its digits), a tape a string. What needs the ruleset is done here,
in the piece of work that reads it (`serve.work`): an option whose values are whole numbers
takes its digits as a number, as `--option rounds=3` does, and every option is checked before
the work starts, so that a compare refuses a variant's option before it analyses the others.

A value that cannot be used raises the same error it raises at the command line, an
`ArgumentError` naming the request's field where it names one, which the web API words with
the JSON's field names (`serve.wording`). No text made here is read back: the JSON's values go
into the request's fields as values.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..commands.requests import (
    AnalyseRequest,
    CompareRequest,
    GraphRequest,
    RulesetRequest,
    RulesRequest,
)


def option_values(ruleset, given: Mapping[str, str]) -> dict:
    """{"rounds": "3", "main": "called"} → {"rounds": 3, "main": "called"}: an option whose
    values are whole numbers takes ASCII digits as a number ("٣" is no 3); any other value
    stays as sent. Each name and value is checked against the ruleset (an unknown one is
    refused with "did you mean", as at the command line)."""
    from ..compile.options import OptionError, resolve_options
    from ..parse.numbers import whole_number

    chosen: dict = {}
    for name, value in given.items():
        option = ruleset.options.get(name)
        number = whole_number(value) if option is not None and option.type == "int" else None
        chosen[name] = value if number is None else number
    try:
        resolve_options(ruleset, chosen)  # checked now: the work that follows compiles with them
    except OptionError as exc:
        from ..commands.errors import CommandError
        from ..errors import ArgumentError

        if isinstance(exc, ArgumentError):  # names its field: the web API words it (serve.wording)
            raise
        raise CommandError(str(exc)) from None
    return chosen


def _ruleset_fields(name: str, options: Mapping[str, str], text: str | None) -> dict:
    from ..commands.loading import load

    return {"ruleset": name, "options": option_values(load(name, text), options), "text": text}


def analyse_request(name: str, options: Mapping[str, str], text: str | None = None) -> AnalyseRequest:
    """POST /api/analyse: the analysis `analyse --json` gives, every other field at its default
    (as the command line given only --option)."""
    return AnalyseRequest(**_ruleset_fields(name, options, text))


def rules_request(name: str, options: Mapping[str, str], text: str | None = None) -> RulesRequest:
    """GET /api/rules/NAME: the rule sheet as HTML."""
    return RulesRequest(**_ruleset_fields(name, options, text), format="html")


def graph_request(name: str, options: Mapping[str, str], fmt: str, text: str | None = None) -> GraphRequest:
    """/api/graph: the machine drawn in `fmt` (svg, mermaid or json, checked by the route)."""
    return GraphRequest(**_ruleset_fields(name, options, text), format=fmt)


def compare_request(variants, labels) -> CompareRequest:
    """POST /api/compare: `variants` (ruleset, {option: value}) pairs, each shown as its entry
    of `labels` (a folder's file by its name, not its path); every variant's options are
    checked before any is analysed."""
    from ..commands.loading import load

    asked = tuple(RulesetRequest(name, option_values(load(name), options)) for name, options in variants)
    return CompareRequest(asked, labels=tuple(labels))


def unknown_field(given: Mapping, known) -> str | None:
    """The first key of `given` (a JSON object a client sent) that is none of `known`, said as
    "'polcy' (did you mean 'policy'?)", or None: the one check by which every POST route, a
    chart's settings and a compare's variants refuse what they would otherwise ignore."""
    from ..diagnostics import did_you_mean

    for key in given:
        if key not in known:
            return f"{str(key)[:40]!r}{did_you_mean(str(key)[:40], list(known))}"
    return None


def tape(text: str | None, ruleset=None) -> tuple | None:
    """A table's tape as JSON sends it, "3-4 6-6" → the throws as `play.dice.DiceTape` holds
    them (None: the table's seeded dice); a tape that cannot be read is an `ArgumentError`
    naming `dice`, worded with `ruleset`'s dice."""
    if text is None:
        return None
    from ..play.dice import DiceTape

    return tuple(DiceTape.parse(text, ruleset).throws)


__all__ = ["analyse_request", "compare_request", "graph_request", "option_values", "rules_request", "tape",
           "unknown_field"]
