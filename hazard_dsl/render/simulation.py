"""A simulation's report (simulate.report, its data) as tables for people: the caster's
results, throws per game, the bets and the speed; a table's sessions and purses."""

from __future__ import annotations

from fractions import Fraction

from ..model import plural, readable
from .tables import Table, both, number_and

# --------------------------------------------------------------------------- tables for people


def _pct(x) -> str:
    """A share as a percentage for people ("49.0823%"); in CSV the number alone."""
    if x is None:
        return ""
    return number_and(f"{100 * x:.4f}%", f"{100 * x:.4f}")


def _share(x) -> str:
    """A share of sessions for people: "3.00%", "0.50%"; "<0.01%" for a few in very many, never "0.%"."""
    if x is None:
        return ""
    if 0 < x < 0.00005:
        return number_and("<0.01%", f"{100 * x:.4f}")
    return number_and(f"{100 * x:.2f}%", f"{100 * x:.4f}")


def _zs(z) -> str:
    return "" if z is None else f"{z:+.2f}"


def _exact_pct(text) -> str:
    if text is None:
        return "—"
    return both(Fraction(text), 4)


def games_tables(report: dict) -> tuple[str, list]:
    n = report["games"]
    header = (f"{report['ruleset']} — {n:,} games simulated (seed {report['seed']}, {report['workers']} worker"
              f"{'s' * (report['workers'] != 1)}), beside the exact figures; z = (simulated − exact) / standard "
              f"error.")
    if not report["complete"]:
        header += f" Interrupted: {n:,} of {report['requested']:,} games."
    t = Table("The caster's results (share of games)", ["figure", "simulated", "± s.e.", "exact", "z"])
    for result in ("win", "lose", "push"):
        f = report[result]
        if f["exact"] in (None, "0") and not f["rate"]:
            continue
        t.add(result, _pct(f["rate"]), _pct(f["stderr"]), _exact_pct(f["exact"]), _zs(f["z"]))
    for label, f in report["labels"].items():
        t.add(f"{readable(label)} ({f['result']})", _pct(f["rate"]), _pct(f["stderr"]), _exact_pct(f["exact"]), _zs(f["z"]))
    tables = [t]
    th = report["throws"]
    if th["mean"] is not None:
        m = th["mean"]
        exact_mean = Fraction(m["exact"])
        d = Table("Throws per game", ["throws", "simulated", "± s.e.", "exact", "z"])
        d.add("mean", f"{m['value']:.5f}", f"{m['stderr']:.5f}" if m["stderr"] is not None else "",
              f"{float(exact_mean):.5f}", _zs(m["z"]))
        for row in th["distribution"]:
            d.add(f"{row['throws']}", _pct(row["rate"]), _pct(row["stderr"]),
                  _pct(float(Fraction(row["exact"]))) if row["exact"] is not None else "—", _zs(row["z"]))
        b = th["beyond"]
        if b["rate"]:
            d.add(f"{b['from']} or more", _pct(b["rate"]), _pct(b["stderr"]),
                  _pct(float(Fraction(b["exact"]))) if b["exact"] is not None else "—", _zs(b["z"]))
        d.caption = "mean: throws per game; the other rows: the share of games that took that many throws."
        tables.append(d)
    if report["bets"]:
        b = Table("Bets: mean net per unit staked (each bet made as the exact analysis makes it)",
                  ["bet", "amount", "bets made", "simulated", "± s.e.", "exact", "z"])
        rows = list(report["bets"].items())
        if "all_bets" in report:
            rows.append(("all bets", dict(report["all_bets"], amount="")))
        for name, f in rows:
            e = f["net_per_unit"]
            exact_value = Fraction(e["exact"]) if e["exact"] is not None else None
            b.add(name, f["amount"], number_and(f"{f['made']:,}", f["made"]), _signed_pct(e["value"]),
              _pct(e["stderr"]), "—" if exact_value is None else _signed_pct(float(exact_value)), _zs(e["z"]))
        b.caption = "net per unit staked = −edge: what a bettor gets back per unit of money staked, net."
        tables.append(b)
    speed = Table("Speed", ["what", "value"])
    speed.add("time", number_and(f"{report['seconds']:.2f} s", f"{report['seconds']:.2f}"))
    if report["games_per_second"]:
        speed.add("games per second", number_and(f"{report['games_per_second']:,.0f}",
                                                 f"{report['games_per_second']:.0f}"))
        speed.add("throws per second", number_and(f"{report['throws_per_second']:,.0f}",
                                                  f"{report['throws_per_second']:.0f}"))
        speed.add("throws made (all tables)", number_and(f"{report['throws_made']:,}", report["throws_made"]))
    tables.append(speed)
    return header, tables


def _signed_pct(x) -> str:
    return "" if x is None else number_and(f"{100 * x:+.4f}%", f"{100 * x:+.4f}")


def sessions_tables(report: dict) -> tuple[str, list]:
    unit = report["unit"]
    units = report.get("units") or plural(unit)  # a report written before units were kept
    header = (f"{report['ruleset']} — {report['sessions']:,} sessions of {report['rounds']} round"
              f"{'s' * (report['rounds'] != 1)} at the table (seed {report['seed']}): {', '.join(report['players'])}, "
              f"{report['purse']} {units} each, strategy {report['strategy']}, stake {report['stake']}.")
    if not report["complete"]:
        header += f" Interrupted: {report['sessions']:,} of {report['requested']:,} sessions."
    t = Table(f"Each seat's purse at the end ({units})",
              ["seat", "mean", "± s.e.", "min", "5%", "25%", "median", "75%", "95%", "max", "ruined"])
    for name, s in report["seats"].items():
        q = s["quantiles"]
        t.add(name, f"{s['mean']['value']:.3f}", f"{s['mean']['stderr']:.3f}",
              *(q[k] for k in ("min", "5%", "25%", "median", "75%", "95%", "max")),
              _share(s["ruined"]["rate"]))
    t.caption = ("ruined: the share of sessions that left the seat with nothing. No exact figure exists for a "
                 "whole session at the table; each game is drawn from the exact chances of how a game ends.")
    o = Table("The sessions", ["what", "value"])
    o.add("games per session (mean)", f"{report['games_per_session']:.3f}")
    if report.get("first") == "by_lot":  # otherwise the first seat casts first, as everywhere
        o.add("the first caster", "drawn by lot, each seat alike")
    for why, n in report["ended"].items():
        o.add(f"ended: {why}", number_and(f"{n:,} sessions", n))
    o.add(f"bank's net per session ({units})", f"{float(Fraction(report['bank_per_session'])):.4f}")
    o.add(f"paid to the box per session ({units})", f"{float(Fraction(report['box_per_session'])):.4f}")
    o.add("money conserved", "yes, exactly" if report["money_conserved"] else "NO (please report it)")
    if report["rounded"]:
        o.add("amounts rounded down", number_and(f"{report['rounded']:,} (finer than the minor unit, "
                                                 f"{report['minor_unit']} {unit})", report["rounded"]))
    o.add("time", number_and(f"{report['seconds']:.2f} s", f"{report['seconds']:.2f}"))
    o.add("games per second", number_and(f"{report['games_per_second'] or 0:,.0f}",
                                         f"{report['games_per_second'] or 0:.0f}"))
    return header, [t, o]
