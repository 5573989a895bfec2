"""Issue 37's figures for the family of Hazard, each from tests/data/
family_counts.py (an independent count over the faces, not the tool), held
against the figure as the issue quotes it; the source and page of each are in
family_counts' docstrings.  A count that disagrees is reported, never bent."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.data import family_counts as counts


@pytest.mark.parametrize(
    ("ten", "figure"),
    [("again", F(16, 29)), ("out", F(1, 2)), ("win", F(19, 32))],
)
def test_passage_cotton_p167(ten, figure):
    assert counts.passage(ten) == figure


def test_passage_doublets_by_side_of_ten():
    # Under ten and above ten mirror each other (a total t and 21 - t).
    assert counts.passage_doublets() == (F(39, 216), F(9, 216), F(48, 216))


def test_inn_and_inn_cotton_pp164_166():
    assert counts.inn_and_inn_out() == F(5, 18)
    assert counts.inn_and_inn_all_doublets() == F(2, 27)


def test_arbuthnot_p77_thirteen_to_five():
    assert counts.arbuthnot_four_dice_doublets() == (13, 5)


def test_raffling_arbuthnot_p63():
    assert counts.raffle_doublets() == F(96, 216)
    assert counts.raffle_raffle() == F(6, 216)


@pytest.mark.parametrize(
    ("pair", "printed"), sorted(counts.ARBUTHNOT_RAFFLING_TABLE.items())
)
def test_raffling_table_arbuthnot_p63(pair, printed):
    by_total = counts.raffling_doublets_by_total()
    low, high = pair
    assert by_total[low] == by_total[high] == printed


def test_raffling_table_sums_to_96():
    assert sum(counts.raffling_doublets_by_total().values()) == 96


@pytest.mark.parametrize(
    ("repeat", "figure"),
    [
        ("again", F(68485656611, 134991969840)),
        ("loses", F(5527, 11664)),
        ("wins", F(2179, 3888)),
    ],
)
def test_azar_three_readings(repeat, figure):
    assert counts.azar(repeat) == figure


def test_sic_bo_layout():
    assert counts.sic_bo_small() == F(1, 36)
    assert counts.sic_bo_big() == F(1, 36)
    assert counts.sic_bo_specific_triple() == F(35, 216)
    assert counts.sic_bo_any_triple() == F(5, 36)


def test_total_four_sixty_for_one_is_one_sixth():
    # The 1/6 is 60 for 1 (59 to 1); 60 to 1 gives 11/72.
    assert counts.sic_bo_total_four(F(59)) == F(1, 6)
    assert counts.sic_bo_total_four(F(60)) == F(11, 72)


def test_chuck_a_luck():
    assert counts.chuck_a_luck() == F(17, 216)


def test_crapless_craps_pass():
    assert counts.crapless_craps_pass() == F(373, 6930)


def test_high_point_craps_readings():
    assert counts.high_point_craps("loses") == F(7, 297)
    assert counts.high_point_craps("push") == F(-1, 11)
    assert counts.high_point_craps("again") == F(-1, 11)


def test_bank_craps_dont_barring_ace_deuce():
    assert counts.dont_pass(3) == (F(41, 990), F(41, 935))


def test_dont_pass_barring_twelve_is_the_casinos_3_220():
    # The well-known 1.364% of the don't pass barring 12, per bet made.
    assert counts.dont_pass(12)[0] == F(3, 220)


def test_cho_han_with_a_five_percent_cut():
    assert counts.cho_han(F(0)) == 0
    assert counts.cho_han(F(1, 20)) == F(1, 40)


@pytest.mark.parametrize(
    ("main", "odds"),
    [
        (7, (244, 251)),
        (6, (6961, 7295)),
        (8, (6961, 7295)),
        (5, (1396, 1439)),
        (9, (1396, 1439)),
    ],
)
def test_arbuthnot_hazard_odds_pp90_92(main, odds):
    assert counts.arbuthnot_odds(main) == odds


def test_arbuthnot_p92_as_printed_differs():
    # Printed "1396 to 1493": the count says 1439.
    assert counts.arbuthnot_odds(5) != (1396, 1493)


def test_weighted_by_mains_is_cottons_1979_4032():
    assert counts.hazard_weighted_by_mains() == F(1979, 4032)
