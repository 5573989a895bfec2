"""`rules`: the rule sheet (render.rulesheet) as text, Markdown, HTML or JSON."""

from __future__ import annotations

from ..errors import ArgumentError
from .errors import CommandError
from .loading import load, machine_for, option_values


def rule_sheet(name: str, option_texts=(), fmt: str = "text", policy: str = "optimal", colour: bool = False,
               text: str | None = None) -> str:
    """`rules_request` for options given as NAME=VALUE texts. Kept only for the web API's jobs
    (serve/jobs.py) until they build a `RulesRequest` from JSON."""
    from .requests import RulesRequest

    options = option_values(load(name, text), option_texts)
    return rules_request(RulesRequest(name, options, policy, text, format=fmt, colour=colour))


def rules_request(request) -> str:
    """The rule sheet a `RulesRequest` (commands.requests) asks for: its ruleset with the
    options' values, its figures under the request's policy, in its format."""
    from ..render.rulesheet import rule_sheet
    from ..solve.markov import PolicyError

    machine = machine_for(load(request.ruleset, request.text), request.options)
    try:
        return rule_sheet(machine, request.format, request.policy, request.colour)
    except PolicyError as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None
