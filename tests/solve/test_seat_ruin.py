"""Each seat's chance of reaching a goal at the table with its plan (solve.seats.seat_ruin;
`analyse --players … --bet SEAT:NAME=AMOUNT --bankroll B --goal G --stake S`), checked three
ways: against the lone caster's ruin (solve.session.ruin) where the two are the same session,
against exact identities of the chain (Wald: the purse at the end is the bankroll plus the games
times their mean net), and against sessions played on the table itself."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from types import SimpleNamespace

import pytest

import hazard_dsl
from hazard_dsl.commands.loading import build_machine, load
from hazard_dsl.solve.seats import SeatError, SeatSolver, seat_ruin, seats, table_ruin
from hazard_dsl.solve.session import ruin



def run_cli(*argv, env=None):
    """The command as a user runs it: its exit code, stdout and stderr."""
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})), timeout=300)
    return SimpleNamespace(code=done.returncode, out=done.stdout, err=done.stderr)


def machine(name: str, options=()):
    return build_machine(load(name), list(options))


def test_a_lone_player_with_the_bank_is_the_lone_caster_of_analyse_bankroll():
    """The French game with one player: he casts every game and stakes with the bank, which is
    the session `analyse --bankroll --goal --stake` solves by another chain (solve.session)."""
    m = machine("french")
    alone = seat_ruin(m, {}, ["Ann"], "Ann", 5, 10, 1)
    caster = ruin(m, Fraction(5), Fraction(10), Fraction(1))
    assert alone.reach_goal == caster.reach_goal
    assert alone.games == caster.games
    assert alone.reach_goal == Fraction(5651402550774779149, 16962749009645576256)


@pytest.mark.parametrize("name, plans, players", [
    ("cotton", {"Ben": {"side": 1}}, ["Ann", "Ben", "Cat"]),
    ("petty", {"Ann": {"side": 2}, "Ben": {}}, ["Ann", "Ben"]),
    ("french", {"Ann": {"side": 2}}, ["Ann", "Ben"]),
])
def test_the_purse_at_the_end_is_the_bankroll_and_the_games_times_their_mean(name, plans, players):
    """Wald's identity, exactly: E[purse at the end] − bankroll = Σ_k E[games with the box k
    places on] × the seat's mean net in such a game (rulesets without fees: nothing else moves
    the purse)."""
    m = machine(name)
    assert not m.fees
    chains = SeatSolver(m)
    for seat in players:
        r = seat_ruin(m, plans, players, seat, 4, 8, 1, chains=chains)
        means = [chains.outcomes(plans, players, seat, pos, 1).mean for pos in range(len(players))]
        assert r.final_purse - r.bankroll == sum(g * mean for g, mean in zip(r.games_at, means))
        assert r.reach_goal + r.ruin == 1 and 0 < r.reach_goal < 1
        assert r.games == sum(r.games_at) == sum(r.games_as.values())


@pytest.mark.parametrize("name, plans", [
    ("hoyle", {"Ben": {"odds": 2}, "Cat": {"side_odds": 1}}),  # at true odds: the stake's edge alone
    ("cotton", {"Ben": {"side": 2}}),  # a side bet with an edge, taken by another
])
def test_a_seats_mean_net_per_game_is_its_figures_at_the_table(name, plans):
    """The game-by-game outcomes of each seat (what its purse moves by) have as their mean the
    seat's exact expected net per game from `seats` (a different chain, of expectations): its
    own bets and stake, and the other seats' bets it takes when that caster holds the box."""
    m = machine(name)
    players = ["Ann", "Ben", "Cat"]
    figures = seats(m, plans, 1, players)
    chains = SeatSolver(m)
    for seat in players:
        for pos in range(3):
            caster = players[(players.index(seat) + pos) % 3]
            role = "caster" if pos == 0 else "setter"
            expected = sum((row.per_game for row in figures.rows[seat] if row.role == role
                            and not row.what.startswith("fee ")
                            and (row.casters is None or caster in row.casters)), Fraction(0))
            assert chains.outcomes(plans, players, seat, pos, 1).mean == expected, (seat, caster)


