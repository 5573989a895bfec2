"""`simulate` takes a request of values (issue 36): `commands.simulate.simulate_request` runs a
`SimulateRequest` built from Python values exactly as the command line runs the one it reads
from its flags (cli.requests), and its errors name the request's fields, which the command line
says with its flags (cli.wording.FLAGS) and Python with its keywords."""

from __future__ import annotations

import inspect
import json
from fractions import Fraction

import pytest

from hazard_dsl.cli import main
from hazard_dsl.cli.wording import FLAGS
from hazard_dsl.commands.loading import load
from hazard_dsl.commands.requests import BetOrder, SimulateRequest
from hazard_dsl.commands.simulate import simulate_request
from hazard_dsl.errors import Arg, ArgumentError

TIMING = ("seconds", "games_per_second", "throws_per_second", "sessions_per_second")


@pytest.fixture(scope="module")
def craps():
    return load("craps")


def _cli_json(capsys, *argv) -> dict:
    assert main(["simulate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _figures(report: dict) -> dict:
    return {k: v for k, v in json.loads(json.dumps(report)).items() if k not in TIMING}


def test_games_and_bets_from_values_are_the_command_lines(capsys, craps):
    """The same seed, games and bets, given as flags and as values: the same report, the
    amount shown as it was written (12.50, not 25/2)."""
    typed = _cli_json(capsys, "craps", "--games", "20000", "--seed", "3", "--workers", "1",
                      "--bet", "pass=12.50", "--bet", "odds=2x")
    request = SimulateRequest("craps", games=20_000, seed=3, workers=1,
                              bets=(BetOrder("pass", Fraction(25, 2), written="12.50"), BetOrder("odds", "2x")))
    result = simulate_request(request, craps)
    assert (result.kind, result.seed, result.complete) == ("games", 3, True)
    assert _figures(result.report) == _figures(typed)
    assert result.report["bets"]["pass"]["amount"] == "12.50"
    assert result.report["games"] == 20_000


def test_rounds_with_seats_plans_from_values_are_the_command_lines(capsys, craps):
    typed = _cli_json(capsys, "craps", "--games", "40", "--seed", "2", "--players", "Ann,Ben",
                      "--bet", "Ben:dont_pass=2", "--bet", "Ann:field=1")
    request = SimulateRequest("craps", games=40, seed=2, players=("Ann", "Ben"),
                              plans={"Ben": {"dont_pass": Fraction(2)}, "Ann": {"field": Fraction(1)}})
    result = simulate_request(request, craps)
    assert result.kind == "rounds" and result.report["sessions"] == 40
    shown = {**result.report, "seats": {p: {k: (str(v) if k == "exact" and v is not None else v)
                                            for k, v in row.items()} for p, row in result.report["seats"].items()}}
    assert typed.pop("seed") == 2  # the command line's JSON names its seed (audit 9): the report holds it apart
    assert _figures(shown) == typed


def test_sessions_to_a_goal_take_the_goal_as_money(craps):
    """A goal of 22 from a purse of 20, staking 1 a game: a seat reaches it or is ruined; every
    session ends one way (no unfinished), and the reach is a share of the sessions."""
    request = SimulateRequest("craps", games=30, seed=5, players=("Ann", "Ben"), goal=Fraction(22))
    result = simulate_request(request, craps)
    assert result.kind == "goal"
    assert (result.report["bankroll"], result.report["goal"]) == (Fraction(20), Fraction(22))
    for row in result.report["seats"].values():
        assert row["unfinished"] == 0
        assert 0 <= row["reached"] <= 1 and round(row["reached"] * 30, 9).is_integer()


@pytest.mark.parametrize("fields, argument, python, flags", [
    ({"players": ("Ann", "Ben"), "plans": {"Zed": {"pass": Fraction(1)}}}, Arg("plans", "pass", 1, seat="Zed"),
     "plans['Zed']['pass'] = 1: 'Zed' is not at the table (players: Ann, Ben)",
     "--bet Zed:pass=1: 'Zed' is not at the table (players: Ann, Ben)"),
    ({"purse": Fraction(10)}, Arg("purse"),
     "purse is for sessions at the table: give players=['Ann', 'Ben', 'Cat'] too",
     "--purse is for sessions at the table: give --players Ann,Ben,Cat too"),
    ({"players": ("Ann", "Ben"), "goal": Fraction(25), "workers": 2}, Arg("workers"),
     "workers: sessions with goal or with seats' bets (plans['SEAT']['NAME'] = 'AMOUNT') are played in this "
     "process alone; leave workers out",
     "--workers: sessions with --goal or with seats' bets (--bet SEAT:NAME=AMOUNT) are played in this process "
     "alone; leave --workers out"),
    ({"players": ("Ann", "Ben"), "goal": Fraction(25), "rounds": 3}, Arg("rounds"),
     "rounds: with goal a session ends at the goal or at ruin, not after a number of rounds",
     "--rounds: with --goal a session ends at the goal or at ruin, not after a number of rounds"),
    ({"players": ("Ann", "Ben"), "goal": Fraction(15)}, Arg("goal"),
     "goal must be more than purse (20), where each seat starts",
     "--goal must be more than --purse (20), where each seat starts"),
    ({"players": ("Ann", "Ben"), "goal": Fraction(0)}, Arg("goal"),
     "goal: the amount must be more than 0", "--goal: the amount must be more than 0"),
    ({"players": ("Ann", "Ben"), "refusals": (("Ben", "field"),)}, Arg("refusals"),
     "refusals is for the bets the seats plan (plans['SEAT']['NAME'] = 'AMOUNT'), put to the others: without them "
     "no bet is put to anyone; give them too, or leave refusals out",
     "--refuse is for the bets the seats plan (--bet SEAT:NAME=AMOUNT), put to the others: without them no bet is "
     "put to anyone; give them too, or leave --refuse out"),
    ({"bets": (BetOrder("pass", Fraction(10)), BetOrder("pass", Fraction(5)))}, Arg("bets", "pass", 5),
     "bets['pass'] = 5 is given twice: give each bet once", "--bet pass=5 is given twice: give each bet once"),
])
def test_a_field_that_cannot_be_used_is_named(craps, fields, argument, python, flags):
    with pytest.raises(ArgumentError) as caught:
        simulate_request(SimulateRequest("craps", games=10, seed=1, **fields), craps)
    assert caught.value.argument == argument
    assert (str(caught.value), caught.value.said(FLAGS)) == (python, flags)


def test_no_text_is_read_below_the_command_line():
    """The simulator and the command take values: none of them splits NAME=VALUE (or
    SEAT:NAME=AMOUNT) or reads an order's text; cli.requests does."""
    from hazard_dsl.commands import simulate as command
    from hazard_dsl.simulate import bets, simulation

    for module in (command, bets, simulation):
        source = inspect.getsource(module)
        assert 'partition("=")' not in source and "parse_for_analysis" not in source, module.__name__
        assert "parse_money" not in source, module.__name__
