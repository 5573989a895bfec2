"""--seed (audit 10, finding 11): a whole number too long is said to be too large, with the
bound, not "not a whole number"; every command says a bad seed in the same one line naming
--seed, without argparse's usage block (run, simulate and play judged it as a type of
argparse's, analyse as text)."""

from __future__ import annotations

import pytest

from hazard_dsl.cli import main
from hazard_dsl.commands.dice import seed_read
from hazard_dsl.commands.errors import SettingError

# 2^64 − 1, the largest seed numpy's generators take, written out by hand as the bound
BOUND = "18,446,744,073,709,551,615"
assert int(BOUND.replace(",", "")) == 2**64 - 1

def code(argv) -> int:
    """The command's exit code: argparse's refusals exit from inside main (SystemExit)."""
    try:
        return main(argv)
    except SystemExit as stopped:
        return stopped.code


COMMANDS = [["run", "passage"], ["simulate", "passage"], ["play", "passage", "--players", "Ann,Ben"],
            ["analyse", "passage", "--games", "2", "--simulate", "10"]]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
@pytest.mark.parametrize("seed, said", [
    ("9" * 30, (f"--seed '{'9' * 20}…' (30 digits) is too large: a seed is a whole number from 0 to 2^64 − 1 "
                f"({BOUND})")),
    ("18446744073709551616", (f"--seed '18446744073709551616' is too large: a seed is a whole number from 0 to "
                              f"2^64 − 1 ({BOUND})")),
    ("1" + "0" * 4999, (f"--seed '1{'0' * 19}…' (5,000 digits) is too large: a seed is a whole number from 0 "
                        f"to 2^64 − 1 ({BOUND})")),
    ("-1", "--seed '-1' is not a whole number from 0 to 2^64 − 1"),
    ("abc", "--seed 'abc' is not a whole number from 0 to 2^64 − 1"),
    ("1.5", "--seed '1.5' is not a whole number from 0 to 2^64 − 1"),
])
def test_a_bad_seed_is_one_line_naming_seed(command, seed, said, capsys):
    assert code(command + ["--seed", seed]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"hazard-dsl: error: {said}\n" and captured.out == ""


@pytest.mark.parametrize("text, seed", [("0", 0), ("007", 7), ("+7", 7), (" 12 ", 12), ("-0", 0),
                                        ("0" * 29 + "5", 5), ("18446744073709551615", 2**64 - 1)])
def test_a_seed_as_written_is_read_as_int_would(text, seed):
    assert seed_read(text) == seed == int(text)


def test_leading_zeros_are_not_counted_as_size(capsys):
    """30 characters, the seed 5: the same games as --seed 5."""
    assert main(["run", "passage", "--games", "2", "--seed", "0" * 29 + "5", "--json"]) == 0
    padded = capsys.readouterr().out
    assert main(["run", "passage", "--games", "2", "--seed", "5", "--json"]) == 0
    assert capsys.readouterr().out == padded and '"seed": 5' in padded


def test_the_seed_is_a_setting_error_each_front_end_words():
    with pytest.raises(SettingError) as caught:
        seed_read("9" * 30)
    assert str(caught.value) == (f"seed '{'9' * 20}…' (30 digits) is too large: a seed is a whole number from 0 "
                                 f"to 2^64 − 1 ({BOUND})")
