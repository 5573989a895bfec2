"""`run --players … --strategy PROGRESSION --cap AMOUNT`: a session at the table whose seats
stake by a progression that starts again past its cap, as `simulate --cap` plays it (issue 38)."""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction

import pytest

from hazard_dsl.cli import main


def _events(*argv) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["run", "cotton", "--players", "Ann,Ben,Cat", "--seed", "3", "--rounds", "3", "--json",
                     *argv]) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _martingale_stakes(events: list[dict], cap) -> list[tuple[str, Fraction]]:
    """Each stake a martingale from 1 lays, worked out again from the purses the events show:
    a seat's purse higher than at his last stake is a win (back to 1), lower a loss (double,
    but past `cap` back to 1), the same a push; never more than his purse."""
    purses = {name: Fraction(p) for name, p in events[0]["purses"].items()}
    asked: dict = {}  # seat -> (stake asked, purse at his last stake)
    laid = []
    for e in events:
        if e["event"] == "stake":
            seat = e["player"]
            stake, before = asked.get(seat, (Fraction(1), None))
            if before is not None and purses[seat] != before:
                stake = Fraction(1) if purses[seat] > before else 2 * stake
                if cap is not None and stake > cap:
                    stake = Fraction(1)
            asked[seat] = (stake, purses[seat])
            laid.append((seat, min(stake, purses[seat])))
        if "payer" in e and "payee" in e:
            for name, sign in ((e["payer"], -1), (e["payee"], 1)):
                if name in purses:
                    purses[name] += sign * Fraction(e["amount"])
    return laid


def test_the_stakes_follow_the_martingale_and_start_again_past_the_cap():
    capped = _events("--strategy", "martingale", "--cap", "2")
    assert capped[0]["cap"] == "2"  # said in the session's header, for whoever reads the log
    stakes = [(e["player"], Fraction(e["amount"])) for e in capped if e["event"] == "stake"]
    assert stakes == _martingale_stakes(capped, Fraction(2)) and max(a for _, a in stakes) == 2
    # the same dice without the cap: some seat doubles past 2, so the cap changed the play
    free = _events("--strategy", "martingale")
    laid = [(e["player"], Fraction(e["amount"])) for e in free if e["event"] == "stake"]
    assert laid == _martingale_stakes(free, None) and max(a for _, a in laid) > 2
    assert "cap" not in free[0]


@pytest.mark.parametrize("argv,words", [
    (["--cap", "2"], "--cap is a progression's largest stake"),
    (["--strategy", "best", "--cap", "2"], "not best's"),
    (["--strategy", "martingale", "--stake", "2", "--cap", "1"], "--cap (1) must be at least the first stake (2)"),
    (["--strategy", "paroli", "--cap", "x"], "--cap: not an amount of money: 'x'; write it as"),
])
def test_a_cap_that_cannot_be_used_is_refused_naming_the_flag(argv, words, capsys):
    assert main(["run", "cotton", "--players", "Ann,Ben,Cat", "--seed", "3", *argv]) == 2
    assert words in capsys.readouterr().err


def test_a_cap_without_players_is_refused(capsys):
    assert main(["run", "cotton", "--cap", "4"]) == 2
    assert "--cap is for a session at the table" in capsys.readouterr().err
