"""The exact elimination weighs the size of its numbers, not only how many it touches (issue 36:
`analyse cotton --players Ann,Ben,Cat --bet Ben:side=1 --bankroll 1000 --goal 2001 --stake 1`
ran 85 s before refusing two seats' sessions, their chains sparse but their fractions growing).

A band of width 6 over 1,000 states with a different denominator on every coefficient: its
right-hand side stays 0, so the old count (entries touched, weighed by the right-hand side's
size) stayed at 41,818 of its 300,000 and the solve ran 82 s to the end; weighed by the
coefficients' digits it passes MAX_DIGIT_WORK within the first few hundred states."""

from fractions import Fraction

import pytest

from hazard_dsl.solve.chain import MAX_DIGIT_WORK, TooLargeToSolve, sparse_solve
from hazard_dsl.solve.seats import table_ruin

from ..conftest import machine


def banded(n: int, band: int = 6) -> list[dict]:
    rows = []
    for k in range(n):
        row = {k: Fraction(1)}
        for d in range(1, band + 1):
            for j in (k - d, k + d):
                if 0 <= j < n:
                    row[j] = -Fraction(1, 4 * band + (7 * j + d) % 89)
        rows.append(row)
    return rows


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_growing_digits_are_refused_as_too_large():
    with pytest.raises(TooLargeToSolve, match="too large to solve exactly"):
        sparse_solve(banded(1000), [Fraction(0)] * 1000)


def test_a_short_band_still_solves_exactly():
    rows = banded(40)
    x = sparse_solve(rows, [Fraction(1)] * 40)
    for row in rows:  # A x = b, checked exactly
        assert sum(a * x[c] for c, a in row.items()) == 1
    assert 0 < MAX_DIGIT_WORK


@pytest.mark.slow
def test_the_hostile_seats_are_refused_in_their_words():
    out = table_ruin(machine("cotton"), {"Ben": {"side": 1}}, ["Ann", "Ben", "Cat"], 1000, 2001, Fraction(1))
    assert set(out.why_not) == {"Ann", "Cat"}  # Ben's own session (1,996 states) solves
    for seat in ("Ann", "Cat"):
        assert out.why_not[seat].startswith(f"{seat}'s session to the goal is too large to solve exactly (5,99")
