"""The HTML rule sheet's chart (issue 38: "a chart where people would rather look than read"):
how long a game lasts, P(the game takes n throws), drawn as inline SVG in the HTML sheet only; the
text, Markdown and JSON sheets carry none. The shares are counted here from the dice: at craps a
come-out decides the game with 2, 3, 7, 11 or 12 (12 ways in 36), and a point of w ways is decided
on the next throw by itself or a seven (w + 6 ways)."""

from __future__ import annotations

import re
from fractions import Fraction

from hazard_dsl.commands.loading import build_machine, load
from hazard_dsl.render.rulesheet import rule_sheet


def _machine(name):
    ruleset = load(name)
    return build_machine(ruleset, [], list(ruleset.bets))


def _bars(page: str) -> dict:
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"<title>(\w+) throws: ([\d.]+)%</title>", page)}


def test_craps_sheet_draws_the_throws_of_a_game():
    page = rule_sheet(_machine("craps"), "html")
    assert page.count("<svg") == 1 and "How long a game lasts" in page
    bars = _bars(page)
    ways = {t: 6 - abs(t - 7) for t in range(2, 13)}
    one = Fraction(sum(ways[t] for t in (2, 3, 7, 11, 12)), 36)
    two = sum(Fraction(ways[p], 36) * Fraction(ways[p] + 6, 36) for p in (4, 5, 6, 8, 9, 10))
    assert bars["1"] == round(float(one) * 100, 3) and bars["2"] == round(float(two) * 100, 3)
    assert "more" in bars and abs(sum(bars.values()) - 100) < 0.05  # the rest past the last bar, as one
    # the chart sits in the section on the game, before the table's
    assert page.index("<svg") < page.index(">At the table<")


def test_a_game_of_one_throw_has_no_chart_and_other_formats_none():
    assert "<svg" not in rule_sheet(_machine("sic_bo"), "html")  # every game one throw: one bar says nothing
    craps = _machine("craps")
    for fmt in ("text", "markdown", "json"):
        assert "<svg" not in rule_sheet(craps, fmt)
