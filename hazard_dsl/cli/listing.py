"""`hazard-dsl list`: the built-in rulesets."""

from __future__ import annotations

from ..commands.listing import list_request
from .output import colour, output_format
from .requests import list_request as request_of


def command(args) -> int:
    from ..render.tables import Table, render

    entries = list_request(request_of(args))
    fmt = output_format(args)
    if fmt == "json":
        import json  # imported only for --json

        print(json.dumps(entries, indent=2))
        return 0
    t = Table("Built-in rulesets", ["name", "year", "ruleset"], align=["left", "right", "left"],
              caption="hazard-dsl show NAME describes one; hazard-dsl analyse NAME gives its figures.")
    for e in entries:
        t.add(e["name"], e["year"] if e["year"] is not None else "",
              e["title"] if e["title"] is not None else "(does not check: run hazard-dsl check)")
    print(render([t], fmt, colour=colour()), end="")
    return 0
