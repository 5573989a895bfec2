"""A layout's game at the table reads in its own words, not Hazard's (issue 37).

Sic bo, chuck-a-luck, crown and anchor and grand hazard are one throw each, settled by the
layout's bets: the rule file names who stakes against the caster (`words: setters:`), what
goes round the table (`box:`) and what the caster is (`casts:`); a game that ends only in
pushes lays no stake, and the dice pass "after every game". Hazard's own files, which name
none of these, read as before.
"""

from __future__ import annotations

import pytest

from hazard_dsl.cli import main
from hazard_dsl.model import Words
from hazard_dsl.commands.loading import load


def told(capsys, *args) -> list[str]:
    assert main(["run", *args]) == 0, args
    return capsys.readouterr().out.splitlines()


def test_sic_bo_is_told_with_a_dealer_a_shaker_and_no_stake(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    lines = told(capsys, "sic_bo", "--players", "Ann,Ben", "--dice", "3-4-5 1-1-6")
    assert lines[0] == ("Sic Bo at the table: Ann 20 units, Ben 20 units. The shaker passes after every game; "
                        "no stake is laid on a game that settles nothing: the money is on the bets.")
    assert "Ann takes the shaker (hand 1; purse 20 units)." in lines
    assert "Game 1: Ann is the dealer." in lines
    assert "The shaker passes from Ann to Ben, as after every game." in lines
    assert "Game 2: Ben is the dealer." in lines
    text = "\n".join(lines)
    # Hazard's words are gone: no setter sets, nobody covers a stake, no game "ended in shaken"
    for hazard in ("sets ", "covers it", "takes the box", "ended in", "setters", "The dice pass"):
        assert hazard not in text, hazard


@pytest.mark.parametrize("name, box, casts", [
    ("chuck_a_luck", "the cage", "is the banker"),
    ("crown_and_anchor", "the cup", "is the banker"),
    ("grand_hazard", "the chute", "is the operator"),
])
def test_each_layout_names_its_own_box_and_banker(capsys, monkeypatch, name, box, casts):
    monkeypatch.setenv("COLUMNS", "200")
    lines = told(capsys, name, "--players", "Ann,Ben", "--seed", "5")
    assert f"Ann takes {box} (hand 1; purse 20 units)." in lines
    assert f"Game 1: Ann {casts}." in lines
    assert f"{box[0].upper()}{box[1:]} passes from Ann to Ben, as after every game." in lines
    assert not any(" sets " in line or "covers it" in line for line in lines)


def test_raffle_names_the_other_players_and_its_ending(capsys, monkeypatch):
    # Arbuthnot's raffle is won and lost, so a stake is laid: the other players stake, and the
    # dice pass after a throw with no doublets (3-4-5: twelve, none alike)
    monkeypatch.setenv("COLUMNS", "200")
    lines = told(capsys, "raffle", "--players", "Ann,Ben", "--dice", "3-4-5 1-2-4")
    assert lines[0].endswith("The dice pass after a game ending in no doublets; the other players stake "
                             "against the caster.")
    assert "       Ben stakes 1 unit; Ann covers it." in lines
    assert "The dice pass from Ann to Ben: the game ended in no doublets." in lines


def test_hazard_reads_as_before(capsys, monkeypatch):
    # cotton names no table words: Hazard's setters set, the caster covers, the box passes as dice
    monkeypatch.setenv("COLUMNS", "200")
    lines = told(capsys, "cotton", "--players", "Ann,Ben", "--dice", "3-4 1-1")
    assert lines[0].endswith("the setters stake against the caster.")
    assert "Ann takes the box (hand 1; purse £1)." in lines
    assert "Game 1: Ann casts." in lines
    assert "       Ben sets 1s; Ann covers it." in lines


def test_the_table_words_are_read_and_checked():
    text = ("name: t\ndice: 3d6\nwords: {setters: the punters, box: the shaker, casts: is the dealer}\n"
            "phases:\n  shake:\n    - otherwise: push shaken\n")
    words = load("t.yaml", text).words
    assert (words.setters, words.box, words.casts) == ("the punters", "the shaker", "is the dealer")
    assert (Words().setters, Words().box, Words().casts) == (None, None, None)
