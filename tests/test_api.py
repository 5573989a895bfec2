"""The Python API a notebook uses: load, analyse, run, compare, show — with short reprs."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

import hazard_dsl


def test_import_is_cheap():
    code = "import sys, hazard_dsl; print('numpy' in sys.modules, 'rich' in sys.modules, 'lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.split()
    assert out == ["False", "False", "False"]


def test_load_analyse_and_options():
    cotton = hazard_dsl.load("cotton")
    assert cotton.analyse().win == Fraction(1979, 4032)  # hazard-rules.md F2 / games.porg.es
    assert hazard_dsl.load("cotton", main="called").analyse().choices["main"]["best"] == 7
    assert cotton.with_options(main="called").options["main"] == "called"
    assert cotton.analyse(bets={"stake": 1}).combination.edge == Fraction(37, 2016)


def test_run_is_reproducible_and_replays_dice():
    cotton = hazard_dsl.load("cotton")
    assert [r.dice for r in cotton.run(games=2, seed=5) if hasattr(r, "dice")] == \
        [r.dice for r in cotton.run(games=2, seed=5) if hasattr(r, "dice")]
    records = cotton.run(games=None, dice="3-4 3-4")  # main seven, nicked by a seven
    assert records[-1].ends_game and records[-1].outcome.label == "nick"


def test_compare_gives_figures_and_differences():
    data = hazard_dsl.load("cotton").compare("petty")
    assert data["rulesets"][1]["win"] == "5629/11088"
    assert data["differences"][0]["rows"]


def test_errors_are_clear():
    with pytest.raises(ValueError, match="did you mean 'main'"):
        hazard_dsl.load("cotton", mian="called")
    with pytest.raises(ValueError, match="did you mean 'cotton'"):
        hazard_dsl.load("coton")


def test_ruleset_error_carries_positions(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\nphases:\n  roll:\n    - when: totl == 7\n      do: win\n    - otherwise: lose\n")
    with pytest.raises(hazard_dsl.RulesetError) as info:
        hazard_dsl.load(path)
    assert str(info.value).startswith(f"{path}:4:13: undefined name 'totl'") or ":4:13: undefined name" in str(info.value)


def test_reprs_are_short():
    cotton = hazard_dsl.load("craps")
    analysis = cotton.analyse()
    for thing in (cotton, cotton.ruleset, cotton.machine, cotton.machine.states[0], analysis,
                  *cotton.run(games=1, seed=1)):
        assert len(repr(thing)) < 300, repr(thing)[:400]
    assert repr(analysis).startswith("<Analysis 'Craps (pass line)': win 244/495")


def test_simulate_games_and_sessions():
    cotton = hazard_dsl.load("cotton")
    report = cotton.simulate(games=20_000, seed=3)
    assert report["games"] == 20_000 and report["win"]["exact"] == "1979/4032"
    assert abs(report["win"]["z"]) < 4
    again = cotton.simulate(games=20_000, seed=3, workers=2)  # the same seed, the same numbers
    timing = {"workers", "seconds", "games_per_second", "throws_per_second"}
    assert {k: v for k, v in report.items() if k not in timing} == {k: v for k, v in again.items() if k not in timing}
    craps = hazard_dsl.load("craps").simulate(games=20_000, seed=1, bets=["pass=10"])
    assert craps["bets"]["pass"]["net_per_unit"]["exact"] == "-7/495"
    table = hazard_dsl.load("chicken").simulate(games=200, seed=1, players=["Ann", "Ben"], purse=10, rounds=2)
    assert set(table["seats"]) == {"Ann", "Ben"}
