"""Every argument checked in the caller's terms (issue 36): the API raises `ArgumentError`
naming its keyword, the command line says the same error with its flag, and a request built
from values (commands.requests) is checked field by field."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

import hazard_dsl
from hazard_dsl.cli.wording import FLAGS
from hazard_dsl.commands.analyse import analyse_request
from hazard_dsl.commands.dice import checked_tape
from hazard_dsl.commands.errors import SettingError
from hazard_dsl.commands.requests import AnalyseRequest, BetOrder
from hazard_dsl.errors import Arg, ArgumentError


@pytest.fixture(scope="module")
def cotton():
    return hazard_dsl.load("cotton")


@pytest.mark.parametrize("games, said", [
    (None, "games cannot be None (as many games as the dice allow) without dice (a tape of throws): random dice "
           "never run out"),
    (-1, "games is a whole number from 1 to 10,000,000,000,000, not -1"),
    (0, "games is a whole number from 1 to 10,000,000,000,000, not 0"),
    ("3", "games is a whole number from 1 to 10,000,000,000,000, not '3'"),
    (True, "games is a whole number from 1 to 10,000,000,000,000, not True"),
])
def test_run_refuses_a_number_of_games_it_cannot_play(cotton, games, said):
    with pytest.raises(ArgumentError) as caught:
        cotton.run(games=games, seed=1)
    assert str(caught.value) == said
    assert caught.value.argument.name == "games"


@pytest.mark.parametrize("seed, said", [
    (-5, "seed is a whole number from 0 to 18,446,744,073,709,551,615, not -5"),
    ("abc", "seed is a whole number from 0 to 18,446,744,073,709,551,615, not 'abc'"),
    (2 ** 64, "seed is a whole number from 0 to 18,446,744,073,709,551,615, not 18446744073709551616"),
])
def test_run_and_simulate_refuse_a_seed_numpy_cannot_take_naming_it(cotton, seed, said):
    for call in (lambda: cotton.run(games=1, seed=seed), lambda: cotton.simulate(games=10, seed=seed)):
        with pytest.raises(ArgumentError) as caught:
            call()
        assert str(caught.value) == said


def test_a_wrong_type_is_an_argument_error_and_a_type_error(cotton):
    with pytest.raises(TypeError) as caught:
        cotton.run(games="3")
    assert isinstance(caught.value, ArgumentError)
    with pytest.raises(TypeError) as caught:
        hazard_dsl.load("craps").analyse(bets=["pass=10"])
    assert isinstance(caught.value, ArgumentError) and caught.value.argument == Arg("bets")


def test_run_with_a_tape_and_no_count_plays_what_the_tape_allows(cotton):
    assert len(cotton.run(games=None, dice="3-4 6-6 1-2")) >= 1


def test_an_api_error_is_said_with_the_keyword_and_with_the_flag():
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("craps").analyse(bets={"pass": 10.5})
    error = caught.value
    assert str(error).startswith("bets['pass']: 10.5 is a float; money is exact here")
    assert error.said(FLAGS).startswith("--bet pass: 10.5 is a float; money is exact here")


def test_the_same_bad_bet_is_said_by_keyword_and_by_flag_from_one_error():
    request = AnalyseRequest("craps", bets=(BetOrder("pass", Fraction(10)), BetOrder("pass", Fraction(5))),
                             by_option=False)
    with pytest.raises(ArgumentError) as caught:
        analyse_request(request)
    assert str(caught.value) == "bets['pass'] = 5 is given twice: give each bet once"
    assert caught.value.said(FLAGS) == "--bet pass=5 is given twice: give each bet once"


def test_a_seats_bad_bet_is_said_by_keyword_and_by_flag():
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("hoyle").seats({"Ben": {"oods": 2}})
    assert str(caught.value) == ("plans['Ben']['oods'] = 2: no bet 'oods' at this table (did you mean 'odds'?) "
                                 "(bets: side, odds, side_odds, stake)")
    assert caught.value.said(FLAGS) == ("--bet Ben:oods=2: no bet 'oods' at this table (did you mean 'odds'?) "
                                        "(bets: side, odds, side_odds, stake)")


def test_a_seat_not_at_the_table_is_named_with_its_bet():
    with pytest.raises(ArgumentError) as caught:
        analyse_request(AnalyseRequest("hoyle", plans={"Ben": {"odds": Fraction(2)}, "Ann": {"odds": Fraction(1)}},
                                       players=("Ann", "Cat"), by_option=False))
    assert str(caught.value) == "plans['Ben']['odds'] = 2: 'Ben' is not at the table (players: Ann, Cat)"
    assert caught.value.said(FLAGS) == "--bet Ben:odds=2: 'Ben' is not at the table (players: Ann, Cat)"


@pytest.mark.parametrize("argv, said", [
    (["analyse", "hoyle", "--bet", "Ben:odds=2", "--bet", "Ben:odds=3", "--no-options"],
     "hazard-dsl: error: --bet Ben:odds=3 gives a second amount to a bet already planned (--bet Ben:odds=2): give "
     "each seat's bet once\n"),
    (["analyse", "craps", "--bet", "pass=10", "--bet", "pass=5", "--no-options"],
     "hazard-dsl: error: --bet pass=5 is given twice: give each bet once\n"),
    (["run", "craps", "--bet", "pass=10", "--bet", "pass=5", "--seed", "1"],
     "hazard-dsl: error: --bet pass=5 is given twice: give each bet once\n"),
])
def test_the_command_line_refuses_a_bet_given_twice(argv, said):
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", said)


def test_a_setting_error_is_an_argument_error_worded_by_each_front_end():
    error = SettingError("stop_loss", "must be more than 0")
    assert isinstance(error, ArgumentError) and error.setting == "stop_loss"
    assert str(error) == "stop_loss must be more than 0"
    assert error.said(FLAGS) == "--stop-loss must be more than 0"
    assert error.said_as("--stop-loss") == "--stop-loss must be more than 0"
    joined = SettingError("bankroll", ", ", Arg("goal"), " and ", Arg("stake"), " go together")
    assert (str(joined), joined.said(FLAGS)) == ("bankroll, goal and stake go together",
                                                 "--bankroll, --goal and --stake go together")


@pytest.mark.parametrize("tape, said", [
    ("3-4", "dice is a sequence of throws, such as ((3, 4), (6, 6)), not '3-4'"),
    ((), "dice needs throws, such as ((3, 4), (6, 6))"),
    (((3, 4), (3.0, 4.0)), "dice: throw 2 is (3.0, 4.0); a throw is the dice's faces"),
    (((3, 21),), "dice: throw 1 is (3, 21); a throw is the dice's faces"),
    (([3], ), "dice: throw 1 is [3]; a throw is the dice's faces"),
])
def test_a_requests_tape_is_checked_throw_by_throw(tape, said):
    with pytest.raises(ArgumentError) as caught:
        checked_tape(tape)
    assert str(caught.value).startswith(said)


def test_a_requests_tape_keeps_casts_lone_faces_and_recast_words():
    assert checked_tape(((3, 4), (None, 4), 5, None, "off", [6, 6])) == [(3, 4), (None, 4), 5, None, "off", (6, 6)]


def test_a_policy_the_game_cannot_follow_is_named_by_keyword_and_by_flag():
    with pytest.raises(ArgumentError) as caught:
        hazard_dsl.load("craps").analyse(policy="foo")
    assert str(caught.value) == "policy='foo': Craps (pass line) has no choices to make (use optimal or uniform)"
    assert caught.value.said(FLAGS) == "--policy foo: Craps (pass line) has no choices to make (use optimal or uniform)"
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", "analyse", "craps", "--policy", "foo"],
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stderr) == (2, "hazard-dsl: error: --policy foo: Craps (pass line) has no "
                                                 "choices to make (use optimal or uniform)\n")


# issue 40's fuzz: policy=None (or a number) reached str's methods in the solver and left an
# AttributeError from every method that solves (analyse, hand, rules, run, simulate, spread, …)
@pytest.mark.parametrize("method", ["analyse", "hand", "rules", "spread", "compare", "printed", "run"])
@pytest.mark.parametrize("policy, said", [(None, "None"), (7, "7"), (["optimal"], "['optimal']")])
def test_a_policy_not_given_as_text_is_an_argument_error(cotton, method, policy, said):
    call = getattr(cotton, method)
    with pytest.raises(ArgumentError) as caught:
        call("craps", policy=policy) if method == "compare" else call(policy=policy)
    assert str(caught.value) == (f"policy is optimal, uniform or a value to choose, as text (policy='7'), "
                                 f"not {said}")
