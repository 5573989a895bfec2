"""Three dice that land off, the caster choosing what to recast (solve.recast_classes), against
a second method written here: policy iteration over the faces kept, every value affine in the
value of a fresh throw (/work/notes/fuzz41, a game of the fuzz's own)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import hazard_dsl

GAME = """\
name: Cocked three, the caster's choice
dice: 3d6
cocked:
  chance: 1/5
  rules:
    - when: off == 3
      do: recast both
    - otherwise: recast off or both by caster
labels:
  high: "high"
  low: "low"
phases:
  cast:
    rules:
      - when: total >= 11
        do: win high
      - otherwise: lose low
"""

OFF = Fraction(1, 5)
FACE = (1 - OFF) / 6


def landings(m: int) -> dict:
    """m dice thrown: (the faces that land, sorted; how many are off) -> chance."""
    out: dict = {}
    for each in product([None, 1, 2, 3, 4, 5, 6], repeat=m):
        p = Fraction(1)
        for x in each:
            p *= OFF if x is None else FACE
        landed = tuple(sorted(x for x in each if x is not None))
        out[landed, m - len(landed)] = out.get((landed, m - len(landed)), 0) + p
    return out


def fresh_value(guess: Fraction) -> Fraction:
    """P(win) of a fresh throw with the recasts chosen best against `guess` for it: each value
    a pair (a, b) for a + b·F, F the fresh throw's value."""
    memo: dict = {}

    def kept(faces: tuple) -> tuple:
        if faces in memo:
            return memo[faces]
        a = b = again = Fraction(0)
        for (landed, off), p in landings(3 - len(faces)).items():
            now = tuple(sorted(faces + landed))
            if off == 0:
                a += p * (sum(now) >= 11)
            elif not now:  # all three off: the rule recasts both
                b += p
            elif now == faces:  # every die thrown off again: the same choice as here
                again += p
            else:
                a2, b2 = kept(now)
                if a2 + b2 * guess >= guess:  # keep the faces: recast the off dice alone
                    a, b = a + p * a2, b + p * b2
                else:
                    b += p
        options = [(a, b + again)]  # take up all three
        if again and faces:
            options.append((a / (1 - again), b / (1 - again)))  # keep them, again and again
        memo[faces] = max(options, key=lambda v: v[0] + v[1] * guess)
        return memo[faces]

    a, b = kept(())
    return a / (1 - b)


def test_the_recast_choice_against_policy_iteration(tmp_path):
    value = Fraction(1, 2)
    for _ in range(20):  # policy iteration: stops when the policy answers its own value
        value, before = fresh_value(value), value
        if value == before:
            break
    assert value == Fraction(2857, 4824)
    path = tmp_path / "cocked3.yaml"
    path.write_text(GAME)
    assert hazard_dsl.load(str(path)).analyse().win == value
