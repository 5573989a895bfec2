"""The two-dice relatives of craps (issue 37 point 6): `analyse` through the
Python API gives exactly the independent counts of tests/data/family_counts.py
(itertools and Fractions, never the tool); their sources are in each ruleset
and in family_counts' docstrings."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

import hazard_dsl
from tests.data import family_counts as counts


def test_crapless_craps_pass_edge():
    assert hazard_dsl.load("crapless_craps").analyse().edge == (
        counts.crapless_craps_pass()
    )
    assert counts.crapless_craps_pass() == F(373, 6930)


@pytest.mark.parametrize(
    ("bar", "made", "resolved"),
    [(3, F(41, 990), F(41, 935)), (12, F(3, 220), F(27, 1925))],
)
def test_bank_craps_dont_pass(bar, made, resolved):
    bet = hazard_dsl.load("bank_craps", bar=bar).analyse().bets["dont_pass"]
    assert (-bet.net, -bet.net / (1 - bet.push)) == counts.dont_pass(bar)
    assert counts.dont_pass(bar) == (made, resolved)


def test_bank_craps_is_ace_deuce_by_default():
    bet = hazard_dsl.load("bank_craps").analyse().bets["dont_pass"]
    assert -bet.net == F(41, 990)


@pytest.mark.parametrize("side", ["cho", "han"])
def test_cho_han_five_percent_cut(side):
    bet = hazard_dsl.load("cho_han").analyse().bets[side]
    assert -bet.net == counts.cho_han(F(5, 100)) == F(1, 40)
