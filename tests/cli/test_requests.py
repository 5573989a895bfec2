"""The command line reads its flags' texts into the requests the commands take (cli.requests,
issue 36): values out, and a text that cannot be read refused in the commands' own words,
naming its flag."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hazard_dsl import cli
from hazard_dsl.cli import requests
from hazard_dsl.cli.parser import build_parser
from hazard_dsl.cli.wording import FLAGS
from hazard_dsl.commands.loading import load
from hazard_dsl.commands.requests import BetOrder, RulesetRequest
from hazard_dsl.errors import ArgumentError


def args_of(*argv):
    return build_parser(cli.HANDLERS, only=argv[0]).parse_args(list(argv))


def request(*argv):
    args = args_of(*argv)
    build = getattr(requests, f"{args.command.replace('analyze', 'analyse')}_request")
    return build(args, load(args.ruleset)) if hasattr(args, "ruleset") and args.ruleset else build(args)


def refused(*argv) -> str:
    with pytest.raises(ArgumentError) as info:
        request(*argv)
    return info.value.said(FLAGS)


def test_one_bettors_bets_are_orders_with_exact_money_or_a_multiple():
    made = request("analyse", "craps", "--bet", "pass=10", "--bet", "odds=3-4-5x", "--bet", "field=21/2",
                   "--option", "odds=3-4-5x")
    assert made.bets == (BetOrder("pass", Fraction(10)), BetOrder("odds", "3-4-5x"),
                         BetOrder("field", Fraction(21, 2)))
    assert made.options == {"odds": "3-4-5x"} and made.plans == {} and made.policy == "optimal"
    assert request("run", "craps", "--bet", "field=5@3").bets == (BetOrder("field", Fraction(5), 3),)


@pytest.mark.parametrize("argv, said", [
    (["analyse", "craps", "--bet", "pass=10@3"],
     "--bet pass=10@3: @THROW (make the bet once, before that throw) is for run; analyse takes NAME=AMOUNT"),
    (["run", "craps", "--bet", "field=5@0"], "--bet field=5@0: @THROW must be a throw number, 1 or more"),
    (["run", "craps", "--bet", "passline"], "--bet takes NAME=AMOUNT or NAME=AMOUNT@THROW, not 'passline'"),
    (["analyse", "craps", "--bet", "pass=abc"], "--bet pass: 'abc' is not an amount of money (10, 12.50 or 21/2)"),
    (["analyse", "craps", "--bet", "pass=-1"], "--bet pass: the amount must be more than 0"),
    (["analyse", "cotton", "--option", "main"], "--option takes NAME=VALUE, not 'main'"),
    (["analyse", "cotton", "--bankroll", "ten", "--goal", "20", "--stake", "1"],
     "--bankroll: not an amount of money: 'ten'; write it as 2s 6d, or 2.50 in shillings"),
    (["analyse", "cotton", "--players", "Ann,Ben", "--bet", "Ann:side=1", "--bet", "Ann:side=2"],
     "--bet Ann:side=2 gives a second amount to a bet already planned (--bet Ann:side=1): give each seat's bet once"),
    (["analyse", "cotton", "--players", "Ann,Ben", "--bet", "Ann:side=2x"],
     "--bet Ann:side=2x: '2x' is not an amount of money (write it as 2s 6d, or 2.50 in shillings) (a multiple of "
     "the wager it backs, such as 2x, is for one bettor's --bet NAME=2x; at the table a seat plans money)"),
    (["run", "cotton", "--players", "Ann,Ben", "--bet", "Annside=1"],
     "--bet Annside=1: at the table a bet names its seat, as SEAT:NAME=AMOUNT with SEAT one of Ann, Ben"),
    (["run", "cotton", "--players", "Ann,Ben", "--refuse", "An-side"],
     "--refuse An-side: at the table a bet names its seat, as SEAT:NAME with SEAT one of Ann, Ben"),
    (["run", "cotton", "--players", "Ann,Ben", "--purse", "x"],
     "--purse: not an amount of money: 'x'; write it as 2s 6d, or 2.50 in shillings"),
])
def test_a_text_that_cannot_be_read_is_refused_naming_its_flag(argv, said):
    assert refused(*argv) == said


def test_seats_plans_refusals_and_money_in_the_rulesets_coin():
    made = request("run", "cotton", "--players", "Ann,Ben", "--bet", "Ann:side=2s 6d", "--bet", "Ben:side=1",
                   "--refuse", "Ben:side", "--purse", "10s 6d", "--stake", "1s", "--rounds", "2")
    assert made.players == ("Ann", "Ben") and made.bets == ()
    assert made.plans == {"Ann": {"side": Fraction(5, 2)}, "Ben": {"side": Fraction(1)}}
    assert made.refusals == (("Ben", "side"),)
    assert (made.purse, made.stake, made.rounds) == (Fraction(21, 2), Fraction(1), 2)
    seats = request("analyse", "cotton", "--bet", "Ann:side=1", "--stake", "2")
    assert seats.plans == {"Ann": {"side": Fraction(1)}} and seats.bets == () and seats.stake == 2


def test_tapes_phases_and_variants():
    assert request("run", "cotton", "--dice", "3-4 6-6 1-2").dice == ((3, 4), (6, 6), (1, 2))
    assert request("run", "cotton").dice is None
    drawn = request("graph", "cotton", "--phase", "chance,set_main", "--phase", "chance_throw", "--unfold")
    assert drawn.phases == ("chance", "set_main", "chance_throw") and drawn.unfold and drawn.format == "dot"
    args = args_of("compare", "cotton", "cotton:main=called", "--policy", "uniform")
    compared = requests.compare_request(args, {text: load("cotton") for text in args.rulesets})
    assert compared.variants == (RulesetRequest("cotton", {}, "uniform"),
                                 RulesetRequest("cotton", {"main": "called"}, "uniform"))
    assert request("analyse", "cotton", "--stake", "best").best == "best"


# --------------------------------------------------------------------------- the commands take them


class _Asked(BaseException):
    """Stops a command where it hands its request on (a BaseException: the command line's own
    handlers let it through), carrying what it was handed."""


def asked(monkeypatch, where, name, *argv, index: int = 0):
    """What the command of `argv` hands to `where.name` (its `index`th argument), read from
    its flags and nothing run."""
    def stop(*given, **_):
        raise _Asked(given[index])

    monkeypatch.setattr(where, name, stop)
    with pytest.raises(_Asked) as info:
        cli.main(list(argv))
    return info.value.args[0]


def test_analyse_hands_the_command_its_values(monkeypatch):
    from hazard_dsl.cli import analyse
    from hazard_dsl.commands.requests import AnalyseRequest

    made = asked(monkeypatch, analyse.analysing, "analyse_request", "analyse", "cotton", "--option", "main=called",
                 "--bankroll", "12.50", "--goal", "25", "--stake", "1/2", "--hand", "--no-options")
    assert made == AnalyseRequest("cotton", {"main": "called"}, bankroll=Fraction(25, 2), goal=Fraction(25),
                                  stake=Fraction(1, 2), hand=True, by_option=False)
    made = asked(monkeypatch, analyse.analysing, "analyse_request", "analyse", "craps", "--bet", "pass=10",
                 "--bet", "odds=2x", "--games", "5", "--stop-loss", "20")
    assert made.bets == (BetOrder("pass", Fraction(10)), BetOrder("odds", "2x"))
    assert (made.games, made.stop_loss, made.stop_win, made.plans) == (5, Fraction(20), None, {})


def test_run_without_players_hands_its_games_their_values(monkeypatch):
    from hazard_dsl.cli import run
    from hazard_dsl.commands.requests import RunRequest

    made = asked(monkeypatch, run, "games_request", "run", "craps", "--seed", "4", "--games", "2", "--bet",
                 "pass=10", "--bet", "field=5@3", "--bankroll", "2.50", "--dice", "3-4 6-6")
    assert made == RunRequest("craps", games=2, seed=4, dice=((3, 4), (6, 6)),
                              bets=(BetOrder("pass", Fraction(10)), BetOrder("field", Fraction(5), 3)),
                              bankroll=Fraction(5, 2))


def test_a_table_is_set_from_values_in_the_rulesets_coin(monkeypatch):
    from hazard_dsl.cli import play, run

    # Cotton's coin: 12 pence to the shilling, 20 shillings to the pound (the file's unit is the shilling)
    made = asked(monkeypatch, run.sessions, "request_settings", "run", "cotton", "--players", "Ann,Ben",
                 "--purse", "£1 1s", "--stake", "6d", "--bet", "Ben:side=2s 6d", "--refuse", "Ann:side",
                 "--rounds", "2", "--seed", "1", index=2)
    assert (made.players, made.purse, made.stake, made.rounds) == (("Ann", "Ben"), Fraction(21), Fraction(1, 2), 2)
    assert made.plans == {"Ben": {"side": Fraction(5, 2)}} and made.refusals == (("Ann", "side"),)
    made = asked(monkeypatch, play.sessions, "request_settings", "play", "cotton", "--players", "Ann,Ben",
                 "--no-log", "--dice", "3-4 6-6", "--stake", "2", index=2)
    assert (made.ruleset, made.players, made.stake, made.dice, made.no_log) == \
        ("cotton", ("Ann", "Ben"), Fraction(2), ((3, 4), (6, 6)), True)


def test_compare_rules_and_graph_hand_on_option_values(monkeypatch):
    from hazard_dsl.cli import compare, graph, rules
    from hazard_dsl.commands.requests import CompareRequest

    made = asked(monkeypatch, compare, "compare_request", "compare", "cotton:main=called", "petty", "--policy",
                 "uniform")
    assert made == CompareRequest((RulesetRequest("cotton", {"main": "called"}, "uniform"),
                                   RulesetRequest("petty", {}, "uniform")), "uniform", ("cotton:main=called", "petty"))
    made = asked(monkeypatch, rules, "rules_request", "rules", "cotton", "--option", "main=called", "--json")
    assert (made.options, made.format, made.colour) == ({"main": "called"}, "json", False)
    made = asked(monkeypatch, graph, "request_machine", "graph", "craps", "--bet", "field", "--format", "mermaid")
    assert (made.bets, made.format, made.options) == (("field",), "mermaid", {})


@pytest.mark.parametrize("argv, said", [
    (["--bet", "An:field=2"], "--bet An:field=2: 'An' is not at the table (players: Ann, Ben) (did you mean 'Ann'?)"),
    (["--bet", "Ann:feild=2"], "--bet Ann:feild=2: no bet 'feild' at this table (did you mean 'field'?)"),
    (["--refuse", "Ann:oods"], "--refuse Ann:oods: no bet 'oods' at this table (did you mean 'odds'?)"),
    (["--bet", "Ann:stake=1", "--bet", "Ann:pass=1"], "--bet Ann:pass=1 gives Ann's own stake twice; give it once"),
])
def test_a_seats_plan_at_the_table_is_refused_naming_it_as_typed(argv, said, capsys):
    # the flag's value as a shell takes it (cli.wording), and a seat not at the table said so
    assert cli.main(["run", "craps", "--seed", "1", "--players", "Ann,Ben", *argv]) == 2
    assert capsys.readouterr().err.startswith(f"hazard-dsl: error: {said}")
