"""The solver's errors about an argument name it as an `Arg` (issue 36): the Python API says
its keyword (`str()`), the command line its flag (`said(FLAGS)`), word for word as before."""

import pytest

from hazard_dsl.cli.wording import FLAGS
from hazard_dsl.errors import Arg, ArgumentError
from hazard_dsl.solve.progressions import Progression, ProgressionError, progression_run
from hazard_dsl.solve.seats import SeatError, seat_ruin, seats
from hazard_dsl.solve.session import SessionError, ruin

from ..conftest import machine

OUTCOMES = {1: "1/2", -1: "1/2"}


def _raised(kind, call, *args):
    with pytest.raises(kind) as caught:
        call(*args)
    assert isinstance(caught.value, ArgumentError)
    return caught.value


def test_session_stake():
    error = _raised(SessionError, ruin, machine("cotton"), 10, 20, 0)
    assert error.argument == Arg("stake")
    assert str(error) == "stake must be more than 0"
    assert error.said(FLAGS) == "--stake must be more than 0"


def test_session_bankroll_names_the_goal():
    error = _raised(SessionError, ruin, machine("cotton"), 10, 5, 1)
    assert error.argument == Arg("bankroll")
    assert str(error) == "bankroll must be at least the stake (1) and less than goal (5)"
    assert error.said(FLAGS) == "--bankroll must be at least the stake (1) and less than --goal (5)"


def test_seats_stake():
    error = _raised(SeatError, seats, machine("hoyle"), {}, 0)
    assert error.argument == Arg("stake")
    assert str(error) == "stake must be more than 0"
    assert error.said(FLAGS) == "--stake must be more than 0"
    error = _raised(SeatError, seat_ruin, machine("hoyle"), {}, ["Ann", "Ben"], "Ann", 1, 10, 0)
    assert error.said(FLAGS) == "--stake must be more than 0"


def test_seat_bankroll_names_the_goal():
    error = _raised(SeatError, seat_ruin, machine("hoyle"), {}, ["Ann", "Ben", "Cat"], "Ann", 1, 10, 1)
    assert error.argument == Arg("bankroll")
    assert str(error).startswith("bankroll must be at least what Ann needs to play a game as planned (")
    assert str(error).endswith(") and less than goal (10)")
    assert error.said(FLAGS).startswith("--bankroll must be at least what Ann needs")
    assert error.said(FLAGS).endswith(") and less than --goal (10)")


def test_progression_cap():
    error = _raised(ProgressionError, Progression, "martingale", 2, 1)
    assert error.argument == Arg("cap")
    assert str(error) == "cap (1) must be at least the first stake (2)"
    assert error.said(FLAGS) == "--cap (1) must be at least the first stake (2)"


def test_progression_bankroll_names_the_goal():
    error = _raised(ProgressionError, progression_run, OUTCOMES, "martingale", 30, 20)
    assert error.argument == Arg("bankroll")
    assert str(error) == "bankroll must be more than 0 and less than goal (20)"
    assert error.said(FLAGS) == "--bankroll must be more than 0 and less than --goal (20)"


def _table(name):
    from hazard_dsl.solve.bets import BetTable
    from hazard_dsl.solve.markov import Solver

    m = machine(name)
    solver = Solver(m)
    solver.set_policy("optimal")
    return BetTable(m, solver)


def test_a_bet_backing_one_not_given_names_both():
    from hazard_dsl.solve.bets import BetError

    error = _raised(BetError, _table("craps").combination, [("odds", "2x")])
    assert error.argument == Arg("bets", "odds", "2x")
    assert str(error) == "bets['odds'] = '2x': odds backs pass; give bets['pass'] = … first"
    assert error.said(FLAGS) == "--bet odds=2x: odds backs pass; give --bet pass=… first"


def test_a_spread_backing_one_not_given_names_both():
    from hazard_dsl.solve.bets import BetError
    from hazard_dsl.solve.spread import plan_spread

    error = _raised(BetError, plan_spread, _table("craps"), [("odds", "2x")])
    assert error.said(FLAGS) == "--bet odds=2x: odds backs pass; give --bet pass=… first"


@pytest.mark.parametrize("bet, text, python, flags", [
    ("pass", "2x", "bets['pass'] = '2x': pass backs no other bet, so it takes an amount, not a multiple",
     "--bet pass=2x: pass backs no other bet, so it takes an amount, not a multiple"),
    ("odds", "0x", "bets['odds'] = '0x': a multiple is a positive number and x (2x), or one the bet names (3-4-5x)",
     "--bet odds=0x: a multiple is a positive number and x (2x), or one the bet names (3-4-5x)"),
    ("pass", "abc", "bets['pass']: 'abc' is not an amount of money (10, 12.50 or 21/2)",
     "--bet pass: 'abc' is not an amount of money (10, 12.50 or 21/2)"),
    ("pass", "0", "bets['pass']: the amount must be more than 0", "--bet pass: the amount must be more than 0"),
])
def test_an_amount_that_cannot_be_read(bet, text, python, flags):
    from hazard_dsl.solve.bets import BetError, parse_amount

    error = _raised(BetError, parse_amount, _table("craps").bet(bet).bet, text)
    assert error.argument.name == "bets" and error.argument.key == bet
    assert str(error) == python
    assert error.said(FLAGS) == flags


def test_a_multiple_without_its_bet():
    from hazard_dsl.solve.bets import BetError, bet_amount

    cb = _table("craps").bet("odds")
    error = _raised(BetError, bet_amount, cb, "2x", None, None)
    assert error.argument == Arg("bets", "odds", "2x")
    assert error.said(FLAGS) == "--bet odds=2x: a multiple needs the bet it backs (pass) given first"


@pytest.mark.parametrize("call, args, argument, python, flags", [
    ("best_stake", (OUTCOMES, "5/2"), Arg("goal"), "goal must be a whole number of units for the best stake, not 5/2",
     "--goal must be a whole number of units for the best stake, not 5/2"),
    ("best_stake", (OUTCOMES, 1), Arg("goal"), ("goal must be at least 2 units: there is no purse to play from "
                                                 "below it"),
     "--goal must be at least 2 units: there is no purse to play from below it"),
    ("best_stake", (OUTCOMES, 10, None, "3/2"), Arg("stake"), ("stake must be a whole number of units for the best "
                                                               "stake, not 3/2"),
     "--stake must be a whole number of units for the best stake, not 3/2"),
    ("flat_chances", (OUTCOMES, 10, 20), Arg("stake"), "stake must be at least 1 and below goal",
     "--stake must be at least 1 and below --goal"),
    ("best_after", (OUTCOMES, "5/2", 10), Arg("bankroll"), ("bankroll must be a whole number of units for the "
                                                            "best stake, not 5/2"),
     "--bankroll must be a whole number of units for the best stake, not 5/2"),
])
def test_a_decision_process_that_cannot_start(call, args, argument, python, flags):
    from hazard_dsl.solve import policy

    error = _raised(policy.PolicyError, getattr(policy, call), *args)
    assert error.argument == argument
    assert str(error) == python
    assert error.said(FLAGS) == flags


def test_a_variable_the_ruleset_lacks():
    from hazard_dsl.solve.analysis import analyse

    error = _raised(KeyError, analyse, machine("craps"), "optimal", "nope")
    assert error.argument == Arg("by", value="nope")
    assert str(error) == "by='nope': the ruleset has no variable 'nope' (variables: point)"
    assert error.said(FLAGS) == "--by nope: the ruleset has no variable 'nope' (variables: point)"
