"""`analyse --players … --bankroll --goal --strategy` (commands.staking.at_table): each seat's
session at a table where setters answer the caster, exactly, as text, JSON, CSV and the API
(Variant.table_strategy) — the figures checked against the session of two players at Cotton's
table worked out by hand in tests/solve/test_table_strategy.py (a dense elimination of its
own over the published 1979/4032), and the integer elimination of the seats' chain
(solve.table_strategy.solve_in_integers) against the Fractions' elimination (solve.chain)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import hazard_dsl
from tests.in_process import said
from hazard_dsl.errors import ArgumentError
from tests.solve.test_table_strategy import cotton_by_hand, machine


def run(*argv) -> tuple[int, str, str]:
    return said(*argv)


ASKED = ["analyse", "cotton", "--players", "Ann,Ben", "--bankroll", "4", "--goal", "8", "--strategy", "martingale"]


def test_each_seat_agrees_with_the_session_worked_by_hand():
    code, out, _ = run(*ASKED, "--json")
    assert code == 0
    seats = json.loads(out)["staking"]["at_table"]["seats"]
    for seat in ("Ann", "Ben"):
        reach, games = cotton_by_hand(4, 8, "martingale", seat == "Ann")
        assert Fraction(seats[seat]["reach_goal"]) == reach
        assert Fraction(seats[seat]["expected_games"]) == games
        assert Fraction(seats[seat]["ruin"]) == 1 - reach
        distribution = {Fraction(v): Fraction(p) for v, p in seats[seat]["distribution"].items()}
        assert sum(distribution.values()) == 1 and distribution[Fraction(-4)] == 1 - reach


def test_the_api_gives_what_the_command_line_prints():
    code, out, _ = run(*ASKED, "--json")
    printed = json.loads(out)["staking"]["at_table"]["seats"]
    found = hazard_dsl.load("cotton").table_strategy(["Ann", "Ben"], 4, 8, "martingale")
    for seat, r in found.items():
        assert printed[seat]["reach_goal"] == str(r.reach_goal)
        assert printed[seat]["coin_in"] == str(r.staked)
        assert printed[seat]["expected_net"] == str(r.net)
        assert printed[seat]["expected_games_casting"] == str(r.games_casting)


def test_the_text_fits_80_columns_and_the_csv_is_exact():
    code, out, _ = run(*ASKED, "--cap", "2")
    assert code == 0 and "Each seat by the martingale from 4 to 8 shillings, first stake 1, cap 2" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    code, csv, _ = run(*ASKED, "--cap", "2", "--format", "csv")
    exact = hazard_dsl.load("cotton").table_strategy(["Ann", "Ben"], 4, 8, "martingale", cap=2)
    assert code == 0 and str(exact["Ben"].reach_goal) in csv


def test_the_integer_elimination_is_the_fractions_elimination():
    """The martingale at Cotton's table of three from 10 to 20, capped at 8 (some 750 nodes):
    every seat's figures by solve_in_integers and by chain.Chain.forward over Fractions."""
    from hazard_dsl.solve import table_strategy as ts
    from hazard_dsl.solve.chain import Chain

    m = machine("cotton")
    fast = ts.exact_at_table(m, None, ["Ann", "Ben", "Cat"], "martingale", 10, 20, 1, 8)

    def by_fractions(rows, starts):
        found = [dict(Chain(rows, least_fill=True).forward(start).items()) for start in starts]
        nodes = set().union(*found)
        return {k: [v.get(k, Fraction(0)) for v in found] for k in nodes}

    slow_solver, ts.forward_visits = ts.forward_visits, by_fractions
    try:
        slow = ts.exact_at_table(m, None, ["Ann", "Ben", "Cat"], "martingale", 10, 20, 1, 8)
    finally:
        ts.forward_visits = slow_solver
    assert fast == slow and all(run is not None for run, _ in fast.values())


def test_simulated_sessions_beside_the_exact_figures():
    """--simulate N: each seat's sessions played in lanes as simulate --players … --goal plays
    them (a fixed seed: the same draws each run), within 4 standard errors of the exact chain."""
    code, out, _ = run(*ASKED, "--simulate", "400", "--seed", "3", "--json")
    at_table = json.loads(out)["staking"]["at_table"]
    assert code == 0 and at_table["simulated"]["sessions"] == 400
    for seat in ("Ann", "Ben"):
        z = at_table["simulated"][seat]["z"]
        assert set(z) == {"reach_goal", "games", "net"} and all(abs(v) < 4 for v in z.values())
    code, text, _ = run(*ASKED, "--simulate", "400", "--seed", "3")
    assert "Simulated: 400 sessions a seat, ± one standard error." in text
    assert max(len(line) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("extra,flag,words", [
    (["--simulate", "1"], "--simulate", "must be between 2 and 100,000"),
    (["--side", "setter"], "--side", "each seat casts and sets"),
    (["--limit", "4"], "--limit", "is not for --players"),
    (["--strategy", "best", "--cap", "4"], "--cap", "not --strategy best"),
    (["--strategy", "fibonaci"], "--strategy", "did you mean 'fibonacci'"),
    (["--goal", "3"], "--bankroll", "must be less than --goal (3)"),
])
def test_errors_name_the_flag(extra, flag, words):
    code, _, err = run(*ASKED, *extra)
    assert code == 2 and flag in err and words in err and "Traceback" not in err


def test_the_api_names_its_keywords():
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("cotton").table_strategy(["Ann", "Ben"], 8, 4, "martingale")
    assert caught.value.argument.name == "bankroll" and "--" not in str(caught.value)
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("cotton").table_strategy(["Ann", "Ben"], 4, 8, "doubling")
    assert caught.value.argument.name == "strategy" and "martingale" in str(caught.value)


def test_the_plot_charts_each_seats_net_at_the_end(tmp_path, capsys):
    """`--plot` with --players and a strategy: each seat's exact net at the end, side by side
    (issue 38: a chart where people would rather look than read), not the game's throws."""
    pytest.importorskip("matplotlib")
    from hazard_dsl.cli import main
    from hazard_dsl.render import plot

    drawn = {}
    original = plot.policy_chart

    def spy(staking, path, **kwargs):
        drawn["table"] = staking.table
        return original(staking, path, **kwargs)

    target = tmp_path / "seats.png"
    import unittest.mock as mock

    with mock.patch.object(plot, "policy_chart", spy):
        assert main(["analyse", "cotton", "--players", "Ann,Ben", "--bankroll", "3", "--goal", "6",
                     "--strategy", "martingale", "--plot", str(target)]) == 0
    capsys.readouterr()
    assert set(drawn["table"]) == {"Ann", "Ben"} and target.stat().st_size > 10_000
