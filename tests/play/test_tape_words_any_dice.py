"""A dice tape's errors speak of the game's own dice (issue 37): how many, their faces (named
where the rules name them), and the advice about a die that lands off only where the rules
have a `cocked:` chance. The expected words are written out here by hand from each rule file's
`dice:` line (raffle, passage, sic_bo 3d6; inn_and_inn 4d6; crown_and_anchor three dice of six
named faces), not taken from the tool's output."""

from __future__ import annotations

import pytest

import hazard_dsl
from hazard_dsl.cli import main
from hazard_dsl.errors import ArgumentError
from hazard_dsl.play.casting import TapeError
from hazard_dsl.play.dice import DiceTape, tape_words

OFF_ADVICE = "x for a die that lands off"


@pytest.mark.parametrize("game, many, example", [
    ("raffle", "three", "3-4-3"), ("passage", "three", "3-4-3"), ("sic_bo", "three", "3-4-3"),
    ("inn_and_inn", "four", "3-4-3-5"),
])
def test_a_bad_throw_is_told_the_games_dice(game, many, example, capsys):
    assert main(["run", game, "--dice", "a-b-c", "--games", "1"]) == 2
    assert capsys.readouterr().err == (f"hazard-dsl: error: --dice: throw 1 is 'a-b-c'; write each throw as "
                                       f"{many} faces 1-6, like {example}\n")


def test_a_die_off_where_dice_never_land_off_is_told_three_faces(capsys):
    assert main(["run", "raffle", "--dice", "1-2-3,x", "--games", "1"]) == 2
    assert capsys.readouterr().err == ("hazard-dsl: error: --dice: throw 2 is 'x', but the dice of these rules "
                                       "never land off (no cocked: chance): write three faces, like 3-4-3\n")


@pytest.mark.parametrize("game, examples", [
    ("raffle", "3-4-3 6-6-6 1-2-1"), ("inn_and_inn", "3-4-3-5 6-6-6-6 1-2-1-2"), ("cotton", "3-4 6-6 1-2"),
])
def test_an_empty_tape_is_shown_throws_of_the_games_dice(game, examples, capsys):
    assert main(["run", game, "--dice", "", "--games", "1"]) == 2
    assert capsys.readouterr().err == f"hazard-dsl: error: --dice needs throws such as \"{examples}\"\n"


def test_named_faces_are_said_with_their_numbers(capsys):
    # crown_and_anchor.yaml: `faces: [crown, anchor, heart, diamond, club, spade]`, face 1 first
    assert main(["run", "crown_and_anchor", "--dice", "9-9-9", "--games", "1"]) == 2
    assert capsys.readouterr().err == (
        "hazard-dsl: error: --dice: throw 1 is '9-9-9'; write each throw as three faces 1-6 (1 crown, 2 anchor, "
        "3 heart, 4 diamond, 5 club, 6 spade), like 3-4-3\n")


def test_the_python_api_words_it_by_keyword_with_the_same_dice():
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("sic_bo").run(games=None, dice="3-4-3 q")
    assert str(caught.value) == "dice: throw 2 is 'q'; write each throw as three faces 1-6, like 3-4-3"


def test_a_tape_that_runs_short_of_a_throw_asks_for_all_the_dice():
    machine = hazard_dsl.load("raffle").machine
    with pytest.raises(TapeError) as caught:
        DiceTape.parse("5", machine).throw()
    assert str(caught.value) == ("dice: throw 1 is '5', but here the dice want a throw of all three dice that "
                                 "stands, like 3-4-3")


def test_dice_that_land_off_are_told_what_is_recast_for_their_number():
    # two dice (the history sheet's cocked dice): the words of today, unchanged
    assert tape_words(2, 6) == ("write each throw as two faces 1-6, like 3-4 (x for a die that lands off; then "
                                "`off` or `both` for what is recast, and a lone face for a die recast alone)")
    # three dice: no "two", and the dice off recast together written as their faces
    said = tape_words(3, 6)
    assert said.startswith("write each throw as three faces 1-6, like 3-4-3 (x for a die that lands off")
    assert "the dice off or all three" in said and "like 5 or 5-x" in said and "two" not in said
    # no cocked: chance, no advice about dice off
    assert OFF_ADVICE not in tape_words(3, 6, off=False) and OFF_ADVICE not in tape_words(2, 6, off=False)
    # small dice get faces they have
    assert tape_words(3, 4, off=False) == "write each throw as three faces 1-4, like 1-2-1"


def test_cocked_two_dice_machines_keep_the_advice(capsys):
    assert main(["run", "history_sheet", "--option", "cocked=one_in_ten", "--dice", "3-3 1-2-3", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "throw 2 is '1-2-3'; write each throw as two faces 1-6, like 3-4 (x for a die that lands off" in err


def test_three_dice_that_land_off_are_told_in_words_for_three(capsys):
    # tests/data/cocked/raffle_cocked.yaml: Arbuthnot's raffling, three dice, each off 1 in 6
    from pathlib import Path

    cocked = Path(__file__).resolve().parents[1] / "data" / "cocked" / "raffle_cocked.yaml"
    assert main(["run", str(cocked), "--dice", "a-b-c", "--games", "1"]) == 2
    assert capsys.readouterr().err == (
        "hazard-dsl: error: --dice: throw 1 is 'a-b-c'; write each throw as three faces 1-6, like 3-4-3 (x for a "
        "die that lands off; then `off` or `both` for what is recast, the dice off or all three, and the faces of "
        "the dice off for those recast alone, like 5 or 5-x)\n")
