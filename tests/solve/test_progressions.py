"""Betting progressions as exact chains (solve.progressions, `analyse --strategy`): every expected
figure is computed independently here. Cotton's caster: 1979/4032 to win, 2053/4032 to lose."""

from __future__ import annotations

import json
from fractions import Fraction as F

import numpy as np
import pytest

from hazard_dsl.simulate.sessions import purse_walks
from hazard_dsl.solve.policy import caster_outcomes
from hazard_dsl.solve.progressions import (PROGRESSIONS, Progression, ProgressionError, ProgressionTooLarge,
                                           progression_run)
from tests.in_process import hazard

P, Q = F(1979, 4032), F(2053, 4032)
COTTON = caster_outcomes(P, Q)
WITH_PUSH = {1: F(2, 5), -1: F(1, 2), 0: F(1, 10)}


@pytest.mark.parametrize("name", PROGRESSIONS)
@pytest.mark.parametrize("outcomes", [COTTON, WITH_PUSH])
def test_no_progression_beats_the_edge(name, outcomes):
    run = progression_run(outcomes, name, 10, 20, 1, cap=8)
    edge = sum(r * p for r, p in outcomes.items())
    # Wald: the expected net is exactly the game's net per unit staked times the coin-in
    assert run.net == edge * run.staked
    assert run.per_staked == edge and not run.beats
    assert sum(run.nets.values()) == 1 and run.reach_goal + run.ruin == 1


def test_martingale_from_three_to_four_by_hand():
    # lose 1 (purse 2), then stake 2: the goal on the first win or the second; ruin on two losses
    run = progression_run(COTTON, "martingale", 3, 4, 1)
    assert run.reach_goal == P + Q * P
    assert run.nets == {F(1): P + Q * P, F(-3): Q * Q}
    assert run.games == 1 + Q and run.staked == 1 + 2 * Q


def test_paroli_from_one_to_four_by_hand():
    # stakes 1, 2 (the purse 2), then 4: the purse doubles on each win; three wins reach 8 ≥ 4,
    # but 4 is reached after two wins (1 → 2 → 4)
    run = progression_run(COTTON, "paroli", 1, 4, 1)
    assert run.reach_goal == P * P


def test_dalembert_by_an_independent_chain():
    """d'Alembert from 3 to 6, written out here: states (purse, units), solved by Gauss–Jordan."""
    goal = 6
    rows, todo, seen = {}, [(3, 1)], {(3, 1)}
    while todo:
        purse, n = todo.pop()
        s = min(n, purse)
        row = {}
        for r, p, m in ((1, P, max(1, n - 1)), (-1, Q, n + 1)):
            y = purse + s * r
            key = "goal" if y >= goal else "ruin" if y <= 0 else (y, m)
            row[key] = row.get(key, 0) + p
            if key not in ("goal", "ruin") and key not in seen:
                seen.add(key)
                todo.append(key)
        rows[(purse, n)] = row
    states = sorted(rows)
    at = {s: k for k, s in enumerate(states)}
    k = len(states)
    m = [[F(0)] * (k + 1) for _ in range(k)]
    for s, row in rows.items():
        m[at[s]][at[s]] += 1
        for t, p in row.items():
            if t == "goal":
                m[at[s]][k] += p
            elif t != "ruin":
                m[at[s]][at[t]] -= p
    for c in range(k):
        pivot = next(r for r in range(c, k) if m[r][c])
        m[c], m[pivot] = m[pivot], m[c]
        m[c] = [v / m[c][c] for v in m[c]]
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    assert progression_run(COTTON, "dalembert", 3, 6, 1).reach_goal == m[at[(3, 1)]][k]


def test_rules_of_each_progression():
    fib = Progression("fibonacci", 1)
    assert [fib.asks(i) for i in range(6)] == [1, 1, 2, 3, 5, 8]
    assert fib.after(4, 1, 5) == 2 and fib.after(4, -1, 5) == 5
    lab = Progression("labouchere", 1)
    assert lab.asks(lab.start) == 4  # 1 + 3
    assert lab.after((1, 2, 3), -1, 4) == (1, 2, 3, 4) and lab.after((1, 2, 3), 1, 4) == (2,)
    assert lab.after((2,), 1, 2) == (1, 2, 3)  # struck out: a new line
    mart = Progression("martingale", 1, cap=8)
    assert mart.after(3, -1, 8) == 0  # 16 is past the cap: start again
    assert mart.stake(3, 5, None) == 5 and mart.stake(3, 20, 6) == 6  # the purse, the table's limit


