"""compare: throws as dice where the rules read the faces, bets and fees side by side."""

from __future__ import annotations

from hazard_dsl.render.comparison import compare_tables, differences
from hazard_dsl.solve.analysis import analyse

from tests.conftest import machine

DOUBLETS = """name: Doublets nick
extends: cotton
phases:
  chance_throw:
    - when: doublet or total == main
      do: win nick
    - when: total in {2, 3} or total in {11, 12}
      do: lose out
    - otherwise: set chance = total; goto chance
"""


def test_throws_are_dice_where_the_rules_read_the_faces(write_ruleset):
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl.check.reading import read_ruleset

    other = compile_ruleset(read_ruleset(write_ruleset(DOUBLETS)))
    rows = differences(machine("cotton"), other)
    doublet_rows = [r for r in rows if r["base"].startswith("go to chance") and r["other"] == "win nick"]
    assert sorted(t for r in doublet_rows for t in r["throws"]) == ["2-2", "3-3", "4-4", "5-5"]
    assert not any(t in ("4", "6", "8", "10") for r in rows for t in r["throws"])  # 1-3 is still a chance of 4


def test_totals_where_every_throw_of_a_total_does_the_same():
    rows = differences(machine("cotton"), machine("petty"))
    assert {(tuple(r["throws"]), r["when"], r["base"], r["other"]) for r in rows} == {
        (("11",), "main ∈ {5, 6, 8, 9}", "lose out", "throw again"),
        (("11",), "main = 7", "win nick", "throw again"),
        (("12",), "main ∈ {5, 7, 9}", "lose out", "throw again"),
        (("12",), "main ∈ {6, 8}", "win nick", "throw again")}


def test_bets_and_fees_are_side_by_side():
    (table,) = compare_tables([("cotton", analyse(machine("cotton"))), ("hoyle", analyse(machine("hoyle")))])
    rows = {row[0]: row[1:] for row in table.rows}
    assert rows["bet stake: edge"] == ["1.835%", "1.835%"]
    assert rows["bet odds: edge"] == ["—", "0.000%"]
    assert rows["fee box: cost per game"][0] == "—" and rows["fee box: cost per game"][1].endswith("shillings")
