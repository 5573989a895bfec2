"""The table as a state machine (play.table.Table): driven by actions alone, as any front end
drives it — no terminal, no argument parser."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

import hazard_dsl
from hypothesis import given, settings
from hypothesis import strategies as st

from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.cache import read_ruleset
from hazard_dsl.parse.files import resolve
from hazard_dsl.play.actions import IllegalAction
from hazard_dsl.play.dice import DiceTape
from hazard_dsl.play.table import Table, replay

# Cotton, three players, once round the table: enough throws (the same tape as test_table.py)
TAPE = ("3-4 5-6 2-2 6-1 1-2 3-5 4-4 1-1 2-5 6-6 3-3 4-2 1-3 5-5 2-6 6-4 3-1 5-2 4-3 1-2 2-2 6-6 5-1 3-4 "
        "2-3 4-4 6-2 1-1 5-5 3-6 2-4 6-3 1-5 4-6 2-1 5-3 6-5 3-2 1-4 4-1")


def machine_of(name: str, **options):
    name, _, option = name.partition(":")
    options.update(dict([option.split("=")]) if option else {})
    ruleset = read_ruleset(resolve(name))
    stake = ruleset.table.stake
    return compile_ruleset(ruleset, options, [stake] if stake else [])


def cotton_by_actions() -> Table:
    """Three players once round Cotton's table, every question answered by an action written out
    (the table's bets offered, as `play` offers them)."""
    table = hazard_dsl.load("cotton").table(["Ann", "Ben", "Cat"], purse=20)
    throws = iter(TAPE.split())
    refused = False
    while not table.over:
        q = table.waiting.to_json()
        if q["ask"] == "stake":
            table.apply({"action": "stake", "player": q["player"], "amount": "1" if q["player"] == "Cat" else 2})
        elif q["ask"] == "cover":
            refuse = q["setter"] == "Cat" and not refused
            refused |= refuse
            table.apply({"action": "refuse" if refuse else "cover", "player": q["player"]})
        elif q["ask"] == "keep":  # Cotton lets a caster who has won pass the dice: he keeps them
            table.apply({"action": "keep"})
        elif q["ask"] == "bet":  # a side bet may be made before any throw (Barker): nobody does
            table.apply({"action": "done"})
        else:
            d1, d2 = next(throws).split("-")
            table.apply({"action": "throw", "dice": [int(d1), int(d2)]})
    return table


def test_the_same_session_played_at_the_keyboard_logs_the_same(tmp_path):
    """`play` over standard input is one more driver of the table: the same answers give the same
    log, action for action and event for event (its session event adds the settings)."""
    table = cotton_by_actions()
    words = {"cover": "y", "refuse": "n", "keep": "y", "pass": "n"}
    answers = [str(e.get("amount", e.get("value", ""))) if e["action"] in ("stake", "choose") else words[e["action"]]
               for e in table.log if "action" in e and e["action"] not in ("throw", "done")]
    # the tape throws by itself, and with a tape nobody is asked for bets unless he says `bets`
    log = tmp_path / "kept.log"
    result = subprocess.run([sys.executable, "-m", "hazard_dsl", "play", "cotton", "--players", "Ann,Ben,Cat",
                             "--purse", "20", "--dice", TAPE, "--log", str(log)], input="\n".join(answers) + "\n",
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    header = logged[0]
    assert {k: header[k] for k in table.log[0]} == table.log[0]
    assert header["players"] == ["Ann", "Ben", "Cat"] and header["purse"] == "20" and header["seed"] is None
    assert logged[1:] == table.log[1:]


def test_a_whole_cotton_session_by_actions_alone():
    """Three players once round Cotton's table. Every question is answered by writing the action
    out: the setters stake 2 (Cat 1), Ann refuses Cat's stake once, every throw gives its dice."""
    table = cotton_by_actions()
    asked = [e["action"] for e in table.log if "action" in e]
    events = table.events
    kinds = [e["event"] for e in events]
    assert kinds[0] == "session" and kinds[-1] == "end"
    assert events[-1]["why"] == "1 round of the table"
    assert [e["to"] for e in events if e["event"] == "pass"] == ["Ben", "Cat", "Ann"]
    assert set(asked) == {"stake", "cover", "refuse", "throw", "keep", "done"}
    declined = [e for e in events if e["event"] == "refuse"]
    assert len(declined) == 1 and declined[0]["player"] == "Cat" and declined[0]["declined"]
    # the purses: the settlements alone account for them, and nothing is made or lost
    purses = {"Ann": Fraction(20), "Ben": Fraction(20), "Cat": Fraction(20)}
    for e in events:
        if e["event"] == "settle":
            purses[e["payer"]] -= Fraction(e["amount"])
            purses[e["payee"]] += Fraction(e["amount"])
    assert {k: str(v) for k, v in purses.items()} == events[-1]["purses"]
    assert sum(purses.values()) == 60
    assert table.purses == purses
    # by hand from the tape: Ann +2 -3 -2 +2 -2 +2, Ben -2 +2 +3 -3 -2 +2, Cat +1 -1 +1 +4 -4
    assert events[-1]["purses"] == {"Ann": "19", "Ben": "20", "Cat": "21"}
    # the log is the actions and the events in order, plain JSON, and replays to the same events
    assert json.loads(json.dumps(table.log)) == table.log
    again = replay(hazard_dsl.load("cotton").table(["Ann", "Ben", "Cat"], purse=20), table.log)
    assert again.events == events and again.over


def test_the_question_says_who_acts_and_the_bounds():
    table = Table(machine_of("cotton"), ["Ann", "Ben"], purse=10, dice=DiceTape.parse(TAPE))
    q = table.waiting.to_json()  # Cotton's stakes are laid once the main is thrown
    assert q["ask"] == "throw" and q["player"] == "Ann" and q["cast"] == "both"
    assert q["actions"] == [{"action": "throw"}, {"action": "throw", "dice": "given"}]
    events = table.apply({"action": "throw"})  # the table's own dice: the tape's first throw
    assert events[0]["event"] == "throw" and events[0]["dice"] == [3, 4]
    assert table.log[-len(events) - 1] == {"action": "throw", "player": "Ann", "dice": [3, 4]}
    q = table.waiting.to_json()
    assert q["ask"] == "stake" and q["player"] == "Ben" and q["caster"] == "Ann"
    assert q["actions"] == [{"action": "stake", "amount": {"least": "0", "most": "10"}}]
    table.apply({"action": "stake", "amount": "5/2"})
    q = table.waiting.to_json()
    assert q["ask"] == "cover" and q["player"] == "Ann" and q["amount"] == "5/2"
    assert [a["action"] for a in q["actions"]] == ["cover", "refuse"]
    events = table.apply({"action": "cover"})
    assert events == [{"event": "stake", "player": "Ben", "caster": "Ann", "amount": "5/2", "layer": "caster"}]
    assert table.waiting.ask == "throw" and table.waiting.facts["may_land_off"] is False


def test_chicken_caster_calls_his_main_as_an_action():
    table = Table(machine_of("chicken"), ["Ann", "Ben"], purse=10, seed=3)
    table.play(until=lambda q: q.ask == "choose")
    q = table.waiting.to_json()
    assert q["ask"] == "choose" and q["player"] == "Ann" and q["variable"] == "main" and q["values"] == [5, 6, 7, 8, 9]
    with pytest.raises(IllegalAction, match="main is one of 5, 6, 7, 8, 9, not 10"):
        table.apply({"action": "choose", "value": 10})
    with pytest.raises(IllegalAction, match="not '7'"):
        table.apply({"action": "choose", "value": "7"})
    events = table.apply({"action": "choose", "value": 6})
    assert events[0]["event"] == "choice" and events[0]["value"] == 6


def snapshot(table):
    return json.dumps([table.to_json(), table.log])


@pytest.mark.parametrize("action, reason", [
    ({"action": "throw"}, "the action is 'stake', not 'throw'"),
    ({"action": "stake", "amount": 3, "player": "Ann"}, "Ben's turn to stake, not 'Ann''s"),
    ({"action": "stake", "amount": 11}, "at most 10"),
    ({"action": "stake", "amount": -1}, "at least 0"),
    ({"action": "stake", "amount": "lots"}, "not an amount"),
    ({"action": "stake", "amount": "1e999999"}, "not an amount"),
    ({"action": "stake", "amount": True}, "a number or an exact amount"),
    ({"action": "stake", "amount": 1, "dice": [1, 2]}, "stake takes no 'dice'"),
    ("stake 3", "a JSON object"),
    # JSON's words: a web client sent null (audit 10 finding 15)
    ({"action": None}, "the action is 'stake', not null"),
    ({"action": ["stake"]}, "the action is 'stake', not [\"stake\"]"),
    ({}, "the action is 'stake', and the object has no \"action\""),
])
def test_an_illegal_action_is_refused_with_a_reason_and_changes_nothing(action, reason):
    table = Table(machine_of("cotton"), ["Ann", "Ben"], purse=10, seed=1)
    table.play(until=lambda q: q.ask == "stake")
    before = snapshot(table)
    with pytest.raises(IllegalAction) as refused:
        table.apply(action)
    assert reason in str(refused.value)
    assert snapshot(table) == before


def test_illegal_throws_are_refused():
    table = Table(machine_of("cotton"), ["Ann", "Ben"], purse=10, seed=1)
    table.play(until=lambda q: q.ask == "throw")
    before = snapshot(table)
    for dice, reason in [([7, 1], "face from 1 to 6"), ([None, 3], "never land off"), ([3], "[die1, die2]"),
                         ("3-4", "[die1, die2]"), ([True, 1], "face from 1 to 6")]:
        with pytest.raises(IllegalAction, match=reason.replace("[", r"\[").replace("]", r"\]")):
            table.apply({"action": "throw", "dice": dice})
        assert snapshot(table) == before
    table.play()
    with pytest.raises(IllegalAction, match="the session is over"):
        table.apply({"action": "throw"})


def test_cocked_dice_cast_and_recast_by_actions():
    """A die that lands off: the throw question says so, a cast may give null, and the recast
    of the off die alone is a throw of one die."""
    table = Table(machine_of("history_sheet", cocked="one_in_six"), ["Ann", "Ben"], purse=10, seed=1)
    table.play(until=lambda q: q.ask == "throw" and q.facts["cast"] != "lot")  # the lot for the box first
    q = table.waiting.to_json()
    assert q["cast"] == "both" and q["may_land_off"] is True
    events = table.apply({"action": "throw", "dice": [None, 4]})
    assert events[0] == {"event": "cast", "game": 1, "caster": table.caster, "cast": "both", "dice": [None, 4]}
    # whatever comes next is a question about this throw: a recast chosen, or the die alone
    while table.waiting.ask == "choose":
        table.apply({"action": "choose", "value": table.waiting.facts["values"][0]})
    q = table.waiting.to_json()
    if q["cast"] == "die":
        with pytest.raises(IllegalAction):
            table.apply({"action": "throw", "dice": [3, 4]})
        events = table.apply({"action": "throw", "dice": [5]})
        assert events[0]["event"] == "cast" and events[0]["face"] == 5
    table.play()
    assert table.over and sum(table.purses.values()) + table.session.bank + table.session.box == 20


def test_strategies_drive_the_table_as_run_does():
    """`play(strategy)` is what `run --players` does; the strategies are functions of the question."""
    m = machine_of("cotton")
    table = Table(m, ["Ann", "Ben", "Cat"], purse=20, seed=7, rounds=2)
    opening = list(table.events)  # made before the first question: the session, the hand, the game
    assert [e["event"] for e in opening] == ["session", "hand", "game"]
    events = table.play(table.strategy("fraction"))
    assert opening + events == table.events
    assert table.events[-1]["event"] == "end"
    with pytest.raises(ValueError, match="did you mean 'flat'"):
        table.strategy("flt")


# ------------------------------------------------------------------ any legal actions at all

RULESETS = ["cotton", "chicken", "french", "craps", "hoyle", "petty", "history_sheet", "history_sheet:cocked=one_in_six"]


def any_legal_action(data, question):
    ask = question.ask
    if ask == "stake":
        most = Fraction(question.facts["most"])
        kind = data.draw(st.sampled_from(["none", "all", "some", "whole"]))
        amount = {"none": Fraction(0), "all": most}.get(kind)
        if kind == "some":
            amount = most * Fraction(data.draw(st.integers(0, 12)), 12)
        elif kind == "whole":
            amount = Fraction(min(int(most), data.draw(st.integers(0, 5))))
        return {"action": "stake", "amount": str(amount)}
    if ask == "choose":
        return {"action": "choose", "value": data.draw(st.sampled_from(question.facts["values"]))}
    if ask == "throw":
        if not data.draw(st.booleans()):
            return {"action": "throw"}
        faces = st.integers(1, 6) | (st.none() if question.facts["may_land_off"] else st.nothing())
        return {"action": "throw", "dice": [data.draw(faces)] if question.facts["cast"] in ("die", "lot")
                else [data.draw(faces), data.draw(faces)]}
    return {"action": data.draw(st.sampled_from([a["action"] for a in question.actions()]))}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(2, 4), st.integers(0, 2**16), st.data())
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_legal_actions_conserve_money_and_no_purse_goes_below_nothing(name, players, seed, data):
    table = Table(machine_of(name), [f"P{k}" for k in range(players)], purse=data.draw(st.sampled_from([1, 5, "7/2"])),
                  seed=seed, rounds=1)
    total = sum(table.purses.values())
    for _ in range(400):
        if table.over:
            break
        table.apply(any_legal_action(data, table.waiting))
        session = table.session
        assert all(p >= 0 for p in table.purses.values())
        assert sum(table.purses.values()) + session.bank + session.box == total
    if table.over:
        end = table.events[-1]
        assert end["event"] == "end" and sum(Fraction(p) for p in end["purses"].values()) + \
            Fraction(end["bank"]) + Fraction(end["box"]) == total