def test_taking_anothers_bet_moves_the_takers_purse():
    """Cat, first on Ben's left, takes his side bets: her chance differs from Ann's, who sits as
    she does but takes none; and she is said to take them."""
    m = machine("cotton")
    t = table_ruin(m, {"Ben": {"side": 1}}, ["Ann", "Ben", "Cat"], 5, 10, 1)
    assert t.seats["Cat"].takes == (("Ben", "side"),)
    assert t.seats["Ann"].takes == ()
    assert t.seats["Cat"].reach_goal != t.seats["Ann"].reach_goal
    assert t.seats["Ben"].need == {"caster": 3, "setter": 2}  # two stakes covered or one laid, and his bet


@pytest.mark.parametrize("name, plans, players, seat", [
    ("cotton", {"Ben": {"side": 1}}, ["Ann", "Ben", "Cat"], "Cat"),
    ("french", {"Ann": {"side": 2}}, ["Ann", "Ben"], "Ann"),
])
@pytest.mark.statistical  # a simulation against exact figures
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_sessions_played_on_the_table_agree_within_four_standard_errors(name, plans, players, seat):
    """Sessions on the table itself (commands.simulate.sessions_to_goal: the other purses so deep
    that the table never limits them, the seat's followed from the bankroll, stopping at the
    start of a game on the goal or short of what that game needs) against the exact chain."""
    from hazard_dsl.commands.sessions import table_settings
    from hazard_dsl.commands.simulate import sessions_to_goal

    exact = seat_ruin(machine(name), plans, players, seat, 3, 6, 1)
    variant = hazard_dsl.load(name)
    settings = table_settings(variant.ruleset, name, players=",".join(players), purse="3")
    report = sessions_to_goal(variant.ruleset, settings, {p: {b: Fraction(a) for b, a in plan.items()}
                                                          for p, plan in plans.items()}, set(), 400, 7, Fraction(6))
    row = report["seats"][seat]
    k = report["sessions"] - row["unfinished"]
    reached = row["reached"]
    p = float(exact.reach_goal)
    assert abs(reached - p) <= 4 * math.sqrt(p * (1 - p) / k), (reached, p)
    mean, error = row["games"], row["games_stderr"]
    assert abs(mean - float(exact.games)) <= 4 * error, (mean, float(exact.games))


