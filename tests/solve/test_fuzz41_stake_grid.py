"""The size of a seat's chain at the table is judged before it is built on the grid of the
stakes it lays (/work/notes/fuzz41/report.md, F7): at a table with a bank every game is the
seat's own stake, and the judgement read unit games alone, so a first stake of 1/7 (a grid
seven times finer) passed it and was refused only once 10,000 states were built."""

from __future__ import annotations

from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.solve.table_strategy import TableStrategyError, stake_rule, table_strategy

# three dice against the bank, 11 or more wins: even money (x -> 7 - x maps the wins to the losses)
BANKED = """\
name: Three dice against the bank
dice: 3d6
money:
  unit: dollar
  against: bank
labels:
  big: "big"
  small: "small"
phases:
  cast:
    rules:
      - when: total >= 11
        do: win big
      - otherwise: lose small
"""


@pytest.fixture(scope="module")
def banked(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz41") / "banked.yaml"
    path.write_text(BANKED)
    return hazard_dsl.load(str(path))._table_machine()


def test_a_finer_first_stake_is_judged_before_the_chain_is_built(banked):
    # the purse steps by 1/7 from the least a game needs (1/7) to the goal 1000: (1000 − 1/7)·7
    # = 6,999 purses, at each of the two places of the box: 13,998, over the bound of 10,000
    with pytest.raises(TableStrategyError, match="would take at least 13,998 states of the table and the purse"):
        table_strategy(banked, ["Ann", "Ben"], "Ann", stake_rule("martingale", "1/7"), 100, 1000, "1/7")


def test_the_fair_martingale_still_solves(banked):
    # 2 -> 4 by a martingale at even money: P(goal) = 1/2 (a fair game: the purse is a
    # martingale, and it ends at 0 or 4); games E = 1 + 3/4 + (1 + E/2)/2, so E = 3 (by hand)
    found = table_strategy(banked, ["Ann", "Ben"], "Ann", stake_rule("martingale", 1), 2, 4, 1)
    assert (found.reach_goal, found.games, found.nets) == (Fraction(1, 2), 3, {-2: Fraction(1, 2), 2: Fraction(1, 2)})
