"""High point craps (issue 37 point 6) as its source words it: 2 and 3 on the
come-out rolled again, 11 and 12 winning at once, 4 to 10 the point, and one
more roll that wins when higher (aelilyreads.com, "Popular Craps Variations",
read whole).  A lower roll losing and the tie (option `tie`) are the rule
file's reading.  Every figure here is counted over the 36 throws listed below,
by conditioning on the come-out and summing over the points (itertools and
Fractions), never by the tool's own functions."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.cli import main

from tests.conftest import RULESETS

PATH = RULESETS / "high_point_craps.yaml"
TOTALS = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
WAYS = {t: TOTALS.count(t) for t in range(2, 13)}


def counted(tie: str) -> dict[str, F]:
    """win, lose, push and the expected number of rolls of one game.

    The come-out is rolled until it is not 2 or 3: of the 33 throws left,
    11 and 12 (3 throws) win and 4 to 10 set the point.  Against point p the
    next roll is higher on `hi` of the 36 throws, lower on `lo`, equal on
    WAYS[p]; under tie=again the roll is repeated until it is not equal."""
    win = F(WAYS[11] + WAYS[12], 33)
    lose = push = F(0)
    rolls = F(36, 33)  # the come-out, 2 and 3 rolled again
    for p in range(4, 11):
        share = F(WAYS[p], 33)
        hi = sum(WAYS[t] for t in WAYS if t > p)
        lo = sum(WAYS[t] for t in WAYS if t < p)
        eq = WAYS[p]
        if tie == "again":
            win += share * F(hi, hi + lo)
            lose += share * F(lo, hi + lo)
            rolls += share * F(36, hi + lo)
        else:
            win += share * F(hi, 36)
            lose += share * F(lo + (eq if tie == "loses" else 0), 36)
            push += share * F(eq if tie == "push" else 0, 36)
            rolls += share
    assert win + lose + push == 1
    return {"win": win, "lose": lose, "push": push, "rolls": rolls}


def analysed(capsys, tie: str) -> dict:
    argv = ["analyse", str(PATH), "--json", "--option", f"tie={tie}"]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_it_checks_clean_and_cites_the_page_it_was_read_from():
    assert [d.message for d in check_file(PATH)] == []
    [source] = read_ruleset(PATH).sources
    assert source.url.startswith("https://aelilyreads.com/")
    assert "An 11 or 12 outcome is a win" in source.note


def test_the_counts_by_hand():
    # Under the casino reading the shooter wins 145 of 297 and the house
    # keeps 7/297 of a stake; a standoff or a repeat on the tie leaves the
    # player 1/11 (the ties of p and 14 - p cancel; 11 and 12 win).
    loses, push, again = (counted(t) for t in ("loses", "push", "again"))
    assert (loses["win"], loses["lose"]) == (F(145, 297), F(152, 297))
    assert loses["lose"] - loses["win"] == F(7, 297)
    assert (push["win"], push["push"]) == (F(145, 297), F(34, 297))
    assert push["win"] - push["lose"] == F(1, 11)
    assert (again["win"], again["lose"]) == (F(6, 11), F(5, 11))
    assert loses["rolls"] == 2


@pytest.mark.parametrize("tie", ["loses", "push", "again"])
def test_analyse_gives_the_counts(capsys, tie):
    want = counted(tie)
    got = analysed(capsys, tie)
    assert (F(got["win"]), F(got["lose"]), F(got["push"])) == (
        want["win"], want["lose"], want["push"])
    assert F(got["edge"]) == want["lose"] - want["win"]
    assert F(got["expected_throws"]) == want["rolls"]


def test_the_labels_say_how_each_game_ended(capsys):
    # 11 or 12 at once: 3 of the 33 come-out throws that count.  Higher and
    # lower balance (p and 14 - p mirror each other): 118/297 each.
    labels = {k: F(v) for k, v in analysed(capsys, "loses")["labels"].items()}
    assert labels == {"high": F(3, 33), "higher": F(118, 297),
                      "lower": F(118, 297), "tie_lost": F(34, 297)}
