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


# --- Smooth numbers and the forward pass built on them

small_chances = st.builds(Fraction, st.integers(0, 40), st.integers(1, 1296)).filter(lambda p: p <= 1)


@given(st.lists(st.tuples(small_chances, st.integers(0, 6)), min_size=1, max_size=12))
def test_smooth_products_and_sums_are_exact(steps):
    """A Smooth number multiplied by small fractions and summed equals the same in Fractions."""
    from hazard_dsl.solve.markov import Smooth

    smooth, exact, terms, exact_terms = Smooth.of(1), Fraction(1), [], []
    for p, k in steps:
        smooth, exact = smooth.times(p.numerator, p.denominator), exact * p
        if k:
            smooth, exact = smooth.times(k, 7), exact * Fraction(k, 7)
        terms.append(smooth)
        exact_terms.append(exact)
        assert smooth.fraction() == exact
    assert Smooth.total(terms).fraction() == sum(exact_terms, Fraction(0))




@st.composite
def chains(draw):
    """Absorbing chains over nodes 0..n−1 with ends "w" and "l": every node can reach an end;
    rows are small chances, sometimes with a large prime denominator (the Fraction path)."""
    n = draw(st.integers(1, 8))
    rough = draw(st.booleans())
    rows = {}
    for s in range(n):
        targets = draw(st.lists(st.sampled_from(list(range(n)) + ["w", "l"]), min_size=1, max_size=4))
        targets.append(draw(st.sampled_from(["w", "l"])))  # every node leaks to an end
        weights = [draw(st.integers(1, 9)) for _ in targets]
        scale = sum(weights) + (draw(st.integers(0, 5)) if not rough else 0)
        if rough:
            scale = 1_000_003  # a prime too large to factor: forces the Fraction path
            weights = [w * (scale // (sum(weights) + 1)) for w in weights]
        row: dict = {}
        for t, w in zip(targets, weights):
            row[t] = row.get(t, Fraction(0)) + Fraction(w, scale)
        leftover = 1 - sum(row.values())
        row["l"] = row.get("l", Fraction(0)) + leftover  # rows sum to 1
        rows[s] = row
    return rows


@given(chains())
def test_forward_pass_agrees_with_fractions(rows):
    """Smooth or not, cycles or not, the forward pass gives the Fractions' answers, read one node
    at a time or summed (`Visits.total`)."""
    from hazard_dsl.solve.markov import FRACTIONS, Chain

    chain = Chain(rows)
    visits = chain.forward({0: Fraction(1)}, smooth=True)
    plain = chain._forward({0: Fraction(1)}, FRACTIONS)
    assert dict(visits.items()) == plain
    assert visits.total(["w", "l"]) == plain.get("w", 0) + plain.get("l", 0) == 1
    assert visits.total(range(len(rows))) == sum((plain.get(s, 0) for s in range(len(rows))), Fraction(0))
