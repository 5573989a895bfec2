"""`Variant.simulate` takes the command's path: it checks its keywords in Python's terms, then
builds the `SimulateRequest` the command line builds from its flags and runs it through the
same function (`commands.simulate.simulate_request`), on the variant's own compiled machine."""

from __future__ import annotations

from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.commands import simulate as command
from hazard_dsl.commands.requests import BetOrder, SimulateRequest
from hazard_dsl.errors import ArgumentError
from hazard_dsl.results import Simulation


@pytest.fixture
def requests_seen(monkeypatch):
    """Each (request, ruleset) handed to the command's function, which still runs."""
    seen = []
    real = command.simulate_request

    def spy(request, ruleset, bar=None, compiled=None):
        seen.append((request, ruleset, compiled))
        return real(request, ruleset, bar, compiled)

    monkeypatch.setattr(command, "simulate_request", spy)
    return seen


def test_games_and_bets_are_one_request(requests_seen):
    craps = hazard_dsl.load("craps")
    simulated = craps.simulate(games=500, seed=4, bets={"odds": "3-4-5x", "pass": Fraction(25, 2)}, workers=1)
    [(request, ruleset, compiled)] = requests_seen
    assert type(request) is SimulateRequest
    assert ruleset is craps.ruleset
    assert (request.games, request.seed, request.workers, request.engine, request.policy) == \
        (500, 4, 1, "numpy", "optimal")
    # the bet backed comes first, whatever the dict's order; money a Fraction, a multiple its text
    assert request.bets == (BetOrder("pass", Fraction(25, 2)), BetOrder("odds", "3-4-5x"))
    assert request.players is None and request.plans == {} and request.refusals == ()
    # the machine the request runs on is the variant's, with the two bets compiled
    assert compiled(["pass", "odds"]).bets.keys() == {"pass", "odds"}
    assert simulated.games == 500 and set(simulated.bets) == {"pass", "odds"}


def test_the_api_and_the_command_give_the_same_report():
    # the same request run by the command's function on its own (no API in between): the same
    # simulated figures, the timings aside
    cotton = hazard_dsl.load("cotton", main="called")
    through_api = cotton.simulate(games=3_000, seed=9).to_json()
    request = SimulateRequest(ruleset="cotton", options={"main": "called"}, games=3_000, seed=9, workers=1)
    direct = command.simulate_request(request, cotton.ruleset).report
    timing = {"seconds", "games_per_second", "throws_per_second"}
    assert through_api["games"] == 3_000
    assert {k: v for k, v in through_api.items() if k not in timing} == \
        {k: v for k, v in Simulation(direct).to_json().items() if k not in timing}


def test_sessions_at_the_table_are_one_request(requests_seen):
    chicken = hazard_dsl.load("chicken")
    simulated = chicken.simulate(games=20, seed=1, players=["Ann", "Ben"], purse=10, stake=Fraction(1, 2), rounds=2)
    [(request, _, _)] = requests_seen
    assert (request.players, request.purse, request.stake, request.strategy, request.rounds, request.games) == \
        (("Ann", "Ben"), Fraction(10), Fraction(1, 2), "flat", 2, 20)
    assert request.bets == () and request.goal is None
    assert simulated.to_json()["requested"] == 20


def test_a_progression_is_refused_naming_the_keyword(requests_seen):
    # the arrays of purses play flat, fraction and cautious only (simulate.sessions.VECTORISED)
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("hoyle").simulate(games=10, players=["Ann", "Ben"], strategy="martingale")
    assert str(caught.value) == ("strategy='martingale': simulate() plays sessions at the table with flat, "
                                 "fraction, cautious; session() plays it at the table")
    assert caught.value.argument.name == "strategy"
    assert requests_seen == []  # refused before any request is made
