"""A layout's own words where Hazard's still showed (issue 37): `show`'s "How the
dice pass" says "after every game" where every ending of the game passes them (as
the table says, compile/passing.py), and `play`'s prompt for the dice says what the
caster is in the file's words (`words: casts:`), not Hazard's "throws". Hazard's
own files, which name no `casts:`, read as before."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hazard_dsl.cli import main
from tests.conftest import ROOT


def shown(capsys, name: str) -> str:
    assert main(["show", name]) == 0
    return capsys.readouterr().out


def test_sic_bo_dice_pass_after_every_game(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    text = shown(capsys, "sic_bo")
    after = text.split("How the dice pass", 1)[1]
    assert "after every game" in after
    assert "ending in shaken" not in text


def test_a_file_passing_after_one_ending_of_two_still_names_it(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    raffle = str(ROOT / "tests" / "data" / "cocked" / "raffle_cocked.yaml")
    text = shown(capsys, raffle)
    assert " after a game ending in no doublets" in text
    assert "after every game" not in text


def played(*argv) -> str:
    run = subprocess.run([sys.executable, "-m", "hazard_dsl", "play", *argv, "--players", "Ann,Ben",
                          "--no-log", "--seed", "3"], input="\n" * 40, capture_output=True, text=True,
                         cwd=ROOT, env=dict(os.environ, COLUMNS="200"), timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize("name, casts", [("chuck_a_luck", "is the banker"),
                                         ("grand_hazard", "is the operator")])
def test_the_prompt_for_the_dice_says_what_the_caster_is_in_the_files_words(name, casts):
    out = played(name)
    assert f"Ann {casts} (a bet first? NAME BET AMOUNT" in out
    assert "Ann throws" not in out


def test_the_raffle_still_throws_and_names_the_dice_recast_alone():
    # seed 3 (read from this run): Ben's second game has one die off, his third two
    # off, each recast alone; two off recast together were logged as a die alone
    # (KeyError 'face', exit 70)
    out = played(str(ROOT / "tests" / "data" / "cocked" / "raffle_cocked.yaml"))
    assert "Ann throws: press Enter" in out
    assert "Ben recasts the first die alone: press Enter" in out
    assert "Ben recasts the second and third dice alone: press Enter" in out


def test_show_says_what_the_cocked_rules_recast_for_three_dice(capsys, monkeypatch):
    # the file has no cocked: description; its rules recast the dice off alone
    # under way=alone, the default (it said "both dice, whenever a die is off")
    monkeypatch.setenv("COLUMNS", "100")
    text = shown(capsys, str(ROOT / "tests" / "data" / "cocked" / "raffle_cocked.yaml"))
    assert (" what is recast      the dice off are recast alone (with the default options)"
            in text.splitlines())
    assert "both dice" not in text
