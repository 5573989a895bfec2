"""`play --plan SEAT:STRATEGY`: seats the computer plays at the keyboard's table, by the very
strategies `run --strategy` plays every seat by (play.strategies), the people playing the
others; the plan in the log, so that a session stopped anywhere resumes exactly (issue 38)."""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction

import pytest

from hazard_dsl.cli import main

# craps at a bank: a seat's stakes never touch another's purse, so what the person at the
# keyboard stakes (Enter: 1) leaves the planned seats' progressions as run's. The games, worked
# out from the tape by hand: 7 natural (won); 2 craps (lost); 4 then 7, seven out (lost, the dice
# pass to Ben); 11 natural (won); 6 then 6 (won); 3 craps (lost); 5 then 7 (lost, to Cat); 12
# craps (lost); 8 then 7 (lost): every bettor on the pass line wins or loses with the caster.
TAPE = "6-1 1-1 2-2 3-4 5-6 3-3 4-2 1-2 2-3 3-4 6-6 4-4 5-2"
OUTCOMES = "WLLWWLLLL"


def martingale(outcomes: str, first: int = 1) -> list[int]:
    """A martingale's stakes worked out by hand's rule, not by the tool: double after a loss,
    back to the first stake after a win (a purse of 20 never runs short on this tape)."""
    stakes, stake = [], first
    for outcome in outcomes:
        stakes.append(stake)
        stake = first if outcome == "W" else 2 * stake
    return stakes


