"""Sessions to a goal at a table whose game ends only in a push (Grand Hazard, chuck-a-luck,
sic bo, crown and anchor: the layout's bets carry the money) — /work/notes/fuzz41/report.md
F15. No stake ever moves a purse, so the chain of a session has purses it never leaves: the
exact solve met a singular system (exit 70, "internal error: ArithmeticError"), and simulate
played every session out to its bound of a million games before saying nothing. Each is now
refused before the work, in words. Each test failed before the fix."""

from __future__ import annotations

import time

import pytest

import hazard_dsl
from tests.in_process import said

NEVER = ("some purses of this session are never left: no game here moves a seat's purse by its stake (a game "
         "that ends only in a push: its bets carry the money), so it never reaches the goal or ruin")


def run(*argv) -> tuple[int, str, str]:
    return said(*argv, words=True)


@pytest.mark.parametrize("name", ["grand_hazard", "chuck_a_luck"])
def test_a_progression_at_the_table_is_refused_in_words(name):
    code, out, err = run("analyse", name, "--players", "Ann,Ben", "--bankroll", "4", "--goal", "8", "--strategy",
                         "paroli")
    assert (code, out) == (2, "")  # was 70
    assert f"a seat staking by the paroli from 4 to 8 at a table of 2: {NEVER}" in err


def test_the_api_says_it_as_a_value_error():
    with pytest.raises(ValueError, match="no game here moves a seat's purse by its stake"):
        hazard_dsl.load("sic_bo").table_strategy(["Ann", "Ben"], 4, 8, "martingale")


def test_flat_sessions_to_the_goal_are_refused_before_they_are_played():
    started = time.process_time()
    code, out, err = run("simulate", "grand_hazard", "--players", "Ann,Ben", "--goal", "8", "--purse", "4",
                         "--games", "20", "--seed", "1")
    assert (code, out) == (2, "")  # was 0, after 20 sessions of a million games each
    assert f"Ann's sessions to the goal: {NEVER}" in err
    assert time.process_time() - started < 10  # it took 25 CPU-s
