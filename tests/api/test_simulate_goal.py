"""`Variant.simulate(players=…, goal=…, cap=…, strategy=…)`: each seat's sessions to a goal from
Python, from the same request `simulate --players … --goal` builds (issue 38)."""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.cli import main
from hazard_dsl.errors import ArgumentError
from hazard_dsl.results import GoalSimulation


def test_a_martingale_capped_at_its_first_stake_is_the_gamblers_ruin():
    # a martingale whose cap is its first stake starts again after every loss: it stakes 1 each
    # game, so from 5 to 10 on the pass line (244/495 to win, Scarne) the chance of the goal is
    # the gambler's-ruin formula (1 - rho^5) / (1 - rho^10), rho = 251/244, written here
    rho = Fraction(251, 244)
    run = hazard_dsl.load("craps").simulate(players=["Ann"], purse=5, goal=10, strategy="martingale", cap=1,
                                            games=300, seed=4)
    assert isinstance(run, GoalSimulation)
    ann = run.seats["Ann"]
    assert ann.reached.exact == (1 - rho ** 5) / (1 - rho ** 10)
    assert ann.purse.exact == 10 * ann.reached.exact  # every session ends at 0 or exactly at 10
    assert abs(ann.reached.z) < 4 and ann.unfinished == 0
    assert (run.strategy, run.cap, run.bankroll, run.goal, run.sessions, run.seed) == \
        ("martingale", Fraction(1), Fraction(5), Fraction(10), 300, 4)


def test_it_is_what_the_command_line_prints_with_json():
    run = hazard_dsl.load("cotton").simulate(players=["Ann", "Ben", "Cat"], purse=10, goal=20, strategy="fibonacci",
                                             cap=5, games=200, seed=9)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["simulate", "cotton", "--players", "Ann,Ben,Cat", "--purse", "10", "--goal", "20", "--strategy",
                     "fibonacci", "--cap", "5", "--games", "200", "--seed", "9", "--json"]) == 0
    assert json.loads(json.dumps(run.to_json())) == json.loads(out.getvalue())
    # at Cotton's table the chain over who casts, the purse and the Fibonacci (solve.table_strategy)
    # is solved exactly (it came back on itself too much for the Fractions' elimination before),
    # and the sessions agree with it
    assert run.seats["Ben"].why_no_exact is None and abs(run.seats["Ben"].reached.z) < 4
    assert run.played == "each game drawn whole from its exact chances"
    assert "Ben: reaches the goal" in str(run)


def test_flat_stakes_to_a_goal_have_no_strategy_nor_cap():
    run = hazard_dsl.load("craps").simulate(players=["Ann"], purse=5, goal=10, games=50, seed=2)
    assert run.strategy is None and run.cap is None and "strategy" not in run.to_json()
    assert run.seats["Ann"].purse.value is None  # those sessions report no purse at the end


@pytest.mark.parametrize("kwargs,named,words", [
    (dict(goal=20), "goal", "give players="),
    (dict(players=["Ann"], purse=10, cap=4), "cap", "give it with players="),
    (dict(players=["Ann"], purse=10, goal=20, rounds=3), "rounds", "not after a number of rounds"),
    (dict(players=["Ann"], purse=10, goal=5), "goal", "must be more than purse (10)"),
    (dict(players=["Ann"], purse=10, goal="x"), "goal", "is not an amount of money"),
    (dict(players=["Ann"], purse=10, goal=20, strategy="martingale", stake=2, cap=1), "cap",
     "(1) must be at least the first stake (2)"),
])
def test_errors_name_the_keyword(kwargs, named, words):
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("craps").simulate(**kwargs)
    assert caught.value.argument.name == named and words in str(caught.value)
    assert "--" not in str(caught.value)  # the API's words, never the command line's flags


def test_it_pickles_as_itself():
    import pickle

    run = hazard_dsl.load("craps").simulate(players=["Ann"], purse=5, goal=10, strategy="paroli", games=50, seed=1)
    again = pickle.loads(pickle.dumps(run))
    assert type(again) is GoalSimulation and again.seats == run.seats and str(again) == str(run)


def test_a_session_takes_a_cap_as_run_does():
    # the same seed and cap: the stakes the API's session lays are those `run --cap --json` prints
    events = hazard_dsl.load("cotton").session(["Ann", "Ben", "Cat"], strategy="martingale", cap=2, rounds=3, seed=3)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["run", "cotton", "--players", "Ann,Ben,Cat", "--strategy", "martingale", "--cap", "2",
                     "--rounds", "3", "--seed", "3", "--json"]) == 0
    printed = [json.loads(line) for line in out.getvalue().splitlines()]

    def stakes(evs):
        return [(e["player"], e["amount"]) for e in evs if e["event"] == "stake"]

    assert stakes(events) == stakes(printed) and max(Fraction(a) for _, a in stakes(events)) == 2
    uncapped = hazard_dsl.load("cotton").session(["Ann", "Ben", "Cat"], strategy="martingale", rounds=3, seed=3)
    assert max(Fraction(a) for _, a in stakes(uncapped)) > 2
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("cotton").session(["Ann", "Ben"], cap=2)
    assert caught.value.argument.name == "cap" and "not flat's" in str(caught.value)
