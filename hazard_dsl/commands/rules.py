"""`rules`: the rule sheet (render.rulesheet) as text, Markdown, HTML or JSON."""

from __future__ import annotations

from ..errors import ArgumentError
from .errors import CommandError
from .loading import load, machine_for


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
