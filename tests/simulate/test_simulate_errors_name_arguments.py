"""The simulator's errors about a value given name the argument, never a flag (issue 36): the
Python API's words by keyword (`str()`), the command line's by flag (cli.wording.FLAGS)."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from hazard_dsl.cli import main
from hazard_dsl.cli.requests import bet_orders
from hazard_dsl.commands.requests import BetOrder
from hazard_dsl.cli.wording import FLAGS
from hazard_dsl.errors import Arg, ArgumentError
from hazard_dsl.play.wagers import OrderError
from hazard_dsl.simulate.chunks import ClusterError
from hazard_dsl.simulate.cluster import scheduler_address
from hazard_dsl.simulate.simulation import prepare_games, prepare_sessions
from hazard_dsl.simulate.tables import SimulationError, UnplayableArgument
from hazard_dsl.play.wagers import Order
from tests.conftest import machine


@pytest.fixture(scope="module")
def craps():
    return machine("craps")


@pytest.mark.parametrize("bets, argument, python, flags", [
    (["pass=1", "pass=2"], Arg("bets", "pass"), "bets['pass'] is given twice; give each bet once",
     "--bet pass is given twice; give each bet once"),
    (["odds=2x"], Arg("bets", "odds", "2x"), "bets['odds'] = '2x': odds backs pass; give bets['pass'] = … first",
     "--bet odds=2x: odds backs pass; give --bet pass=… first"),
    ([Order("odds", "2x")], Arg("bets", "odds", "2x"),
     "bets['odds'] = '2x': odds backs pass; give bets['pass'] = … first",
     "--bet odds=2x: odds backs pass; give --bet pass=… first"),
])
def test_a_bet_ordered_is_named_as_given(craps, bets, argument, python, flags):
    with pytest.raises(OrderError) as caught:
        prepare_games(craps, 1000, 1, bets=[bet_orders([b])[0] if isinstance(b, str) else b for b in bets])
    assert caught.value.argument == argument
    assert (str(caught.value), caught.value.said(FLAGS)) == (python, flags)


def test_orders_as_values_play_as_the_engines_texts(craps):
    """A request's BetOrders (money a Fraction, a multiple its text) and play.wagers' Orders
    (amounts as the engine's reader takes them) make the same groups; no NAME=AMOUNT text is
    read here (the command line reads it: cli.requests.bet_orders). 3-4-5x on a pass line of
    10 is 30 on a point of 4 or 10, 40 on 5 or 9, 50 on 6 or 8 (craps.yaml's odds)."""
    values = prepare_games(craps, 1000, 1, bets=[BetOrder("pass", Fraction(10)), BetOrder("odds", "3-4-5x")])
    texts = prepare_games(craps, 1000, 1, bets=[Order("pass", "10"), Order("odds", "3-4-5x")])
    assert [[(o.name, o.text, o.classes) for o in g.orders] for g in texts.groups] == \
        [[(o.name, o.text, o.classes) for o in g.orders] for g in values.groups] == \
        [[("pass", "10", [(Fraction(10), Fraction(0))]),
          ("odds", "3-4-5x", [(Fraction(30), Fraction(0)), (Fraction(40), Fraction(0)),
                              (Fraction(50), Fraction(0))])]]


def test_an_amount_is_shown_as_its_caller_wrote_it(craps):
    """The report shows an amount as written (simulate's table and JSON have always said 12.50),
    its value read once at the command line; an amount given as a value alone is shown as the
    exact fraction."""
    [written] = prepare_games(craps, 1000, 1, bets=bet_orders(["pass=12.50"])).groups
    [bare] = prepare_games(craps, 1000, 1, bets=[BetOrder("pass", Fraction(25, 2))]).groups
    assert [(o.text, o.classes) for o in written.orders] == [("12.50", [(Fraction(25, 2), Fraction(0))])]
    assert [(o.text, o.classes) for o in bare.orders] == [("25/2", [(Fraction(25, 2), Fraction(0))])]


def test_an_amount_of_no_money_is_refused_naming_the_bet(craps):
    with pytest.raises(OrderError) as caught:
        prepare_games(craps, 1000, 1, bets=[BetOrder("pass", Fraction(0))])
    assert str(caught.value) == "bets['pass']: the amount must be more than 0"


def test_a_purse_too_large_names_the_purse(craps):
    with pytest.raises(UnplayableArgument) as caught:
        prepare_sessions(machine("chicken"), 10, 1, ["Ann", "Ben"], purse=Fraction(2 ** 62))
    assert isinstance(caught.value, SimulationError) and caught.value.argument == Arg("purse")
    assert str(caught.value) == "purse is too large to simulate in whole minor units"
    assert caught.value.said(FLAGS) == "--purse is too large to simulate in whole minor units"


@pytest.mark.parametrize("text, python, flags", [
    ("tcp://127.0.0.1", "scheduler='tcp://127.0.0.1': give the port too: tcp://127.0.0.1:8786 (Dask's default) or "
                        "the one the scheduler prints",
     "--scheduler tcp://127.0.0.1: give the port too: tcp://127.0.0.1:8786 (Dask's default) or the one the "
     "scheduler prints"),
    ("bad host:1", "scheduler='bad host:1': an address is a short line of plain characters, such as "
                   "tcp://10.0.0.5:8786",
     "--scheduler 'bad host:1': an address is a short line of plain characters, such as tcp://10.0.0.5:8786"),
])
def test_a_scheduler_address_is_named_as_given(text, python, flags):
    with pytest.raises(ClusterError) as caught:
        scheduler_address(text)
    error = caught.value
    assert isinstance(error, ArgumentError) and isinstance(error, RuntimeError)
    assert error.argument == Arg("scheduler", value=text)
    assert (str(error), error.said(FLAGS)) == (python, flags)
    assert str(pickle.loads(pickle.dumps(error))) == python


def test_the_command_line_says_them_with_flags(capsys):
    assert main(["simulate", "craps", "--games", "10", "--seed", "1", "--bet", "odds=2x"]) == 2
    assert capsys.readouterr().err == "hazard-dsl: error: --bet odds=2x: odds backs pass; give --bet pass=… first\n"
    assert main(["simulate", "cotton", "--scheduler", "tcp://127.0.0.1"]) == 1
    assert capsys.readouterr().err == ("hazard-dsl: error: --scheduler tcp://127.0.0.1: give the port too: "
                                       "tcp://127.0.0.1:8786 (Dask's default) or the one the scheduler prints\n")
