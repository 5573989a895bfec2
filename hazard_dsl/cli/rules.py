"""`hazard-dsl rules RULESET`: the rule sheet (commands.rules), to print."""

from __future__ import annotations

from ..commands.loading import load
from ..commands.rules import rules_request
from .output import colour, output_format
from .requests import rules_request as request_of


def command(args) -> int:
    fmt = output_format(args)
    # the ruleset first: its options' types read the --option texts (and a name it lacks is
    # refused before any option is)
    request = request_of(args, load(args.ruleset), colour() if fmt == "text" else False)
    print(rules_request(request), end="")
    return 0
