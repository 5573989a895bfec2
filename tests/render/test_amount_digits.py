"""A plain number with too many digits for an amount of money is said to be so, with the bound
(parse.numbers.MAX_DIGITS, 15 in each part), rather than read as coins not understood (audit 10
finding 15: a purse of 1 and 60 zeros was "'100000000000000000000000000000' in '1000…' is not
understood; write it as 2.50 in units")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hazard_dsl.commands.loading import load
from hazard_dsl.money import MoneyText, money_read

CRAPS = load("craps").table


@pytest.mark.parametrize("text, said", [
    ("1" + "0" * 60, "an amount of money has at most 15 digits in each part (whole, decimals, denominator), "
                     "not 61: 100000000000… (61 characters)"),
    ("1234567890123456.5", "an amount of money has at most 15 digits in each part (whole, decimals, "
                           "denominator), not 16: 1234567890123456.5"),
    ("1/1234567890123456", "an amount of money has at most 15 digits in each part (whole, decimals, "
                           "denominator), not 16: 1/1234567890123456"),
])
def test_too_many_digits_are_said_to_be_too_many(text, said):
    with pytest.raises(MoneyText) as refused:
        money_read(CRAPS, text)
    assert str(refused.value) == said


def test_fifteen_digits_are_an_amount():
    assert money_read(CRAPS, "9" * 15) == Fraction(10 ** 15 - 1)
    assert money_read(CRAPS, "1.123456789012345") == Fraction(1123456789012345, 10 ** 15)
