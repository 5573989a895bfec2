"""`hazard-dsl rules RULESET`: the rule sheet (commands.rules), to print."""

from __future__ import annotations

from ..commands.rules import rule_sheet
from .output import colour, output_format


def command(args) -> int:
    fmt = output_format(args)
    print(rule_sheet(args.ruleset, args.option, fmt, args.policy,
                     colour() if fmt == "text" else False), end="")
    return 0
