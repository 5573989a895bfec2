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


COUNTS = """\
name: t
dice: 3d6
phases:
  cast:
    - when: {when}
      do: win a
    - otherwise: lose b
"""


@pytest.mark.parametrize("when, column, face", [("count(7) == 1", 19, 7), ("shows(2, 7)", 22, 7),
                                                ("count(0) == 0", 19, 0)])
def test_a_face_no_die_has_is_told_where_it_is_written(when, column, face):
    (d,) = _errors(COUNTS.format(when=when))
    assert d.message == f"{when.split('(')[0]}({face}): no face {face} on these dice"
    assert (d.position.line, d.position.column, d.hint) == (5, column, "each die has faces 1 to 6")


def test_on_named_faces_the_faces_numbers_and_names_are_given():
    text = THREE_NAMED.format(faces="crown, anchor, heart, diamond, club, spade").replace(
        "total > 3", "count(7) == 1")
    (d,) = _errors(text)
    assert d.hint == "each die has faces 1 to 6 (crown, anchor, heart, diamond, club, spade)"


def test_more_faces_than_dice_can_never_be_shown():
    (d,) = _errors(COUNTS.format(when="shows(1, 1, 1, 1)"))
    assert (d.position.line, d.position.column) == (5, 13)
    assert d.message == "shows() names 4 faces, but the throw is of 3 dice: it can never hold them all"


def test_faces_on_the_dice_are_taken():
    assert hazard_dsl.load_text(COUNTS.format(when="count(6) == 1 and shows(1, 1, 6)")).name == "t"


PAYS = """\
name: t
dice: 3d6
money: {unit: dollar}
phases:
  cast:
    - otherwise: push thrown
bets:
  zero: {backer: player, layer: bank, pays: 1 to 0, wins: total > 3}
"""


def test_a_payout_that_makes_no_sense_names_the_throw_of_every_die():
    # the first throw of three dice in order, 1-1-1, 1-1-2, ..., whose total is over 3 is 1-1-2
    (d,) = _errors(PAYS)
    assert d.message == ("bet 'zero': a payout of 1 to 0 makes no sense in game phase 'cast', "
                         "on the throw 1-1-2")
