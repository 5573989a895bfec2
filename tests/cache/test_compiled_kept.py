"""The cache compiles through the pipeline from above (issue 36): `hazard_dsl.cache.compile_ruleset`
keeps the machine `compile.compiler.compile_ruleset` makes, with the bets asked for, and loads it
again on the ruleset in memory; it can only save time (the same figures, exactly)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from hazard_dsl import cache
from hazard_dsl.compile import compiler
from hazard_dsl.solve.analysis import analyse

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HAZARD_DSL_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _machines(folder: Path) -> list[Path]:
    return sorted((folder / "cache" / "hazard-dsl" / "machines").glob("*.entry"))


def test_a_kept_machine_is_the_compiled_one_with_the_bets_asked_for(fresh, monkeypatch):
    ruleset = cache.read_ruleset(RULESETS / "craps.yaml")
    compiled = cache.compile_ruleset(ruleset, {"vig": "up_front"})
    assert len(_machines(fresh)) == 1
    calls: list = []
    real = compiler.compile_ruleset
    monkeypatch.setattr(compiler, "compile_ruleset", lambda *a, **k: calls.append(a) or real(*a, **k))
    loaded = cache.compile_ruleset(ruleset, {"vig": "up_front"})
    assert calls == []  # loaded, not compiled
    assert loaded is not compiled and loaded.ruleset is ruleset  # on the ruleset in memory, not a copy
    assert loaded.states == compiled.states and list(loaded.bets) == list(compiled.bets) == list(ruleset.bets)
    assert all(loaded.bets[n].bet is ruleset.bets[n] and loaded.bets[n].moves == compiled.bets[n].moves
               for n in loaded.bets)
    assert analyse(loaded).bets == analyse(compiled).bets
    game = cache.compile_ruleset(ruleset, {"vig": "up_front"}, bets=())  # another entry: the game alone
    assert dict(game.bets) == {} and len(_machines(fresh)) == 2 and len(calls) == 1
    assert list(cache.compile_ruleset(ruleset, bets=["pass"]).bets) == ["pass"]


def test_kept_or_not_the_figures_are_the_same(fresh, monkeypatch):
    ruleset = cache.read_ruleset(RULESETS / "cotton.yaml")
    first = analyse(cache.compile_ruleset(ruleset)).win
    again = analyse(cache.compile_ruleset(ruleset)).win
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    uncached = analyse(compiler.compile_ruleset(ruleset)).win
    assert first == again == uncached == Fraction(1979, 4032)


def test_keep_false_compiles_without_the_cache(fresh):
    ruleset = cache.read_ruleset(RULESETS / "cotton.yaml")
    machine = cache.compile_ruleset(ruleset, {"main": "called"}, bets=(), keep=False)
    assert _machines(fresh) == [] and machine.options["main"] == "called"


def test_the_explorations_lent_are_used_and_held_by_their_owner(fresh):
    from hazard_dsl.compile.explorations import Explorations

    ruleset = cache.read_ruleset(RULESETS / "hoyle.yaml")
    mine = Explorations()
    with cache.sharing(mine):
        called = cache.compile_ruleset(ruleset, {"main": "called"}, bets=(), keep=False)
    assert mine.held()["rulesets"] == 1 and mine.held()["games"] == 1
    alone = cache.compile_ruleset(ruleset, {"main": "called"}, bets=(), keep=False)  # none lent now
    assert alone.states == called.states and alone.states is not called.states
