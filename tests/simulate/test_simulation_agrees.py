"""The simulator agrees with the exact solver: every shipped ruleset, under each value of each of
its options (loaded dice included), and every bet, within four standard errors.

Four standard errors: a false alarm has odds of about 1 in 16,000 per comparison, and the seeds
are fixed, so the test gives the same answer every run.
"""

from __future__ import annotations

import importlib.util

import pytest

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.cli.requests import bet_orders
from hazard_dsl.simulate.simulation import execute, prepare_games
from tests.conftest import RULESETS, SHIPPED, machine

pytestmark = pytest.mark.statistical  # every test here: a simulation against exact figures

GAMES = 100_000
BET_GAMES = 200_000


def _within(figure: dict, where) -> None:
    assert figure["z"] is not None and abs(figure["z"]) <= 4, (where, figure)


def _check_game(report: dict, where) -> None:
    assert report["games"] == GAMES
    for result in ("win", "lose", "push"):
        if report[result]["exact"] != "0" or report[result]["rate"]:
            _within(report[result], (where, result))
    for label, figure in report["labels"].items():
        _within(figure, (where, label))
    _within(report["throws"]["mean"], (where, "mean throws"))
    for row in report["throws"]["distribution"][:12]:
        _within(row, (where, "throws", row["throws"]))


def _variants():
    for name in SHIPPED:
        ruleset = read_ruleset(RULESETS / f"{name}.yaml")
        yield name, {}
        for option, spec in ruleset.options.items():
            for value in spec.values:
                if value != spec.default:
                    yield name, {option: value}


# the NumPy engine, the reference; and the compiled kernel (the fast extra), the same cases and seeds
ENGINES = ["numpy", pytest.param("compiled", marks=pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="the compiled kernel needs Numba (pip install 'hazard-dsl[fast]')"))]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name, options", list(_variants()),
                         ids=lambda v: v if isinstance(v, str) else ",".join(f"{k}={x}" for k, x in v.items()))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_ruleset_and_option_value_agrees(name, options, engine):
    report = execute(prepare_games(machine(name, **options), GAMES, 20261122, engine=engine), 1)[0]
    _check_game(report, (name, options))


def _bets(name):
    m = machine(name)
    alone = [n for n, cb in m.bets.items() if cb.made and m.ruleset.bets[n].backs is None]
    backing = [(n, m.ruleset.bets[n].backs) for n, cb in m.bets.items() if cb.made and m.ruleset.bets[n].backs]
    return alone, backing


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", [n for n in SHIPPED if machine(n).bets])
def test_every_bet_agrees(name, engine):
    alone, backing = _bets(name)
    orders = [f"{bet}=1" for bet in alone]
    report = execute(prepare_games(machine(name), BET_GAMES, 7, bets=bet_orders(orders), engine=engine), 1)[0]
    assert set(report["bets"]) == set(alone)
    for bet, figure in report["bets"].items():
        assert figure["made"] > 1000, bet
        _within(figure["net_per_unit"], (name, bet))
    if len(alone) > 1:
        _within(report["all_bets"]["net_per_unit"], (name, "all bets"))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", [n for n in SHIPPED if _bets(n)[1]])
def test_bets_that_back_another_agree(name, engine):
    _, backing = _bets(name)
    for bet, backs in backing:
        multiples = list(machine(name).ruleset.bets[bet].multiples) or ["2x"]
        orders = [f"{backs}=10", f"{bet}={multiples[0]}"]
        report = execute(prepare_games(machine(name), BET_GAMES, 11, bets=bet_orders(orders), engine=engine), 1)[0]
        for placed, figure in report["bets"].items():
            _within(figure["net_per_unit"], (name, orders, placed))
        _within(report["all_bets"]["net_per_unit"], (name, orders))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_mixed_policy_agrees(engine):
    """The caster calls his main at random (uniform): each choice is a digit of the draw."""
    report = execute(prepare_games(machine("chicken"), GAMES, 7, policy="uniform", engine=engine), 1)[0]
    _check_game(report, "chicken uniform")
    assert report["policy"] == "uniform"
