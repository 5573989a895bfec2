"""The compiled kernel's batched draw (`simulate._kernel.plan`): k throws below the number of
columns from each word, a word thrown away where its throws would not be exactly uniform.

Exactness is proved by counting: the draw's own arithmetic (`_kernel.digits`, the functions the
kernel's block fill calls) run over EVERY word of a small width (16 and 24 bits), every k-tuple
of throws counted among the words kept — each must come exactly ⌊2**B / N⌋ · 2**(width − B)
times (N = columns**k, B the bits read; the maths in `plan`'s docstring). The real 64-bit draw
(`compiled.draws`, the stream `run_chunk` throws from) is held to a χ² test for 36, 216 and 1,296
columns, from fixed seeds (derandomised: the same figures every run)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled kernel needs Numba (pip install 'hazard-dsl[fast]')")

from numba import njit  # noqa: E402

from hazard_dsl.simulate import _kernel, compiled  # noqa: E402
from hazard_dsl.simulate._kernel import plan  # noqa: E402


@njit(cache=False)
def _every_word(width, shift, n, bits, powers, k, threshold, kept_counts, all_counts):
    """Every word of `width` bits through the batched draw: each k-tuple (as a number in base n)
    counted among the words kept, and among all words (to show what the rejection removes)."""
    out = np.empty(k, dtype=np.int64)
    kept = 0
    for w in range(1 << width):
        keep = _kernel.digits(np.uint64(w), shift, n, bits, powers, k, threshold, out)
        v = 0
        for i in range(k):
            v = v * n + out[i]
        all_counts[v] += 1
        if keep:
            kept_counts[v] += 1
            kept += 1
    return kept


# (columns, word width): the draw's arithmetic is the same at every width, only B and k change
SMALL = [(6, 16), (36, 16), (36, 24), (216, 24), (1296, 24)]


@pytest.mark.parametrize("columns, width", SMALL)
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_word_of_a_small_width_gives_every_tuple_equally_often(columns, width):
    p = plan(columns, width)
    N = columns ** p.per_word
    assert p.bits == width - (columns - 1).bit_length() and N <= 1 << p.bits
    kept_counts = np.zeros(N, dtype=np.int64)
    all_counts = np.zeros(N, dtype=np.int64)
    kept = _every_word(width, width - p.bits, columns, p.bits, p.powers, p.per_word, np.uint64(p.threshold),
                       kept_counts, all_counts)
    each = ((1 << p.bits) // N) << (width - p.bits)  # ⌊2**B / N⌋ values of r, each read from 2**(width−B) words
    assert kept_counts.min() == kept_counts.max() == each
    assert kept == N * each == (1 << width) - (p.threshold << (width - p.bits))  # exactly t·2**(width−B) thrown away
    # and so each throw of the tuple, alone: every column equally often in every place of the word
    tuples = np.arange(N)
    for place in range(p.per_word):
        column = tuples // columns ** (p.per_word - 1 - place) % columns
        assert np.all(np.bincount(column, weights=kept_counts, minlength=columns) == each * N // columns)
    if p.threshold:  # the rejection is needed: without it the tuples are not equally likely
        assert all_counts.min() < all_counts.max()


def test_the_plans_for_two_three_and_four_dice():
    """k is the one giving the most kept throws per word, reckoned exactly (the figures of
    `plan`'s docstring): for 36 columns 11 throws from the top 58 bits, a word in 11.5 thrown away."""
    expected = {6: (61, 22), 36: (58, 11), 216: (56, 7), 1296: (53, 5)}
    for columns, (bits, k) in expected.items():
        p = plan(columns)
        assert (p.bits, p.per_word) == (bits, k)
        assert p.threshold == (1 << bits) % columns ** k
        assert list(p.powers) == [columns ** i % (1 << 64) for i in range(k + 1)]
        yields = {j: j * (1 - Fraction((1 << bits) % columns ** j, 1 << bits))
                  for j in range(1, 64) if columns ** j <= 1 << bits}
        assert max(yields, key=yields.get) == k
    assert float(Fraction(plan(36).threshold, 1 << 58)) == pytest.approx(0.0867, abs=1e-4)
    assert plan(1).threshold == 0 and not compiled.draws(1, 1000, np.random.SeedSequence(0)).any()
    with pytest.raises(ValueError, match="at least one column"):
        plan(0)


def _chi2_z(observed: np.ndarray) -> float:
    """The χ² statistic of counts against equal cells, as a standard normal z by Wilson and
    Hilferty's cube root (accurate to a few hundredths of z for these degrees of freedom)."""
    expected = observed.sum() / observed.size
    chi2 = float(((observed - expected) ** 2).sum() / expected)
    df = observed.size - 1
    return ((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))


@pytest.mark.parametrize("columns, seed", [(36, 1), (216, 2), (1296, 3)])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_64_bit_draw_passes_chi_squared(columns, seed):
    draws = compiled.draws(columns, 200 * columns * 36, np.random.SeedSequence(seed))
    assert draws.min() >= 0 and draws.max() < columns
    z = _chi2_z(np.bincount(draws, minlength=columns))
    assert abs(z) < 4, z
    if columns == 36:  # consecutive throws together: 1,296 cells (a pair of throws of two dice)
        pairs = draws[0::2] * columns + draws[1::2]
        assert abs(_chi2_z(np.bincount(pairs, minlength=columns ** 2))) < 4


def test_a_biased_draw_fails_the_same_test():
    """The χ² bound can fail: a draw by plain modulo (a 16-bit word mod 1,296, no rejection)
    favours the low columns, and the test sees it."""
    words = np.random.default_rng(5).integers(0, 1 << 16, size=200 * 1296 * 36)
    assert _chi2_z(np.bincount(words % 1296, minlength=1296)) > 4


def test_the_same_seed_gives_the_same_stream():
    one = compiled.draws(36, 100_000, np.random.SeedSequence(7))
    assert np.array_equal(one, compiled.draws(36, 100_000, np.random.SeedSequence(7)))
    assert not np.array_equal(one, compiled.draws(36, 100_000, np.random.SeedSequence(8)))


def test_the_kernel_throws_from_the_batched_stream():
    """A chunk of one game of craps on one lane: its throws are the stream's first throws (after the
    lanes' starts, which craps does not draw), read through the game's table until it ends."""
    from hazard_dsl.simulate.simulation import prepare_games
    from tests.conftest import machine

    table = prepare_games(machine("craps"), 10, 1).tables[0]
    assert table.start_digits == 1
    seed = np.random.SeedSequence(11)
    counts, throws = compiled.run_chunk(table, 1, seed, lanes=1)
    stream = compiled.draws(table.columns, 1000, np.random.SeedSequence(11))
    x, made = int(table.start[0]), 0
    while 0 <= x < table.first_done * table.columns:
        x = int(table.finish[x + stream[made]])
        made += 1
    assert made == throws and counts[int(round(x / table.columns))] >= 1


@pytest.mark.statistical  # a simulation against exact figures
def test_the_kernel_agrees_with_the_exact_pass_line():
    """Craps' pass line wins 244/495 (the pass line's standard figure; `hazard-dsl analyse craps`):
    a million games on the compiled kernel within four standard errors."""
    import hazard_dsl

    estimate = hazard_dsl.load("craps").simulate(games=1_000_000, seed=12, engine="compiled").win
    assert estimate.exact == Fraction(244, 495)
    assert abs(estimate.z) <= 4
