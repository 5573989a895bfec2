"""The `printed:` ledger is read like every other key: each mistake is an error at its place,
with "did you mean" where a close name exists, and a ledger written in a file another extends
is that file's alone (check.printed)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from hazard_dsl.check import check_ruleset
from hazard_dsl.check.printed import figure_value

HEAD = """\
name: Ledger test
extends: cotton
sources:
  - title: Of the Laws of Chance
    author: John Arbuthnot
    year: 1692
printed:
"""
GOOD = """\
  - source: 1
    page: "90"
    words: so the hazard of the Caster is to that of the Setter 244, 251
    figure: 244 to 251
    of: win
    given: {main: 7}
"""


def found(tmp_path, entry: str):
    path = tmp_path / "ledger.yaml"
    path.write_text(HEAD + entry, encoding="utf-8")
    ruleset, diagnostics = check_ruleset(path)
    return ruleset, [(d.position.line, d.position.column, d.message, d.hint)
                     for d in diagnostics if d.is_error]


def test_a_good_entry_reads_with_every_field(tmp_path):
    ruleset, errors = found(tmp_path, GOOD)
    assert errors == []
    (entry,) = ruleset.printed
    assert (entry.source, entry.page, entry.figure, entry.of, entry.given) == (1, "90", "244 to 251", "win",
                                                                              (("main", (7,)),))
    assert entry.words == "so the hazard of the Caster is to that of the Setter 244, 251"


@pytest.mark.parametrize("entry, line, column, message, hint", [
    # a misspelt key, said at the key, with the key it stands for
    (GOOD.replace("figure:", "figur:"), 11, 5, "unknown key 'figur' in a printed figure", "did you mean 'figure'?"),
    # the source is a place in `sources:`, and the file lists one
    (GOOD.replace("source: 1", "source: 3"), 8, 13, "printed: source 3: the file lists 1 source",
     "a source is named by its place in `sources:`, from 1"),
    (GOOD.replace("source: 1", "source: Arbuthnot"), 8, 13,
     "printed: source must be a whole number, the source's place in `sources:` (from 1)", None),
    # a figure that is no ratio, fraction or percentage
    (GOOD.replace("244 to 251", "about even"), 11, 13,
     "printed: figure 'about even' is not a ratio, a fraction or a percentage",
     'write it as printed: "244 to 251", "244/495" or "49.29%"'),
    # what it is a figure of: a result, a label or a bet's edge
    (GOOD.replace("of: win", "of: wins"), 12, 9,
     "printed: of 'wins' is not a figure the analysis gives (did you mean 'win'?)", None),
    (GOOD.replace("of: win", "of: win\n    bet: stakes"), 13, 10,
     "printed: there is no bet 'stakes' (did you mean 'stake'?)", "bets: stake, side"),
    # a variable the ruleset has, and a value in its range
    (GOOD.replace("{main: 7}", "{mian: 7}"), 13, 13,
     "printed: given: there is no variable 'mian' (did you mean 'main'?)", "variables: main, chance"),
    (GOOD.replace("{main: 7}", "{main: 13}"), 13, 19, "printed: given: main = 13 is outside its range", None),
    # a required key
    (GOOD.replace("    of: win\n", ""), 8, 5, "a printed figure needs 'of'", None),
    # words are bounded as every text of a rule file is (parse.reader.checked_text)
    (GOOD.replace("words: so the hazard", "words: " + "x" * 10_001 + " so"), 10, 12,
     "printed: words is longer than 10000 characters", None),
])
def test_each_mistake_is_an_error_at_its_place(tmp_path, entry, line, column, message, hint):
    _, errors = found(tmp_path, entry)
    assert (line, column, message, hint) in [(l, c, m, h if hint is not None else None) for l, c, m, h in errors], \
        errors


def test_a_misspelt_key_is_read_as_the_key_it_stands_for(tmp_path):
    # as everywhere in a rule file: one error, and the figure is still read
    ruleset, errors = found(tmp_path, GOOD.replace("figure:", "figur:"))
    assert [m for _, _, m, _ in errors] == ["unknown key 'figur' in a printed figure"]


def test_a_bets_figure_is_its_edge(tmp_path):
    entry = "  - source: 1\n    figure: 1/2\n    of: win\n    bet: stake\n"
    _, errors = found(tmp_path, entry)
    assert [m for _, _, m, _ in errors] == ["printed: a bet's figure is its edge: write `of: edge` (not 'win')"]


def test_a_ledger_is_not_inherited(tmp_path):
    # petty.yaml extends cotton.yaml, whose ledger is of Cotton's game: petty's figures differ
    path = tmp_path / "child.yaml"
    path.write_text("name: Child\nextends: cotton\n", encoding="utf-8")
    ruleset, diagnostics = check_ruleset(path)
    assert ruleset.printed == () and not [d for d in diagnostics if d.is_error]
    cotton, _ = check_ruleset("rulesets/cotton.yaml")
    assert len(cotton.printed) == 4


@pytest.mark.parametrize("text, value", [
    ("244 to 251", ("ratio", (244, 251))),
    ("7,295 to 6,961", ("ratio", (7295, 6961))),
    ("1396 : 1493", ("ratio", (1396, 1493))),
    ("244/495", ("fraction", Fraction(244, 495))),
    ("49.29%", ("percent", (Fraction(4929, 10000), 2))),
    ("5 to 0", ("ratio", (5, 0))),
    ("0 to 0", None),
    ("3/2", None),  # a chance is at most 1
    ("12", None),
])
def test_the_forms_of_a_figure(text, value):
    assert figure_value(text) == value


def test_an_error_in_the_ledger_does_not_hold_back_the_game(tmp_path):
    # the ledger is not the game: with its error, the game is still explored in the same run
    path = tmp_path / "ledger.yaml"
    path.write_text(HEAD + GOOD.replace("of: win", "of: nik"), encoding="utf-8")
    _, diagnostics = check_ruleset(path)
    assert [d.message for d in diagnostics] == [
        "printed: of 'nik' is not a figure the analysis gives (did you mean 'nick'?)"]


def test_the_editor_offers_the_keys_of_a_printed_figure():
    # completion reads the schema (language.schema), which learns the ledger's keys
    from hazard_dsl.language.service import Place
    from tests.language.test_language_features import opened

    service, uri = opened("name: Mine\nextends: cotton\nprinted:\n  - source: 1\n    \n")
    assert [c.label for c in service.completion(uri, Place(4, 4))] == ["page", "words", "figure", "of", "bet",
                                                                       "given", "options", "note"]


def test_a_figure_of_other_rules_is_set_beside_the_exact_figure_of_those_rules(capsys):
    # Dice Play prints Grand Hazard's total 4 paid 60 for 1: 3 of the 216 throws make 4 and are
    # paid 59 to 1, so the house keeps 1 - 60 * 3/216 = 1/6 (16.666% cut short). Under the option
    # that pays "to 1" the ledger still compares it with the "for 1" rules it is a figure of.
    from hazard_dsl.cli import main

    assert main(["analyse", "grand_hazard", "--option", "payoff=to", "--json"]) == 0
    row = next(r for r in json.loads(capsys.readouterr().out)["printed"] if r["bet"] == "total_4")
    assert row["options"] == {"payoff": "for"} and Fraction(row["exact"]) == 1 - 60 * Fraction(3, 216)
    assert row["agrees"] is True


@pytest.mark.parametrize("options, said", [
    ("{payof: for}", "there is no option 'payof'"),
    ("{payoff: four}", "payoff has no value 'four'"),
    ("payoff", "options must be a mapping"),
])
def test_a_printed_figures_options_are_checked_where_written(tmp_path, capsys, options, said):
    from hazard_dsl.cli import main

    text = ((Path(__file__).resolve().parents[2] / "rulesets" / "grand_hazard.yaml").read_text()
            .replace("    options: {payoff: for}\n    note: paid for 1\n", f"    options: {options}\n    note: x\n", 1))
    path = tmp_path / "grand.yaml"
    path.write_text(text)
    assert main(["check", str(path)]) == 1
    assert said in capsys.readouterr().err


# issue 40's fuzz: a figure of 4,304 digits reached Fraction(), whose int() refuses past
# Python's 4,300, and `check`, `analyse` and `run` ended in an internal error (exit 70). A
# figure is refused past 64 digits, as the reader refuses a number (parse.yaml_nodes), with
# its first digits said, never thousands of them.
@pytest.mark.parametrize("figure", ["43" + "0" * 4302 + ".94%", "1" + "0" * 4400 + " to 1",
                                    "1/" + "9" * 5000, "1" + "0" * 64 + " to 1"])
def test_a_figure_of_too_many_digits_is_an_error_not_a_crash(tmp_path, figure):
    _, errors = found(tmp_path, GOOD.replace("244 to 251", f'"{figure}"'))
    assert errors == [(11, 13, f"printed: figure '{figure[:12]}…' has more than 64 digits; no source "
                                "prints one so large", None)]
    assert figure_value(figure) is None


def test_a_figure_of_64_digits_is_read():  # 63 in the first term, 1 in the second: 64 in all
    assert figure_value("1" + "0" * 62 + " to 1") == ("ratio", (Fraction(10 ** 62), Fraction(1)))
