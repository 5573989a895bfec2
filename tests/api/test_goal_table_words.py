"""The table of seats staking to a goal (render.policy.strategy_goal_table) words its caption
in its caller's words: the Python API names its keyword and its result, never the command
line's flags; the command line keeps its flags (issue 36: each front end words its own)."""

from __future__ import annotations

import contextlib
import io

import hazard_dsl
from hazard_dsl.cli import main


def test_the_api_table_names_keywords_not_flags():
    run = hazard_dsl.load("craps").simulate(players=["Ann"], purse=5, goal=10, strategy="martingale", games=40,
                                            seed=2)
    assert isinstance(run, hazard_dsl.GoalSimulation)
    shown = " ".join(str(run).split())
    assert "the other seats stake stake flat" in shown and "Exact fractions: .to_json()." in shown
    assert "--" not in shown


def test_the_command_line_table_keeps_its_flags():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["simulate", "craps", "--players", "Ann", "--purse", "5", "--goal", "10", "--strategy",
                     "martingale", "--games", "40", "--seed", "2"]) == 0
    shown = " ".join(out.getvalue().split())
    assert "the other seats stake --stake flat" in shown and "Exact fractions: --format json." in shown
