"""Risk, for people and for scripts: the spread of each bet and of a plan, the distribution of a
session's net, and the tail of a hand or game (`analyse --spread`, `--bet`, `--games`,
`--stop-loss`/`--stop-win`, `--tail`). Tables for text and CSV, and the JSON shape."""

from __future__ import annotations


from .tables import Cell, Table, approximate, decimal, exact, percent, shown


def _sd_cell(s) -> str:
    """`√5920646/495 ≈ 4.9156`; in CSV the decimal alone (the exact form is in --json)."""
    return Cell(f"{s.sd_exact} ≈ {s.sd:.4f}", [("", f"{s.sd:.6f}")])


def _skew(s) -> str:
    return "—" if s.skew is None else f"{s.skew:+.3f}"


def _edge(value) -> str:
    return "—" if value is None else Cell(f"{float(value) * 100:.3f}%", [("", f"{float(value) * 100:.6f}")])


def _sd_json(variance) -> dict:
    from ..solve.spread import surd_parts

    times, root_of = surd_parts(variance)
    return {"times": exact(times), "root_of": exact(root_of)}


def spread_json(s) -> dict:
    """A `solve.spread.Spread` as JSON: every figure exact, the SD as its exact surd and a decimal."""
    return {
        "outcomes": {exact(v): exact(p) for v, p in s.outcomes.items()},
        # the SD exactly as times·√root_of (√5920646/495: 1/495 and 5920646), every string a fraction
        "mean": exact(s.mean), "variance": exact(s.variance), "sd": _sd_json(s.variance), "sd_decimal": s.sd,
        "skew": s.skew, "hit": exact(s.hit), "push": exact(s.push),
        "staked": exact(s.staked), "resolved": exact(s.resolved), "expected_throws": exact(s.throws),
        "edge_per_bet_made": exact(s.edge_per_made),
        "edge_per_unit_of_action": exact(s.edge),
        "edge_per_bet_resolved": None if s.edge_per_resolved is None else exact(s.edge_per_resolved),
        "edge_per_throw": None if s.edge_per_throw is None else exact(s.edge_per_throw),
    }


def simulated_json(sim) -> dict:
    """A `simulate.risk.Simulated` as JSON: each figure's exact value (a fraction's string) beside
    the simulated mean, its standard error and z."""
    return {sim.what: sim.count, "seed": sim.seed, "how": sim.how,
            "figures": {name: {"exact": exact(b.exact), "simulated": b.mean, "standard_error": b.se, "z": b.z}
                        for name, b in sim.figures.items()}}


def session_json(d) -> dict:
    if d.simulated is not None:  # a key only when asked for: the JSON of today is unchanged
        return dict(_session_json(d), simulated=simulated_json(d.simulated))
    return _session_json(d)


def _session_json(d) -> dict:
    return {
        "games": d.games, "stop_loss": None if d.stop_loss is None else exact(d.stop_loss),
        "stop_win": None if d.stop_win is None else exact(d.stop_win),
        "ahead": exact(d.ahead), "even": exact(d.even), "behind": exact(d.behind),
        "mean": exact(d.mean), "variance": exact(d.variance),
        "expected_games": exact(d.expected_games), "coin_in": exact(d.coin_in),
        "return_on_coin_in": None if d.return_on_coin_in is None else exact(d.return_on_coin_in),
        "stopped": {k: exact(p) for k, p in d.stopped.items()},
        "quantiles": {str(float(q)): exact(v) for q, v in d.quantiles().items()},
        "distribution": {exact(v): exact(p) for v, p in d.outcomes.items()},
    }


def tail_json(lengths, n: int) -> dict:
    p = lengths.at_least(n)
    out = {"of": lengths.what, "throws": n, "at_least": exact(p), "at_least_log10": lengths.logs[n],
           "one_in": exact(round(1 / p)) if p else None, "passing": lengths.rule,
           "distribution": {str(m): exact(q) for m, q in enumerate(lengths.exactly) if q}}
    if lengths.simulated is not None:
        out["simulated"] = simulated_json(lengths.simulated)
    return out


def risk_json(risk) -> dict:
    """What `commands.analyse.risk` found, as the keys `analyse --json` adds."""
    out: dict = {}
    if risk.bets:
        out["spread"] = {name: dict(spread_json(s), by_place={where: spread_json(t) for where, t in
                                                              risk.by_place.get(name, {}).items()})
                         for name, s in risk.bets.items()}
    if risk.plan is not None:
        out["plan_spread"] = dict(spread_json(risk.plan), bets=dict(risk.orders))
    if risk.session is not None:
        out["session"] = session_json(risk.session)
    if risk.at_table:
        out["seats_over_games"] = {seat: dict(session_json(d), players=list(risk.at_table_players),
                                              plan={bet: exact(a) for bet, a in risk.at_table_plans.get(seat,
                                                                                                   {}).items()})
                                   for seat, d in risk.at_table.items()}
    if risk.tail is not None:
        out["tail"] = tail_json(risk.tail, risk.tail_throws)
    return out


