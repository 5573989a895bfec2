"""`simulate --players … --goal G --json` (with a strategy, or flat) names the seed drawn, as
plain `simulate --json` does: a JSON without it could not be played again (audit 9, bug 8)."""

from __future__ import annotations

import json

from hazard_dsl.cli import main


def test_strategy_to_a_goal_json_names_its_seed(capsys):
    assert main(["simulate", "craps", "--players", "Ann,Ben", "--strategy", "martingale", "--purse", "3",
                 "--goal", "4", "--games", "2", "--seed", "17", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 17


def test_a_drawn_seed_plays_the_same_sessions_again(capsys):
    args = ["simulate", "craps", "--players", "Ann,Ben", "--strategy", "paroli", "--purse", "3", "--goal", "5",
            "--games", "3", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert isinstance(first["seed"], int)
    assert main(args + ["--seed", str(first["seed"])]) == 0
    assert json.loads(capsys.readouterr().out) == first
