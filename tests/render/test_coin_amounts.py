"""Amounts typed in a ruleset's coin, as the prompts show them: "8s 6d", "£1 1s", "half a
guinea", "1½d", "$12.50" (render.words.money_read, the inverse of money_told), beside plain
numbers in the file's unit ("2.50", "5/2"), at the play prompt, on the command line
(--stake, --purse, --bet SEAT:NAME=AMOUNT) and in an action posted to a shared table."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hazard_dsl.commands.loading import load
from hazard_dsl.render.words import MAX_MONEY_TEXT, MoneyText, money_read, money_told

from tests.conftest import ROOT

HOYLE = load("hoyle").table  # £ s d in shillings, 12d a shilling and 20s a pound; half a guinea is 21/2
CRAPS = load("craps").table  # dollars, told to the cent: $12.50


def cli(*argv, stdin=""):
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, COLUMNS="100"), timeout=120)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_ninety_sixth_of_a_shilling_to_five_pounds_reads_back_exactly():
    """1/96 shilling is an eighth of a penny (12d × 8): every such amount up to £5 (100s) as
    money_told writes it ("£1 1/8d", "10s 6¾d", "half a guinea") reads back to itself."""
    for k in range(0, 96 * 100 + 1):
        value = Fraction(k, 96)
        told = money_told(HOYLE, value)
        assert money_read(HOYLE, told) == value, told


def test_every_cent_and_third_of_a_cent_to_a_hundred_dollars_reads_back_exactly():
    for k in range(0, 300 * 100 + 1, 7):  # thirds of a cent: $1/3 is told so, exactly
        value = Fraction(k, 300)
        told = money_told(CRAPS, value)
        assert money_read(CRAPS, told) == value, told


@given(st.fractions(min_value=0, max_value=10**6, max_denominator=10**4))
@example(Fraction(488461, 1163))  # told "£21 12/1163d" (420s and 1/1163s): was read as £21 12/116 and 3d
@settings(max_examples=300, deadline=None)
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_amount_told_reads_back(value):
    assert money_read(HOYLE, money_told(HOYLE, value)) == value
    assert money_read(CRAPS, money_told(CRAPS, value)) == value


def test_a_count_never_ends_inside_a_number():
    # found by the property above under --hypothesis-seed=7: the regular expression gave back
    # digits of a count to make a match ("12/116" and "3d"); 420 + 1/1163 shillings by hand
    assert money_read(HOYLE, "£21 12/1163d") == 420 + Fraction(12, 1163) / 12
    assert money_read(HOYLE, "£1 1/8d") == 20 + Fraction(1, 96)  # a count still gives back its space


@pytest.mark.parametrize("text, shillings", [
    ("8s 6d", Fraction(17, 2)), ("8S6D", Fraction(17, 2)), ("£1 1s", 21), ("10s 6d", Fraction(21, 2)),
    ("half a guinea", Fraction(21, 2)), ("Half A  Guinea", Fraction(21, 2)), ("6d", Fraction(1, 2)),
    ("1½d", Fraction(1, 8)), ("1 1/2d", Fraction(1, 8)), ("¼d", Fraction(1, 48)), ("£1, 1s and 6d", Fraction(43, 2)),
    ("6 pence", Fraction(1, 2)), ("1 shilling", 1), ("a shilling", 1), ("2 pounds", 40),
    # plain numbers are in the file's unit, as before
    ("2", 2), ("2.50", Fraction(5, 2)), ("5/2", Fraction(5, 2)), ("2 1/2", Fraction(5, 2)), ("2½", Fraction(5, 2)),
    ("0", 0),
])
def test_hoyle_amounts_as_people_write_them(text, shillings):
    assert money_read(HOYLE, text) == shillings


@pytest.mark.parametrize("text, dollars", [("$12.50", Fraction(25, 2)), ("$1/3", Fraction(1, 3)), ("12.50", Fraction(25, 2)),
                                           ("12 dollars", 12), ("$ 3", 3)])
def test_craps_amounts(text, dollars):
    assert money_read(CRAPS, text) == dollars


@pytest.mark.parametrize("text, says", [
    ("8x 6d", "'8x' in '8x 6d' is not understood"), ("s", "not an amount of money: 's'"),
    ("2s 6", "'6' in '2s 6' is not understood"), ("1e9", "not an amount of money: '1e9'"),
    ("1/0d", "divides by 0"), ("", "no amount of money"), ("   ", "no amount of money"),
    ("٣s", "not an amount of money"),  # a Unicode digit is no digit here
    ("1" * 16 + "s", "not an amount of money"),  # more digits than any amount needs
    ("1s " * 40, "too long"), (None, "not an amount of money"), ("half a crown", "'crown' in"),
])
def test_junk_is_refused_saying_what_was_not_understood(text, says):
    with pytest.raises(MoneyText) as refused:
        money_read(HOYLE, text)
    message = str(refused.value)
    assert says in message
    if text and text.strip() and len(text) <= MAX_MONEY_TEXT and "/0" not in text:
        assert "write it as 2s 6d, or 2.50 in shillings" in message  # how to write it, in this table's money


@given(st.text(max_size=120))
@settings(max_examples=400, deadline=None)
def test_any_text_is_an_amount_or_refused_in_words(text):
    try:
        value = money_read(HOYLE, text)
    except MoneyText as exc:
        assert str(exc)
    else:
        assert isinstance(value, Fraction)


def test_a_stake_typed_in_coin_at_the_play_prompt():
    # Cotton: seven is the main (3-4), Ben stakes 1s 6d, Ann covers and nicks it with eleven
    result = cli("play", "cotton", "--players", "Ann,Ben", "--dice", "3-4 5-6", "--no-log",
                 stdin="8x\n1s 6d\n\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Ben, your stake against Ann? (Enter for 1s, 0 for none; purse £1)" in out
    assert "Not an amount of money: '8x'; write it as 2s 6d, or 2.50 in shillings; 0 for none, or ? for help." in out
    assert "Ben sets 1s 6d; Ann covers it." in out
    assert "£ Ben pays Ann 1s 6d on the stake." in out
    assert "Purses: Ann £1 1s 6d, Ben 18s 6d." in out


def test_a_side_bet_typed_in_coin_of_several_words():
    # Hoyle names half a guinea (21/2 shillings); the amount is the last words of the line, after
    # the bet's name. With a tape, bets are asked once someone says `bets` (here at the stake)
    result = cli("play", "hoyle", "--players", "Ann,Ben", "--dice", "3-4 5-6", "--no-log",
                 stdin="bets\n\n\nben side half a guinea\ny\n\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Ben backs a side bet on the caster for half a guinea against Ann." in result.stdout
    # Ann nicks seven with eleven: she wins Ben's 1s stake and pays him half a guinea: 20 + 1 - 21/2
    assert "£ Ann pays Ben half a guinea on a side bet on the caster." in result.stdout
    assert "Purses: Ann half a guinea, Ben £1 9s 6d." in result.stdout


def test_run_takes_stake_purse_and_bets_in_coin():
    coin = cli("run", "cotton", "--players", "Ann,Ben", "--dice", "3-4 5-6", "--stake", "1s6d", "--purse", "£1",
               "--bet", "Ben:side=2s 6d")
    plain = cli("run", "cotton", "--players", "Ann,Ben", "--dice", "3-4 5-6", "--stake", "1.5", "--purse", "20",
                "--bet", "Ben:side=2.5")
    assert coin.returncode == 0, coin.stderr
    assert coin.stdout == plain.stdout  # the same session, whichever way the amounts were written
    assert "Ben sets 1s 6d; Ann covers it." in coin.stdout
    assert "Ben backs a side bet on the caster for 2s 6d against Ann." in coin.stdout


@pytest.mark.parametrize("argv, says", [
    (("--stake", "1x6d"), "--stake: not an amount of money: '1x6d'"),
    (("--purse", "a lot"), "--purse: not an amount of money: 'lot' in 'a lot' is not understood"),
    (("--bet", "Ben:side=2q"), "'2q' is not an amount of money (write it as 2s 6d, or 2.50 in shillings)"),
])
def test_a_bad_amount_on_the_command_line_is_refused_in_words(argv, says):
    result = cli("run", "cotton", "--players", "Ann,Ben", "--seed", "1", *argv)
    assert result.returncode == 2, (result.returncode, result.stderr)
    # (fitted to the COLUMNS=100 cli() sets: the words compared whatever the line breaks)
    assert says in " ".join(result.stderr.split()) and "Traceback" not in result.stderr


def test_an_action_posted_with_an_amount_in_coin():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from hazard_dsl.serve.app import create_app

    from tests.serve.test_serve_tables import HEADER, auth, open_table, standing

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(".", db=os.path.join(folder, "tables.db"))
        with TestClient(app, base_url="http://127.0.0.1") as client:
            table_id, tokens, _ = open_table(client)
            post = lambda who, action: client.post(f"/api/tables/{table_id}/actions", json=action,  # noqa: E731
                                                   headers={**HEADER, **auth(tokens[who])})
            assert post("Ann", {"action": "done"}).status_code == 200  # no bets: Ann throws 3-4, seven the main
            assert post("Ann", {"action": "throw"}).status_code == 200
            assert standing(client, table_id, tokens["Ben"])["waiting"]["who"] == "Ben"
            refused = post("Ben", {"action": "stake", "amount": "1q 6d"})
            assert refused.status_code == 409
            assert "'1q' in '1q 6d' is not understood; write it as 2s 6d, or 2.50 in shillings" in refused.json()["error"]
            over = post("Ben", {"action": "stake", "amount": "£2"})
            assert over.status_code == 409 and "at most £1" in over.json()["error"]  # told in coin
            r = post("Ben", {"action": "stake", "amount": "1s 6d"})
            assert r.status_code == 200, r.text
            asked = standing(client, table_id, tokens["Ann"])["waiting"]
            # Ann is asked to cover 3/2 shillings: kept exact, in the file's unit
            assert (asked["who"], asked["ask"], asked["question"]["amount"]) == ("Ann", "cover", "3/2")
        app.state.tables.store.close()
