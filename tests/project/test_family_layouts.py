"""The layouts of the family of Hazard as built-in rule files (issue 37,
point 6): Grand Hazard, Sic Bo, chuck-a-luck, Crown and Anchor.

Each bet's edge as `analyse NAME --json` gives it is held against an
independent count in tests/data/family_counts.py (itertools.product over
the faces and Fractions, never the tool); each case names the source the
payout is taken from (the rule file cites it in full)."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.cli import main
from tests.conftest import RULESETS
from tests.data import family_counts as counts

LAYOUTS = ["chuck_a_luck", "crown_and_anchor"]
NUMBERS = ["one", "two", "three", "four", "five", "six"]
MARKS = ["crown", "anchor", "heart", "diamond", "club", "spade"]


def edges(capsys, name: str, *options: str) -> dict[str, F]:
    """Every bet's edge, exact, from `analyse NAME --json [--option ...]`."""
    args = ["analyse", name, "--json"]
    for option in options:
        args += ["--option", option]
    assert main(args) == 0
    bets = json.loads(capsys.readouterr().out)["bets"]
    return {bet: F(figures["edge"]) for bet, figures in bets.items()}


@pytest.mark.parametrize("name", LAYOUTS)
def test_the_layout_checks_clean(name):
    assert check_file(RULESETS / f"{name}.yaml") == []


# Chuck-a-luck: Britannica ("chuck-a-luck") pays 1, 2 and 3 to 1;
# Wikipedia ("Chuck-a-luck") gives 10 to 1 on three of the number.
@pytest.mark.parametrize(("triple", "paid"), [("3", F(3)), ("10", F(10))])
def test_chuck_a_luck_every_number(capsys, triple, paid):
    got = edges(capsys, "chuck_a_luck", f"triple={triple}")
    want = {
        bet: counts.number_bet(face, paid)
        for face, bet in enumerate(NUMBERS, 1)
    }
    assert got == want
    assert set(want.values()) == {F(17, 216) if paid == 3 else F(5, 108)}


def test_chuck_a_luck_issue_figure():
    assert counts.number_bet(1) == counts.chuck_a_luck() == F(17, 216)


# Crown and Anchor: Britannica ("crown and anchor") and dicegames.com pay
# 1, 2 and 3 to 1; the marks are faces 1 to 6 in the order the file names.
def test_crown_and_anchor_every_mark(capsys):
    want = {mark: counts.number_bet(face) for face, mark in enumerate(MARKS, 1)}
    assert edges(capsys, "crown_and_anchor") == want
    assert set(want.values()) == {F(17, 216)}
