"""An action from JSON (or a Python caller) is checked by type before anything else: a table
refuses with IllegalAction naming what is wrong, never a TypeError or Python's own ValueError,
and a replayed record whose dice are floats is refused, not read as whole numbers (issue 36,
the third hostile corpus)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.play.actions import IllegalAction
from hazard_dsl.play.log import LogError
from hazard_dsl.play.table import replay


@pytest.fixture(scope="module")
def craps():
    return hazard_dsl.load("craps")


def _staking(craps):
    table = craps.table(["Ann", "Ben"], seed=1)
    assert table.waiting.ask == "stake" and table.waiting.player == "Ann"
    return table


@pytest.mark.parametrize("action, said", [
    ({"action": "stake", "player": ["Ann"], "amount": 1}, "it is Ann's turn to stake, not [\"Ann\"]'s"),
    ({"action": "stake", "player": {"a": 1}, "amount": 1}, "it is Ann's turn to stake, not {\"a\": 1}'s"),
    ({"action": "stake", 1: 2, "amount": 1}, "stake takes no 1"),
    ({"action": "stake", 1: 2, "zz": 3, "amount": 1}, "stake takes no 'zz'"),
    ({"action": "stake", 10 ** 5000: 1}, "stake takes no <a number of about 5,000 digits>"),
    ({"action": "stake", "amount": 10 ** 5000}, "Ann can stake at most $20 here (the purse)"),
    ({"action": "stake", "amount": -10 ** 5000}, "a stake is at least $0 (0: no stake this game)"),
    ({"action": "stake", "amount": Decimal("NaN")},
     "a stake's amount is a number or an exact amount as text, such as 2, \"1.50\" or \"5/2\""),
    ({"action": "stake", "amount": 2.5},
     "a stake's amount is a number or an exact amount as text, such as 2, \"1.50\" or \"5/2\""),
])
def test_a_bad_action_is_an_illegal_action_and_changes_nothing(craps, action, said):
    table = _staking(craps)
    before = table.to_json()
    with pytest.raises(IllegalAction) as caught:
        table.apply(action)
    assert str(caught.value) == said
    assert table.to_json() == before


@pytest.mark.parametrize("amount", [Decimal("2.5"), Fraction(5, 2), "5/2", "2.50"])
def test_a_decimal_stake_is_taken_exactly_like_a_fraction(craps, amount):
    table = _staking(craps)
    events = table.apply({"action": "stake", "amount": amount})
    assert events[0]["amount"] == "5/2"
    assert table.log[-2]["amount"] == "5/2"  # the action as logged: exact


def test_a_bet_naming_a_list_as_its_player_is_refused():
    cotton = hazard_dsl.load("cotton")
    table = cotton.table(["Ann", "Ben"], seed=1)
    assert table.waiting.ask == "bet"
    with pytest.raises(IllegalAction) as caught:
        table.apply({"action": "bet", "player": ["Ann"], "bet": "side", "amount": 1})
    assert str(caught.value) == "a bet names its player, one of Ann, Ben (those who may bet now), not [\"Ann\"]"


def _played(craps):
    table = craps.table(["Ann", "Ben"], seed=4)
    table.play(table.strategy())
    return table.log


def test_a_record_whose_throw_event_has_float_dice_is_refused(craps):
    log = _played(craps)
    number = next(n for n, e in enumerate(log, 1) if e.get("event") == "throw")
    edited = [dict(e) for e in log]
    edited[number - 1]["dice"] = [float(f) for f in log[number - 1]["dice"]]
    with pytest.raises(LogError) as caught:
        replay(craps.table(["Ann", "Ben"], seed=4), edited)
    d = log[number - 1]["dice"]
    assert str(caught.value) == (f"entry {number}: the log contradicts the rules: dice is "
                                 f"[{d[0]}.0, {d[1]}.0] in the log, but the rules make it [{d[0]}, {d[1]}]")


def test_the_same_record_unedited_replays(craps):
    log = _played(craps)
    assert replay(craps.table(["Ann", "Ben"], seed=4), log).log == log


@pytest.mark.parametrize("entry, said", [
    (["event", "throw"], 'neither a session event nor an action (a JSON object with "event" or "action")'),
    ({"event": 3}, 'neither a session event nor an action (a JSON object with "event" or "action")'),
])
def test_a_record_entry_of_the_wrong_type_is_refused_naming_it(craps, entry, said):
    log = _played(craps)
    with pytest.raises(LogError) as caught:
        replay(craps.table(["Ann", "Ben"], seed=4), [log[0], entry] + log[1:])
    assert str(caught.value) == f"entry 2: {said}"


def test_a_record_with_a_key_of_another_type_is_refused_by_its_json(craps):
    log = _played(craps)
    edited = [dict(e) for e in log]
    number = next(n for n, e in enumerate(edited, 1) if e.get("event") == "throw")
    edited[number - 1][7] = "seven"
    with pytest.raises(LogError) as caught:
        replay(craps.table(["Ann", "Ben"], seed=4), edited)
    assert str(caught.value) == (f"entry {number}: the log contradicts the rules: 7 is \"seven\" in the log, "
                                 f"but the rules make it null")
