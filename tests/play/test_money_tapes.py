"""Replay the money dice tapes in tests/data/money_tapes/*.yaml and check every settlement.

Each tape names a built-in ruleset, its options, the bet orders (`--bet NAME=AMOUNT[@N]`), an
optional starting bankroll, a string of throws, and for every throw the money events it must
give and the bankroll after it. The expected numbers were worked out by hand from the rules of
the game and the bet definitions (payouts "7 to 6" net 7/6 of the stake, "30 for 1" nets 29,
the 5% commission of buy and lay bets on the win or up front), not copied from the program.

Matching, throw by throw (one JSON line of `hazard-dsl run … --json` per throw):

* the throws listed must be exactly the throws played, in order;
* `bets:` is the list of money events of the throw, in order and of the same length (`[]`: no
  money event at all); each expected event is a subset of the actual one: every key given must
  be present with that value, `null` means the key must be absent, and the one extra key
  `reason_has:` must occur (case-insensitively) in the event's `reason`;
* `bankroll:` must equal the bankroll after the throw exactly (a throw without money events
  leaves the bankroll where it was).

A tape with `error:` (and `throws: []`) gives orders that make no sense (a negative multiple, a
multiple of a bet that backs nothing): the command must refuse them before any throw, as a
usage error (`hazard-dsl: error: …` mentioning the `error:` text, exit 2), and print nothing.

Independently of the tape, the test keeps its own books: starting from the tape's bankroll it
applies every event (made: −amount−commission; win: +amount+won; push: +amount; lose: 0; fee
paid: −amount; refused: 0) and checks the bankroll the program reports after every event, after
every throw and at the end.

A tape with `xfail_reason:` documents a bug in the program: it is run as a strict xfail (with
`xfail_python_below: "3.12"`, only on Pythons older than that, where the bug shows).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from hazard_dsl.cli import main
from tests.tapes_common import assert_subset, load_tape, run_argv, tape_params, tape_throws

TAPES_DIR = Path(__file__).resolve().parents[1] / "data" / "money_tapes"
TAPE_KEYS = {"ruleset", "options", "policy", "bets", "bankroll", "dice", "games", "why", "throws", "stops",
             "error", "xfail_reason", "xfail_python_below"}
THROW_KEYS = {"game", "throw", "total", "result", "label", "next", "bets", "bankroll"}
EVENT_KEYS = {"bet", "fee", "event", "label", "amount", "commission", "won", "lost", "payee", "reason_has",
              "bankroll"}
EVENTS = {"made", "refused", "win", "lose", "push", "paid"}


def _argv(tape: dict) -> list[str]:
    argv = run_argv(tape)
    for order in tape.get("bets") or []:
        argv += ["--bet", str(order)]
    if tape.get("bankroll") is not None:
        argv += ["--bankroll", str(tape["bankroll"])]
    return argv


def _fraction(text) -> Fraction:
    return Fraction(str(text))


def _movement(event: dict) -> Fraction:
    """What an event does to the bankroll, by the bookkeeping of the brief (not the program's)."""
    kind = event["event"]
    if kind == "made":
        return -_fraction(event["amount"]) - _fraction(event.get("commission", "0"))
    if kind == "win":
        return _fraction(event["amount"]) + _fraction(event["won"])
    if kind == "push":
        return _fraction(event["amount"])
    if kind == "paid":
        return -_fraction(event["amount"])
    assert kind in ("lose", "refused"), f"unknown money event {event}"
    return Fraction(0)


def _check_event(where: str, actual: dict, expected: dict) -> None:
    expected = dict(expected)
    if "reason_has" in expected:
        wanted = str(expected.pop("reason_has")).lower()
        assert wanted in str(actual.get("reason", "")).lower(), f"{where}: reason should mention {wanted!r}: {actual}"
    assert_subset(where, actual, expected, as_text=True)


def test_there_are_enough_money_tapes():
    assert len(list(TAPES_DIR.glob("*.yaml"))) >= 30


@pytest.mark.parametrize("path", tape_params(TAPES_DIR))
def test_money_tape(path: Path, capsys):
    tape = load_tape(path)
    # The tape file itself: no misspelt keys, a reason, one entry per throw of the dice.
    assert set(tape) <= TAPE_KEYS, f"unknown keys {set(tape) - TAPE_KEYS}"
    assert tape.get("why"), "every tape says why its settlements are right"
    assert tape.get("bets"), "a money tape places bets"
    throws = tape_throws(tape["dice"])
    expected_throws = tape["throws"]
    for i, entry in enumerate(expected_throws, 1):
        assert set(entry) <= THROW_KEYS, f"throw {i}: unknown keys {set(entry) - THROW_KEYS}"
        assert "bets" in entry, f"throw {i}: say which money events it gives (`bets: []` for none)"
        for j, event in enumerate(entry["bets"], 1):
            assert set(event) <= EVENT_KEYS, f"throw {i} event {j}: unknown keys {set(event) - EVENT_KEYS}"
            assert event.get("event") in EVENTS, f"throw {i} event {j}: event must be one of {sorted(EVENTS)}"
            assert ("bet" in event) != ("fee" in event), f"throw {i} event {j}: name a bet or a fee"

    code = main(_argv(tape))
    captured = capsys.readouterr()
    if tape.get("error"):
        assert expected_throws == [], "a tape whose orders are refused plays no throw"
        assert code == 2 and "hazard-dsl: error:" in captured.err, (code, captured.out, captured.err)
        assert str(tape["error"]).lower() in captured.err.lower(), captured.err
        assert not captured.out.strip(), f"nothing is played:\n{captured.out}"
        return
    assert code == 0, captured.err
    lines = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
    assert len(lines) == len(expected_throws), (
        f"{len(lines)} throws played, {len(expected_throws)} expected:\n{captured.out}\n{captured.err}")
    if tape.get("stops"):
        assert "ran out" in captured.err, captured.err
    else:
        assert "ran out" not in captured.err, captured.err
        assert "result" in lines[-1], "the last throw of a complete tape ends its game"

    start = _fraction(tape["bankroll"]) if tape.get("bankroll") is not None else None
    books = start if start is not None else Fraction(0)  # our own running bankroll (or net)
    reported = start  # the bankroll the program last reported
    for i, (actual, expected) in enumerate(zip(lines, expected_throws), 1):
        where = f"throw {i} (game {actual.get('game')}, throw {actual.get('throw')}, dice {actual.get('dice')})"
        assert actual["dice"] == throws[i - 1], f"{where}: the tape's throw was {throws[i - 1]}"
        for key in ("game", "throw", "total", "result", "label", "next"):
            if key in expected:
                assert actual.get(key) == expected[key], f"{where}: {key} is {actual.get(key)!r}, " \
                                                         f"expected {expected[key]!r}\n{actual}"

        events = actual.get("bets", [])
        wanted = expected["bets"]
        assert len(events) == len(wanted), (
            f"{where}: {len(events)} money events, {len(wanted)} expected:\n"
            + "\n".join(json.dumps(e) for e in events))
        for j, (event, want) in enumerate(zip(events, wanted), 1):
            _check_event(f"{where}, event {j}", event, want)

        # Our own books, event by event.
        for j, event in enumerate(events, 1):
            books += _movement(event)
            if start is not None:
                assert "bankroll" in event, f"{where}, event {j}: no bankroll in {event}"
                assert _fraction(event["bankroll"]) == books, \
                    f"{where}, event {j}: bankroll {event['bankroll']}, the books say {books}: {event}"
                reported = _fraction(event["bankroll"])
        if start is not None:
            if events:
                assert _fraction(actual["bankroll"]) == books, f"{where}: {actual}"
            else:
                assert "bankroll" not in actual or _fraction(actual["bankroll"]) == books, f"{where}: {actual}"
            after = _fraction(actual.get("bankroll", reported))
            if expected.get("bankroll") is not None:
                assert after == _fraction(expected["bankroll"]), \
                    f"{where}: bankroll {after}, expected {expected['bankroll']}\n{actual}"
        else:
            assert "bankroll" not in actual, f"{where}: no --bankroll, yet {actual}"

    if start is not None:
        assert reported == books, f"final bankroll {reported}, but {start} plus the events gives {books}"
