"""Five dice landing off (issue 37 point 5; audit 10, finding 2): five
six-sided dice, each landing off 1 time in 6, a total of 18 or more winning at
one throw, the caster choosing to recast the dice off alone or take up all five
(all five off: all five again). `analyse` took a minute, every way of landing
off solved apart; no rule tells the dice apart, so the tool now solves the
faces kept as a class (`solve.recast_classes.alike`).

The figure is counted here by a second method, never the tool's functions: the
faces that land are convolved one die at a time (off, or each face), a position
is the sorted faces kept, and the caster's policy is found by exact policy
iteration from "take up all five everywhere". The auditor's own count
(/work/notes/audit10/cocked_n.py, a float pass then exact) gave the same
2026549561/3147994170."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import combinations_with_replacement, permutations
from math import comb

import hazard_dsl
from hazard_dsl.compile import recasts
from hazard_dsl.solve import recast_classes

C = F(1, 6)  # the file's cocked: chance
LANDS = (1 - C) / 6  # a die lands fair showing a given face
FACES = range(1, 7)
DICE, WINS_FROM = 5, 18

COCKED_FIVE = """\
name: cocked five
dice: 5d6
cocked:
  chance: 1/6
  rules:
    - otherwise: recast off or both by caster
phases:
  cast:
    - when: total >= 18
      do: win a
    - otherwise: lose b
"""


def _landings(m: int) -> dict:
    """m dice cast, one die at a time: {the faces that land fair, sorted: chance}."""
    dist = {(): F(1)}
    for _ in range(m):
        following: dict = {}
        for faces, p in dist.items():
            following[faces] = following.get(faces, 0) + p * C
            for f in FACES:
                key = tuple(sorted(faces + (f,)))
                following[key] = following.get(key, 0) + p * LANDS
        dist = following
    return dist


LANDINGS = {m: _landings(m) for m in range(1, DICE + 1)}


def _evaluate(alone: set, DICE: int = DICE, WINS_FROM: int = WINS_FROM):
    """The fresh cast's chance V under a policy (the kept faces where the dice
    off are recast alone), and each position's (a, b): alone worth a + b·V
    once its dice land (their landing off again starts the same choice over)."""
    worth = {}  # kept faces -> (a, b) of reaching that position
    rests = {}
    for size in range(DICE - 1, 0, -1):
        for kept in combinations_with_replacement(FACES, size):
            a = b = again = F(0)
            for faces, p in LANDINGS[DICE - size].items():
                every = tuple(sorted(kept + faces))
                if len(every) == DICE:
                    a += p * (sum(every) >= WINS_FROM)
                elif every == kept:
                    again += p
                else:
                    a += p * worth[every][0]
                    b += p * worth[every][1]
            rests[kept] = (a / (1 - again), b / (1 - again))
            worth[kept] = rests[kept] if kept in alone else (F(0), F(1))
    a = b = F(0)
    for faces, p in LANDINGS[DICE].items():
        if len(faces) == DICE:
            a += p * (sum(faces) >= WINS_FROM)
        elif not faces:
            b += p  # all five off: all five again
        else:
            a += p * worth[faces][0]
            b += p * worth[faces][1]
    return a / (1 - b), rests


def best_chance(dice: int = DICE, wins_from: int = WINS_FROM) -> F:
    return best(dice, wins_from)[0]


def best(dice: int, wins_from: int) -> tuple:
    """The caster's best chance and the faces kept where he recasts alone."""
    alone: set = set()
    for _ in range(50):
        v, rests = _evaluate(alone, dice, wins_from)
        better = {kept for kept, (a, b) in rests.items() if a + b * v > v}
        if better == alone:
            return v, alone
        alone = better
    raise AssertionError("policy iteration did not settle")


def test_the_recursion_gives_the_auditors_figure():
    assert best_chance() == F(2026549561, 3147994170)


def test_analyse_of_five_dice_landing_off_is_the_recursions_figure(tmp_path):
    path = tmp_path / "cocked_five.yaml"
    path.write_text(COCKED_FIVE)
    result = hazard_dsl.load(str(path)).analyse()
    assert result.win == best_chance() == F(2026549561, 3147994170)


def _machine(text: str, options: dict | None = None):
    from hazard_dsl.commands.loading import load
    from hazard_dsl.compile.compiler import compile_ruleset

    return compile_ruleset(load("game.yaml", text), options or {})


