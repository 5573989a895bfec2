"""The ledger of printed figures beside the exact ones (render.printed): Arbuthnot's three
ratios of 1692 (Of the Laws of Chance, pp. 90-92, EEBO-TCP A25748) under Cotton's nicks and
outs, each verified here by counting the 36 throws of two dice, apart from the tool."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from hazard_dsl.check import check_ruleset
from hazard_dsl.cli import main
from hazard_dsl.render.printed import ledger

WAYS = {}
for a, b in product(range(1, 7), repeat=2):
    WAYS[a + b] = WAYS.get(a + b, 0) + 1


def caster_wins(main_: int) -> Fraction:
    """Cotton 1674, p. 168f (and Arbuthnot's shares, pp. 89-92): with the main set, the caster
    nicks with the main, 12 to 6 or 8, 11 to 7; throws out with 2, 3, and 11 or 12 otherwise;
    any other throw is his chance, won if it comes before the main."""
    nicks = {main_} | ({12} if main_ in (6, 8) else set()) | ({11} if main_ == 7 else set())
    win = Fraction(0)
    for total, ways in WAYS.items():
        p = Fraction(ways, 36)
        if total in nicks:
            win += p
        elif total in (2, 3, 11, 12):
            continue
        else:
            win += p * Fraction(ways, ways + WAYS[main_])
    return win


def test_the_enumeration_gives_arbuthnots_ratios_and_the_misprint():
    # "caster to setter A to B" is the caster's A/(A+B)
    assert caster_wins(7) == Fraction(244, 244 + 251)  # p. 90
    assert caster_wins(6) == caster_wins(8) == Fraction(6961, 6961 + 7295)  # p. 91
    assert caster_wins(5) == caster_wins(9) == Fraction(1396, 1396 + 1439)  # his shares; a reprint's 1439
    assert caster_wins(5) != Fraction(1396, 1396 + 1493)  # p. 92 as printed


@pytest.fixture(scope="module")
def rows():
    cotton, _ = check_ruleset("rulesets/cotton.yaml")
    return ledger(cotton)


def test_cottons_ledger_agrees_but_for_the_misprint(rows):
    assert [(r["cited"], r["figure"], r["agrees"]) for r in rows] == [
        ("Arbuthnot 1692, p. 90", "244 to 251", True),
        ("Arbuthnot 1692, p. 91", "6961 to 7295", True),
        ("Arbuthnot 1692, p. 92", "1396 to 1493", False),
        ("Chambers's Encyclopaedia, \"Hazard\"", "7,295 to 6,961", True),
    ]
    assert [r["exact"] for r in rows] == [str(caster_wins(7)), str(caster_wins(6)), str(caster_wins(5)),
                                         str(1 - caster_wins(6))]
    assert [r["exact_said"] for r in rows] == ["244 : 251", "6961 : 7295", "1396 : 1439", "7295 : 6961"]


def test_the_misprint_is_said_with_its_difference(rows):
    # 1396/2889 - 1396/2835 = -0.0092…: 0.92 points lower
    assert float(Fraction(1396, 2889) - Fraction(1396, 2835)) == pytest.approx(-0.0092, abs=5e-5)
    assert rows[2]["verdict"] == ("differs: the exact figure is 1396 : 1439 (1396/2835); as printed 1396/2889, "
                                  "0.92 points lower; the second term is 1439, printed 1493")
    assert rows[2]["printed_share"] == "1396/2889"


def test_analyse_json_gains_the_key_only_where_a_ledger_is(capsys):
    assert main(["analyse", "cotton", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["agrees"] for r in out["printed"]] == [True, True, False, True]
    assert main(["analyse", "hoyle", "--json"]) == 0
    assert "printed" not in json.loads(capsys.readouterr().out)


def test_analyse_show_and_rules_print_the_ledger(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    for command in (["analyse", "cotton"], ["show", "cotton"], ["rules", "cotton"]):
        assert main(command) == 0
        text = capsys.readouterr().out
        assert max(len(line) for line in text.splitlines()) <= 80
        text = " ".join(text.split())  # the words wrap at 80 columns
        assert "1396 to 1493" in text and "1396 : 1439" in text and "differs: " in text, command
        assert "p. 92" in text and "misprint of 1396 to 1439" in text, command
    assert main(["analyse", "hoyle"]) == 0
    assert "Figures the sources print" not in capsys.readouterr().out


def test_a_label_a_percentage_and_a_bets_edge(tmp_path):
    # the nick with a main of 7: 8 throws of 36 (7 and 11). The stake, laid once the main is set, has
    # the edge 1 - 2 × the caster's chance, weighted by the mains thrown (5 to 9: 4, 5, 6, 5, 4 ways of
    # 24): 1979/4032, the corpus's published figure (issue 37)
    thrown = sum(WAYS[m] * caster_wins(m) for m in range(5, 10)) / sum(WAYS[m] for m in range(5, 10))
    assert thrown == Fraction(1979, 4032)
    path = tmp_path / "more.yaml"
    path.write_text("name: More\nextends: cotton\nsources:\n  - title: a test\nprinted:\n"
                    "  - {source: 1, figure: 8/36, of: nick, given: {main: 7}}\n"
                    "  - {source: 1, figure: 22.22%, of: nick, given: {main: 7}}\n"
                    "  - {source: 1, figure: 2/9, of: nick, given: {main: 6}}\n"
                    f"  - {{source: 1, figure: {1 - 2 * Fraction(1979, 4032)}, of: edge, bet: stake}}\n",
                    encoding="utf-8")
    ruleset, found = check_ruleset(path)
    assert not [d for d in found if d.is_error]
    got = ledger(ruleset)
    assert [r["agrees"] for r in got] == [True, True, False, True]
    # with a main of 6 the caster nicks with 6 or 12: 6 throws of 36
    assert got[2]["exact"] == "1/6"


def test_a_main_called_gives_the_same_figures_from_the_callers_choices():
    # called, the caster calls 7 and the game never throws 5, 6, 8 or 9 for a main: the figures
    # given each main are those after each call, the same chances as when thrown (counted above)
    cotton, _ = check_ruleset("rulesets/cotton.yaml")
    rows = ledger(cotton, {"main": "called"})
    assert [r["exact"] for r in rows] == [str(caster_wins(7)), str(caster_wins(6)), str(caster_wins(9)),
                                         str(1 - caster_wins(8))]
    assert [r["agrees"] for r in rows] == [True, True, False, True]


def test_the_web_apis_analyse_gives_the_ledger_as_the_command_line_does():
    from hazard_dsl.serve.jobs import analyse

    assert [r["verdict"] for r in analyse("cotton", {})["printed"]] == [r["verdict"] for r in ledger(
        check_ruleset("rulesets/cotton.yaml")[0])]
    assert "printed" not in analyse("hoyle", {})
