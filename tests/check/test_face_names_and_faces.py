"""A face may not take the name of a fact of the throw, and a face a rule names must be on
the dice (audit 10, findings 4 and 17; issue 37). The positions expected were read off each
text by hand (the line and column of the face or the call in error)."""

from __future__ import annotations

import pytest

import hazard_dsl
from hazard_dsl.diagnostics import RulesetError

THREE_NAMED = """\
name: t
dice: {{count: 3, faces: [{faces}]}}
phases:
  cast:
    - when: total > 3
      do: win a
    - otherwise: lose b
"""


def _errors(text: str) -> list:
    with pytest.raises(RulesetError) as caught:
        hazard_dsl.load_text(text)
    return [d for d in caught.value.diagnostics if d.is_error]


@pytest.mark.parametrize("name, column", [("total", 26), ("high", 26), ("die3", 26), ("die4", 26),
                                          ("pairs", 26), ("doublet", 26), ("shown", 26)])
def test_a_face_named_after_a_fact_is_refused_where_it_is_written(name, column):
    (d,) = _errors(THREE_NAMED.format(faces=f"{name}, b, c, d, e, f"))
    assert (d.position.line, d.position.column) == (2, column)
    assert d.message == (f"dice: faces names {name!r}, a fact of the throw; no face may have the name of "
                         "one: total, die1, die2, die3, high, low, doublet, most, pairs, off, shown")


def test_the_facts_listed_are_those_of_the_files_own_dice():
    # the fifth face is `most`: after `a, b, c, d, ` at column 26 + 12
    (d,) = _errors(THREE_NAMED.replace("count: 3", "count: 4").format(faces="a, b, c, d, most, f"))
    assert (d.position.line, d.position.column) == (2, 38)
    assert d.message.endswith("total, die1, die2, die3, die4, high, low, doublet, most, pairs, off, shown")


def test_faces_named_otherwise_are_read_as_before():
    ruleset = hazard_dsl.load_text(THREE_NAMED.format(faces="crown, anchor, heart, diamond, club, spade"))
    assert ruleset.name == "t"
