"""`hazard-dsl compare RULESET…`: variants side by side (commands.compare), and the throws on
which their rules differ."""

from __future__ import annotations

import json

from ..commands.charts import check_chart_file
from ..commands.compare import compare
from .output import colour, draw_chart, output_format


def command(args) -> int:
    from ..render.report import analysis_json, comparison
    from ..render.tables import render

    check_chart_file(args.plot)
    entries, machines = compare(args.rulesets, args.option, args.policy)
    if args.plot:
        from ..render.plot import compare_chart

        draw_chart(compare_chart, entries, args.plot, rulesets=[m.ruleset for _, m in machines])
    fmt = output_format(args)
    if fmt == "json":
        from ..render.report import differences

        base_name, base = machines[0]
        print(json.dumps({
            "rulesets": [dict(analysis_json(a), name=text) for text, a in entries],
            "differences": [{"base": base_name, "other": other_name, "rows": differences(base, other)}
                            for other_name, other in machines[1:]],
        }, indent=2))
        return 0
    header, tables = comparison(entries, [machine for _, machine in machines])
    print(render(tables, fmt, header, colour()), end="")
    return 0