def bets_spread_table(risk, unit: str) -> list[Table]:
    t = Table(f"The spread of each bet (per {unit} bet, one decision)",
              ["bet", "SD", "skew", "hit %", "edge per bet made", "per bet resolved", "per throw"])
    for name, s in risk.bets.items():
        t.add(name, _sd_cell(s), _skew(s), percent(s.hit), _edge(s.edge_per_made), _edge(s.edge_per_resolved),
              _edge(s.edge_per_throw))
    t.caption = ("SD: the standard deviation of the net of one decision, exact (a square root) and in decimals; "
                 "skew: its third moment over SD³; hit: the chance the bet wins money; edge per bet made: the "
                 "expected loss per unit staked, per bet resolved: per unit on a bet won or lost (pushes left "
                 "out), per throw: per bet made over the throws it is up. Exact variances: --format json.")
    tables = [t]
    for name, places in risk.by_place.items():
        if not places:
            continue
        p = Table(f"The spread of {name} by where it is made (per {unit} bet)",
                  ["made at", "variance", "SD", "skew", "hit %"])
        for where, s in places.items():
            p.add(where, shown(s.variance), _sd_cell(s), _skew(s), percent(s.hit))
        p.caption = "For a bet of a: the variance times a², the SD times a; the skew is the same."
        tables.append(p)
    return tables


def plan_tables(risk, unit: str, units: str) -> list[Table]:
    s = risk.plan
    bets = ", ".join(f"{name}={amount}" for name, amount in risk.orders)
    t = Table(f"The spread of one decision of {bets} (in {units})", ["", "exact", "decimal"])
    t.add("expected net", shown(s.mean), decimal(s.mean))
    t.add("variance", shown(s.variance), decimal(s.variance))
    t.add("standard deviation", s.sd_exact, f"{s.sd:.4f}")
    t.add("skew", "", _skew(s))
    t.add("hit (chance of winning money)", shown(s.hit), percent(s.hit))
    t.add("push (net 0)", shown(s.push), percent(s.push))
    t.add("expected staked (total action)", shown(s.staked), decimal(s.staked))
    t.add("expected on bets resolved", shown(s.resolved), decimal(s.resolved))
    t.add("expected throws with a bet up", shown(s.throws), decimal(s.throws))
    t.add("edge per unit of total action", shown(s.edge), _edge(s.edge))
    t.add(f"edge per {unit} of {risk.orders[0][0]} made", shown(s.edge_per_made), _edge(s.edge_per_made))
    if s.edge_per_resolved is not None:
        t.add("edge per unit resolved", shown(s.edge_per_resolved), _edge(s.edge_per_resolved))
    if s.edge_per_throw is not None:
        t.add("edge per unit of action per throw", shown(s.edge_per_throw), _edge(s.edge_per_throw))
    t.caption = ("One decision: from the start of a game until every bet made is decided, each made as soon as "
                 "it may be (a bet that backs another once that one is up). The edges are the expected loss "
                 "over what is staked, resolved, or staked per throw.")
    n = Table(f"The net of one decision of {bets}", ["net", "exact", "%"])
    for v, p in s.outcomes.items():
        n.add(shown(v), shown(p), percent(p))
    return [t, n]


def session_tables(risk, units: str) -> list[Table]:
    d = risk.session
    what = f"{d.games} decisions" if d.games is not None else "decisions"
    stops = []
    if d.stop_loss is not None:
        stops.append(f"stopping at a loss of {d.stop_loss}")
    if d.stop_win is not None:
        stops.append(f"at a win of {d.stop_win}")
    plan = ", ".join(f"{name}={amount}" for name, amount in risk.orders) or "the caster staking 1 at even money"
    title = f"The net of a session: {what} of {plan}" + (", " + " or ".join(stops) if stops else "")
    caption = ("A decision: every bet of the plan made and decided, from the start of a game (for the pass "
               "line, one game). Coin-in: expected decisions × expected staked per decision (Wald). Exact "
               "distribution: --format json.")
    return net_tables(d, f"{title} (in {units})", "expected decisions played", caption)


def net_tables(d, title: str, played: str, caption: str) -> list[Table]:
    """A SessionNet's figures and its quantiles: `played` names its expected games or decisions."""
    t = Table(title, ["", "exact", "decimal"])
    t.add("P(ahead)", shown(d.ahead), percent(d.ahead, 3))
    t.add("P(even)", shown(d.even), percent(d.even, 3))
    t.add("P(behind)", shown(d.behind), percent(d.behind, 3))
    for kind, p in d.stopped.items():
        t.add(f"P(stopped at the stop-{kind})", shown(p), percent(p, 3))
    t.add("expected net", shown(d.mean), decimal(d.mean))
    sd = float(d.variance) ** 0.5
    t.add("standard deviation of the net", "", f"{sd:.4f}")
    t.add(played, shown(d.expected_games), decimal(d.expected_games))
    t.add("expected coin-in (total staked)", shown(d.coin_in), decimal(d.coin_in))
    if d.return_on_coin_in is not None:
        t.add("return on the coin-in", shown(d.return_on_coin_in), _edge(d.return_on_coin_in))
    t.caption = caption
    q = Table("Quantiles of the session's net", ["quantile", "net"])
    for level, v in d.quantiles().items():
        q.add(f"{float(level) * 100:g}%", shown(v))
    q.caption = "the least net x with P(net ≤ x) at least the quantile"
    return [t, q]


