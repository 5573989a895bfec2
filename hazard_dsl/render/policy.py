"""The best stake and betting progressions, for people and for scripts (`analyse --stake best`,
`--stake kelly`, `--strategy`, `--risk`): tables for text and CSV, and the JSON shape."""

from __future__ import annotations

from fractions import Fraction

from .tables import Cell, Table, decimal, exact, number_and, percent, shown

WHO = {"caster": "the caster", "setter": "the setter"}


def whole(value) -> str:
    """An amount for a title or a cell: a whole number with thousands separators (1,000,000,
    as the other tables print large counts), else exact (1/3)."""
    value = Fraction(value)
    return f"{value.numerator:,}" if value.denominator == 1 else exact(value)


def _rounds(n: int) -> str:
    return f"{n:,} round{'' if n == 1 else 's'}"


def _purse_rows(best) -> list[int]:
    """The purses to print: every one up to 40, else the ones where the stake changes and each tenth."""
    purses = sorted(best.stakes)
    if len(purses) <= 40:
        return purses
    tenth = max(1, len(purses) // 10)
    keep = {x for k, x in enumerate(purses) if k % tenth == 0 or best.stakes[x] != best.stakes.get(x - 1)}
    return sorted(keep | {purses[-1]})[:80]


def staking_tables(s) -> list[Table]:
    units = s.units
    tables: list = []
    who = WHO[s.side]
    if s.best is not None:
        b = s.best
        if s.bankroll is not None:
            x = int(s.bankroll)
            t = Table(f"The best stake for {who} from {whole(s.bankroll)} to {whole(b.goal)} {units}",
                      ["", "exact", "%"])
            t.add("best first stake", b.stakes.get(x, "—"), "")
            t.add("P(reach the goal), best policy", shown(b.chance(x)), percent(b.chance(x), 3))
            if s.simulated:
                mean, se = s.simulated["reach_goal"]
                t.add(f"simulated, {s.simulated['sessions']:,} sessions", f"{mean:.4f} ± {se:.4f}", "")
            if b.flat is not None:
                t.add(f"P(reach the goal), staking {b.flat_stake} every game", shown(b.flat.get(x, 0)),
                      percent(b.flat.get(x, 0), 3))
            most = f"1 to {whole(b.most)}" if b.most < b.goal else "1 to the whole purse"
            t.caption = (f"Stakes in whole {units}, from {most}; {_rounds(b.rounds)} of exact policy iteration. "
                         f"Among stakes of equal chance, the largest. Exact fractions: --format json.")
            tables.append(t)
        p = Table(f"The best stake by purse, towards {whole(b.goal)} {units}", ["purse", "stake", "P(goal)", "%"])
        for x in _purse_rows(b):
            p.add(x, b.stakes[x], shown(b.values[x]), percent(b.values[x], 3))
        p.caption = "Every purse: --format json (or --plot)."
        tables.append(p)
    if s.horizon is not None:
        h = s.horizon
        t = Table(f"The greatest expected purse after {h.games:,} game{'' if h.games == 1 else 's'} from "
                  f"{whole(h.bankroll)} {s.unit if h.bankroll == 1 else units}",
                  ["", "exact", "decimal"])
        t.add("expected purse", shown(h.expected), decimal(h.expected))
        t.add("best first stake", h.first, "")
        t.caption = (f"Stakes 1 to {whole(h.most)} {s.unit if h.most == 1 else units}; every game staked (never "
                     f"betting is not offered).")
        tables.append(t)
    if s.kelly is not None:
        # the exact fraction and its decimal in columns of their own: a CSV cell is one number
        t = Table("Kelly: the fraction of the purse that grows it fastest",
                  ["side", "fraction", "≈", "growth/game"])
        for side, k in s.kelly.items():
            if k.fraction is None and k.approximate == 0:
                t.add(WHO[side], "none (the edge is against)", "—", "—")
            else:
                t.add(WHO[side], shown(k.fraction) if k.fraction is not None else "—", f"{k.approximate:.5f}",
                      f"{k.growth:.6g}")
        t.caption = ("growth: the expected natural log of the purse's ratio after one game, a decimal (a logarithm "
                     "is not a fraction).")
        tables.append(t)
    if s.risk is not None:
        how = f"staking {whole(s.stake)} every game" if s.risk_flat else "with the best stake"
        t = Table(f"The purse needed for a risk of ruin of at most {shown(s.risk)} ({how}, goal {whole(s.goal)} "
                  f"{units})", ["", "value"])
        t.add("least purse", "none below the goal" if s.risk_purse is None else
              number_and(f"{whole(s.risk_purse)} {s.unit if s.risk_purse == 1 else units}", s.risk_purse))
        tables.append(t)
    if s.run is not None:
        tables += run_tables(s)
    if s.table is not None:
        tables += table_strategy_tables(s)
    return tables


def _figure(value: Fraction, as_percent: bool = False) -> Cell:
    """A seat's exact figure for a table: its percentage or decimal for people, the exact
    fraction in CSV (a chance at the table has hundreds of digits: --format json too)."""
    text = str(percent(value, 3)) if as_percent else decimal(value)
    return Cell(text, [("", exact(value))])


def table_strategy_tables(s) -> list[Table]:
    """`analyse --players … --strategy`: each seat's session at the table (commands.staking.at_table)."""
    from ..solve.progressions import WORDS

    units = s.units
    how = "the best stake by purse" if s.strategy == "best" else f"the {WORDS[s.strategy]}"
    limits = f", cap {whole(s.cap)}" if s.cap is not None else ""
    seats = [seat for seat, (run, _) in s.table.items() if run is not None]
    t = Table(f"Each seat by {how} from {whole(s.bankroll)} to {whole(s.goal)} {units}, first stake "
              f"{whole(s.stake)}{limits}", ["", *seats])
    runs = [s.table[seat][0] for seat in seats]
    rows = [("P(reach the goal)", [_figure(r.reach_goal, True) for r in runs]),
            ("P(ruin)", [_figure(r.ruin, True) for r in runs]),
            ("expected games", [_figure(r.games) for r in runs]),
            ("  of them casting", [_figure(r.games_casting) for r in runs]),
            ("expected coin-in", [_figure(r.staked) for r in runs]),
            ("expected net", [_figure(r.net) for r in runs])]
    sim = s.simulated or {}

    def simulated(key, percent=False):
        cells = []
        for seat in seats:
            mean, se = sim[seat][key]
            if mean is None:
                cells.append("—")
                continue
            # a chance in % as its exact figure above it is (the CSV's values stay decimals)
            text = f"{100 * mean:.2f}% ± {100 * se:.2f}%" if percent else f"{mean:.4f} ± {se:.4f}"
            cells.append(Cell(text, [("", f"{mean:.6g}"), (" SE", f"{se:.6g}")]))
        return cells

    if sim:  # each simulated figure under its exact one, ± one standard error
        rows = [rows[0], ("  simulated", simulated("reach_goal", percent=True)), rows[1], rows[2],
                ("  simulated", simulated("games")), *rows[3:], ("  simulated", simulated("net"))]
    for label, cells in rows:
        t.add(label, *cells)
    refused = [f"{seat}: {why}" for seat, (run, why) in s.table.items() if run is None]
    t.caption = (f"Solved exactly: who holds the box, the passing, the purse and the strategy as one chain, the "
                 f"other seats staking {whole(s.stake)} flat; coin-in counts the seat's own stakes, not what it "
                 f"answers as the caster. Exact fractions: --format json or csv."
                 + (f" Simulated: {sim['sessions']:,} sessions a seat, ± one standard error." if sim else "")
                 + "".join(f" {line}" for line in refused))
    d = Table("The net at the end of the session", ["net", *(f"{seat} %" for seat in seats)])
    nets = sorted({v for r in runs for v in r.nets})
    for v in nets:
        d.add(shown(v), *(_figure(r.nets.get(v, Fraction(0)), True) for r in runs))
    return [t, d]


def table_strategy_json(s) -> dict:
    """The JSON of `table_strategy_tables`: exact fractions, each seat's own, or why not."""
    seats = {}
    for seat, (r, why) in s.table.items():
        if r is None:
            seats[seat] = {"why_no_exact": why}
            continue
        seats[seat] = {"reach_goal": exact(r.reach_goal), "ruin": exact(r.ruin), "expected_games": exact(r.games),
                       "expected_games_casting": exact(r.games_casting), "coin_in": exact(r.staked),
                       "expected_net": exact(r.net), "states": r.states,
                       "distribution": {exact(v): exact(p) for v, p in sorted(r.nets.items())}}
    return {"strategy": s.strategy, "players": list(s.players), "bankroll": exact(s.bankroll),
            "goal": exact(s.goal), "first_stake": exact(s.stake), "cap": None if s.cap is None else exact(s.cap),
            "seats": seats, **({"simulated": s.simulated} if s.simulated is not None else {})}


def run_tables(s) -> list[Table]:
    from ..solve.progressions import WORDS

    r, units = s.run, s.units
    limits = ", ".join(filter(None, [f"cap {whole(r.cap)}" if r.cap is not None else "",
                                     f"table limit {whole(r.limit)}" if r.limit is not None else ""]))
    t = Table(f"The {WORDS[r.name]} for {WHO[s.side]} from {whole(r.bankroll)} to {whole(r.goal)} {units}, first "
              f"stake {whole(r.base)}" + (f" ({limits})" if limits else ""),
              ["", "exact", "≈"] + (["simulated"] if s.simulated else []))
    sim = s.simulated or {}

    def beside(key, complement=False):
        if key not in sim:
            return ""
        mean, se = sim[key]
        mean = 1 - mean if complement else mean
        # in CSV two numbers, the mean and its standard error, each in a column of its own
        return Cell(f"{mean:.4f} ± {se:.4f}", [("", f"{mean:.6g}"), (" SE", f"{se:.6g}")])

    # a session ends at the goal or in ruin: the simulated ruin is the goal's complement, same SE;
    # the nets per unit staked as a % of the unit, as the edge is printed everywhere else
    rows = [("P(reach the goal)", shown(r.reach_goal), percent(r.reach_goal, 3), beside("reach_goal")),
            ("P(ruin)", shown(r.ruin), percent(r.ruin, 3), beside("reach_goal", complement=True)),
            ("expected games", shown(r.games), decimal(r.games), beside("games")),
            ("expected coin-in (total staked)", shown(r.staked), decimal(r.staked), beside("staked")),
            ("expected net", shown(r.net), decimal(r.net), beside("net")),
            ("net per unit staked", shown(r.per_staked), percent(r.per_staked, 3), ""),
            ("the game's net per unit staked", shown(r.edge), percent(r.edge, 3), "")]
    for row in rows:
        t.add(*(row if sim else row[:3]))
    t.caption = (f"{r.states:,} (purse, progression) states, solved exactly. The net per unit staked equals the "
                 f"game's: no progression beats the edge. " + (f"Simulated: {sim['sessions']:,} sessions, ± one "
                                                               f"standard error. " if sim else "")
                 + "The distribution of the net: --format json.")
    d = Table("The net at the end of the session", ["net", "exact", "%"])
    for v, p in sorted(r.nets.items()):
        d.add(shown(v), shown(p), percent(p, 3))
    return [t, d]


def staking_json(s) -> dict:
    if s.table is not None:
        return {"at_table": table_strategy_json(s)}
    out: dict = {"side": s.side, "outcomes": {str(r): exact(p) for r, p in s.outcomes.items()}}
    if s.best is not None:
        b = s.best
        out["best_stake"] = {
            "goal": b.goal, "most": b.most, "rounds": b.rounds,
            "bankroll": None if s.bankroll is None else exact(s.bankroll),
            "stake": None if s.bankroll is None else b.stakes.get(int(s.bankroll)),
            "reach_goal": None if s.bankroll is None else exact(b.chance(int(s.bankroll))),
            "flat_stake": b.flat_stake,
            "flat_reach_goal": None if s.bankroll is None or b.flat is None else exact(b.flat.get(int(s.bankroll), 0)),
            "policy": {str(x): {"stake": b.stakes[x], "reach_goal": exact(b.values[x])} for x in sorted(b.stakes)},
        }
    if s.horizon is not None:
        h = s.horizon
        out["best_after_games"] = {"bankroll": h.bankroll, "games": h.games, "most": h.most,
                                   "expected_purse": exact(h.expected), "first_stake": h.first}
    if s.kelly is not None:
        out["kelly"] = {side: {"fraction": None if k.fraction is None else exact(k.fraction),
                               "fraction_decimal": k.approximate, "growth_per_game": k.growth, "exact": k.exact,
                               "edge": exact(k.edge)} for side, k in s.kelly.items()}
    if s.risk is not None:
        out["purse_for_risk"] = {"risk": exact(s.risk), "goal": exact(s.goal), "purse": s.risk_purse,
                                 "stake": exact(s.stake) if s.risk_flat else "best"}
    if s.run is not None:
        r = s.run
        out["progression"] = {
            "name": r.name, "bankroll": exact(r.bankroll), "goal": exact(r.goal), "first_stake": exact(r.base),
            "cap": None if r.cap is None else exact(r.cap), "limit": None if r.limit is None else exact(r.limit),
            "reach_goal": exact(r.reach_goal), "ruin": exact(r.ruin), "expected_games": exact(r.games),
            "coin_in": exact(r.staked), "expected_net": exact(r.net), "net_per_unit_staked": exact(r.per_staked),
            "edge_per_unit_staked": exact(r.edge), "beats_the_edge": r.beats, "states": r.states,
            "distribution": {exact(v): exact(p) for v, p in sorted(r.nets.items())},
        }
    if s.simulated is not None:
        out["simulated"] = s.simulated
    return out


__all__ = ["run_tables", "staking_json", "staking_tables", "table_strategy_json", "table_strategy_tables"]


def strategy_goal_table(report: dict, units: str, *, stake: str, exact: str) -> tuple[Table, list[str]]:
    """`simulate --players … --strategy S --goal G` (commands.strategy_goal): each seat's
    simulated chance of the goal, of ruin, its games and its purse at the end, each beside the
    exact chain's figure and z; and the notes (no exact figure, sessions left out). The caption
    names the stake setting (`stake`) and where the exact fractions are (`exact`) in the
    caller's words: the command line's "--stake" and "--format json", the API's keywords."""
    from ..solve.progressions import WORDS

    name = report["strategy"]
    what = "the best stake" if name == "best" else f"the {WORDS[name]}"
    capped = f" (cap {whole(report['cap'])})" if report.get("cap") is not None else ""
    t = Table(f"Each seat staking by {what}{capped}, from {whole(report['bankroll'])} to {whole(report['goal'])} "
              f"{units}: "
              f"{report['sessions']:,} session{'s' * (report['sessions'] != 1)} each, "
              f"{report.get('played', 'played on the table')}, beside the exact chain",
              ["", "simulated", "exact", "z"], align=["left", "right", "right", "right"])
    notes = []

    def num(x, how):
        return "—" if x is None else format(float(x), how)

    for p, row in report["seats"].items():
        exact_reach = row["exact_reach"]
        if row["reached"] is None:  # every session unfinished: nothing to show but that (the notes)
            t.add(f"{p}: reaches the goal", "—", num(exact_reach, ".2%"), "—")
            notes.append(f"{p}: {row['unfinished']:,} sessions had not ended and are left out.")
            continue
        t.add(f"{p}: reaches the goal", f"{row['reached']:.2%} ± {row['reached_stderr']:.2%}",
              num(exact_reach, ".2%"), num(row["z_reach"], "+.2f"))
        t.add(f"{p}: ruined", f"{1 - row['reached']:.2%} ± {row['reached_stderr']:.2%}",
              "—" if exact_reach is None else format(1 - float(exact_reach), ".2%"),
              "—" if row["z_reach"] is None else format(-row["z_reach"], "+.2f"))
        t.add(f"{p}: games", f"{row['games']:.2f} ± {row['games_stderr']:.2f}", num(row["exact_games"], ".2f"),
              num(row["z_games"], "+.2f"))
        t.add(f"{p}: purse at the end", f"{row['purse']:.2f} ± {row['purse_stderr']:.2f}",
              num(row["exact_purse"], ".2f"), num(row["z_purse"], "+.2f"))
        if row["why_no_exact"]:
            notes.append(f"{p}: no exact figure: {row['why_no_exact']}.")
        if row["unfinished"]:
            notes.append(f"{p}: {row['unfinished']:,} sessions had not ended and are left out.")
    t.caption = ("± one standard error. A session ends, at the start of a game, when the seat's purse reaches the "
                 "goal or is empty (or, casting, cannot answer the others' stakes); the other seats stake "
                 f"{stake} flat from purses that never run short. Exact fractions: {exact}.")
    return t, notes