FOUR = COCKED_FIVE.replace("5d6", "4d6").replace(">= 18", ">= 15")


def _per_way(machine, alone):
    """`standing`: every way of landing off solved apart."""
    return recasts.standing(machine, 0, alone)


def test_classes_stand_the_same_throws_as_every_way_apart():
    """The grouped recursion against the per-way one, four dice, under three
    policies: off alone everywhere, all again everywhere, and half and half
    (which no optimal policy plays): the same Fractions, throw by throw."""
    machine = _machine(FOUR)
    assert machine.states[0].kind == "throw"
    classes = recast_classes.alike(machine, 0, lambda _: F(1))
    # the faces kept, 0 to 3 of six faces in any order: C(k + 5, 5) classes
    # of k faces, 1 + 6 + 21 + 56; every way of landing off, 7^4 − 6^4
    assert len(classes) == 1 + 6 + 21 + 56
    assert sum(len(targets) for _, targets in classes.values()) == 7**4 - 6**4
    for share in (F(1), F(0), F(1, 2)):
        alone = (lambda _, share=share: share)
        grouped = recast_classes.standing_alike(machine, 0, recast_classes.alike(machine, 0, alone))
        assert grouped == _per_way(machine, lambda _, share=share: share)
        assert sum(grouped[0].values()) == 1


def test_dice_told_apart_are_solved_way_by_way():
    """A rule that reads the first die tells the dice apart: no classes."""
    text = FOUR.replace("- when: total >= 15", "- when: total >= 15 and die1 > 1")
    machine = _machine(text)
    assert recast_classes.alike(machine, 0, lambda _: F(1)) is None


def test_the_terminal_lists_each_set_of_faces_kept_once(tmp_path, capsys):
    """Four dice: the recast table names the faces kept in any order, once for
    each number of dice off (it listed every die and every order: 146 KB of
    text for five dice); --json keeps every way. The sets are the recursion's."""
    import json

    from hazard_dsl.cli import main

    path = tmp_path / "four.yaml"
    path.write_text(FOUR)
    v, alone = best(4, 15)
    assert main(["analyse", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert F(data["win"]) == v
    (row,) = data["recast"]["choices"]
    assert sum(len(kept) for kept in row["alone"].values()) == sum(
        len(set(permutations(kept))) * comb(4, len(kept)) for kept in alone)
    assert main(["analyse", str(path)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    names = ("ace", "deuce", "trey", "cater", "cinque", "sice")
    for off, number in ((1, "any"), (2, "any two"), (3, "any three")):
        kept = sorted(k for k in alone if len(k) == 4 - off)
        words = ", ".join("-".join(names[f - 1] for f in k) for k in kept)
        assert f"{number} {'die' if off == 1 else 'dice'} off, the others showing in any order: {words}" in text
    assert "first die off" not in text


def test_five_dice_told_apart_are_refused_before_the_work(tmp_path):
    """A rule that reads the first die: every way of landing off is solved on
    its own, about 25 s of fractions; the solver refuses it from the states'
    count alone. Each way with k of the five dice off (1 to 4) casts them to
    7^k places (off, or a face) with the other 5 − k showing any of 6^(5 − k):
    Σ C(5, k)·6^(5 − k)·7^k = 13^5 − 6^5 − 7^5 = 346,710."""
    import time

    import pytest

    from hazard_dsl.diagnostics import RulesetError

    places = sum(comb(5, k) * 6 ** (5 - k) * 7**k for k in range(1, 5))
    assert places == 13**5 - 6**5 - 7**5 == 346_710
    path = tmp_path / "apart.yaml"
    path.write_text(COCKED_FIVE.replace("total >= 18", "total >= 18 and die1 > 1"))
    began = time.process_time()
    with pytest.raises(RulesetError) as refused:
        hazard_dsl.load(str(path)).analyse()
    assert time.process_time() - began < 10  # the compile's second or two; not the solve's 25 s
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.message == (
        "dice that land off and are told apart (by a rule that reads one die, or by their loading) are "
        "solved one way of landing off at a time: 346,710 throws of dice thrown again (5d6), more than "
        "the 200,000 hazard-dsl works to")
    assert diagnostic.position.line == 4  # the cocked: section's chance
