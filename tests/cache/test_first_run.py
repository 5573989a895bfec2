"""A command's first run (issue 36): what the cache does on a run that finds nothing kept costs
no more than it must, and changes nothing the run says."""

from __future__ import annotations

from pathlib import Path

import pytest

from hazard_dsl import cache
from hazard_dsl.check.game import check_game
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.compile.explorations import Explorations
from hazard_dsl.diagnostics import RulesetError

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


def _findings(ruleset, explorations) -> tuple:
    """check_game's answer, or the error it stopped with, as plain data."""
    with cache.sharing(explorations):
        try:
            return "found", check_game(ruleset)
        except RulesetError as exc:
            return "error", list(exc.diagnostics)


def test_one_run_keeps_no_bets_checks_for_a_next_text(monkeypatch):
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    with cache.sharing():  # the command line's: one run, each text checked once
        assert cache.explorations_lent().bet_checks is None
        assert cache.explorations_lent().held()["checked bets"] == 0
    mine = Explorations()  # a server's or an editor's: kept for the next keystroke
    with cache.sharing(mine):
        assert cache.explorations_lent().bet_checks is mine.bet_checks is not None


@pytest.mark.parametrize("name", ["craps", "cotton", "history_sheet", "hoyle"])
def test_the_games_check_says_the_same_with_the_bets_checks_kept_or_not(name, monkeypatch):
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    ruleset = read_ruleset(RULESETS / f"{name}.yaml")
    one_run = _findings(ruleset, None)
    kept = Explorations()
    assert one_run == _findings(ruleset, kept)
    assert kept.bet_checks.played > 0  # the bets were played out and kept there, not here
    assert one_run == _findings(ruleset, kept)  # ... and found there the second time
    assert kept.bet_checks.found > 0
