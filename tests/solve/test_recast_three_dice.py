"""Dice that land off for three dice (issue 37): `analyse` of
tests/data/cocked/raffle_cocked.yaml (Arbuthnot's raffle, doublets at one throw
of three dice, each die landing off 1 time in 6) through the Python API, against
a recursion written here: each policy of the caster's recasts solved as one
linear equation in V, the chance of winning from a fresh cast, by enumerating
the faces with itertools (never the tool's own functions)."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product
from pathlib import Path

import hazard_dsl

RAFFLE = Path(__file__).parents[1] / "data" / "cocked" / "raffle_cocked.yaml"
C = F(1, 6)  # the file's cocked: chance
FACES = range(1, 7)


def _doublets(faces) -> bool:
    return len(set(faces)) < len(faces)


def _win(kept: tuple, thrown: int) -> F:
    """P(doublets) when `thrown` fair dice join the faces `kept`."""
    throws = list(product(FACES, repeat=thrown))
    return F(sum(_doublets(kept + t) for t in throws), len(throws))


def raffle(pair_alone: bool, odd_alone: bool, one_alone: bool) -> F:
    """P(win) under one policy. Values are affine in V, kept as (a, b) = a + b·V.
    Two kept faces (one die off): recast it alone, or all three (V); one die
    recast alone lands off again and the same choice comes back, so only its
    landing counts. One kept face (two off): recast both alone, or all three;
    of the two, both off again comes back to the same choice, one off makes a
    two-kept state. All three off: always all three again (the file's rule)."""
    all_again = (F(0), F(1))

    def two_kept(a: int, b: int):
        if (a == b and pair_alone) or (a != b and odd_alone):
            return (_win((a, b), 1), F(0))
        return all_again

    def one_kept(f: int):
        if not one_alone:
            return all_again
        a = (1 - C) ** 2 * _win((f,), 2)
        b = F(0)
        for x in FACES:  # one of the two off again, the other showing x
            ka, kb = two_kept(f, x)
            a += 2 * C * (1 - C) * ka / 6
            b += 2 * C * (1 - C) * kb / 6
        return (a / (1 - C**2), b / (1 - C**2))  # both off again: over

    a = (1 - C) ** 3 * _win((), 3)
    b = C**3  # all three off
    for x, y in product(FACES, repeat=2):  # one die off, two showing x, y
        ka, kb = two_kept(x, y)
        a += 3 * C * (1 - C) ** 2 * ka / 36
        b += 3 * C * (1 - C) ** 2 * kb / 36
    for x in FACES:  # two dice off, one showing x
        ka, kb = one_kept(x)
        a += 3 * C**2 * (1 - C) * ka / 6
        b += 3 * C**2 * (1 - C) * kb / 6
    return a / (1 - b)


def test_the_recursion_finds_49_in_99_recasting_the_off_die_alone_on_a_pair():
    values = {
        policy: raffle(*policy) for policy in product((False, True), repeat=3)
    }
    best = max(values.values())
    assert best == F(49, 99)
    # the best, and the only one: alone over a pair, all three over two
    # different faces and over one face kept (two dice recast alone win 4/9 as
    # three do once they land, but one landing off again leaves two faces kept)
    assert [p for p, v in values.items() if v == best] == [(True, False, False)]
    assert values[(False, False, False)] == F(96, 216)  # every die again


def test_analyse_of_raffle_cocked_the_casters_choice_is_49_in_99():
    result = hazard_dsl.load(str(RAFFLE), way="choice").analyse()
    assert result.win == raffle(True, False, False) == F(49, 99)
    assert result.edge == F(50, 99) - F(49, 99)


def test_analyse_of_raffle_cocked_recast_alone_and_all_keep_96_in_216():
    for way in ("alone", "all"):
        result = hazard_dsl.load(str(RAFFLE), way=way).analyse()
        assert result.win == raffle(way == "alone", way == "alone",
                                    way == "alone") == F(4, 9)