def _run(argv, stdin: str = "", monkeypatch=None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _stakes(events, seat: str) -> list[Fraction]:
    return [Fraction(e["amount"]) for e in events if e.get("event") == "stake" and e["player"] == seat]


def test_a_planned_seat_stakes_what_run_strategy_gives_it(monkeypatch):
    code, out, _ = _run(["run", "craps", "--players", "Ann,Ben,Cat", "--strategy", "martingale", "--dice", TAPE,
                         "--json"])
    assert code == 0
    by_run = [json.loads(line) for line in out.splitlines()]
    code, out, err = _run(["play", "craps", "--players", "Ann,Ben,Cat", "--plan", "Ben:martingale", "--plan",
                           "Cat:martingale", "--dice", TAPE, "--no-log", "--json"], "\n" * 200, monkeypatch)
    assert code == 0, err
    by_play = [json.loads(line) for line in out.splitlines()]
    expected = [Fraction(s) for s in martingale(OUTCOMES)]
    assert expected == [1, 1, 2, 4, 1, 1, 2, 4, 8]
    for seat in ("Ben", "Cat"):
        assert _stakes(by_play, seat) == _stakes(by_run, seat) == expected
    assert _stakes(by_play, "Ann") == [1] * 9  # the person at the keyboard: Enter, the stake offered
    # the narration says what each planned seat stakes and why, in the game's money
    said = " ".join(err.split())
    assert "Ben stakes $1 (martingale)." in said
    assert "Ben doubles his stake to $2 after a loss (martingale)." in said
    assert "Cat doubles his stake to $8 after a loss (martingale)." in said
    assert "Ben goes back to his first stake, $1, after a win (martingale)." in said


def test_the_best_stake_is_played_by_its_policy_towards_twice_the_purse(monkeypatch):
    code, out, err = _run(["play", "craps", "--players", "Ann,Ben", "--plan", "Ben:best", "--stake", "4",
                           "--dice", TAPE, "--no-log", "--json"], "\n" * 200, monkeypatch)
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    code, out, _ = _run(["run", "craps", "--players", "Ann,Ben", "--strategy", "best", "--stake", "4", "--dice",
                         TAPE, "--json"])
    assert _stakes(events, "Ben") == _stakes([json.loads(line) for line in out.splitlines()], "Ben")
    assert "(the best stake towards a purse of $40)" in " ".join(err.split())


def test_a_session_stopped_anywhere_resumes_to_the_same_log(tmp_path, monkeypatch):
    """The whole log, and the log of the session stopped after each of its lines (and in the
    middle of the next, as a kill leaves it) then resumed: the same, byte for byte. A planned
    seat's progression goes on from its step (a doubled stake after the stop is doubled)."""
    whole = tmp_path / "whole.jsonl"
    argv = ["play", "hoyle", "--players", "Ann,Ben,Cat", "--plan", "Ben:martingale", "--plan", "Cat:best",
            "--stake", "4", "--rounds", "2", "--dice", "5-2 3-4 6-5 1-1 2-3 4-4 6-1 3-3 5-5 2-2 6-6 1-2 4-3 5-6 "
            "2-5 3-6 1-4 6-2 2-1 4-5"]
    code, _, err = _run(argv + ["--log", str(whole)], "\n" * 200, monkeypatch)
    assert code == 0, err
    data = whole.read_bytes()
    lines = data.splitlines(keepends=True)
    header = json.loads(lines[0])
    assert header["planned"] == {"Ben": "martingale", "Cat": "best"}
    assert _stakes(map(json.loads, lines), "Ben")[:2] == [4, 8]  # a loss in game 1: doubled
    cut = tmp_path / "cut.jsonl"
    for k in range(1, len(lines), 3):
        for torn in (b"", lines[k][:9]):
            cut.write_bytes(b"".join(lines[:k]) + torn)
            code, _, err = _run(["play", "--resume", str(cut), "--dice", argv[-1]], "\n" * 200, monkeypatch)
            assert code == 0, err
            assert cut.read_bytes() == data, (k, torn)
    # replay tells the same session from the log alone
    code, out, err = _run(["replay", str(whole)])
    assert code == 0, err


def test_a_log_whose_stakes_are_not_its_plan_is_refused(tmp_path, monkeypatch):
    log = tmp_path / "s.jsonl"
    tape = "5-2 3-4 6-5 1-1 2-3 4-4 6-1"
    code, _, err = _run(["play", "hoyle", "--players", "Ann,Ben", "--plan", "Ben:martingale", "--dice", tape,
                         "--log", str(log)], "\n" * 50, monkeypatch)
    assert code == 0, err
    lines = log.read_text().splitlines()
    # stopped after Ben's second stake: 2, doubled after the loss of game 1 (paroli would stake 1)
    seconds = [n for n, line in enumerate(lines) if '"event": "stake", "player": "Ben"' in line]
    assert [json.loads(lines[n])["amount"] for n in seconds] == ["1", "2"]
    lines = lines[:seconds[1] + 1]
    header = json.loads(lines[0])
    header["planned"] = {"Ben": "paroli"}  # Ben's logged stakes stay a martingale's
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    code, _, err = _run(["play", "--resume", str(log), "--dice", tape], "\n" * 50, monkeypatch)
    assert code != 70 and code != 0
    assert "Ben's plan (paroli)" in " ".join(err.split())


@pytest.mark.parametrize("argv, words", [
    (["--plan", "Bne:martingale"], "--plan Bne:martingale: names no seat at the table: Ann, Ben; did you mean 'Ben'?"),
    (["--plan", "Ben:martingal"], "did you mean 'martingale'?"),
    (["--plan", "Ben"], "--plan Ben is a seat and the strategy the computer plays it by"),
    (["--plan", "Ben:best", "--plan", "Ben:flat"], "--plan Ben:flat gives Ben a second plan; Ben plays by best"),
    (["--plan", "Ben:best", "--cap", "8"], "--cap 8 is a progression's largest stake"),
    (["--plan", "Ben:martingale", "--cap", "x"], "--cap: not an amount of money: 'x'; write it as"),
])
def test_a_bad_plan_is_refused_naming_the_flag(argv, words, monkeypatch):
    code, out, err = _run(["play", "hoyle", "--players", "Ann,Ben", "--no-log", "--dice", "5-2", *argv], "",
                          monkeypatch)
    assert code == 2
    assert words in " ".join(err.split())
    assert out == ""  # refused before the table opens


def test_a_resumed_session_takes_its_plan_from_the_log(tmp_path, monkeypatch):
    code, _, err = _run(["play", "--resume", str(tmp_path / "none.jsonl"), "--plan", "Ben:best"], "", monkeypatch)
    assert code == 2 and "takes the seats the computer plays (--plan, --cap) from the log" in " ".join(err.split())
