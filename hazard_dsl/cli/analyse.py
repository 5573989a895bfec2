"""`hazard-dsl analyse RULESET`: the exact figures (commands.analyse), as tables, JSON or a chart."""

from __future__ import annotations

from ..commands import analyse as analysing
from ..commands.charts import check_chart_file
from ..commands.loading import load
from ..records import replace
from .output import colour, draw_chart, output_format
from .requests import analyse_request


def command(args) -> int:
    from ..render.report import analysis_header, analysis_json, analysis_tables
    from ..render.tables import render

    from ..commands import staking as staking_

    ruleset = load(args.ruleset)
    request = analyse_request(args, ruleset)
    asked = staking_.Asked(request)
    staking = staking_.wanted(request)
    seated = bool(request.plans) or request.players is not None
    analysing.check_used(request)
    if staking:  # the best stake, Kelly, a progression or a risk of ruin: bankroll, goal and stake are theirs
        staking_.check(asked)
    else:
        analysing.check_session_settings(request.bankroll, request.goal, request.stake, seated)
    analysing.check_risk_settings(None if staking else request.games, request.stop_loss, request.stop_win,
                                  request.tail, seats=seated)
    check_chart_file(args.plot, args.force, [args.ruleset])
    analysis = analysing.analyse_request(replace(request, bankroll=None, goal=None, stake=None) if staking
                                         else request)
    staked = staking_.figures(asked, analysis, _machine(request, analysis).ruleset, _machine(request, analysis)) \
        if staking else None
    # every bet's spread is in the JSON (as the web's library reads it); in the tables with --spread
    machine = _machine(request, analysis) if request.tail is not None or request.simulate is not None else None
    risk = analysing.risk_request(analysis, machine, request, spread=output_format(args) == "json")
    if args.plot and staked is not None and (staked.best is not None or staked.run is not None
                                             or staked.table is not None):
        from ..render.plot import policy_chart

        draw_chart(policy_chart, staked, args.plot, title=analysis.ruleset, source=analysis.file)
    elif args.plot and risk is not None and (risk.session is not None or risk.tail is not None or risk.at_table):
        from ..render.plot import risk_chart

        draw_chart(risk_chart, _charted(risk), args.plot, title=analysis.ruleset, source=analysis.file)
    elif args.plot:
        from ..render.plot import analysis_chart

        draw_chart(analysis_chart, analysis, args.plot)
    ledger = _ledger(request)
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
        if ledger:  # the sources' printed figures beside the exact ones (a key only where the file lists them)
            from ..render.printed import ledger_json

            out["printed"] = ledger_json(ledger)
        print(json.dumps(out, indent=2))
    else:
        tables = analysis_tables(analysis, args.throws)
        if risk:
            from ..render.risk import risk_tables

            ruleset = _machine(request, analysis).ruleset
            tables += risk_tables(risk, ruleset.money_unit, ruleset.money_units)
        if staked is not None:
            from ..render.policy import staking_tables

            tables += staking_tables(staked)
        if ledger and fmt != "csv":  # a CSV is one table of figures, numbers as numbers; the
            # ledger's verdicts are sentences (--json carries them as fields)
            from ..render.printed import ledger_table

            tables.append(ledger_table(ledger))
        print(render(tables, fmt, analysis_header(analysis), colour()), end="")
    return 0


def _charted(risk):
    """What the risk chart draws: the session's net, or with seats at the table the first
    planned seat's net over its games, named by its plan; and the tail."""
    if risk.session is not None or not risk.at_table:
        return risk
    from types import SimpleNamespace

    seat, net = next(iter(risk.at_table.items()))
    plan = risk.at_table_plans.get(seat, {}) or {"stake": 1}
    orders = [(f"{seat} at the table: {bet}", amount) for bet, amount in plan.items()]
    return SimpleNamespace(session=net, tail=risk.tail, tail_throws=risk.tail_throws, orders=orders)


def _ledger(request) -> list:
    """The figures the ruleset's sources print, beside the exact ones under the request's
    options ([] when it lists none: the output is then as it always was)."""
    ruleset = load(request.ruleset, request.text)
    if not ruleset.printed:
        return []
    from ..render.printed import ledger

    return ledger(ruleset, request.options, request.policy)


def _machine(request, analysis):
    """The compiled game the analysis was made on (compiled again from the cache if it had no bets)."""
    if analysis.bet_table is not None:
        return analysis.bet_table.machine
    from ..commands.loading import machine_for

    return machine_for(load(request.ruleset, request.text), request.options)
