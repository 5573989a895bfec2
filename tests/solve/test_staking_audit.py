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


def test_a_progression_too_intricate_to_solve_says_its_size_and_what_to_do():
    from hazard_dsl.solve.progressions import ProgressionTooLarge

    with pytest.raises(ProgressionTooLarge) as found:
        progression_run(COTTON, "dalembert", 40, 60, 1)
    said = str(found.value)
    assert "1,172 (purse, progression) states" in said and "tangled" not in said
    assert "its stakes go up and down" in said and said.endswith("or simulate")
