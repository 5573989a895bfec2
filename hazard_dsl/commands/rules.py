"""`rules`: the rule sheet (render.rulesheet) as text, Markdown, HTML or JSON."""

from __future__ import annotations

from ..errors import ArgumentError
from .errors import CommandError
from .loading import build_machine, load


def rule_sheet(name: str, option_texts=(), fmt: str = "text", policy: str = "optimal", colour: bool = False,
               text: str | None = None) -> str:
    """The rule sheet of ruleset `name` (with `text`: the rule file in that string, shown as
    `name`) with these options, its figures under `policy`."""
    from ..render.rulesheet import rule_sheet
    from ..solve.markov import PolicyError

    machine = build_machine(load(name, text), list(option_texts))
    try:
        return rule_sheet(machine, fmt, policy, colour)
    except PolicyError as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None


def rules_request(request) -> str:
    """`rule_sheet` for a `RulesRequest` (commands.requests): options by value."""
    from ..render.rulesheet import rule_sheet
    from ..solve.markov import PolicyError
    from .loading import machine_for

    machine = machine_for(load(request.ruleset, request.text), request.options)
    try:
        return rule_sheet(machine, request.format, request.policy, request.colour)
    except PolicyError as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None