def tail_table(risk) -> Table:
    from ..solve.tails import TAIL_MARKS, one_in

    L, n = risk.tail, risk.tail_throws
    what = "hand" if L.what == "hand" else "game"
    marks = sorted({m for m in TAIL_MARKS if m < n} | {n})
    rare = [one_in(L.at_least(m)) for m in marks]
    rare = rare if any(rare) else None  # "one in" only where some chance is small (or nil)
    t = Table(f"How long a {what} lasts: P({what} ≥ n throws)", ["n", "P(≥ n)", "decimal"] + ["one in"] * bool(rare))
    for k, m in enumerate(marks):
        p = L.at_least(m)
        t.add(m, shown(p), approximate(p), *([rare[k]] if rare else []))
    last = min(n, len(L.exactly)) - 1  # the lengths whose own chance the JSON lists
    exactly = "" if last < 1 else f", with the chance that it lasts exactly {last} throw" if last == 1 else \
        f", with the chance that it lasts exactly m throws for every m from 1 to {last}"
    t.caption = ((f"A hand: {L.rule}. " if L.rule else "") + "Exact: every P is a fraction; --format json gives "
                 f"it in full{exactly}.")
    return t


SESSION_ROWS = {"ahead": "P(ahead)", "even": "P(even)", "behind": "P(behind)", "mean": "expected net",
                "expected_games": "expected decisions played", "coin_in": "expected coin-in"}


def _z(b) -> str:
    z = b.z
    return "—" if z is None else Cell(f"{z:+.2f}", [("", f"{z:.4f}")])


def simulated_table(sim, title: str, rows: dict) -> Table:
    """Each simulated figure of `sim` beside its exact value: the mean over the sample, its
    standard error and z; `rows` names each figure for people."""
    t = Table(f"{title}, simulated beside exact: {sim.count:,} {sim.what} (seed {sim.seed})",
              ["", "exact, decimal", "simulated", "standard error", "z"])
    for name, b in sim.figures.items():
        # four significant digits, as the exact decimal beside it; the SE to two
        t.add(rows[name], approximate(b.exact), Cell(f"{b.mean:.4g}", [("", repr(b.mean))]),
              Cell(f"{b.se:.2g}", [("", repr(b.se))]), _z(b))
    t.caption = (f"Simulated: {sim.how}. Standard error: the sample's SD over the square root of its size; "
                 "z: (simulated − exact) / standard error, within ±4 where the two agree (— where the "
                 "sample has no spread to measure). Exact fractions: --format json.")
    return t


def _plan_words(plan: dict) -> str:
    return ", ".join(f"{bet}={shown(amount)}" for bet, amount in plan.items()) or "the stake alone"


def at_table_tables(risk, units: str) -> list[Table]:
    """Each seat's net over N games at the table (`analyse --players … --bet SEAT:BET=AMOUNT
    --games N`)."""
    tables: list = []
    for seat, d in risk.at_table.items():
        plan = _plan_words(risk.at_table_plans.get(seat, {}))
        title = f"{seat}'s net over {d.games} games at a table of {', '.join(risk.at_table_players)} ({plan})"
        caption = (f"The box goes round as the rules pass it, {risk.at_table_players[0]} casting first; {seat} "
                   f"lays its stake and makes its plan whenever it may, and takes the other seats' bets the table "
                   f"gives it, as in its expected net above; no purse runs short. Coin-in: what {seat} puts at "
                   f"risk, game by game. Exact distribution: --format json.")
        tables += net_tables(d, f"{title} (in {units})", "games played", caption)
    return tables


def risk_tables(risk, unit: str, units: str) -> list[Table]:
    tables: list = []
    if risk.bets:
        tables += bets_spread_table(risk, unit)
    if risk.plan is not None:
        tables += plan_tables(risk, unit, units)
    if risk.session is not None:
        tables += session_tables(risk, units)
        if risk.session.simulated is not None:
            tables.append(simulated_table(risk.session.simulated, "The session's net", SESSION_ROWS))
    if risk.at_table:
        tables += at_table_tables(risk, units)
    if risk.tail is not None:
        tables.append(tail_table(risk))
        sim = risk.tail.simulated
        if sim is not None:
            what = risk.tail.what
            rows = {name: f"P({what} ≥ {name.rsplit('_', 1)[1]} throw{'' if name.endswith('_1') else 's'})"
                    for name in sim.figures}
            tables.append(simulated_table(sim, f"How long a {what} lasts", rows))
    return tables


__all__ = ["risk_json", "risk_tables", "session_json", "simulated_json", "simulated_table", "spread_json",
           "tail_json"]
