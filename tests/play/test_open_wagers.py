"""The wagers up, always visible (issue 34, point 2): in the table's data, at the stop line of
`play`, and in the recap of a resumed session with the caster's run of losses where the rules'
passing counts them."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import hazard_dsl
from hazard_dsl.render.recap import wagers_up, where_the_table_stands
from hazard_dsl.render.words import money_amount

from tests.conftest import ROOT


def test_the_recap_counts_the_casters_losses_where_the_passing_counts_them():
    """Chicken passes the dice after three losses in a row: with seed 0 Ann has lost two when
    game 6 begins (the session's own count, Session.losses, replayed from the log on resume)."""
    table = hazard_dsl.load("chicken").table(["Ann", "Ben"], purse=20, seed=0, bets=())
    table.play(table.strategy("flat", stake=1), until=lambda q: q.ask == "stake" and table.session.game == 6)
    assert table.session.losses == 2 and table.to_json()["losses"] == 2
    ruleset = table.machine.ruleset
    lines = where_the_table_stands(table.session).splitlines()
    assert lines[-2:] == ["Ann has lost 2 games in a row with the box; the dice pass after three losses in a row.",
                          "No wagers are up."]
    assert lines[-3] == (f"Purses: Ann {money_amount(ruleset, table.purses['Ann'])}, "
                         f"Ben {money_amount(ruleset, table.purses['Ben'])}.")
    # Cotton's dice pass after every loss: no run to tell
    cotton = hazard_dsl.load("cotton").table(["Ann", "Ben"], purse=20, seed=0, bets=())
    assert not any("in a row with the box" in line for line in where_the_table_stands(cotton.session).splitlines())


def test_the_stakes_are_wagers_up_until_the_game_decides_them():
    """Hoyle from a tape: 3-4 sets a main of seven and Ben stakes 2 (covered); 2-2 is the chance,
    and the stake stays up; 2-2 again wins it for Ann, and nothing is up."""
    table = hazard_dsl.load("hoyle").table(["Ann", "Ben"], purse=20, dice="3-4 2-2 2-2", bets=())
    table.play(table.strategy("flat", stake=2), until=lambda q: q.ask == "throw" and table.session.throws == 1)
    assert table.wagers == [{"bet": "stake", "backer": "Ann", "layer": "Ben", "maker": "Ben", "amount": "2",
                             "backer_risks": "2", "layer_risks": "2", "pays": "1 to 1"}]
    two = money_amount(table.machine.ruleset, Fraction(2))
    assert wagers_up(table.session).splitlines() == [
        "Wagers up:",
        f"  Ann stakes on the cast against Ben: {two} at risk, a win pays {two}.",
        f"  Ben sets the stake against Ann: {two} at risk, a win pays {two}."]
    table.apply({"action": "throw"})  # 2-2: four is the chance
    assert len(table.wagers) == 1
    table.apply({"action": "throw"})  # 2-2: the chance, Ann wins
    assert table.wagers == [] and wagers_up(table.session) == "No wagers are up."


def test_quit_tells_the_wagers_up(tmp_path):
    result = subprocess.run([sys.executable, "-m", "hazard_dsl", "play", "hoyle", "--players", "Ann,Ben,Cat",
                             "--dice", "3-4 2-2 2-2", "--no-log"], input="2\ny\nquit\n", capture_output=True,
                            text=True, timeout=60, cwd=ROOT, env=dict(os.environ, COLUMNS="80"))
    assert result.returncode == 0, result.stderr
    ruleset = hazard_dsl.load("hoyle").ruleset
    two = money_amount(ruleset, Fraction(2))
    out = result.stdout
    stop = out[out.index("The session stops here."):].splitlines()
    assert stop[-4:] == ["Wagers up:",
                         f"  Ann stakes on the cast against Ben: {two} at risk, a win pays {two}.",
                         f"  Ben sets the stake against Ann: {two} at risk, a win pays {two}.",
                         "It was not logged, so it cannot be resumed."]
