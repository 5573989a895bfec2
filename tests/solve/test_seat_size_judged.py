"""A seat's session whose purse can take more values than the chain's bound is refused before
the chain is built (issue 36): the grid of purses between need and goal is known at once."""

import time
from fractions import Fraction

from hazard_dsl.solve.seats import MAX_PURSE_NODES, purse_levels, table_ruin

from ..conftest import machine


def test_a_fine_stake_is_refused_before_building():
    started = time.perf_counter()
    out = table_ruin(machine("cotton"), {"Ben": {"side": 1}}, ["Ann", "Ben", "Cat"], 1000, 2001, Fraction(1, 1000))
    assert time.perf_counter() - started < 5  # it built 20,000 states of each seat's chain to find it
    assert out.why_not["Ben"] == ("Ben's purse can take too many values between ruin and the goal (more than "
                                  f"{MAX_PURSE_NODES:,} states of the table and the purse) to solve exactly; "
                                  "bring the bankroll nearer the goal, or simulate the sessions")
    assert set(out.why_not) == {"Ann", "Ben", "Cat"}


class _Game:
    def __init__(self, nets, need):
        self.outcomes = {("win", "x", net): None for net in nets}
        self.need = need


def test_the_purse_grid():
    assert purse_levels([_Game([Fraction(3, 1000), Fraction(-3, 1000)], Fraction(3, 1000))], [], 1, 3) == 999
    assert purse_levels([_Game([2, -4], 1)], [], 5, 21) == 10
    assert purse_levels([_Game([1, 2], 1)], [], 5, 21) == 0  # it only goes up: no floor to judge by
