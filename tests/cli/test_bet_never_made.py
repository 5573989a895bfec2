"""`run --bet NAME=AMOUNT@THROW` whose throw never comes says that the bet was never made, on
the side (stderr), worded with the flag; a bet made, or refused where it was due, adds nothing
(audit 10, finding 7; issue 38). One game of Sic Bo is one throw (rulesets/sic_bo.yaml: the
dealer shakes once and every game ends in a push)."""

from __future__ import annotations

import json

from hazard_dsl.cli import main
from hazard_dsl.commands.games import games_request
from hazard_dsl.commands.requests import BetOrder, RunRequest
from hazard_dsl.errors import PYTHON


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_bet_whose_throw_never_comes_is_said_never_made(capsys):
    code, out, err = _run(capsys, "run", "sic_bo", "--bet", "small=5@99", "--games", "1", "--seed", "3")
    assert code == 0 and "Money: net +0 units." in out
    assert " ".join(err.split()) == ("hazard-dsl: note: --bet small=5@99 was never made: the games ended after 1 "
                                     "throw, before throw 99.")


def test_each_bet_never_made_is_said_and_json_output_stays_json(capsys):
    code, out, err = _run(capsys, "run", "sic_bo", "--bet", "small=5@3", "--bet", "big=5@1", "--games", "2",
                          "--seed", "3", "--json")
    assert code == 0 and all(json.loads(line) for line in out.splitlines())
    assert " ".join(err.split()) == ("hazard-dsl: note: --bet small=5@3 was never made: the games ended after 2 "
                                     "throws, before throw 3.")


def test_a_bet_made_at_its_throw_adds_no_note(capsys):
    code, out, err = _run(capsys, "run", "sic_bo", "--bet", "small=5@1", "--games", "1", "--seed", "3")
    assert code == 0 and err == ""


def test_the_note_is_a_fact_each_front_end_words():
    games = games_request(RunRequest(ruleset="sic_bo", games=1, seed=3, bets=(BetOrder("small", 5, 99),)))
    list(games.records())
    (note,) = games.never_made()
    assert note.key == "bets"
    assert note.said(PYTHON) == ("bets['small'] = '5@99' was never made: the games ended after 1 throw, "
                                 "before throw 99")
