"""The play layer's errors about a value given name the argument, never a flag (issue 36): each is
an ArgumentError carrying `Arg(name, key, value)`; the Python API says it by keyword (`str()`),
the command line by flag (cli.wording.FLAGS), from the same error; each pickles as itself."""

from __future__ import annotations

import pickle

import pytest

from hazard_dsl.cli import main
from hazard_dsl.cli.wording import FLAGS
from hazard_dsl.errors import Arg, ArgumentError
from hazard_dsl.play.casting import CastingError, TapeError
from hazard_dsl.play.dice import DiceTape
from hazard_dsl.play.log import FileExists, FileRefused, LogError, LogExists, create_log, create_new_file
from hazard_dsl.play.strategies import strategy
from hazard_dsl.play.wagers import Order, OrderError
from hazard_dsl.solve.bets import BetError

TAPE_WORDS = "write each throw as two faces 1-6, like 3-4"  # (no recast: dice that never land off)


@pytest.mark.parametrize("make, kind, argument, python, flags", [
    (lambda: DiceTape.parse(""), ArgumentError, Arg("dice"),
     'dice needs throws such as "3-4 6-6 1-2"', '--dice needs throws such as "3-4 6-6 1-2"'),
    (lambda: DiceTape.parse("3-4 3-9").load(None, None), ArgumentError, Arg("dice"),
     f"dice: throw 2 is '3-9'; {TAPE_WORDS}", f"--dice: throw 2 is '3-9'; {TAPE_WORDS}"),
    (lambda: DiceTape.parse("3-4 x-4").load(None, None), ArgumentError, Arg("dice"),
     "dice: throw 2 is 'x-4', but the dice of these rules never land off (no cocked: chance): write two faces, "
     "like 3-4",
     "--dice: throw 2 is 'x-4', but the dice of these rules never land off (no cocked: chance): write two "
     "faces, like 3-4"),
    (lambda: DiceTape.parse("5").throw(), TapeError, Arg("dice"),
     "dice: throw 1 is '5', but here the dice want a throw of both dice that stands, like 3-4",
     "--dice: throw 1 is '5', but here the dice want a throw of both dice that stands, like 3-4"),
    (lambda: Order.parse("pass"), OrderError, Arg("bets"),
     "bets takes NAME=AMOUNT or NAME=AMOUNT@THROW, not 'pass'",
     "--bet takes NAME=AMOUNT or NAME=AMOUNT@THROW, not 'pass'"),
    (lambda: Order.parse("pass=5@0"), OrderError, Arg("bets", "pass", "5@0"),
     "bets['pass'] = '5@0': @THROW must be a throw number, 1 or more",
     "--bet pass=5@0: @THROW must be a throw number, 1 or more"),
    (lambda: Order.parse_for_analysis("big 6 = 5@3"), OrderError, Arg("bets", "big 6", "5@3"),
     "bets['big 6'] = '5@3': @THROW (make the bet once, before that throw) is for run; analyse takes NAME=AMOUNT",
     "--bet 'big 6=5@3': @THROW (make the bet once, before that throw) is for run; analyse takes NAME=AMOUNT"),
    (lambda: strategy("flta"), ArgumentError, Arg("strategy", value="flta"),
     "strategy='flta' is not a strategy: one of flat, fraction, cautious, best, martingale, paroli, dalembert, "
     "labouchere, fibonacci; did you mean 'flat'?",
     "--strategy flta is not a strategy: one of flat, fraction, cautious, best, martingale, paroli, dalembert, "
     "labouchere, fibonacci; did you mean 'flat'?"),
    (lambda: strategy("flat", 0), ArgumentError, Arg("stake"),
     "stake must be more than 0, not 0", "--stake must be more than 0, not 0"),
])
def test_an_error_names_its_argument_in_each_front_ends_words(make, kind, argument, python, flags):
    with pytest.raises(kind) as caught:
        make()
    error = caught.value
    assert isinstance(error, ArgumentError) and isinstance(error, ValueError)
    assert error.argument == argument
    assert str(error) == python
    assert error.said(FLAGS) == flags
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == python and again.argument == argument


def test_the_narrow_kinds_are_still_what_they_were():
    """A caller catching a CastingError, a BetError or a LogError catches these as before."""
    assert issubclass(TapeError, CastingError) and issubclass(OrderError, BetError)
    assert issubclass(FileRefused, LogError) and issubclass(FileExists, LogExists)


def test_a_file_to_write_is_refused_by_the_argument_that_names_it(tmp_path):
    taken = tmp_path / "taken.jsonl"
    taken.write_text("mine\n")
    with pytest.raises(FileExists) as caught:
        create_log(str(taken))
    assert caught.value.argument == Arg("log", value=str(taken))
    assert str(caught.value) == (f"log={str(taken)!r}: the file exists, and a log is not written over a file: "
                                 f"give a fresh name, or force to write over it")
    assert caught.value.said(FLAGS) == (f"--log {taken}: the file exists, and a log is not written over a file: "
                                        f"give a fresh name, or --force to write over it")
    with pytest.raises(FileRefused) as caught:
        create_new_file(str(taken), True, [str(taken)], argument="output", what="schema")
    assert caught.value.said(FLAGS) == (f"--output {taken}: that is a rule file (the game's own, a file it "
                                        f"extends, or a built-in ruleset); a schema is never written over a rule "
                                        f"file, not even with --force: give the schema a name of its own")
    assert taken.read_text() == "mine\n"
    # a name chosen by the command, not given: the error names the file alone
    with pytest.raises(LogExists) as caught:
        create_log(str(taken), argument=None)
    assert not isinstance(caught.value, ArgumentError)
    assert str(caught.value) == (f"{taken}: the file exists, and a log is not written over a file: give a fresh "
                                 f"name, or force to write over it")


def test_the_command_line_says_them_with_flags_and_its_exit_status(tmp_path, capsys):
    assert main(["run", "hoyle", "--dice", "3-4 3-9"]) == 2
    assert capsys.readouterr().err == f"hazard-dsl: error: --dice: throw 2 is '3-9'; {TAPE_WORDS}\n"
    assert main(["run", "craps", "--bet", "pass=5@0"]) == 2
    assert capsys.readouterr().err == "hazard-dsl: error: --bet pass=5@0: @THROW must be a throw number, 1 or more\n"
    taken = tmp_path / "taken.jsonl"
    taken.write_text("mine\n")
    assert main(["run", "cotton", "--players", "Ann,Ben", "--log", str(taken)]) == 2  # as schema --output
    assert capsys.readouterr().err == (f"hazard-dsl: error: --log {taken}: the file exists, and a log is not "
                                       f"written over a file: give a fresh name, or --force to write over it\n")
