"""The new user's audit (notes/audit42/report.md), findings C, G, H, I and J: money in the
period's words, bounds said alike, a folder as --log, a log cut short in its first line, an
empty name in --players."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import pytest

from hazard_dsl.commands.loading import load
from hazard_dsl.money import MoneyText, money_read

from tests.conftest import ROOT

# Hoyle's money: pounds, shillings and pence counted in shillings (20s a pound, 12d a
# shilling), and the sum it names, "half a guinea" = 21/2 shillings (rulesets/hoyle.yaml).
# A guinea is thus 21 shillings, as it was from 1717; "a guinea" is twice the sum named.
HOYLE = load("hoyle").table
COTTON = load("cotton").table  # the same coins, and no guinea named at all
CRAPS = load("craps").table  # dollars


def cli(*argv, stdin="", cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], input=stdin, capture_output=True,
                          text=True, cwd=cwd, env=dict(os.environ, COLUMNS="100"), timeout=120)


def said(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------------- C: money in the period's words

@pytest.mark.parametrize("text, shillings", [
    ("a guinea", 21), ("one guinea", 21), ("A Guinea", 21), ("5 guineas", 5 * 21), ("2 guineas", 42),
    ("1½ guineas", Fraction(63, 2)), ("a guinea and 6d", 21 + Fraction(6, 12)),
    ("half a guinea", Fraction(21, 2)),  # the sum as named, as before
    # half of a coin the money section declares: 12d / 2, 20s / 2
    ("half a shilling", Fraction(1, 2)), ("half a pound", 10), ("half a pound and 6d", 10 + Fraction(1, 2)),
])
def test_a_coin_of_the_money_section_in_its_plural_and_its_a_and_half_a_forms(text, shillings):
    assert money_read(HOYLE, text) == shillings


def test_half_a_dollar_at_craps():
    assert money_read(CRAPS, "half a dollar") == Fraction(1, 2)


@pytest.mark.parametrize("table, text, word", [
    (COTTON, "2 guineas", "guineas"),  # the count is understood; the coin is not (Cotton names none)
    (COTTON, "a guinea", "guinea"), (COTTON, "half a guinea", "guinea"),
    (HOYLE, "half a crown", "crown"),  # no crown in Hoyle's money
    (HOYLE, "5 crowns", "crowns"), (HOYLE, "a lot", "lot"),
    # the word itself, where the count is glued to it or what follows reads by itself
    (HOYLE, "8x 6d", "8x"), (HOYLE, "2 6d", "2"), (HOYLE, "2s 6", "6"),
])
def test_the_word_not_understood_is_the_one_named(table, text, word):
    with pytest.raises(MoneyText) as refused:
        money_read(table, text)
    assert f"not an amount of money: {word!r} in {text!r} is not understood; write it as 2s 6d" in str(refused.value)


def test_run_takes_guineas_as_the_same_shillings():
    # Ann casts: seven is the main (3-4) and she nicks it with eleven (5-6): she wins Ben's 1s
    # stake and loses his side bet of a guinea: Ann 105 + 1 - 21 = 85s = £4 5s, Ben 125s = £6 5s
    guineas = cli("run", "hoyle", "--players", "Ann,Ben", "--dice", "3-4 5-6", "--purse", "5 guineas",
                  "--bet", "Ben:side=a guinea")
    plain = cli("run", "hoyle", "--players", "Ann,Ben", "--dice", "3-4 5-6", "--purse", "105",
                "--bet", "Ben:side=21")
    assert guineas.returncode == 0, guineas.stderr
    assert guineas.stdout == plain.stdout
    assert "Ann  £4 5s" in guineas.stdout and "Ben  £6 5s" in guineas.stdout


def test_half_a_crown_is_refused_naming_the_crown():
    result = cli("run", "hoyle", "--players", "Ann,Ben", "--purse", "half a crown")
    assert result.returncode == 2, result.stderr
    assert ("--purse: not an amount of money: 'crown' in 'half a crown' is not understood"
            in said(result.stderr))


def test_a_side_bet_in_guineas_at_cotton_blames_the_guineas():
    result = cli("play", "cotton", "--players", "Ann,Ben", "--dice", "3-4 5-6", "--no-log",
                 stdin="bets\n\n\nben side 2 guineas\n\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Not an amount of money: 'guineas' in '2 guineas' is not understood" in said(result.stdout)


# ---------------------------------------------------------------------- G: bounds said alike

@pytest.mark.parametrize("argv, bound", [
    (("run", "cotton", "--games", "-1"), "--games must be between 1 and 1,000,000"),  # MAX_GAMES of run
    (("simulate", "cotton", "--games", "0"), "--games must be between 1 and 10,000,000,000,000"),
    (("play", "cotton", "--players", "A,B", "--rounds", "0", "--no-log"), "--rounds must be between 1 and 10,000"),
    (("simulate", "cotton", "--workers", "0"), "--workers must be between 1 and 1,024"),
])
def test_every_bound_says_its_number_with_separators(argv, bound):
    import re

    result = cli(*argv)
    assert result.returncode == 2, result.stderr
    assert f"hazard-dsl: error: {bound}\n" == result.stderr
    assert not re.search(r"[0-9]{4}", result.stderr)  # no number of four digits or more unseparated


# ---------------------------------------------------------------------- H: a folder as --log

@pytest.mark.parametrize("argv", [
    ("run", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", "d"),
    ("run", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", "d", "--force"),  # never over a folder
    ("play", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", "d"),
])
def test_a_folder_as_log_is_called_a_folder_and_refused_as_an_argument(tmp_path, argv):
    (tmp_path / "d").mkdir()
    result = cli(*argv, stdin="quit\n", cwd=tmp_path)
    assert result.returncode == 2, (result.returncode, result.stderr)  # as schema --output's refusals
    assert said(result.stderr) == ("hazard-dsl: error: --log d: that is a folder; a log is written to a file: "
                                   "give a file name, in that folder or elsewhere")
    assert list((tmp_path / "d").iterdir()) == []


def test_an_existing_log_file_and_an_existing_schema_are_refused_with_one_exit_status(tmp_path):
    (tmp_path / "taken").write_text("mine\n")
    log = cli("run", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", "taken", cwd=tmp_path)
    schema = cli("schema", "--output", "taken", cwd=tmp_path)
    assert (log.returncode, schema.returncode) == (2, 2), (log.stderr, schema.stderr)
    assert "--log taken: the file exists, and a log is not written over a file" in log.stderr
    assert (tmp_path / "taken").read_text() == "mine\n"


def test_a_log_that_cannot_be_trusted_is_still_exit_1(tmp_path):
    (tmp_path / "junk.jsonl").write_text("not json\n")
    result = cli("replay", "junk.jsonl", cwd=tmp_path)
    assert result.returncode == 1 and "junk.jsonl:1: this line is not a JSON event" in result.stderr


# ---------------------------------------------------------------------- I: a first line cut short

@pytest.mark.parametrize("command", [("replay",), ("play", "--resume")])
def test_a_log_whose_only_line_was_cut_short_is_said_so_with_its_bytes(tmp_path, command):
    made = cli("run", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", "full.jsonl", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    first = (tmp_path / "full.jsonl").read_bytes().split(b"\n")[0]
    assert len(first) > 150  # the session event is longer than the cut: the cut is inside it
    (tmp_path / "half.jsonl").write_bytes(first[:150])  # as `head -c 150` of the log: killed while writing
    result = cli(*command, "half.jsonl", stdin="", cwd=tmp_path)
    assert result.returncode == 1
    assert said(result.stderr) == ("hazard-dsl: error: half.jsonl:1: its only line is cut short (150 bytes and "
                                   "no line end): the session was stopped as it wrote its first event, so no "
                                   "session was logged here")
    assert (tmp_path / "half.jsonl").read_bytes() == first[:150]  # left as it was, even by --resume


@pytest.mark.parametrize("content, says", [
    (b"", "empty.jsonl: empty: no session was logged here"),  # truly empty: as before
    (b"hello", "empty.jsonl:1: its only line (5 bytes and no line end) is not a session event"),
])
def test_a_log_without_a_whole_line(tmp_path, content, says):
    (tmp_path / "empty.jsonl").write_bytes(content)
    result = cli("replay", "empty.jsonl", cwd=tmp_path)
    assert result.returncode == 1 and says in said(result.stderr)


# ---------------------------------------------------------------------- J: an empty name in --players

@pytest.mark.parametrize("names, place", [("Ann,,Ben", "place 2 of 3"), ("Ann,Ben,", "place 3 of 3"),
                                          (",Ann,Ben", "place 1 of 3"), ("Ann, ,Ben", "place 2 of 3")])
def test_an_empty_name_among_the_players_is_refused_naming_its_place(names, place):
    result = cli("run", "cotton", "--players", names, "--seed", "1")
    assert result.returncode == 2, result.stderr
    assert said(result.stderr) == (f"hazard-dsl: error: --players: the name in {place} is empty ({names!r}); give "
                                   f"each player a name, separated by commas: --players Ann,Ben,Cat")
    assert "Game 1" not in result.stdout  # nobody was seated


def test_no_name_at_all_is_told_how_many_are_needed_as_before():
    result = cli("run", "cotton", "--players", ",,", "--seed", "1")
    assert result.returncode == 2
    assert "--players takes two names or more" in said(result.stderr)


# ---------------------------------------------------------------------- N: every money flag in the coin

# Cotton's coin (rulesets/cotton.yaml): 20s a pound, so "10s" = 10, "£1" = 20, "£1 10s" = 30
# shillings; each command with its amounts in coin prints what it prints with them as numbers.
@pytest.mark.parametrize("coined, plain", [
    (("analyse", "cotton", "--bankroll", "10s", "--goal", "£1", "--stake", "1s", "--strategy", "martingale",
      "--cap", "8s"),
     ("analyse", "cotton", "--bankroll", "10", "--goal", "20", "--stake", "1", "--strategy", "martingale",
      "--cap", "8")),
    (("analyse", "cotton", "--bankroll", "half a pound", "--goal", "£1", "--stake", "best"),
     ("analyse", "cotton", "--bankroll", "10", "--goal", "20", "--stake", "best")),
    (("simulate", "cotton", "--players", "A,B", "--strategy", "martingale", "--purse", "£1", "--goal", "£1 10s",
      "--games", "200", "--seed", "1"),
     ("simulate", "cotton", "--players", "A,B", "--strategy", "martingale", "--purse", "20", "--goal", "30",
      "--games", "200", "--seed", "1")),
    (("run", "craps", "--bet", "pass=5", "--bankroll", "$12.50", "--seed", "4", "--games", "3"),
     ("run", "craps", "--bet", "pass=5", "--bankroll", "12.5", "--seed", "4", "--games", "3")),
])
def test_money_flags_take_the_ruleset_coin_with_the_same_results(coined, plain):
    a, b = cli(*coined), cli(*plain)
    assert a.returncode == 0, a.stderr
    # (run's last line gives the command again, each flag as written: "--bankroll '$12.50'")
    assert (a.stdout.replace("'$12.50'", "12.5"), a.stderr) == (b.stdout, b.stderr)


def test_a_money_flag_not_understood_says_how_to_write_it_in_the_coin():
    result = cli("analyse", "cotton", "--bankroll", "10", "--goal", "2 guineas", "--stake", "1")
    assert result.returncode == 2
    assert said(result.stderr) == ("hazard-dsl: error: --goal: not an amount of money: 'guineas' in '2 guineas' is "
                                   "not understood; write it as 2s 6d, or 2.50 in shillings")
