"""Where a game names its faces, `rules` and `compare` write its throws by those names, never
as totals, which mean nothing for crowns and anchors; `compare` says how two games' dice differ
(audit 10, finding 6; issue 37). Numbered dice are written as before (tests/data/golden). The
throws expected are enumerated here, apart from the tool: every kind of throw of three dice,
kept where the rule's condition holds."""

from __future__ import annotations

from itertools import combinations_with_replacement

from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.render.comparison import differences, rule_differences
from hazard_dsl.render.transitions import View

FACES = ("crown", "anchor", "heart", "diamond", "club", "spade")
CROWNS = """\
name: Crowns
dice: {count: 3, faces: [crown, anchor, heart, diamond, club, spade]}
phases:
  cast:
    - when: count(crown) >= 2
      do: win crowns
    - when: shows(anchor, heart)
      do: lose anchor_heart
    - otherwise: throw again
"""
# the same game with numbered faces, and with crowns needing all three dice
NUMBERED = CROWNS.replace("{count: 3, faces: [crown, anchor, heart, diamond, club, spade]}", "3d6") \
    .replace("crown)", "1)").replace("anchor, heart", "2, 3")
THREE_CROWNS = CROWNS.replace("count(crown) >= 2", "count(crown) == 3")


def _machine(write_ruleset, text):
    return compile_ruleset(read_ruleset(write_ruleset(text)))


def _kinds(holds) -> list:
    """Each kind of throw (faces lowest first) where `holds(kind)`, in order of its faces' sum,
    then of its faces, as the tool lists throws; by the faces' names."""
    kinds = [k for k in combinations_with_replacement(range(1, 7), 3) if holds(k)]
    return ["-".join(FACES[f - 1] for f in k) for k in sorted(kinds, key=lambda k: (sum(k), k))]


def test_the_rule_sheet_writes_named_faces_and_no_totals(write_ruleset):
    machine = _machine(write_ruleset, CROWNS)
    edges = {e.does: e.throws for e in View(machine).edges if e.kind == "throw"}
    crowns = _kinds(lambda k: k.count(1) >= 2)
    assert crowns[:3] == ["crown-crown-crown", "crown-crown-anchor", "crown-crown-heart"]
    said = {throws for throws in edges.values()}
    assert ", ".join(crowns) in said
    assert ", ".join(_kinds(lambda k: k.count(1) < 2 and 2 in k and 3 in k)) in said
    assert not any(ch.isdigit() for throws in said for ch in throws)


def test_numbered_dice_still_group_a_total_whose_every_throw_does_the_same(write_ruleset):
    machine = _machine(write_ruleset, NUMBERED)
    said = {e.throws for e in View(machine).edges if e.kind == "throw"}
    # 3 (1-1-1) and 4 (1-1-2 three ways) all win: totals; the rest of two aces as dice
    assert "3, 4, 1-1-3, 1-1-4, 1-1-5, 1-1-6" in said


def test_compare_of_two_games_of_named_faces_writes_the_names(write_ruleset):
    rows = differences(_machine(write_ruleset, CROWNS), _machine(write_ruleset, THREE_CROWNS))
    (row,) = rows
    assert row["throws"] == _kinds(lambda k: k.count(1) == 2)
    assert (row["base"], row["other"]) == ("win crowns", "throw again")


def test_compare_of_named_against_numbered_faces_says_so_and_writes_numbers(write_ruleset):
    table = rule_differences("crowns", _machine(write_ruleset, CROWNS), "threes",
                             _machine(write_ruleset, NUMBERED.replace("count(1) >= 2", "count(1) == 3")))
    (row,) = table.rows
    assert row[1] == ", ".join("-".join(map(str, k)) for k in combinations_with_replacement(range(1, 7), 3)
                               if k.count(1) == 2)
    assert table.caption == ("The dice differ: crowns names its faces crown 1, anchor 2, heart 3, diamond 4, "
                             "club 5, spade 6; threes numbers its faces 1 to 6; the throws above are written by "
                             "the faces' numbers.")


def test_compare_of_fair_against_loaded_dice_names_the_loading(write_ruleset):
    loaded = NUMBERED.replace("dice: 3d6", "dice: {count: 3, die3: [1/2, 1/10, 1/10, 1/10, 1/10, 1/10]}")
    table = rule_differences("fair", _machine(write_ruleset, NUMBERED), "loaded", _machine(write_ruleset, loaded))
    assert table.caption == ("The dice differ: fair fair; loaded die 1 fair; die 2 fair; die 3 1: 1/2, 2-6: 1/10. "
                             "What a throw does is compared above; how often each throw comes is the dice's doing.")
