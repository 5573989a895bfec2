"""POST /api/charts: the figures the library page charts (issue 38) — the distribution of a
session's net, the tail of a hand, and the best stake by purse — as points a page draws.

The page draws its own SVG from these points (serve/static/library.js), rather than asking
for a picture made by render/plot.py: the web extra does not need matplotlib, a chart drawn
in the page scales to a phone's width and reads in the page's own type, and the figures stay
data a script can read. Each figure is exact where it is worked out (solve.distribution,
solve.tails, solve.policy, as `analyse --games`, `--hand --tail` and `--stake best` give
them); only the points sent are decimals, for drawing. A part that cannot be worked out (a
chain too large, a game whose dice never pass) carries its reason in words, and the others
are still drawn.
"""

from __future__ import annotations

from fractions import Fraction

from ..commands.errors import CommandError, SettingError
from ..errors import ArgumentError
from ..records import replace

DEFAULTS = {"games": 50, "tail": 40, "bankroll": 10, "goal": 20}
SETTINGS = ("games", "stop_loss", "stop_win", "tail", "bankroll", "goal")
MOST = {"games": 1_000, "tail": 400, "goal": 400}  # a page's chart, not a report: bounded, and said


def _count(value, what: str) -> int:
    if value in (None, ""):
        return DEFAULTS[what]
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if type(value) is not int or not 1 <= value <= MOST.get(what, 10 ** 6):
        raise SettingError(what, f"must be a whole number from 1 to {MOST.get(what, 10 ** 6):,} for a chart")
    return value


def _money(ruleset, value, what: str) -> Fraction | None:
    """An amount as a page sends it: text in the file's unit or coin ("2.50", "2s 6d"), or a number."""
    from ..render.words import MoneyText, money_typed

    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise SettingError(what, ": an amount is text such as \"10\" or \"2.50\"")
    try:
        amount = money_typed(ruleset, str(value).strip())
    except MoneyText as exc:
        raise SettingError(what, f": {exc}") from None
    if amount <= 0:
        raise SettingError(what, "must be more than 0")
    return amount


def _share(p) -> float:
    return float(p)


def _said(exc: Exception) -> str:
    from .wording import worded

    return worded(exc) if isinstance(exc, ArgumentError) else str(exc)


def risk_charts(name: str, options: dict, asked: dict, text: str | None = None) -> dict:
    """The points of the three charts for ruleset `name` with `options` ({option: value}) and
    the form's fields `asked`: games, stop_loss, stop_win (the session of the caster's game at
    even money, one stake a game), tail (throws), bankroll and goal (the best stake)."""
    from ..commands.analyse import analyse_request, risk
    from ..commands.loading import load, machine_for
    from ..solve.policy import PolicyError, best_stake, caster_outcomes
    from ..solve.tails import one_in
    from .requests import analyse_request as base_request
    from .requests import unknown_field

    if not isinstance(asked, dict):
        raise SettingError("settings", "is an object such as {\"games\": 50}")
    unknown = unknown_field(asked, SETTINGS)
    if unknown is not None:
        raise SettingError("settings", f": {unknown} is not one of {', '.join(SETTINGS)}")
    ruleset = load(name, text)
    games = _count(asked.get("games"), "games")
    tail = _count(asked.get("tail"), "tail")
    loss, win = _money(ruleset, asked.get("stop_loss"), "stop_loss"), _money(ruleset, asked.get("stop_win"), "stop_win")
    sent = _money(ruleset, asked.get("bankroll"), "bankroll")
    bankroll = sent or Fraction(DEFAULTS["bankroll"])
    goal = _money(ruleset, asked.get("goal"), "goal") or Fraction(DEFAULTS["goal"])
    if goal > MOST["goal"]:
        raise SettingError("goal", f"must be at most {MOST['goal']} for a chart")
    if not bankroll < goal and sent is None:  # the goal alone was sent: it is the one to correct
        raise SettingError("goal", f"must be more than the bankroll, {bankroll} when none is sent, not {goal}")
    if not bankroll < goal:
        raise SettingError("bankroll", f"must be less than the goal ({goal})")
    request = replace(base_request(name, options, text), by_option=False)
    analysis = analyse_request(request)
    f = analysis.figures
    caster = ruleset.words.caster  # the game's word for him: Crown and Anchor's banker
    out: dict = {"ruleset": analysis.ruleset, "units": ruleset.money_units, "win": _share(f.win),
                 "lose": _share(f.lose)}

    try:
        if not f.win and not f.lose:
            raise CommandError(f"{caster} has no stake to win or lose in this game: its figures are its bets'")
        d = risk(analysis, games=games, stop_loss=loss, stop_win=win, policy=request.policy).session
        out["session"] = {"games": games, "stop_loss": None if loss is None else str(loss),
                          "stop_win": None if win is None else str(win),
                          "points": [[float(v), _share(p)] for v, p in sorted(d.outcomes.items())],
                          "ahead": _share(d.ahead), "even": _share(d.even), "behind": _share(d.behind),
                          "mean": float(d.mean)}
    except (CommandError, ArgumentError) as exc:
        out["session"] = {"error": _said(exc)}

    machine = machine_for(ruleset, request.options)
    part: dict = {"error": None}
    for hand in (True, False):  # a hand where the dice pass; else the game's own length
        try:
            lengths = risk(analysis, machine, tail=tail, hand=hand, policy=request.policy).tail
        except (CommandError, ArgumentError) as exc:
            part = {"error": _said(exc)}
            continue
        last = lengths.at_least(tail)
        part = {"what": lengths.what, "throws": tail, "rule": lengths.rule,
                # log10 P(length ≥ m), m = 1 … tail: a float of the chance itself would underflow
                "logs": [None if y == float("-inf") else y for y in lengths.logs[1:tail + 1]],
                "at_least": _share(last), "one_in": one_in(last)}
        break
    out["tail"] = part

    try:
        if not f.win and not f.lose:
            raise PolicyError(f"{caster} has no stake to win or lose in this game, so no stake to choose")
        if bankroll.denominator != 1 or goal.denominator != 1:
            raise SettingError("goal", "and the bankroll must be whole units for the best stake")
        best = best_stake(caster_outcomes(f.win, f.lose), int(goal), None, flat=1)
        purses = sorted(best.stakes)
        out["best"] = {"bankroll": int(bankroll), "goal": int(goal),
                       "stakes": [[x, best.stakes[x]] for x in purses],
                       "chances": [[x, _share(best.values[x])] for x in purses],
                       "flat": [[x, _share(best.flat.get(x, 0))] for x in purses],
                       "chance": _share(best.chance(int(bankroll))), "exact": str(best.chance(int(bankroll)))}
    except (PolicyError, ArgumentError) as exc:
        out["best"] = {"error": _said(exc)}
    return out


__all__ = ["DEFAULTS", "MOST", "risk_charts"]
