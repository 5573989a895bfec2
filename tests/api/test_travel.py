"""Results and errors travel: pickled to another process and back they are themselves, as a
notebook hands them to worker processes or Dask (issue 36)."""

from __future__ import annotations

import multiprocessing
import pickle
from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.errors import ArgumentError


def _round_trip(value):
    return pickle.loads(pickle.dumps(value))


def test_a_variant_pickles_with_its_options_and_figures():
    variant = _round_trip(hazard_dsl.load("cotton", main="called"))
    assert repr(variant) == "<Variant 'Hazard (Cotton, 1674)' (main='called')>"
    assert variant.options["main"] == "called"
    assert variant.analyse().choices["main"]["best"] == 7


def test_an_analysis_pickles_with_its_combination_and_prints_the_same():
    analysis = hazard_dsl.load("craps").analyse(bets={"pass": 10, "odds": "3-4-5x"})
    again = _round_trip(analysis)
    assert type(again) is hazard_dsl.Analysis
    assert again.combination.edge == Fraction(7, 1870)
    assert again.win == analysis.win
    assert str(again) == str(analysis)
    assert again.to_json() == analysis.to_json()


def test_a_comparison_pickles_and_prints_the_same():
    comparison = hazard_dsl.load("cotton").compare("petty")
    again = _round_trip(comparison)
    assert repr(again) == repr(comparison)
    assert str(again) == str(comparison)
    assert again.to_json() == comparison.to_json()


def test_a_variant_comes_back_from_a_worker_process():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        variant = pool.apply(hazard_dsl.load, ("cotton",), {"main": "called"})
    assert variant.options["main"] == "called"
    assert variant.analyse().win == hazard_dsl.load("cotton", main="called").analyse().win


def test_a_ruleset_error_comes_back_from_a_worker_process_as_itself():
    bad = "name: Bad\nextends: petty\noptions: 3\n"
    with pytest.raises(hazard_dsl.RulesetError) as here:
        hazard_dsl.load_text(bad, name="bad")
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        result = pool.apply_async(hazard_dsl.load_text, (bad,), {"name": "bad"})
        with pytest.raises(hazard_dsl.RulesetError) as there:
            result.get(timeout=120)
    assert str(there.value) == str(here.value)
    assert [d.message for d in there.value.diagnostics] == [d.message for d in here.value.diagnostics]


def test_an_argument_error_comes_back_from_a_worker_process_as_itself():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        result = pool.apply_async(_run_games, (-1,))
        with pytest.raises(ArgumentError) as there:
            result.get(timeout=120)
    assert there.value.argument.name == "games"
    assert str(there.value) == str(_error_of(lambda: _run_games(-1)))


def _run_games(games):
    return hazard_dsl.load("cotton").run(games=games, seed=1)


def _error_of(call):
    with pytest.raises(ArgumentError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize("name, players, dice", [
    ("cotton", ["Ann", "Ben"], None),  # the table's own seeded dice: they go on alike after unpickling
    ("craps", ["Ann", "Ben"], "4-2 3-3 6-6 1-1 5-2 3-4 2-2 6-5"),
    ("hoyle", ["Ann", "Ben", "Cat"], None),
])
def test_a_table_pickles_where_it_stands_and_plays_on_alike(name, players, dice):
    table = hazard_dsl.load(name).table(players, seed=7, dice=dice)
    strategy = table.strategy()
    for _ in range(5):
        table.apply(strategy(table.waiting))
    again = _round_trip(table)
    assert again.to_json() == table.to_json()
    assert again.log == table.log and again.legal_actions() == table.legal_actions()
    assert again.play(again.strategy()) == table.play(table.strategy())
    assert again.purses == table.purses


def test_a_table_that_keeps_no_log_says_why_it_cannot_be_pickled():
    from hazard_dsl.play.table import Table

    variant = hazard_dsl.load("cotton")
    table = Table(variant._table_machine(), ["Ann", "Ben"], history=False)
    with pytest.raises(TypeError, match=r"keeps no log \(history=False\)"):
        pickle.dumps(table)
