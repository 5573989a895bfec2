"""Money in the period's coinage and the game's words for what players read (issue 34, point 5).

A ruleset may declare its coinage (`money: coins:`, `sums:`) and what each bet and fee is called
(`called:`); the narration of `run`/`play`, the web table's story (the same SessionNarrator) and
the rule sheet tell sums in it and never print an identifier or an improper fraction. The JSON
keeps exact fractions. Expected sums are worked by hand: 12d = 1s, 20s = £1, the guinea 21s
(Hoyle's "half a guinea to the box" is 21/2 shillings = 10s 6d).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction as F

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.cli import main
from hazard_dsl.diagnostics import ERROR
from hazard_dsl.model import Coin, Table
from hazard_dsl.render.session import SessionNarrator
from hazard_dsl.render.words import money_told, number, sentences

from tests.conftest import machine

LSD = (Coin("pound", F(20), short="£{n}"), Coin("shilling", F(1), short="{n}s"),
       Coin("penny", F(1, 12), "pence", "{n}d"))


@pytest.mark.parametrize("value, told", [
    ("21/2", "half a guinea"),  # Hoyle names it
    ("15/8", "1s 10½d"),  # 22½ pence
    ("113/8", "14s 1½d"),  # 169½ pence
    ("20", "£1"),
    ("43/2", "£1 1s 6d"),
    ("1/48", "¼d"),  # a farthing
    ("1/96", "1/8d"),  # half a farthing: a fraction of the smallest coin, exactly
    ("1/36", "1/3d"),
    ("0", "0s"),
    ("-3/2", "-1s 6d"),
])
def test_hoyles_money_is_told_in_pounds_shillings_and_pence(value, told):
    assert money_told(machine("hoyle").ruleset.table, F(value)) == told


@pytest.mark.parametrize("value, told", [("12", "$12"), ("25/2", "$12.50"), ("7/3", "$2 1/3"), ("1/3", "$1/3")])
def test_craps_is_told_in_dollars_and_cents(value, told):
    assert money_told(machine("craps").ruleset.table, F(value)) == told


@pytest.mark.parametrize("value, told", [("15/8", "1 7/8 francs"), ("21/2", "10.50 francs"), ("1", "1 franc"),
                                         ("113/8", "14 1/8 francs")])
def test_a_ruleset_without_a_coinage_prints_a_mixed_number_never_an_improper_fraction(value, told):
    assert money_told(machine("french").ruleset.table, F(value)) == told


def test_coins_without_short_forms_are_told_in_words():
    table = Table(unit="shilling", coins=(Coin("shilling", F(1)), Coin("penny", F(1, 12), "pence")))
    assert money_told(table, F(21, 2)) == "10 shillings and 6 pence"
    assert money_told(table, F(1, 12)) == "1 penny"
    assert money_told(table, F(1, 24)) == "½ penny"


def test_numbers_are_never_improper_fractions():
    assert [number(F(v)) for v in ("15/8", "-15/8", "5/2", "1/3", "4")] == ["1 7/8", "-1 7/8", "2.50", "1/3", "4"]


def test_sentences_begin_with_capitals():
    assert sentences("crabs! deuce-ace is out. no decision? yes") == "Crabs! Deuce-ace is out. No decision? Yes"


def test_the_coinage_and_the_phrases_are_inherited_through_extends():
    chicken = machine("chicken").ruleset  # extends hoyle, which names half a guinea
    assert [s.words for s in chicken.table.sums] == ["half a guinea"]
    assert [c.name for c in machine("history_sheet").ruleset.table.coins] == ["pound", "shilling", "penny"]
    assert machine("history_sheet").ruleset.bet_words("side") == "a side bet on the caster"
    assert machine("hoyle").ruleset.fee_words("box") == "the box's fee"
    assert machine("craps").ruleset.bet_words("place_6") == "the place 6 bet"  # no phrase: its name's words


BROKEN = """name: Broken coins
extends: cotton
money:
  unit: shilling
  coins:
    shilling: {worth: 1, short: "{n}s"}
    penny: {wroth: 1/12, short: "d"}
    groat: {worth: 1/3, places: 9}
    bob: {worth: 1}
  sums:
    half a crown: 5/2
    two and six: 5/2
    nothing: 0
bets:
  side:
    calld: a side bet
