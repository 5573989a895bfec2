"""`hazard-dsl analyse RULESET`: the exact figures (commands.analyse), as tables, JSON or a chart."""

from __future__ import annotations

from ..commands import analyse as analysing
from ..commands.charts import check_chart_file
from .output import colour, draw_chart, output_format


def command(args) -> int:
    from ..render.report import analysis_header, analysis_json, analysis_tables
    from ..render.tables import render

    from ..commands import staking as staking_

    staking = staking_.wanted(args)
    if staking:  # the best stake, Kelly, a progression or a risk of ruin: bankroll, goal and stake are theirs
        staking_.check(args)
    else:
        analysing.check_session_settings(args.bankroll, args.goal, args.stake,
                                         analysing.seat_bets(args.bet) or args.players is not None)
    analysing.check_risk_settings(None if staking else args.games, args.stop_loss, args.stop_win, args.tail, args.bet,
                                  analysing.seat_bets(args.bet) or args.players is not None)
    check_chart_file(args.plot)
    analysis = analysing.analyse(args.ruleset, args.option, args.policy, args.by, bets=args.bet, hand=args.hand,
                                 bankroll=None if staking else args.bankroll, goal=None if staking else args.goal,
                                 stake=None if staking else args.stake, by_option=not args.no_options,
                                 players=args.players)
    staked = staking_.figures(args, analysis, _machine(args, analysis).ruleset) if staking else None
    risk = _risk(args, analysis, staking)
    if args.plot and staked is not None and (staked.best is not None or staked.run is not None):
        from ..render.plot import policy_chart

        draw_chart(policy_chart, staked, args.plot, title=analysis.ruleset, source=analysis.file)
    elif args.plot and risk is not None and (risk.session is not None or risk.tail is not None):
        from ..render.plot import risk_chart

        draw_chart(risk_chart, risk, args.plot, title=analysis.ruleset, source=analysis.file)
    elif args.plot:
        from ..render.plot import analysis_chart

        draw_chart(analysis_chart, analysis, args.plot)
    fmt = output_format(args)
    if fmt == "json":
        import json  # imported only for --json

        out = analysis_json(analysis)
        if risk:
            from ..render.risk import risk_json

            out.update(risk_json(risk))
        if staked is not None:
            from ..render.policy import staking_json

            out["staking"] = staking_json(staked)
        print(json.dumps(out, indent=2))
    else:
        tables = analysis_tables(analysis, args.throws)
        if risk:
            from ..render.risk import risk_tables

            ruleset = _machine(args, analysis).ruleset
            tables += risk_tables(risk, ruleset.money_unit, ruleset.money_units)
        if staked is not None:
            from ..render.policy import staking_tables

            tables += staking_tables(staked)
        print(render(tables, fmt, analysis_header(analysis), colour()), end="")
    return 0


def _machine(args, analysis):
    """The compiled game the analysis was made on (compiled again from the cache if it had no bets)."""
    if analysis.bet_table is not None:
        return analysis.bet_table.machine
    from ..commands.loading import build_machine, load

    return build_machine(load(args.ruleset), list(args.option))


def _risk(args, analysis, staking: bool = False):
    """The spread, session and tail figures asked for (issue 38's flags), or None; with `staking`
    (--stake best and the like), --games is the best stake's."""
    games = None if staking else args.games
    session = games is not None or args.stop_loss is not None or args.stop_win is not None
    plan = bool(args.bet) and not analysing.seat_bets(args.bet) and args.players is None
    # every bet's spread is in the JSON (as the web's library reads it); in the tables with --spread
    spread = args.spread or output_format(args) == "json"
    if not (spread or plan or session or args.tail is not None):
        return None
    machine = _machine(args, analysis) if args.tail is not None else None
    return analysing.risk(analysis, machine, bets=args.bet if plan else (), spread=spread, games=games,
                          stop_loss=args.stop_loss, stop_win=args.stop_win, tail=args.tail, hand=args.hand,
                          policy=args.policy)
