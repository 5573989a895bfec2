"""`hazard-dsl compare RULESET…`: variants side by side (commands.compare), and the throws on
which their rules differ."""

from __future__ import annotations

from ..commands.charts import check_chart_file
from ..commands.compare import compare
from .output import colour, draw_chart, output_format


def command(args) -> int:
    from ..render.comparison import comparison, comparison_json
    from ..render.tables import render

    check_chart_file(args.plot)
    entries, machines = compare(args.rulesets, args.option, args.policy)
    if args.plot:
        from ..render.plot import compare_chart

        draw_chart(compare_chart, entries, args.plot, rulesets=[m.ruleset for _, m in machines])
    fmt = output_format(args)
    if fmt == "json":
        import json  # imported only for --json

        print(json.dumps(comparison_json(entries, machines), indent=2))
        return 0
    header, tables = comparison(entries, [machine for _, machine in machines])
    print(render(tables, fmt, header, colour()), end="")
    return 0
