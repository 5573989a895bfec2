"""The simulated figure beside the exact one (issue 38, point 6): `analyse --games N --simulate M`
and `--tail N --simulate M`, and the API's `session_net(simulate=)` and `tail(simulate=)`.

Each simulated figure must fall within four standard errors of its exact value (a fixed seed, so
each run draws the same numbers). The exact values are held here to figures computed apart from
the solver, so that a simulation agreeing with a wrong exact figure cannot pass:

* fifty flat pass-line games: a binomial with p = 244/495 (tests/solve/test_risk_session.py);
* until ten up or ten down at even money: the gambler's ruin (Feller, vol. I, XIV.2);
* P(craps hand ≥ n throws): the chain built by hand in tests/solve/test_risk_tails.py.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from math import comb

import pytest

import hazard_dsl
from hazard_dsl.cli import main
from hazard_dsl.errors import ArgumentError
from tests.solve.test_risk_session import P_PASS
from tests.solve.test_risk_tails import craps_hand_at_least

@pytest.fixture(scope="module")
def craps():
    return hazard_dsl.load("craps")


def within_four(simulated) -> None:
    for name, b in simulated.figures.items():
        assert b.z is not None and abs(b.z) < 4, (name, float(b.exact), b.mean, b.se, b.z)


@pytest.mark.statistical
def test_fifty_pass_line_games_played_on_the_machine(craps):
    net = craps.session_net(games=50, simulate=4000, seed=3)
    q = 1 - P_PASS
    ahead = sum((comb(50, k) * P_PASS ** k * q ** (50 - k) for k in range(26, 51)), F(0))
    even = comb(50, 25) * P_PASS ** 25 * q ** 25
    sim = net.simulated
    assert sim.figures["ahead"].exact == ahead and sim.figures["even"].exact == even
    assert sim.figures["mean"].exact == 50 * (2 * P_PASS - 1)
    assert set(sim.figures) == {"ahead", "even", "behind", "mean", "expected_games", "coin_in"}
    assert sim.count == 4000 and sim.what == "sessions" and "compiled machine" in sim.how
    within_four(sim)
    # every session plays its fifty games: no spread, the exact count
    assert sim.figures["expected_games"].mean == 50 and sim.figures["expected_games"].se == 0


@pytest.mark.statistical
def test_until_ten_up_or_ten_down_is_the_gamblers_ruin(craps):
    net = craps.session_net(stop_loss=10, stop_win=10, simulate=3000, seed=5)
    r = (1 - P_PASS) / P_PASS
    reach = (1 - r ** 10) / (1 - r ** 20)
    sim = net.simulated
    assert sim.figures["ahead"].exact == reach and sim.figures["even"].exact == 0
    within_four(sim)
    assert sim.figures["even"].mean == 0  # a session that stops is ten up or ten down, never even


@pytest.mark.statistical
def test_a_stop_loss_inside_fifty_games(craps):
    within_four(craps.session_net(games=50, stop_loss=5, simulate=3000, seed=7).simulated)


@pytest.mark.statistical
def test_a_plan_with_odds_draws_its_decisions_from_the_plan(craps):
    net = craps.session_net(games=20, bets={"pass": 1, "odds": "3-4-5x"}, simulate=3000, seed=2)
    sim = net.simulated
    assert "plan's exact distribution" in sim.how
    assert "coin_in" not in sim.figures  # the staked of a decision is not drawn: no figure to set beside
    within_four(sim)


@pytest.mark.statistical
def test_the_hand_tail_played_on_the_machine(craps):
    tail = craps.tail(30, simulate=5000, seed=11, hand=True)
    sim = tail.simulated
    assert sim.what == "hands"
    assert sim.figures["at_least_30"].exact == craps_hand_at_least(30)
    assert sim.figures["at_least_10"].exact == craps_hand_at_least(10)
    assert list(sim.figures) == ["at_least_1", "at_least_2", "at_least_5", "at_least_10", "at_least_20",
                                 "at_least_30"]
    within_four(sim)


@pytest.mark.statistical
def test_the_game_tail_of_a_ruleset_with_choices():
    # Cotton's caster chooses (the main); a game's length is a walk through the choice states too
    tail = hazard_dsl.load("cotton").tail(12, hand=False, simulate=4000, seed=13)
    assert tail.simulated.what == "games"
    within_four(tail.simulated)


def test_the_same_seed_draws_the_same_numbers(craps):
    a = craps.session_net(games=10, simulate=500, seed=4).simulated
    b = craps.session_net(games=10, simulate=500, seed=4).simulated
    c = craps.session_net(games=10, simulate=500, seed=6).simulated
    assert a.figures == b.figures and a.figures != c.figures


def test_too_many_simulated_sessions_are_refused_naming_the_bound(craps, capsys):
    with pytest.raises(ArgumentError) as found:
        craps.session_net(games=50, simulate=1_000_000)
    assert "20,000,000" in str(found.value) and "50,000,000 decisions" in str(found.value)
    assert main(["analyse", "craps", "--no-options", "--games", "50", "--simulate", "1000000"]) == 2
    err = capsys.readouterr().err
    assert "--simulate" in err and "20,000,000" in err


@pytest.mark.statistical
def test_analyse_json_gives_each_figure_beside_its_exact_one(capsys):
    assert main(["analyse", "craps", "--no-options", "--games", "50", "--simulate", "2000", "--seed", "1",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["session"]
    sim = out["simulated"]
    assert sim["sessions"] == 2000 and sim["seed"] == 1
    assert sim["figures"]["ahead"]["exact"] == out["ahead"]
    assert F(sim["figures"]["mean"]["exact"]) == 50 * (2 * P_PASS - 1)
    for figure in sim["figures"].values():
        assert abs(figure["z"]) < 4 and figure["standard_error"] >= 0
    # the API draws the same sessions from the same seed
    api = hazard_dsl.load("craps").session_net(games=50, simulate=2000, seed=1).simulated
    assert api.figures["ahead"].mean == sim["figures"]["ahead"]["simulated"]


def test_without_simulate_the_json_is_as_before(capsys):
    assert main(["analyse", "craps", "--no-options", "--games", "5", "--json"]) == 0
    assert "simulated" not in json.loads(capsys.readouterr().out)["session"]


def test_analyse_text_and_csv_of_the_tail(capsys):
    assert main(["analyse", "craps", "--no-options", "--hand", "--tail", "20", "--simulate", "2000"]) == 0
    out = capsys.readouterr().out
    assert "How long a hand lasts, simulated beside exact: 2,000 hands (seed 0)" in out
    assert "P(hand ≥ 20 throws)" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert main(["analyse", "craps", "--no-options", "--hand", "--tail", "20", "--simulate", "2000",
                 "--format", "csv"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "simulated beside exact" in line]
    assert len(rows) == 5 and any("P(hand ≥ 20 throws)" in row for row in rows)


def test_analyse_text_of_a_session_fits_eighty_columns(capsys):
    assert main(["analyse", "craps", "--no-options", "--bet", "pass=1", "--bet", "odds=3-4-5x", "--games", "20",
                 "--stop-loss", "30", "--simulate", "1000"]) == 0
    out = capsys.readouterr().out
    assert "The session's net, simulated beside exact: 1,000 sessions (seed 0)" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_what_is_not_simulated_here_is_said(capsys):
    assert main(["analyse", "cotton", "--no-options", "--players", "Ann,Ben,Cat", "--bet", "Ben:side=1", "--games",
                 "5", "--simulate", "100"]) == 2
    assert "`hazard-dsl simulate` with --players" in capsys.readouterr().err
    for bad, says in (("x", "is not a whole number"), ("1", "between 2 and 1,000,000")):
        assert main(["analyse", "craps", "--no-options", "--tail", "5", "--simulate", bad]) == 2
        assert says in capsys.readouterr().err


@pytest.mark.statistical
def test_a_long_session_until_a_stop_is_drawn_in_blocks(craps):
    # three down or twenty up lasts dozens of games: drawn in blocks, a session stopped in the
    # middle of one keeps the net where it stopped
    sim = craps.session_net(stop_loss=3, stop_win=20, simulate=2000, seed=9).simulated
    within_four(sim)
    assert sim.figures["behind"].mean + sim.figures["ahead"].mean == 1


@pytest.mark.statistical
def test_the_best_stake_simulated_gives_its_z(capsys):
    # Cotton's caster from 10 to 20: bold play, one stake of 10, reaches the goal with 1979/4032
    # (tests/solve/test_risk_done_when.py counts it from the throws)
    assert main(["analyse", "cotton", "--no-options", "--bankroll", "10", "--goal", "20", "--stake", "best",
                 "--simulate", "3000", "--seed", "2", "--json"]) == 0
    sim = json.loads(capsys.readouterr().out)["staking"]["simulated"]
    mean, se = sim["reach_goal"]
    assert sim["z"]["reach_goal"] == pytest.approx((mean - 1979 / 4032) / se)
    assert abs(sim["z"]["reach_goal"]) < 4
