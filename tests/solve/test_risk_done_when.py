"""Issue 38's "done when": each figure it names, from `analyse --json` and from the Python API,
against its source, computed here apart from the solver (the enumerations of
tests/solve/test_risk_spread.py, test_risk_tails.py and test_session_seats.py):

* pass with 3-4-5x odds: variance 5920646/245025 per decision (the bar's own check);
* A. Krigman, "Taking it or laying it at the craps table", Casino City Times, 5 May 2009: a 50
  odds bet has variance 5000 on 4 or 10, 3750 on 5 or 9, 3000 on 6 or 8 (SD $70.70, $61.20,
  $54.80), so 2, 3/2 and 6/5 per unit;
* don't pass: 3/220 per bet made, 27/1925 per bet resolved (Wizard of Odds, "Craps");
* S. N. Ethier and F. M. Hoppe, Mathematical Intelligencer 32(4), 2010: a craps hand of 154
  rolls or more, about 1 in 5,590,264,072;
* Cotton's caster from 10 to 20: the best chance is one stake of 10, 1979/4032 (the issue;
  the game's chance counted from the 36 throws under Cotton's rules), and ≈ 0.40924 staking 1
  every game (the gambler's ruin, Feller vol. I, XIV.2).
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

import hazard_dsl
from hazard_dsl.cli import main
from tests.solve.test_risk_spread import MULTIPLE_345, dont_pass, pass_with_odds, variance
from tests.solve.test_risk_tails import craps_hand_at_least
from tests.solve.test_session_seats import caster_wins


def analyse_json(capsys, *argv) -> dict:
    assert main(["analyse", *argv, "--no-options", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def craps():
    return hazard_dsl.load("craps")


def test_pass_with_odds_variance(craps, capsys):
    expected = variance(pass_with_odds(MULTIPLE_345))
    assert expected == F(5920646, 245025)
    out = analyse_json(capsys, "craps", "--bet", "pass=1", "--bet", "odds=3-4-5x")
    assert F(out["plan_spread"]["variance"]) == expected
    assert craps.spread({"pass": 1, "odds": "3-4-5x"}).variance == expected


@pytest.mark.parametrize("point, per_unit", [(4, F(2)), (10, F(2)), (5, F(3, 2)), (9, F(3, 2)), (6, F(6, 5)),
                                             (8, F(6, 5))])
def test_krigman_odds_variances(capsys, point, per_unit):
    # the odds bet pays 2:1, 3:2, 6:5 and wins with 3/9, 4/10, 5/11: p·q·(1 + pay)²
    pay = {4: F(2), 10: F(2), 5: F(3, 2), 9: F(3, 2), 6: F(6, 5), 8: F(6, 5)}[point]
    ways = {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}[point]
    p = F(ways, ways + 6)
    assert p * (1 - p) * (1 + pay) ** 2 == per_unit
    assert per_unit * 50 ** 2 in (5000, 3750, 3000)
    out = analyse_json(capsys, "craps")
    assert F(out["spread"]["odds"]["by_place"][f"point with point = {point}"]["variance"]) == per_unit


def test_dont_pass_edges(craps, capsys):
    enumerated = dont_pass()
    made = -sum(v * q for v, q in enumerated.items())
    assert made == F(3, 220) and made / (1 - enumerated[F(0)]) == F(27, 1925)
    out = analyse_json(capsys, "craps")["spread"]["dont_pass"]
    assert (out["edge_per_bet_made"], out["edge_per_bet_resolved"]) == ("3/220", "27/1925")
    s = craps.spread("dont_pass")
    assert (s.edge_per_made, s.edge_per_resolved) == (F(3, 220), F(27, 1925))


def test_ethier_hoppe_through_the_json_and_the_api(craps, capsys):
    expected = craps_hand_at_least(154)
    assert round(1 / expected) == 5_590_264_072
    out = analyse_json(capsys, "craps", "--hand", "--tail", "154")["tail"]
    assert F(out["at_least"]) == expected and out["one_in"] == "5590264072"
    assert craps.tail(154, hand=True).at_least(154) == expected


def test_cottons_best_stake_through_the_json_and_the_api(capsys):
    p = caster_wins()
    assert p == F(1979, 4032)
    r = (1 - p) / p
    flat = (1 - r ** 10) / (1 - r ** 20)
    assert round(float(flat), 5) == 0.40924
    out = analyse_json(capsys, "cotton", "--bankroll", "10", "--goal", "20", "--stake", "best")
    best = out["staking"]["best_stake"]
    assert (F(best["reach_goal"]), best["stake"], F(best["flat_reach_goal"])) == (p, 10, flat)
    api = hazard_dsl.load("cotton").best_stake(20, bankroll=10)
    assert (api.chance(10), api.stakes[10], api.flat[10]) == (p, 10, flat)
