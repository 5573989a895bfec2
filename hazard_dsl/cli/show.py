"""`hazard-dsl show RULESET`: what a ruleset is, before its figures (render.show)."""

from __future__ import annotations

from ..commands.loading import show_request
from .output import colour, output_format
from .requests import show_request as request_of


def command(args) -> int:
    from ..render.show import show_json, show_tables
    from ..render.tables import render

    ruleset = show_request(request_of(args))
    fmt = output_format(args)
    if fmt == "json":
        import json  # imported only for --json

        print(json.dumps(show_json(ruleset), indent=2))
        return 0
    header, tables = show_tables(ruleset)
    print(render(tables, fmt, header, colour()), end="")
    return 0
