"""Sic Bo's bets as regulators' numbered rules word them (issue 37 point 6):
58 Pa. Code § 625a.3 "Wagers", a casino's Sic-Bo rule 3.1.4 and the New
Zealand Gazette's Tai-Sai rules (1998, p. 396), each read in a retrieved text.  Each test quotes the section and checks the bet
the rule file writes against the section's words, counted over the 216
throws listed here (itertools and Fractions, never the tool's own functions).
A numbered section of published rules stands for a page."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.cli import main

from tests.conftest import RULESETS

THROWS = list(itertools.product(range(1, 7), repeat=3))


def bets(capsys) -> dict:
    argv = ["analyse", "rulesets/sic_bo.yaml", "--json", "--no-options"]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)["bets"]


def chance(wins) -> F:
    return F(sum(1 for throw in THROWS if wins(throw)), len(THROWS))


def three_alike(throw) -> bool:
    return len(set(throw)) == 1


def test_sic_bo_cites_the_pennsylvania_code_section():
    [source] = [s for s in read_ruleset(RULESETS / "sic_bo.yaml").sources
                if s.page == "§ 625a.3"]
    assert source.author == "Pennsylvania Gaming Control Board"
    assert source.url.endswith("/chapter625a/s625a.3.html")
    assert "if a Three of a Kind appears" in source.note


def test_small_and_big_as_section_625a_3_words_them(capsys):
    # § 625a.3 (6): Small "wins if the numeric total of all three dice equals
    # any one of the following totals: 4, 5, 6, 7, 8, 9 or 10 and loses ...
    # if a Three of a Kind appears"; (7) Big likewise for 11 to 17.  Of the
    # 108 throws totalling 4 to 10, 2-2-2 and 3-3-3 are three alike: 105.
    small = chance(lambda t: 4 <= sum(t) <= 10 and not three_alike(t))
    big = chance(lambda t: 11 <= sum(t) <= 17 and not three_alike(t))
    assert small == big == F(105, 216)
    got = bets(capsys)
    assert F(got["small"]["win"]) == small and F(got["big"]["win"]) == big


def test_a_combination_and_one_of_a_kind_as_section_625a_3_words_them(capsys):
    # § 625a.3 (5): two "specific but different numeric values ... on at
    # least two of the dice": a 1 and a 2 show on 216 - 125 - 125 + 64 = 30
    # throws (none without a 1, none without a 2, both counted out twice).
    # (8) One of a Kind "wins if one or more of the three dice shows" the
    # number: 216 - 125 = 91 throws.
    pair = chance(lambda t: 1 in t and 2 in t)
    one = chance(lambda t: 1 in t)
    assert (pair, one) == (F(30, 216), F(91, 216))
    got = bets(capsys)
    assert F(got["pair_1_2"]["win"]) == pair
    assert F(got["number_1"]["win"]) == one


def test_a_double_as_rule_3_1_4_words_it(capsys):
    # Rule 3.1.4: a specific double "shall win if that double or a triple of
    # the same number appears": two 1s and another face, 15 throws, and
    # 1-1-1, 1 throw (§ 625a.3 (2) leaves the triple unsaid).
    [source] = [s for s in read_ruleset(RULESETS / "sic_bo.yaml").sources
                if s.page == "rule 3.1.4"]
    assert "or a triple of the same number appears" in source.note
    double = chance(lambda t: t.count(1) >= 2)
    assert double == F(16, 216)
    assert F(bets(capsys)["double_1"]["win"]) == double


def test_a_double_and_big_as_the_new_zealand_gazette_prints_them(capsys):
    # New Zealand Gazette no. 17 (1998), p. 396, Tai-Sai rule 4.1: Big
    # loses "if the totals 12 or 15 are determined as a result of ... triple
    # 4 or triple 5"; a double shall "win if a triple of the same number
    # appears".  Of the 108 throws totalling 11 to 17, 4-4-4 and 5-5-5 are
    # taken out: 105; a double of 6 (two 6s or three): 15 + 1 = 16.
    [source] = [s for s in read_ruleset(RULESETS / "sic_bo.yaml").sources
                if s.page == "396"]
    assert str(source.year) == "1998" and "triple 4 or triple 5" in source.note
    big = chance(lambda t: 11 <= sum(t) <= 17 and t not in ((4, 4, 4), (5, 5, 5)))
    double = chance(lambda t: t.count(6) >= 2)
    assert (big, double) == (F(105, 216), F(16, 216))
    got = bets(capsys)
    assert (F(got["big"]["win"]), F(got["double_6"]["win"])) == (big, double)
