"""`compare`: rulesets side by side, each variant compiled and analysed."""

from __future__ import annotations

from ..errors import ArgumentError
from .errors import CommandError
from .loading import build_machine, load, split_variant


def compare(variants, option_texts=(), policy: str = "optimal") -> tuple[list, list]:
    """Each variant (`RULESET[:NAME=VALUE,…]`) compiled with `option_texts` and its own options,
    and analysed under `policy`; returns [(text, Analysis)] and [(text, Machine)], in order."""
    from ..solve.analysis import analyse
    from ..solve.markov import PolicyError, policy_for

    entries, machines = [], []
    for text in variants:
        name, options = split_variant(text)
        machine = build_machine(load(name), list(option_texts) + options)
        try:
            entries.append((text, analyse(machine, policy_for(machine, policy))))
        except PolicyError as exc:
            if isinstance(exc, ArgumentError):  # names its argument: each front end words it
                raise
            raise CommandError(str(exc)) from None
        machines.append((text, machine))
    return entries, machines


def compare_request(request) -> tuple[list, list]:
    """`compare` for a `CompareRequest` (commands.requests): each variant a `RulesetRequest`
    with its own option values, shown by its `labels` entry (default: RULESET:NAME=VALUE,…)."""
    from ..solve.analysis import analyse
    from ..solve.markov import PolicyError, policy_for
    from .loading import machine_for

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
