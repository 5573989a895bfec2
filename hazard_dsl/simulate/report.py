"""What a simulation found, beside the exact figures, as data for JSON (its tables for people
are render.simulation's: a report is read by the renderers, never made by them).

Rates are estimates (floats) with their standard errors; the exact values come from the solver
(`solve.analysis.analyse`, `solve.bets.BetTable`) as fractions, and each estimate has its
z-score, (estimate − exact) / standard error.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..money import exact as exact_text

QUANTILES = (("min", 0.0), ("5%", 0.05), ("25%", 0.25), ("median", 0.5), ("75%", 0.75), ("95%", 0.95),
             ("max", 1.0))


def _z(value, stderr, exact):
    if value is None or exact is None:
        return None
    if stderr:
        return (value - float(exact)) / stderr
    return 0.0 if value == float(exact) else None


def proportion(count: int, n: int, exact: Fraction | None) -> dict:
    """A rate of `count` in `n`, its binomial standard error, the exact chance and the z-score."""
    rate = count / n if n else None
    stderr = math.sqrt(rate * (1 - rate) / n) if n else None
    if n and not stderr and exact is not None:  # none (or all) seen: the error the exact chance gives
        stderr = math.sqrt(float(exact) * (1 - float(exact)) / n)
    return {"rate": rate, "stderr": stderr, "exact": None if exact is None else exact_text(exact),
            "z": _z(rate, stderr, exact)}


def games_report(context, results: dict, seconds: float, complete: bool) -> dict:
    """The JSON of `simulate` for games (and bets)."""
    from .bets import all_bets, cycle_counts, group_figures

    game = context.tables[0]
    games = results.count
    counts = results.counts[0] if results.counts else np.zeros(game.rows, dtype=np.int64)
    throws = results.throws[0] if results.throws else 0
    all_throws = sum(results.throws)
    figures = context.analysis.figures
    tagged = np.flatnonzero(counts[game.first_tag:]) + game.first_tag
    by_ending = np.zeros(len(game.endings), dtype=np.int64)
    by_length = np.zeros(game.age_cap + 1, dtype=np.int64)
    for r in tagged:
        if game.ending[r] < 0:  # a game played beyond the N, to close a cycle of bets
            continue
        by_ending[game.ending[r]] += counts[r]
        by_length[game.age[r]] += counts[r]
    assert int(by_ending.sum()) == games, "every game of every chunk ends once"
    result_counts = {"win": 0, "lose": 0, "push": 0}
    label_counts: dict = {}
    for (result, label), n in zip(game.endings, by_ending.tolist()):
        result_counts[result] += n
        label_counts[label] = label_counts.get(label, 0) + n
    out = {
        "ruleset": context.machine.ruleset.name,
        "options": dict(context.machine.options),
        "policy": context.policy,
        "games": games,
        "requested": context.plan.total,
        "complete": complete,
        "seed": context.plan.seed,
        "workers": context.workers,
        "chunks": results.chunks,
    }
    for result in ("win", "lose", "push"):
        out[result] = proportion(result_counts[result], games, getattr(figures, result))
    results_of = {label: result for (result, label) in game.endings}
    out["labels"] = {label: dict(proportion(label_counts.get(label, 0), games, p), result=results_of.get(label))
                     for label, p in figures.labels.items()}
    out["throws"] = _throws(context.analysis, by_length, throws, games, game.age_cap)
    out["bets"] = {}
    if context.groups:
        per_group = []
        for k, group in zip(context.group_at, context.groups):
            table = context.tables[k]
            merged = results.counts[k] if results.counts else np.zeros(table.rows, dtype=np.int64)
            cycles = cycle_counts(table, merged)
            per_group.append(cycles)
            for name, (order, estimate) in group_figures(context.bet_table, group, cycles).items():
                out["bets"][name] = {"amount": order.text, "made": estimate.made,
                                     "staked": exact_text(estimate.staked),
                                     "net_per_unit": _estimate(estimate)}
        together = all_bets(context.bet_table, context.groups, per_group)
        if together is not None:
            out["all_bets"] = {"made": together.made, "staked": exact_text(together.staked),
                               "net_per_unit": _estimate(together)}
    out["throws_made"] = int(all_throws)
    out["seconds"] = round(seconds, 3)
    out["games_per_second"] = games / seconds if seconds else None
    out["throws_per_second"] = all_throws / seconds if seconds else None
    return out


def _estimate(e) -> dict:
    return {"value": e.value, "stderr": e.stderr, "exact": None if e.exact is None else exact_text(e.exact),
            "z": _z(e.value, e.stderr, e.exact)}


def _throws(analysis, by_length, throws: int, games: int, cap: int) -> dict:
    """Throws per game: the mean (exact over all games), and how many games took each number of
    throws up to the cap (then "cap or more")."""
    if not games:
        return {"mean": None, "distribution": []}
    mean = throws / games
    counted = sum(n * k for n, k in enumerate(by_length.tolist()) if n < cap)
    long_games = int(by_length[cap]) if cap < len(by_length) else 0
    long_mean = (throws - counted) / long_games if long_games else 0.0
    spread = sum(k * (n - mean) ** 2 for n, k in enumerate(by_length.tolist()) if n < cap)
    spread += long_games * (long_mean - mean) ** 2  # the long games at their mean: a slight underestimate
    stderr = math.sqrt(spread / (games - 1) / games) if games > 1 else None
    exact_mean = analysis.figures.expected_throws
    exact = analysis.throws  # P(T = n), tabulated until 99.9% is covered; the rest is `throws_tail`
    last = min(cap, len(exact))  # rows up to here one by one, then "last or more"
    distribution = []
    for n in range(1, last):
        if not exact[n] and not by_length[n]:
            continue
        distribution.append({"throws": n, **proportion(int(by_length[n]), games, exact[n])})
    tail_exact = analysis.throws_tail + sum(exact[last:], Fraction(0))
    beyond = {"from": last, **proportion(int(by_length[last:].sum()), games, tail_exact)}
    return {"mean": {"value": mean, "stderr": stderr, "exact": exact_text(exact_mean),
                     "z": _z(mean, stderr, exact_mean)},
            "distribution": distribution, "beyond": beyond}


def sessions_report(context, results: dict, seconds: float, complete: bool) -> dict:
    """The JSON of `simulate` for sessions at the table."""
    from .sessions import WHY

    setup = context.setup
    sessions = results.count
    scale = setup.scale
    merged = results.sessions or {"seats": [{} for _ in context.players], "games": 0, "why": [0] * len(WHY),
                                  "bank": 0, "box": 0, "rounded": 0, "unbalanced": 0}
    seats = {name: _purses(merged["seats"][j], sessions, scale) for j, name in enumerate(context.players)}
    games = merged["games"]
    why = merged["why"]
    return {
        "ruleset": context.machine.ruleset.name,
        "options": dict(context.machine.options),
        "policy": context.policy,
        "sessions": sessions,
        "requested": context.plan.total,
        "complete": complete,
        "seed": context.plan.seed,
        "workers": context.workers,
        "players": list(context.players),
        "purse": exact_text(context.purse),
        "stake": exact_text(context.stake),
        "strategy": setup.strategy,
        "rounds": setup.rounds,
        # who casts first: the first seat, or drawn by lot (each seat alike: simulate.sessions)
        "first": "by_lot" if setup.by_lot else "seat_order",
        "unit": context.machine.ruleset.money_unit,
        "units": context.machine.ruleset.money_units,
        "seats": seats,
        "games": games,
        "games_per_session": games / sessions if sessions else None,
        "ended": {WHY[k]: n for k, n in enumerate(why) if n},
        "bank_per_session": exact_text(Fraction(merged["bank"], scale * max(sessions, 1))),
        "box_per_session": exact_text(Fraction(merged["box"], scale * max(sessions, 1))),
        "money_conserved": merged["unbalanced"] == 0,
        "rounded": merged["rounded"],
        "minor_unit": exact_text(Fraction(1, scale)),
        "seconds": round(seconds, 3),
        "sessions_per_second": sessions / seconds if seconds else None,
        "games_per_second": games / seconds if seconds else None,
    }


def _purses(histogram: dict, sessions: int, scale: int) -> dict:
    """A seat's purse at the end of the sessions: mean (± s.e.), quantiles, the share ruined."""
    if not sessions or not histogram:
        return {"mean": {"value": None, "stderr": None}, "sd": None, "quantiles": {}, "ruined": proportion(0, 0, None),
                "distribution": []}
    values = sorted(histogram)
    counts = np.array([histogram[v] for v in values], dtype=np.float64)
    units = np.array(values, dtype=np.float64) / scale
    mean = float((units * counts).sum() / sessions) if sessions else None
    var = float(((units - mean) ** 2 * counts).sum() / (sessions - 1)) if sessions > 1 else 0.0
    cumulative = np.cumsum(counts)
    quantiles = {}
    for name, q in QUANTILES:
        k = int(np.searchsorted(cumulative, max(1, math.ceil(q * sessions)), side="left"))
        quantiles[name] = exact_text(Fraction(values[min(k, len(values) - 1)], scale))
    ruined = int(histogram.get(0, 0))
    return {
        "mean": {"value": mean, "stderr": math.sqrt(var / sessions) if sessions else None},
        "sd": math.sqrt(var),
        "quantiles": quantiles,
        "ruined": proportion(ruined, sessions, None),
        "distribution": [{"purse": exact_text(Fraction(v, scale)), "sessions": int(histogram[v])} for v in values],
    }
