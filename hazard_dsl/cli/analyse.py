"""`hazard-dsl analyse RULESET`: the exact figures (commands.analyse), as tables, JSON or a chart."""

from __future__ import annotations

from ..commands import analyse as analysing
from ..commands.charts import check_chart_file
from .output import colour, draw_chart, output_format


def command(args) -> int:
    from ..render.report import analysis_header, analysis_json, analysis_tables
    from ..render.tables import render

    analysing.check_session_settings(args.bankroll, args.goal, args.stake,
                                     analysing.seat_bets(args.bet) or args.players is not None)
    check_chart_file(args.plot)
    analysis = analysing.analyse(args.ruleset, args.option, args.policy, args.by, bets=args.bet, hand=args.hand,
                                 bankroll=args.bankroll, goal=args.goal, stake=args.stake,
                                 by_option=not args.no_options, players=args.players)
    if args.plot:
        from ..render.plot import analysis_chart

        draw_chart(analysis_chart, analysis, args.plot)
    fmt = output_format(args)
    if fmt == "json":
        import json  # imported only for --json

        print(json.dumps(analysis_json(analysis), indent=2))
    else:
        print(render(analysis_tables(analysis, args.throws), fmt, analysis_header(analysis), colour()), end="")
    return 0