def test_too_large_or_unbounded_is_said_not_guessed():
    m = machine("history_sheet")
    with pytest.raises(SeatError, match="made again and again within a game.*no bound"):
        seat_ruin(m, {"Ben": {"two": 1}}, ["Ann", "Ben"], "Ben", 5, 10, 1)
    with pytest.raises(SeatError, match="^bankroll must be at least what Ann needs"):
        seat_ruin(machine("hoyle"), {}, ["Ann", "Ben", "Cat"], "Ann", 1, 10, 1)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_analyse_prints_each_seats_chance_and_json_has_them_exact():
    args = ["analyse", "cotton", "--players", "Ann,Ben,Cat", "--bet", "Ben:side=1", "--bankroll", "5", "--goal",
            "10", "--stake", "1"]
    result = run_cli(*args, "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)["table_ruin"]
    expected = table_ruin(machine("cotton"), {"Ben": {"side": 1}}, ["Ann", "Ben", "Cat"], 5, 10, 1)
    for name in ("Ann", "Ben", "Cat"):
        assert Fraction(data["seats"][name]["reach_goal"]) == expected.seats[name].reach_goal
    assert data["seats"]["Cat"]["takes"] == [{"maker": "Ben", "bet": "side"}]
    assert "ruin" not in json.loads(result.out)  # not the lone caster's, which this table is not
    text = run_cli(*args, env={"COLUMNS": "80"})
    assert text.code == 0
    assert "Each seat from 5 to 10 shillings" in text.out
    assert "Cat takes Ben's side" in text.out
    assert max(len(line) for line in text.out.splitlines()) <= 80


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_analyse_says_what_is_missing():
    no_players = run_cli("analyse", "cotton", "--bet", "Ben:side=1", "--bankroll", "5", "--goal", "10", "--stake", "1")
    assert no_players.code == 2 and "--players is needed with --bankroll" in no_players.err
    unbounded = run_cli("analyse", "history_sheet", "--players", "Ann,Ben", "--bet", "Ben:two=1", "--bankroll", "5",
                        "--goal", "10", "--stake", "1")
    assert unbounded.code == 0, unbounded.err  # the others' figures are still given; Ben's says why not
    assert "Ben: not solved exactly" in unbounded.out


# ---------------------------------------------------------------------------- simulate --goal


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_simulate_goal_plays_each_seats_sessions_beside_the_exact_figures():
    """`simulate --players … --goal G` follows each seat from --purse to the goal or ruin on the
    table itself: within four standard errors of seat_ruin, and the same seed, the same figures."""
    args = ["simulate", "cotton", "--players", "Ann,Ben,Cat", "--bet", "Ben:side=1", "--purse", "3", "--goal", "6",
            "--games", "150", "--seed", "4", "--json"]
    first = run_cli(*args)
    assert first.code == 0, first.err
    report = json.loads(first.out)
    exact = table_ruin(machine("cotton"), {"Ben": {"side": 1}}, ["Ann", "Ben", "Cat"], 3, 6, 1)
    for name, row in report["seats"].items():
        assert Fraction(row["exact_reach"]) == exact.seats[name].reach_goal
        assert Fraction(row["exact_games"]) == exact.seats[name].games
        assert abs(row["z_reach"]) <= 4 and abs(row["z_games"]) <= 4, (name, row)
        assert row["unfinished"] == 0 and row["why_no_exact"] is None
    assert run_cli(*args).out == first.out


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_simulate_goal_says_what_it_cannot_do():
    outside = run_cli("simulate", "cotton", "--goal", "10")
    assert outside.code == 2 and "--goal is for sessions at the table" in outside.err
    below = run_cli("simulate", "cotton", "--players", "Ann,Ben", "--purse", "20", "--goal", "10")
    assert below.code == 2 and "--goal must be more than --purse (20)" in below.err
    unbounded = run_cli("simulate", "history_sheet", "--players", "Ann,Ben", "--bet", "Ben:two=1", "--purse", "5",
                        "--goal", "10", "--games", "3")
    assert unbounded.code == 2 and "cannot be followed game by game" in unbounded.err
    assert "Traceback" not in unbounded.err


# ---------------------------------------------------------------------------- any plan, any table

from hypothesis import given, settings, strategies as st  # noqa: E402

PLANNABLE = {"cotton": ["side"], "petty": ["side"], "french": ["side", "odds"]}  # no fees: Wald's identity is exact


@settings(max_examples=25)
@given(name=st.sampled_from(sorted(PLANNABLE)), players=st.integers(2, 3), data=st.data(),
       bankroll=st.integers(2, 4), more=st.integers(1, 3))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_plan_keeps_the_chains_identities(name, players, data, bankroll, more):
    """For random plans at random tables: the chance of the goal and of ruin add to 1, the games
    split by whose hand they are in add to the whole, and the purse at the end is the bankroll
    plus the games times their mean net (Wald), exactly — or the plan is refused with a reason."""
    names = ["Ann", "Ben", "Cat"][:players]
    plans = {}
    for seat in names:
        chosen = data.draw(st.lists(st.sampled_from(PLANNABLE[name]), unique=True, max_size=2))
        plans[seat] = {bet: data.draw(st.integers(1, 2)) for bet in chosen}
    m = machine(name)
    chains = SeatSolver(m)
    for seat in names:
        try:
            r = seat_ruin(m, plans, names, seat, bankroll, bankroll + more, 1, chains=chains)
        except SeatError as exc:
            assert str(exc)  # refused, saying why: two plans that would meet, a bankroll too small…
            continue
        means = [chains.outcomes(plans, names, seat, pos, 1).mean for pos in range(players)]
        assert r.reach_goal + r.ruin == 1 and 0 <= r.reach_goal <= 1
        assert r.games == sum(r.games_at) == sum(r.games_as.values()) and r.games >= 1
        assert r.final_purse - r.bankroll == sum(g * mean for g, mean in zip(r.games_at, means))
        assert r.final_purse >= 0
