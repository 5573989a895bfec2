"""A huge whole number given to the Python API is quoted by its first digits and its length,
not in full (audit 10 finding 15: seed=10**400 put 400 digits in the message), and one Python
will not write at all (more than 4,300 digits) is still refused as an ArgumentError naming its
argument, not a ValueError from int's conversion."""

from __future__ import annotations

from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.errors import ArgumentError

AMOUNTS = ("an amount of money more than 0: 10, Fraction(25, 2), Decimal('12.50') or a string '12.50' "
           "or '25/2'")


@pytest.fixture(scope="module")
def passage():
    return hazard_dsl.load("passage")


@pytest.mark.parametrize("given, said", [
    (dict(seed=10**400), "seed is a whole number from 0 to 18,446,744,073,709,551,615, not 100000000000… "
                         "(401 digits)"),
    (dict(seed=-10**40), "seed is a whole number from 0 to 18,446,744,073,709,551,615, not -100000000000… "
                         "(41 digits)"),
    (dict(games=10**5000), "games is a whole number from 1 to 10,000,000,000,000, not a number of about "
                           "5,000 digits"),
    (dict(seed=2**64), "seed is a whole number from 0 to 18,446,744,073,709,551,615, not 18446744073709551616"),
])
def test_a_huge_whole_number_is_quoted_by_its_length(passage, given, said):
    with pytest.raises(ArgumentError) as refused:
        passage.run(**given)
    assert str(refused.value) == said


@pytest.mark.parametrize("amount, shown", [(10**400, "100000000000… (401 digits)"),
                                           (Fraction(1, 10**200), "Fraction(1, 1000000000000000000000000...")])
def test_a_huge_amount_is_refused_as_no_amount(amount, shown):
    with pytest.raises(ArgumentError) as refused:
        hazard_dsl.load("craps").analyse(bets={"pass": amount})
    assert str(refused.value) == f"bets['pass']: {shown} is not {AMOUNTS}"
