"""The reader mends a layout slip by the column the diagnostic carries (`Diagnostic.column`), never
by reading its hint: the hint's words may change and the mend must not (issue 36)."""

from __future__ import annotations

from hazard_dsl.diagnostics import Diagnostic, Position
from hazard_dsl.parse.yaml_errors import repair

TEXT = """phases:
  come_out:
    rules:
      - when: total == 7
        do: win
      when: total == 2
      do: lose
      - otherwise: throw again
"""


def test_a_rule_without_its_dash_is_mended_by_the_column_not_the_hint():
    d = Diagnostic("a rule is a list item: write `- when: …`", Position("f.yaml", 6, 7), hint="(any words at all)",
                   code="missing-dash", column=7)
    text, edits = repair(TEXT, d)
    assert text.split("\n")[5] == "      - when: total == 2" and text.split("\n")[6] == "        do: lose"
    assert edits
    # without the column the reader does not guess from the words
    assert repair(TEXT, Diagnostic(d.message, d.position, hint="start it with `- ` in column 7",
                                   code="missing-dash")) is None


def test_a_key_out_of_line_is_moved_to_the_column_the_diagnostic_carries():
    text = TEXT.replace("        do: win", "         do: win")
    d = Diagnostic("`do:` must line up with `when:` on line 4; it is 1 column further right", Position("f.yaml", 5, 10),
                   hint="(reworded)", code="misaligned-key", column=9)
    mended_text, _ = repair(text, d)
    assert mended_text.split("\n")[4] == "        do: win"
