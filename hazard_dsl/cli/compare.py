"""`hazard-dsl compare RULESET…`: variants side by side (commands.compare), and the throws on
which their rules differ."""

from __future__ import annotations

from ..commands.charts import check_chart_file
from ..commands.compare import compare_request
from ..commands.loading import load, split_variant
from .output import colour, draw_chart, output_format
from .requests import compare_request as request_of


def command(args) -> int:
    from ..render.comparison import comparison, comparison_json
    from ..render.tables import render

    check_chart_file(args.plot, args.force, [split_variant(text)[0] for text in args.rulesets])
    # each variant's ruleset, in order: its options' types read the texts of its options
    rulesets = {text: load(split_variant(text)[0]) for text in args.rulesets}
    entries, machines = compare_request(request_of(args, rulesets))
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
