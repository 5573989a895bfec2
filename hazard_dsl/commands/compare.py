"""`compare`: rulesets side by side, each variant compiled and analysed."""

from __future__ import annotations

from ..errors import ArgumentError
from .errors import CommandError
from .loading import load, machine_for


def compare_request(request) -> tuple[list, list]:
    """Each variant of a `CompareRequest` (commands.requests), a `RulesetRequest` with its own
    option values, compiled and analysed under the request's `policy`; returns [(label,
    Analysis)] and [(label, Machine)], in order, each shown by its `labels` entry (default:
    RULESET:NAME=VALUE,…)."""
    from ..solve.analysis import analyse
    from ..solve.markov import PolicyError, policy_for

    entries, machines = [], []
    labels = list(request.labels) + [None] * (len(request.variants) - len(request.labels))
    for variant, label in zip(request.variants, labels):
        if label is None:
            chosen = ",".join(f"{k}={v}" for k, v in variant.options.items())
            label = variant.ruleset + (f":{chosen}" if chosen else "")
        machine = machine_for(load(variant.ruleset, variant.text), variant.options)
        try:
            entries.append((label, analyse(machine, policy_for(machine, request.policy))))
        except PolicyError as exc:
            if isinstance(exc, ArgumentError):  # names its argument: each front end words it
                raise
            raise CommandError(str(exc)) from None
        machines.append((label, machine))
    return entries, machines
