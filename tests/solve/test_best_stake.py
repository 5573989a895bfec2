"""The best stake for a purse (solve.policy, `analyse --stake best|kelly`, `--risk`): every
expected figure is computed independently here, or cited.

Cotton's caster wins a game with chance 1979/4032 and loses with 2053/4032, no push
(`analyse cotton`, and issue 38 which quotes 1979/4032 = 0.49082 for one stake of 10 from 10 to 20)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction as F
from math import log

import numpy as np
import pytest

from hazard_dsl.simulate.sessions import purse_walks
from hazard_dsl.solve.policy import (PolicyError, PolicyTooLarge, best_after, best_stake, caster_outcomes,
                                     flat_chances, kelly, other_side, purse_for_risk)

P, Q = F(1979, 4032), F(2053, 4032)
COTTON = caster_outcomes(P, Q)


def gamblers_ruin(p, q, purse: int, goal: int) -> F:
    """The classical formula (Feller, vol. I, XIV.2): P(reach goal from purse), steps of ±1."""
    r = q / p
    return (1 - r ** purse) / (1 - r ** goal)


def solve(rows: dict, goal: int) -> dict:
    """P(goal) from every purse of the chain `rows` ({x: {y: p}}), by dense Gauss–Jordan over
    Fractions (independent of markov.Chain)."""
    xs = sorted(rows)
    at = {x: k for k, x in enumerate(xs)}
    n = len(xs)
    m = [[F(0)] * (n + 1) for _ in range(n)]
    for x in xs:
        k = at[x]
        m[k][k] += 1
        for y, p in rows[x].items():
            if y >= goal:
                m[k][n] += p
            elif y >= 1:
                m[k][at[y]] -= p
    for c in range(n):
        pivot = next(r for r in range(c, n) if m[r][c])
        m[c], m[pivot] = m[pivot], m[c]
        m[c] = [v / m[c][c] for v in m[c]]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return {x: m[at[x]][n] for x in xs}


def test_cotton_ten_to_twenty_bold_play_is_best():
    best = best_stake(COTTON, 20, flat=1)
    assert best.stakes[10] == 10  # bold play: the whole purse at once
    assert best.chance(10) == F(1979, 4032)  # issue 38: 1979/4032 = 0.49082
    assert best.flat[10] == gamblers_ruin(P, Q, 10, 20)
    assert round(float(best.flat[10]), 5) == 0.40924  # issue 38


def test_best_beats_or_equals_every_flat_stake():
    best = best_stake(COTTON, 20)
    for stake in range(1, 11):
        flat = flat_chances(COTTON, 20, stake)
        assert all(flat[x] <= best.values[x] for x in flat)


@pytest.mark.parametrize("outcomes", [COTTON, other_side(COTTON), {1: F(2, 5), -1: F(1, 2), 0: F(1, 10)}])
def test_best_is_the_best_of_every_policy_by_brute_force(outcomes):
    goal = 8
    choices = [range(1, min(x, goal - x) + 1) for x in range(1, goal)]
    top = {x: F(0) for x in range(1, goal)}
    for stakes in itertools.product(*choices):
        rows = {}
        for x, s in zip(range(1, goal), stakes):
            row: dict = {}
            for r, p in outcomes.items():
                if r:  # a push repeats the game: leave it out and scale
                    row[x + s * r] = row.get(x + s * r, 0) + p / (1 - outcomes.get(0, 0))
            rows[x] = row
        values = solve(rows, goal)
        for x in top:
            top[x] = max(top[x], values[x])
    best = best_stake(outcomes, goal)
    assert best.values == top


def test_the_setter_plays_timid():
    # with the edge on his side, one unit at a time is best (Breiman; Dubins & Savage ch. 5)
    best = best_stake(other_side(COTTON), 30)
    assert set(best.stakes.values()) == {1}
    assert best.values[15] == gamblers_ruin(Q, P, 15, 30)


def test_two_hundred_purses_and_a_hundred_stakes_are_quick():
    import time

    begun = time.perf_counter()
    best = best_stake(COTTON, 200, 100)
    assert time.perf_counter() - begun < 5  # a second on a quiet machine (bench/bench_policy.py)
    assert best.stakes[100] == 100 and best.chance(100) == P


def test_a_table_limit_binds_bold_play():
    best = best_stake(COTTON, 20, 5)
    assert max(best.stakes.values()) == 5
    assert best.chance(10) < P  # bold play is out of reach


def test_kelly_fraction_is_exact_for_even_money():
    assert kelly(COTTON).fraction is None  # the edge is against the caster
    k = kelly(other_side(COTTON))
    assert k.fraction == Q - P == F(37, 2016)
    # the growth at f: p ln(1+f) + q ln(1−f); a scan finds no better fraction
    g = float(Q) * log(1 + float(k.fraction)) + float(P) * log(1 - float(k.fraction))
    assert k.growth == pytest.approx(g)
    assert all(float(Q) * log(1 + f) + float(P) * log(1 - f) <= g + 1e-15 for f in np.linspace(0.001, 0.05, 99))


def test_kelly_with_three_outcomes_is_numerical():
    k = kelly({2: F(1, 3), -1: F(1, 2), 0: F(1, 6)})
    # p·2/(1+2f) = q/(1−f): f = (2p − q)/(2(p + q)) = (2/3 − 1/2)/(5/3) = 1/10
    assert k.fraction == F(1, 10)


def test_expected_purse_after_games_by_recursion():
    from functools import lru_cache

    for outcomes in (COTTON, other_side(COTTON)):
        @lru_cache(maxsize=None)
        def value(x: int, n: int) -> F:
            if n == 0 or x < 1:
                return F(x)
            return max(sum(p * value(x + s * r, n - 1) for r, p in outcomes.items()) for s in range(1, min(x, 3) + 1))

        h = best_after(outcomes, 6, 8, 3)
        assert h.expected == value(6, 8)
    assert best_after(COTTON, 6, 8, 3).first == 1  # the edge against: the least stake, never none


def test_purse_for_a_risk_of_ruin():
    flat = flat_chances(COTTON, 20, 1)
    need = purse_for_risk(flat, F(1, 2))
    assert 1 - gamblers_ruin(P, Q, need, 20) <= F(1, 2) < 1 - gamblers_ruin(P, Q, need - 1, 20)
    assert purse_for_risk(flat, F(1, 10 ** 9)) is None


def test_refusals():
    with pytest.raises(PolicyTooLarge, match="simulate"):
        best_stake(COTTON, 5000)
    with pytest.raises(PolicyError, match="whole"):
        best_stake({F(3, 2): F(1, 2), -1: F(1, 2)}, 20)
    with pytest.raises(PolicyError, match="won and lost"):
        best_stake({1: F(1)}, 20)


@pytest.mark.statistical  # a simulation against exact figures
def test_the_best_policy_simulated_agrees_within_four_standard_errors():
    best = best_stake(COTTON, 20)
    sim = purse_walks(COTTON, lambda purse, state: best.stakes[purse], lambda state, r, s: state, None, 7, 20,
                      4000, np.random.default_rng(38))
    mean, se = sim["reach_goal"]
    assert abs(mean - float(best.chance(7))) < 4 * se


def _analyse(*words):
    return subprocess.run([sys.executable, "-m", "hazard_dsl", "analyse", "cotton", "--no-options", *words],
                          capture_output=True, text=True)


def test_analyse_best_stake_json():
    done = _analyse("--bankroll", "10", "--goal", "20", "--stake", "best", "--json")
    assert done.returncode == 0, done.stderr
    best = json.loads(done.stdout)["staking"]["best_stake"]
    assert best["reach_goal"] == "1979/4032" and best["stake"] == 10
    assert F(best["flat_reach_goal"]) == gamblers_ruin(P, Q, 10, 20)
    assert best["policy"]["19"]["stake"] == 1


def test_analyse_kelly_and_risk_json():
    out = json.loads(_analyse("--stake", "kelly", "--json").stdout)["staking"]
    assert out["kelly"]["setter"]["fraction"] == "37/2016" and out["kelly"]["caster"]["fraction"] is None
    out = json.loads(_analyse("--goal", "20", "--stake", "1", "--risk", "1/2", "--json").stdout)["staking"]
    assert out["purse_for_risk"]["purse"] == purse_for_risk(flat_chances(COTTON, 20, 1), F(1, 2))


@pytest.mark.parametrize("words, says", [
    (("--stake", "best"), "--goal"),
    (("--stake", "best", "--goal", "20", "--bankroll", "30"), "less than"),
    (("--stake", "best", "--goal", "20", "--side", "banker"), "caster or setter"),
    (("--goal", "20", "--risk", "2", "--stake", "1"), "between 0 and 1"),
    (("--cap", "8", "--stake", "best", "--goal", "20"), "--strategy"),
])
def test_analyse_refuses_clearly(words, says):
    done = _analyse(*words)
    assert done.returncode not in (0, 70) and says in done.stderr, done.stderr


def _run(*words):
    return subprocess.run([sys.executable, "-m", "hazard_dsl", "run", *words], capture_output=True, text=True)


def test_the_best_policy_is_played_at_the_table():
    # against a bank each player backs the caster, whose edge is against him: bold play, the most
    # allowed (5) towards twice his purse of 10 (best_stake(…, 20, 5) stakes 5 from 10)
    done = _run("french", "--players", "Ann,Ben", "--strategy", "best", "--stake", "5", "--purse", "10", "--seed", "4")
    assert done.returncode == 0, done.stderr
    assert "Ann stakes 5 francs with the bank" in done.stdout
    # against the caster, a setter has the edge: timid play, one unit at a time
    done = _run("cotton", "--players", "Ann,Ben,Cat", "--strategy", "best", "--stake", "5", "--purse", "10",
                "--seed", "3")
    stakes = [line for line in done.stdout.splitlines() if "on the stake" in line]
    assert stakes and all(" 1s on the stake" in line for line in stakes)
    assert set(best_stake(other_side(COTTON), 20, 5).stakes.values()) == {1}


def test_the_best_policy_at_the_table_refuses_odd_money():
    done = _run("cotton", "--players", "Ann,Ben", "--strategy", "best", "--stake", "1.5")
    assert done.returncode == 2 and "whole units" in done.stderr
