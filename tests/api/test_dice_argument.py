"""`dice=` that is not text (audit 10, finding 3): `load("passage").run(games=1, dice=5)` and
`dice=[[1,2,3]]` raised AttributeError ('int' object has no attribute 'replace'); a tape is
refused as an ArgumentError naming `dice=`, in the game's own words (three dice for Passage)."""

from __future__ import annotations

import pickle

import pytest

import hazard_dsl
from hazard_dsl.cli.wording import FLAGS
from hazard_dsl.errors import Arg, ArgumentError


@pytest.mark.parametrize("dice, said", [
    (5, 'dice=5: a tape of throws is text, such as "3-4-3 6-6-6 1-2-1", not an int'),
    ([[1, 2, 3]], 'dice=[[1, 2, 3]]: a tape of throws is text, such as "3-4-3 6-6-6 1-2-1", not a list'),
    ((1, 2, 3), 'dice=(1, 2, 3): a tape of throws is text, such as "3-4-3 6-6-6 1-2-1", not a tuple'),
    (b"1-2-3", "dice=b'1-2-3': a tape of throws is text, such as \"3-4-3 6-6-6 1-2-1\", not a bytes"),
    # a value too long to echo is named without it
    ([[1, 2, 3]] * 20, 'dice: a tape of throws is text, such as "3-4-3 6-6-6 1-2-1", not a list'),
])
def test_run_refuses_dice_that_are_not_text_naming_dice(dice, said):
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("passage").run(games=1, dice=dice)
    assert str(caught.value) == said
    assert caught.value.argument.name == "dice"
    again = pickle.loads(pickle.dumps(caught.value))  # a worker process hands it back as itself
    assert type(again) is ArgumentError and str(again) == said


def test_a_table_refuses_them_too_in_its_own_dice_words():
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("cotton").table(["Ann", "Ben"], dice=[3, 4])
    assert str(caught.value) == 'dice=[3, 4]: a tape of throws is text, such as "3-4 6-6 1-2", not a list'


def test_the_same_fact_in_the_command_lines_words():
    """No command line gives a tape that is not text; the fact is worded as any front end's."""
    error = ArgumentError(Arg("dice", value=5), ': a tape of throws is text, such as "3-4 6-6 1-2", not an int')
    assert error.said(FLAGS).startswith("--dice")


def test_text_dice_still_play_the_throws_written():
    thrown = hazard_dsl.load("passage").run(games=None, dice="1-2-3 5-5-5")
    assert [t.dice for t in thrown] == [(1, 2, 3), (5, 5, 5)]