@pytest.mark.parametrize("name", PROGRESSIONS)
@pytest.mark.statistical  # a simulation against exact figures
def test_simulated_progressions_agree_within_four_standard_errors(name):
    run = progression_run(COTTON, name, 10, 20, 1, cap=8)
    rule = Progression(name, 1, 8)
    sim = purse_walks(COTTON, lambda purse, state: rule.stake(state, purse, None), rule.after, rule.start, 10, 20,
                      3000, np.random.default_rng(5))
    for key, exact in (("reach_goal", run.reach_goal), ("games", run.games), ("net", run.net)):
        mean, se = sim[key]
        assert abs(mean - float(exact)) < 4 * se, (key, mean, float(exact), se)


def test_too_large_is_said_before_solving():
    with pytest.raises(ProgressionTooLarge, match="simulate"):
        progression_run(COTTON, "labouchere", 50, 100, 1, limit=20)
    with pytest.raises(ProgressionError, match="did you mean"):
        progression_run(COTTON, "martingal", 10, 20)
    with pytest.raises(ProgressionError, match="cap"):
        progression_run(COTTON, "martingale", 10, 20, 2, cap=1)


def test_analyse_strategy_json(capsys):
    done = hazard(capsys, "analyse", "cotton", "--no-options", "--bankroll", "3",
                  "--goal", "4", "--stake", "1", "--strategy", "martingale", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["staking"]["progression"]
    assert F(out["reach_goal"]) == P + Q * P
    assert out["net_per_unit_staked"] == out["edge_per_unit_staked"] == "-37/2016" and not out["beats_the_edge"]


def test_a_progression_at_the_table_reads_the_purse():
    from hazard_dsl.play.actions import Question
    from hazard_dsl.play.strategies import strategy

    decide = strategy("martingale", 1)

    def ask(player, purse, most=100):
        return decide(Question("stake", player, {"purse": str(purse), "most": str(most), "least": "0"}))["amount"]

    assert ask("Ann", 20) == 1
    assert ask("Ann", 19) == 2  # lost the 1: double
    assert ask("Ann", 17) == 4  # lost the 2
    assert ask("Ben", 20) == 1  # each player his own
    assert ask("Ann", 21) == 1  # won the 4: start again
    assert ask("Ann", 21) == 1  # the same purse: a push, nothing changes
    assert ask("Ann", 20) == 2 and ask("Ann", 18, most=3) == 3  # the table's most


def test_a_capped_progression_at_the_table_starts_again_past_its_cap():
    from hazard_dsl.errors import ArgumentError
    from hazard_dsl.play.actions import Question
    from hazard_dsl.play.strategies import strategy

    decide = strategy("martingale", 1, cap=4)

    def ask(purse):
        return decide(Question("stake", "Ann", {"purse": str(purse), "most": "100", "least": "0"}))["amount"]

    # lost 1, 2 and 4: the next would be 8, past the cap of 4, so it starts again from 1 (as the chain does)
    assert [ask(20), ask(19), ask(17), ask(13), ask(12)] == [1, 2, 4, 1, 2]
    with pytest.raises(ArgumentError) as caught:
        strategy("flat", 1, cap=4)
    assert caught.value.argument.name == "cap"


def test_run_plays_a_progression_and_simulate_says_where_it_is_played(capsys):
    done = hazard(capsys, "run", "cotton", "--players", "Ann,Ben,Cat",
                  "--strategy", "martingale", "--seed", "3", "--rounds", "2")
    assert done.returncode == 0, done.stderr
    assert "pays Ben 8s on the stake" in done.stdout  # 1, 2, 4, 8: three losses in a row, then the stake of 8
    done = hazard(capsys, "simulate", "cotton", "--players", "Ann,Ben",
                  "--strategy", "paroli", "--games", "10")
    # without a goal there is no chain to set it beside: the goal is asked for (the lanes play the flat ones)
    assert done.returncode == 2 and "simulate plays paroli on the table itself, each seat to a goal beside the " \
        "exact chain: give --goal AMOUNT too" in " ".join(done.stderr.split()), done.stderr


def test_analyse_simulates_beside_the_exact_chain(capsys):
    done = hazard(capsys, "analyse", "cotton", "--no-options", "--bankroll", "10", "--goal", "20", "--stake", "1",
                  "--strategy", "fibonacci", "--cap", "8", "--simulate", "3000", "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["staking"]
    exact = progression_run(COTTON, "fibonacci", 10, 20, 1, cap=8)
    assert F(out["progression"]["reach_goal"]) == exact.reach_goal
    for key, figure in (("reach_goal", exact.reach_goal), ("games", exact.games), ("staked", exact.staked)):
        mean, se = out["simulated"][key]
        assert abs(mean - float(figure)) < 4 * se, key


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_chart_of_a_progression_and_of_the_best_stake(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    for words, name in ((("--strategy", "martingale", "--stake", "1"), "m.png"), (("--stake", "best"), "b.png")):
        done = hazard(capsys, "analyse", "cotton", "--no-options", "--bankroll",
                      "10", "--goal", "20", *words, "--plot", str(tmp_path / name))
        assert done.returncode == 0, done.stderr
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"
