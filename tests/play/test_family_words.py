"""The family's games told in their own words (issue 37): a game that settles nothing for the
caster (the layouts: Sic Bo, Chuck-a-luck, Crown and Anchor, Grand Hazard end every game in a
push, the money on the bets) says no "neither wins nor loses" above the bets that carry the
money, and `compare` shows a label's words ("no doublets"), never its identifier.

Where the dice settle a bet here, the bet is settled by hand from the games' own rules: Sic
Bo's big bet wins on a total of 11 to 17 that is no triple (3-4-5: 12, wins at 1 to 1; 6-1-1:
8, loses)."""

from __future__ import annotations

import pytest

import hazard_dsl
from hazard_dsl.cli import main
from hazard_dsl.render.narrate import settles_for_caster


@pytest.mark.parametrize("game, settles", [
    ("sic_bo", False), ("chuck_a_luck", False), ("crown_and_anchor", False), ("grand_hazard", False),
    ("cotton", True), ("craps", True), ("raffle", True), ("passage", True), ("inn_and_inn", True),
])
def test_the_layouts_settle_nothing_for_the_caster(game, settles):
    # the layouts' rule files end every game with `push` (they carry no stake: table's money is on bets)
    machine = hazard_dsl.load(game).machine
    assert settles_for_caster(machine) is settles
    assert settles is any(s.result != "push" for s in machine.end_states())


def test_sic_bo_at_the_table_says_no_result_for_the_dealer(capsys):
    assert main(["run", "sic_bo", "--players", "Ann,Ben", "--rounds", "1", "--dice", "3-4-5 6-1-1",
                 "--bet", "Ann:big=2"]) == 0
    out = capsys.readouterr().out
    assert "neither wins nor loses" not in out
    assert ("    1. five-four-three (3-4-5), twelve: Ann lifts the cover.\n"
            "       · The bank pays Ann 2 units on the big bet.\n") in out
    assert ("    1. two ones and a six (6-1-1), eight: Ben lifts the cover.\n"
            "       · Ann pays the bank 2 units on the big bet.\n") in out


def test_a_run_of_a_layout_says_how_its_games_ended_not_that_the_caster_pushed(capsys):
    assert main(["run", "sic_bo", "--games", "2", "--dice", "3-4-5 6-1-1", "--bet", "big=2"]) == 0
    out = capsys.readouterr().out
    assert "neither wins nor loses" not in out and "pushed" not in out
    assert "    1. five-four-three (3-4-5), twelve: The dealer lifts the cover.\n" in out
    assert "\n2 games, 2 throws (shaken 2).\n" in out


def test_a_game_that_settles_says_the_casters_result_as_before(capsys):
    # Cotton: a first throw of 7 makes the main 7; a 7 again (5-2) is a nick, and the caster wins
    assert main(["run", "cotton", "--games", "1", "--dice", "3-4 5-2"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # (the narration wraps at 80 columns)
    assert "sweeps the board. [The caster wins]" in out and "1 game, 2 throws: the caster won 1 (nick 1)." in out


def test_compare_shows_a_labels_words(capsys):
    assert main(["compare", "raffle", "passage"]) == 0
    out = capsys.readouterr().out
    assert "no_doublets" not in out
    assert " label no doublets *" in out


@pytest.mark.parametrize("game", ["passage", "raffle", "inn_and_inn", "azar", "sic_bo", "chuck_a_luck",
                                  "crown_and_anchor", "grand_hazard"])
def test_a_rule_sheet_cites_no_path_of_the_projects_tests(game, capsys):
    assert main(["show", game]) == 0
    out = capsys.readouterr().out
    assert "tests/" not in out and ".py" not in out
    assert "counted independently in the project's tests" in " ".join(out.split())


def test_a_total_past_twelve_is_said_in_words_as_two_dices_are(capsys):
    # 6-6-5-1 totals 18 and 6-5-4-2 totals 17, added by hand
    assert main(["run", "inn_and_inn", "--games", "2", "--dice", "6-6-5-1 6-5-4-2"]) == 0
    out = capsys.readouterr().out
    assert "(6-6-5-1), eighteen: An inn: the stakes" in out
    assert "(6-5-4-2), seventeen: Out: no doublets." in out
    assert "18" not in out and "17" not in out


def test_totals_in_words_up_to_five_dice_of_twenty():
    from hazard_dsl.render.narrate import total_words

    assert [total_words(n) for n in (2, 12, 13, 19, 20, 24, 36, 99, 100)] == [
        "two", "twelve", "thirteen", "nineteen", "twenty", "twenty-four", "thirty-six", "ninety-nine", "one hundred"]


def test_an_inn_says_what_becomes_of_the_stakes(capsys):
    # inn_and_inn.yaml, inn=stands: Cotton's "drop" is to lay down a stake; the stakes stay down
    assert main(["run", "inn_and_inn", "--games", "1", "--dice", "3-3-1-2"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "An inn: the stakes dropped stand, and the throw decides nothing." in out
    assert "the caster drops" not in out
