"""`weight(n)` in a rule is a whole weight over the denominator docs/rule-files.md states: the
product, die by die, of the least common denominator of its faces' chances, a fair die of s
faces counting s (audit 10, "what the docs lack"). The weights expected are enumerated here,
over the throws, apart from the tool."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import lcm

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.solve.analysis import analyse

LOADED = [Fraction(1, 2)] + [Fraction(1, 10)] * 5
FAIR = [Fraction(1, 6)] * 6
TEXT = """\
name: w
dice: {{count: 3, die3: [1/2, 1/10, 1/10, 1/10, 1/10, 1/10]}}
phases:
  cast:
    - when: total == 11 and weight(total) == {eleven}
      do: win eleven
    - when: total == 10 and weight(total) == {ten}
      do: win ten
    - otherwise: throw again
"""


def _weights(dice) -> dict:
    """total -> its weight over the product of each die's least common denominator."""
    scales = [lcm(*(p.denominator for p in die)) for die in dice]
    out: dict = {}
    for faces in product(range(1, 7), repeat=len(dice)):
        weight = 1
        for die, scale, face in zip(dice, scales, faces):
            weight *= int(die[face - 1] * scale)
        out[sum(faces)] = out.get(sum(faces), 0) + weight
    return out


def test_weight_is_over_the_stated_denominator(write_ruleset):
    weights = _weights([FAIR, FAIR, LOADED])
    assert sum(weights.values()) == 6 * 6 * 10 and (weights[11], weights[10]) == (39, 43)  # as the docs say
    machine = compile_ruleset(read_ruleset(write_ruleset(TEXT.format(eleven=39, ten=43))))
    labels = analyse(machine).figures.labels
    # both rules fire only if weight() gives 39 and 43; then the first of 11 or 10 decides
    assert labels["eleven"] == Fraction(39, 39 + 43) and labels["ten"] == Fraction(43, 39 + 43)