"""


def test_a_mistaken_coinage_is_refused_where_it_is(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    errors = {(d.position.line, d.position.column, d.message) for d in check_file(path) if d.severity == ERROR}
    assert (7, 13, "unknown key 'wroth' in coin 'penny'") in errors
    # the misspelt key is read as the key it stands for (worth), so no "needs 'worth'" follows it
    assert not any("needs 'worth'" in message for _, _, message in errors)
    assert any(line == 7 and "short must hold {n} once" in m for line, _, m in errors)
    assert (8, 33, "coin 'groat': places must be 0 to 6") in errors
    assert any(line == 9 and "is worth what coin 'shilling' is" in m for line, _, m in errors)
    assert (12, 5, "sums 'half a crown' and 'two and six' name the same amount") in errors
    assert (13, 14, "sum 'nothing' must be more than 0") in errors
    assert (16, 5, "unknown key 'calld' in bet 'side'") in errors
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "bad.yaml:7:13: error: unknown key 'wroth' in coin 'penny'" in err
    assert "did you mean 'worth'?" in err and "did you mean 'called'?" in err


@pytest.mark.parametrize("body, message", [
    ('coins: {"": {worth: 1}}', "a coin's name is words of 1 to 80 characters"),
    ("coins: {pound: {worth: -1}}", "coin 'pound': worth must be more than 0, not -1"),
    ("coins: {pound: {worth: 0}}", "coin 'pound': worth must be more than 0"),
    ("coins: {pound: 3}", "coin 'pound' must be a mapping (key: value)"),
    ("coins: [1, 2]", "money: coins must be a mapping (key: value)"),
    ("sums: {x: abc}", "sum 'x' must be an exact number such as 12, 10.5, 21/2 or 5% (at most 15 digits in each part)"),
])
def test_each_mistake_of_a_coinage_is_said(tmp_path, body, message):
    path = tmp_path / "f.yaml"
    path.write_text(f"name: X\nextends: cotton\nmoney:\n  unit: shilling\n  {body}\n", encoding="utf-8")
    errors = [(d.position.line, d.message) for d in check_file(path) if d.severity == ERROR]
    assert errors == [(5, message)]


def test_a_good_coinage_checks_clean(tmp_path):
    path = tmp_path / "good.yaml"
    path.write_text("name: Groats\nextends: cotton\nmoney:\n  unit: penny\n  units: pence\n  coins:\n"
                    "    groat: {worth: 4, short: \"{n} groats\"}\n    penny: {worth: 1, plural: pence}\n"
                    "fees:\n  box:\n    called: the groat to the box\n    amount: 4\n    rules:\n"
                    "      - when: result == \"win\"\n        do: pay box\n", encoding="utf-8")
    assert [d.message for d in check_file(path) if d.severity == ERROR] == []


# --------------------------------------------------------------------------- what players read

def test_the_box_fee_and_a_side_bet_are_said_in_words():
    narrator = SessionNarrator(machine("hoyle"))
    fee = narrator.text({"event": "settle", "payer": "Ben", "payee": "box", "amount": "21/2", "why": "fee box",
                         "fee": "box"})
    assert fee.strip() == "£ Ben pays the box half a guinea, the box's fee."
    side = narrator.text({"event": "bet", "who": "Cat", "side": "backer", "bet": "side", "amount": "3",
                          "against": "Ann"})
    assert side.strip() == "Cat backs a side bet on the caster for 3s against Ann."
    stake = narrator.text({"event": "settle", "payer": "Ann", "payee": "Ben", "amount": "15/8", "why": "chance_win",
                           "stake": "15/8"})
    assert stake.strip() == "£ Ann pays Ben 1s 10½d on the stake."
    short = narrator.text({"event": "refuse", "player": "Ben", "caster": "Ann", "amount": "2",
                           "why": "Ann cannot cover it (113/8 in the purse)"})
    assert " ".join(short.split()) == "Ann refuses Ben's stake of 2s: Ann cannot cover it (14s 1½d in the purse)."
    passed = narrator.text({"event": "pass", "caster": "Ann", "to": "Ben", "why": "the game ended no_main"})
    assert passed == "The dice pass from Ann to Ben: the game ended in no main."


IDENTIFIER = re.compile(r"\b(chance_win|chance_loss|no_main|bad_main)\b|\(fee |\bbacks side\b")


def _improper(text: str) -> list[str]:
    return [m.group(0) for m in re.finditer(r"(?<![\d/])(\d+)/(\d+)(?![\d/])", text)
            if int(m.group(1)) >= int(m.group(2))]


@pytest.mark.parametrize("args", [
    ["run", "hoyle", "--players", "Ann,Ben,Cat", "--seed", "1"],
    ["run", "history_sheet", "--players", "Ann,Ben,Cat", "--bet", "Cat:side=3", "--seed", "2"],
    ["run", "hoyle", "--players", "Ann,Ben,Cat", "--bet", "Ann:side_odds=15/8", "--seed", "4", "--rounds", "3"],
])
def test_a_session_reads_without_identifiers_or_improper_fractions(capsys, monkeypatch, args):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(args) == 0
    out = capsys.readouterr().out
    assert not IDENTIFIER.findall(out), [line for line in out.splitlines() if IDENTIFIER.search(line)]
    assert _improper(out) == []
    assert "shillings" not in out  # Hoyle's and the sheet's money is told in £ s d
    # every sentence of the narration begins with a capital
    # every sentence of the narration begins with a capital (a throw's number, "1. cater-trey", is no sentence)
    lower = [line for line in out.splitlines() if re.search(r"(?<![\d.])[.!?] [a-z]", line)]
    assert lower == []


def test_the_json_keeps_exact_fractions(capsys):
    assert main(["run", "hoyle", "--players", "Ann,Ben,Cat", "--bet", "Ann:side_odds=15/8", "--seed", "4",
                 "--rounds", "3", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    amounts = {e["amount"] for e in events if "amount" in e}
    assert "15/8" in amounts and not any("s" in a or "d" in a for a in amounts)


def test_the_rule_sheet_says_the_coinage_and_the_fee_in_it(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["rules", "hoyle"]) == 0
    out = capsys.readouterr().out
    assert "Sums are told in pounds, shillings and pence (£1 is 20s, 1s is 12d); half a guinea is 10s 6d." in out
    assert "the box's fee: half a guinea (10s 6d), caster to the box" in out
    assert "chance_win" not in out and "fee: box" not in out


def test_a_line_of_money_is_marked_by_the_games_own_sign():
    # audit 42, D: every line of money began with "$", in Cotton's game of £ s d and in Sic Bo's
    # units too; now the sign the largest coin is written with, else a plain dot
    from hazard_dsl.commands.loading import load
    from hazard_dsl.money import money_mark

    assert [money_mark(load(name).table) for name in ("cotton", "hoyle", "craps", "sic_bo", "grand_hazard")] == \
        ["£", "£", "$", "·", "·"]
