"""`solve.markov.exact_sum`: the sum the solver uses instead of adding Fractions one by one."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from hazard_dsl.solve.markov import exact_sum

fractions = st.builds(Fraction, st.integers(-10**30, 10**30), st.integers(1, 10**30))
chances = st.builds(lambda n, k: Fraction(n, 36 ** k), st.integers(0, 36 ** 3), st.integers(0, 40))


@given(st.lists(fractions | chances, max_size=30))
def test_exact_sum_is_the_sum(values):
    assert exact_sum(values) == sum(values, Fraction(0))
    assert exact_sum(iter(values)) == sum(values, Fraction(0))


def test_exact_sum_of_one_or_none():
    assert exact_sum([]) == 0 and exact_sum([Fraction(2, 4)]) == Fraction(1, 2)
    assert exact_sum([Fraction(5, 6) ** 3000, Fraction(1, 36 ** 3000)]) == Fraction(5, 6) ** 3000 + Fraction(1, 36 ** 3000)
