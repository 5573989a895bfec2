"""Today's audit of the best stake, Kelly, --risk and the progressions (issue 38): refusals that
are plain and come before any work, and the progressions of the bets-only games."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from hazard_dsl.cli import main
from hazard_dsl.solve import policy
from hazard_dsl.solve.policy import MAX_POLICY_PURSES
from hazard_dsl.solve.progressions import PROGRESSIONS, progression_run

REFUSAL = "a game that cannot be both won and lost leaves no choice of stake"
BETS_ONLY = ("sic_bo", "chuck_a_luck", "crown_and_anchor", "grand_hazard")


@pytest.mark.parametrize("game", BETS_ONLY)
def test_every_progression_of_a_bets_only_game_is_refused_plainly(game, capsys):
    # the caster of a bets-only game neither wins nor loses: the chain would push for ever
    # (it was a ZeroDivisionError, exit 70); the refusal is the best stake's and Kelly's
    for name in PROGRESSIONS:
        code = main(["analyse", game, "--strategy", name, "--bankroll", "5", "--goal", "10", "--stake", "1"])
        err = capsys.readouterr().err
        assert code == 2 and REFUSAL in err and "internal error" not in err, (game, name, code, err)
    for words in (["--stake", "best", "--bankroll", "5", "--goal", "10"], ["--stake", "kelly"]):
        assert main(["analyse", game, *words]) == 2
        assert REFUSAL in capsys.readouterr().err


@pytest.mark.parametrize("name", PROGRESSIONS)
def test_a_game_of_pushes_only_is_refused_by_the_chain_itself(name):
    with pytest.raises(ValueError, match=REFUSAL):
        progression_run({0: 1}, name, 5, 10, 1)


COTTON = {1: Fraction(1979, 4032), -1: Fraction(2053, 4032)}


class Built(Exception):
    """Raised by a chain builder that a refusal should never have reached."""


@pytest.fixture
def no_chain(monkeypatch):
    def fail(*args, **kwargs):
        raise Built
    monkeypatch.setattr(policy, "_evaluate", fail)
    monkeypatch.setattr(policy, "Chain", fail)


@pytest.mark.parametrize("goal", [MAX_POLICY_PURSES + 2, 10 ** 7, 10 ** 9, 10 ** 30])
def test_a_large_goal_is_refused_from_its_size_alone(no_chain, goal):
    started = time.perf_counter()
    for ask in (lambda: policy.best_stake(COTTON, goal), lambda: policy.best_stake(COTTON, goal, 1),
                lambda: policy.flat_chances(COTTON, goal, 1)):
        with pytest.raises(policy.PolicyTooLarge, match=f"has {goal - 2:,}|has {goal - 1:,}") as found:
            ask()
        assert f"more than the {MAX_POLICY_PURSES:,}" in str(found.value)
    assert time.perf_counter() - started < 0.5  # nothing counted in proportion to the goal


def test_the_bound_itself_is_let_through_to_the_solve(no_chain):
    # MAX_POLICY_PURSES purses below the goal: judged small enough, so the chain is built
    with pytest.raises(Built):
        policy.best_stake(COTTON, MAX_POLICY_PURSES + 1)
    with pytest.raises(Built):
        policy.flat_chances(COTTON, MAX_POLICY_PURSES + 1, 1)


@pytest.mark.parametrize("goal,most", [(2, 1), (3, 1), (3, 5), (10, 3), (201, 100), (1000, 999), (1000, 1000)])
def test_the_pairs_in_closed_form_are_the_pairs_counted(goal, most):
    assert policy.policy_size(goal, most) == sum(min(x, most) for x in range(1, goal))


def test_the_command_line_and_the_api_refuse_a_goal_of_a_billion_at_once(no_chain, capsys):
    import hazard_dsl

    words = [["--stake", "best", "--goal", "1000000000"], ["--stake", "best", "--goal", "1000000000", "--bankroll",
             "1"], ["--risk", "0.01", "--goal", "1000000", "--stake", "1"]]
    for extra in words:
        assert main(["analyse", "cotton", "--no-options", *extra]) == 2
        err = capsys.readouterr().err
        assert f"more than the {MAX_POLICY_PURSES:,} an exact solve takes" in err, err
    with pytest.raises(ValueError, match="999,999,999 purses below the goal"):
        hazard_dsl.load("cotton").best_stake(10 ** 9, 1)


def test_a_progression_too_intricate_to_solve_says_its_size_and_what_to_do(monkeypatch):
    from hazard_dsl.solve import progressions
    from hazard_dsl.solve.markov import TooLargeToSolve
    from hazard_dsl.solve.progressions import MAX_PROGRESSION_STATES, ProgressionTooLarge

    class GivesUp:  # the elimination giving up, as it does on a chain that comes back on itself too often
        def __init__(self, rows, **kwargs):
            pass

        def forward(self, start):
            raise TooLargeToSolve("a cycle")

    monkeypatch.setattr(progressions, "Chain", GivesUp)
    with pytest.raises(ProgressionTooLarge) as found:
        progression_run(COTTON, "dalembert", 20, 30, 1, cap=8)
    said = str(found.value)
    assert "225 (purse, progression) states" in said and "tangled" not in said
    assert f"within the {MAX_PROGRESSION_STATES:,} allowed" in said and said.endswith("or simulate")

    # past the bound (a d'Alembert from 60 to 90, 2,662 states; a Labouchère from 40 to 60): said
    # while building, no solve
    def fail(*args, **kwargs):
        raise Built
    monkeypatch.setattr(progressions, "Chain", fail)
    for name, bankroll, goal in (("dalembert", 60, 90), ("labouchere", 40, 60)):
        with pytest.raises(ProgressionTooLarge, match=f"more than {MAX_PROGRESSION_STATES:,} "):
            progression_run(COTTON, name, bankroll, goal, 1)


def test_the_audits_dalembert_is_solved_and_does_not_beat_the_edge():
    # d'Alembert 20 -> 30, cap 8 (225 states): 3.9-5.3 s in the audit, refused or slow; now solved
    run = progression_run(COTTON, "dalembert", 20, 30, 1, cap=8)
    assert run.states == 225 and sum(run.nets.values()) == 1
    assert run.net == (COTTON[1] - COTTON[-1]) * run.staked  # Wald, as in test_progressions


def test_least_fill_orders_every_state_of_a_cycle_once():
    from hazard_dsl.solve.chain import Chain

    # a ring of six states with a way out of each: one cycle; any order solves it, the same figures
    rows = {k: {(k + 1) % 6: Fraction(1, 2), (k - 1) % 6: Fraction(1, 4), "out": Fraction(1, 4)} for k in range(6)}
    plain, ordered = Chain(rows), Chain(rows, least_fill=True)
    assert sorted(ordered.components[0]) == sorted(plain.components[0]) == list(range(6))
    # from 0: every state is left with chance 1/4 a visit, so 4 visits in all, by symmetry of the ring's total
    visits = ordered.forward({0: Fraction(1)})
    assert sum(visits[k] for k in range(6)) == 4 and visits["out"] == 1
    assert all(visits[k] == plain.forward({0: Fraction(1)})[k] for k in range(6))


def _csv_rows(capsys, *words) -> list[dict]:
    import csv
    import io

    assert main(["analyse", "cotton", "--no-options", *words, "--format", "csv"]) == 0
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def _row(rows, table_starts, figure) -> dict:
    found = [r for r in rows if r["table"].startswith(table_starts) and r["figure"] == figure]
    assert len(found) == 1, (table_starts, figure, found)
    return found[0]


P_WIN, P_LOSE = Fraction(1979, 4032), Fraction(2053, 4032)  # Cotton's caster, as in the tests above


def test_kelly_in_csv_is_a_fraction_and_a_decimal_each_in_its_cell(capsys):
    rows = _csv_rows(capsys, "--stake", "kelly")
    setter = [r for r in rows if r["table"].startswith("Kelly") and r["side"] == "the setter"][0]
    # at even money Kelly's fraction is p − q, the setter winning what the caster loses
    f = P_LOSE - P_WIN
    assert f == Fraction(37, 2016) and setter["fraction"] == "37/2016"
    assert setter["≈"] == f"{float(f):.5f}" == "0.01835"


def test_the_purse_for_a_risk_says_its_money(capsys):
    # gambler's ruin staking 1 at even money (no push at Cotton): P(goal from x) = (1 − r^x)/(1 − r^G), r = q/p
    r, goal = P_LOSE / P_WIN, 20
    least = next(x for x in range(1, goal) if 1 - (1 - r ** x) / (1 - r ** goal) <= Fraction(1, 2))
    assert least == 12  # as the audit found by its own enumeration
    assert main(["analyse", "cotton", "--no-options", "--risk", "0.5", "--goal", "20", "--stake", "1"]) == 0
    out = capsys.readouterr().out
    assert f"least purse  {least} shillings" in out and "20 shillings)" in out
    row = _row(_csv_rows(capsys, "--risk", "0.5", "--goal", "20", "--stake", "1"), "The purse needed", "least purse")
    assert row["value"] == str(least)


def test_the_ruin_table_puts_the_expected_games_under_a_decimal_heading(capsys):
    # from 1 to 2 staking 1/3: gambler's ruin from 3 to 6 stakes, r = q/p; the expected games
    # of a walk of ±1 from x to 0 or N: x/(q − p) − N/(q − p) · (1 − r^x)/(1 − r^N)
    r, x, n = P_LOSE / P_WIN, 3, 6
    reach = (1 - r ** x) / (1 - r ** n)
    games = x / (P_LOSE - P_WIN) - n / (P_LOSE - P_WIN) * reach
    assert reach == Fraction(7750636739, 16403639616)  # the audit's figure, by its own enumeration
    rows = _csv_rows(capsys, "--bankroll", "1", "--goal", "2", "--stake", "1/3")
    row = _row(rows, "From 1 to 2 shillings, staking 1/3 a game", "expected games")
    assert row["exact"] == str(games) and row["≈"] == f"{float(games):.4f}" and row["%"] == ""
    assert _row(rows, "From 1 to 2", "reaches the goal")["≈"] == f"{float(round(reach * 100, 2)):.2f}"


def test_a_progression_shows_the_simulated_ruin_and_its_nets_per_unit_as_percent(capsys):
    rows = _csv_rows(capsys, "--strategy", "martingale", "--bankroll", "20", "--goal", "30", "--stake", "1",
                     "--cap", "8", "--simulate", "2000", "--seed", "3")
    title = "The martingale for the caster from 20 to 30 shillings, first stake 1 (cap 8)"
    goal, ruin = _row(rows, title, "P(reach the goal)"), _row(rows, title, "P(ruin)")
    # every simulated session ends at the goal or in ruin: one is the other's complement
    assert ruin["simulated"] and abs(float(goal["simulated"]) + float(ruin["simulated"]) - 1) < 1e-5
    assert ruin["simulated SE"] == goal["simulated SE"] != ""
    edge = P_WIN - P_LOSE  # Wald: the net per unit staked is the game's, -37/2016
    for figure in ("net per unit staked", "the game's net per unit staked"):
        row = _row(rows, title, figure)
        assert row["exact"] == str(edge) == "-37/2016" and row["≈"] == f"{float(edge * 100):.3f}" == "-1.835"


def test_large_amounts_have_thousands_separators_and_one_is_singular(capsys):
    from hazard_dsl.render.policy import whole

    assert (whole(1_000_000), whole(Fraction(1, 3)), whole(20)) == ("1,000,000", "1/3", "20")
    assert main(["analyse", "cotton", "--no-options", "--stake", "best", "--bankroll", "1000", "--games", "1",
                 "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "The greatest expected purse after 1 game from 1,000 shillings" in out
    assert "Stakes 1 to 1 shilling;" in out


def test_the_best_stake_at_the_table_too_large_is_refused_not_a_crash(capsys):
    # twice a purse of 600 is 1,199 purses below the goal; a goal of 5,000, 4,999: each over the bound
    assert main(["run", "cotton", "--players", "Ann,Ben", "--strategy", "best", "--purse", "600", "--rounds", "1"]) == 2
    assert f"at most {MAX_POLICY_PURSES:,} purses below it" in capsys.readouterr().err
    assert main(["simulate", "cotton", "--players", "Ann,Ben", "--strategy", "best", "--purse", "10", "--goal", "5000",
                 "--games", "3"]) == 2
    assert "4,999 purses below the goal" in capsys.readouterr().err
