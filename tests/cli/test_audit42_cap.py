"""--cap, a progression's largest stake, in the ruleset's coin as --stake and --purse beside it
(audit 42): `play hoyle --plan Ben:martingale --stake "2s 6d" --cap "£1"` was refused, "--cap:
'£1' is not an amount of money (10, 12.50 or 21/2)", for the cap alone."""

from __future__ import annotations

import io

from tests.in_process import said

RUN = ("run", "hoyle", "--players", "Ann,Ben", "--strategy", "martingale", "--stake", "1s", "--seed", "2",
       "--json")


def test_a_cap_in_coin_is_the_cap_in_shillings():
    # half a guinea is Hoyle's named sum, 21/2 shillings (rulesets/hoyle.yaml, money: sums:)
    code, in_coin, err = said(*RUN, "--cap", "half a guinea")
    assert code == 0, err
    code, in_units, err = said(*RUN, "--cap", "21/2")
    assert code == 0, err
    assert in_coin == in_units


def test_a_cap_of_nothing_is_still_refused():
    code, out, err = said(*RUN, "--cap", "0s")
    assert code == 2 and out == ""
    assert " ".join(err.split()) == "hazard-dsl: error: --cap: the amount must be more than 0"


def test_play_takes_a_planned_cap_in_coin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = said("play", "hoyle", "--players", "Ann,Ben", "--plan", "Ben:martingale", "--stake", "2s 6d",
                          "--cap", "£1", "--seed", "4", "--no-log")
    assert code == 0, err
    assert "not an amount of money" not in out + err
