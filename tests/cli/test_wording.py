"""The command line words the core's typed errors with its flags (cli.wording, issue 36): each
argument as the parser spells its flag, and `main` says an ArgumentError so, exit 2."""

from __future__ import annotations

import argparse
from fractions import Fraction

import pytest

from hazard_dsl import cli
from hazard_dsl.cli import main
from hazard_dsl.cli.parser import build_parser
from hazard_dsl.cli.wording import FLAGS, worded
from hazard_dsl.commands.errors import SettingError
from hazard_dsl.errors import Arg, ArgumentError


@pytest.mark.parametrize("arg, said", [
    (Arg("bets", "pass", "x"), "--bet pass=x"),
    (Arg("bets", "pass"), "--bet pass"),
    (Arg("bets", "odds", "…"), "--bet odds=…"),
    (Arg("bets", "odds", 2, seat="Ben"), "--bet Ben:odds=2"),
    (Arg("bets", "odds", Fraction(5, 2), seat="Ben"), "--bet Ben:odds=5/2"),
    (Arg("bets", "side", "2s 6d", seat="Cat"), "--bet 'Cat:side=2s 6d'"),  # as a shell takes it back
    (Arg("bets", seat="Ben"), "--bet Ben:…"),
    (Arg("refusals", "side", seat="Ben"), "--refuse Ben:side"),
    (Arg("stake"), "--stake"),
    (Arg("stake", value=Fraction(3)), "--stake 3"),
    (Arg("policy", value="foo"), "--policy foo"),
    (Arg("phases", value="chance"), "--phase chance"),
    (Arg("options", "main", "called"), "--option main=called"),
    (Arg("unfold", value=True), "--unfold"),
    (Arg("no_log"), "--no-log"),
    (Arg("stop_loss", value=Fraction(10)), "--stop-loss 10"),
    (Arg("players", value=("Ann", "Ben", "Cat")), "--players Ann,Ben,Cat"),
    (Arg("dice", value=((3, 4), (6, 6))), "--dice '3-4 6-6'"),
    (Arg("scheduler", value="tcp://127.0.0.1:8786"), "--scheduler tcp://127.0.0.1:8786"),
    (Arg("ruleset", value="cotton"), "cotton"),
    (Arg("ruleset"), "RULESET"),
])
def test_an_argument_is_said_as_its_flag(arg, said):
    assert FLAGS.arg(arg) == said


def test_every_flag_of_every_command_is_its_request_fields_flag():
    # the rule FLAGS follows (the field with hyphens, a repeated flag's field plural) holds for
    # every flag the parser has: a flag added with another spelling fails here
    parser = build_parser({name: None for name in cli.MODULES})
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    plural = {"bet": "bets", "phase": "phases", "option": "options", "refuse": "refusals"}
    seen = set()
    for command in [parser, *commands.choices.values()]:
        for action in command._actions:
            longs = [flag for flag in action.option_strings if flag.startswith("--")]
            if not longs:
                continue
            field = plural.get(action.dest, action.dest) if isinstance(action, argparse._AppendAction) \
                else action.dest
            assert FLAGS.flag(field) in longs, (command.prog, action.dest, longs)
            seen.add(FLAGS.flag(field))
    assert {"--bet", "--phase", "--option", "--refuse", "--no-log", "--stop-loss", "--unfold"} <= seen


def test_an_error_is_said_with_flags_as_the_core_says_it_today():
    # solve/bets.py's words before issue 36, now from the facts
    error = ArgumentError(Arg("bets", "odds", "2x"), "odds backs pass; give ", Arg("bets", "pass", "…"),
                          " first")
    assert worded(error) == "--bet odds=2x: odds backs pass; give --bet pass=… first"
    assert str(error) == "bets['odds'] = '2x': odds backs pass; give bets['pass'] = … first"
    assert worded(ValueError("plain words")) == "plain words"
    policy = ArgumentError(Arg("policy", value="7"), "the choice here is of 'point', not 'main'")
    assert worded(policy) == "--policy 7: the choice here is of 'point', not 'main'"
    assert worded(ArgumentError("stake", "must be more than 0")) == "--stake must be more than 0"


class _BetError(ArgumentError):
    """Stands in for a core error class made an ArgumentError."""


@pytest.mark.parametrize("error, said", [
    (_BetError(Arg("bets", "plce_6", "12"), "cotton has no such bet", nearest="place_6"),
     "hazard-dsl: error: --bet plce_6=12: cotton has no such bet; did you mean 'place_6'?"),
    (ArgumentError(Arg("bets", "side", "0", seat="Ben"), "the amount must be more than 0"),
     "hazard-dsl: error: --bet Ben:side=0: the amount must be more than 0"),
    (SettingError("no_log", "cannot be given with --resume"),
     "hazard-dsl: error: --no-log cannot be given with --resume"),
])
def test_main_says_an_argument_error_with_its_flag_exit_2(error, said, monkeypatch, capsys):
    def command(args):
        raise error

    monkeypatch.setitem(cli.HANDLERS, "show", command)
    assert main(["show", "cotton"]) == 2
    assert capsys.readouterr().err.rstrip("\n") == said
