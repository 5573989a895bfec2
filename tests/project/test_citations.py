"""Sources a reader can find, and derived rulesets that say what they are (issue 21, items 2, 3).

Everything printed from the rule files cites works by title, author, year, page and address,
never the project's own names for them (the reference's F2, S16, D3, "seed text 004", "open
question 12.1", the file hazard-rules.md); `show` says its rules in words, never in the
expression language; and a file built with `extends` that cites nothing of its own is shown as
"built on" its parent, with a warning from `check`."""

from __future__ import annotations

import json
import re

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.cli import main
from hazard_dsl.check.reading import read_ruleset

from tests.conftest import RULESETS, SHIPPED

INTERNAL = re.compile(r"\bF\d+\b|\bS\d+\b|\bD\d+\b|hazard-rules|seed texts?|open question", re.I)
COMMANDS = [["show"], ["rules", "--format", "text"], ["rules", "--format", "markdown"],
            ["rules", "--format", "json"], ["analyse"]]
EXPRESSION = re.compile(r"option\.|\s[=!]=\s|\bif\b.*\bthen\b|\bways\(|\bweight\(")
DERIVED = "name: My Hazard\nextends: cotton\ndescription: Cotton's game, my way.\n"


def printed(capsys, *args) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_no_internal_name_is_printed(capsys, monkeypatch, name, command):
    monkeypatch.setenv("COLUMNS", "200")  # whole lines: a name split across two would hide
    text = printed(capsys, command[0], name, *command[1:])
    assert not INTERNAL.findall(text), (name, command, INTERNAL.findall(text))


@pytest.mark.parametrize("name", SHIPPED)
def test_no_internal_name_in_the_rule_files(name):
    text = (RULESETS / f"{name}.yaml").read_text(encoding="utf-8")
    assert not INTERNAL.findall(text)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_source_can_be_looked_up(capsys, name):
    """Each cited work has a title and an author or an address; a built-in cites its own."""
    ruleset = read_ruleset(RULESETS / f"{name}.yaml")
    assert ruleset.sources and not ruleset.inherited_sources
    shown = json.loads(printed(capsys, "show", name, "--json"))["sources"]
    sheet = json.loads(printed(capsys, "rules", name, "--format", "json"))["sources"]
    assert shown == sheet and len(shown) == len(ruleset.sources)
    for source in shown:
        assert source["title"] and (source["author"] or source["url"]), source
        assert not source["url"] or source["url"].startswith(("http://", "https://"))


@pytest.mark.parametrize("name", SHIPPED)
def test_a_built_in_ruleset_gets_no_warning_about_its_sources(name):
    assert not [d for d in check_file(RULESETS / f"{name}.yaml") if "source" in d.message]


def test_the_wrong_citations_are_gone():
    cotton = (RULESETS / "cotton.yaml").read_text(encoding="utf-8")
    assert not re.search(r"(?<!\d)005\b", cotton)  # the texts are 000 to 004: "004 and 005" named one that is not
    # the history sheet is undated; the 2005 is Barker's (his page is dated 2003, 2005)
    assert read_ruleset(RULESETS / "history_sheet.yaml").year is None
    barker = [s for s in read_ruleset(RULESETS / "petty.yaml").sources if s.author == "Trevor Barker"]
    assert [s.year for s in barker] == ["2003, 2005"]
    # the caster's right to pass after a win: the two re-enactors' sheets, not Barker
    passing = read_ruleset(RULESETS / "cotton.yaml").passing
    assert passing.voluntary_after_win
    assert "Hazard – a Game of Dice" in passing.description and "History of Hazard & Craps" in passing.description
    assert "Barker" not in passing.description


def test_chicken_and_petty_do_not_inherit_a_pass_after_a_win():
    """Neither Steinmetz's club game nor Barker's Petty Hazard lets the caster give up the dice
    after a win: Barker's caster "starts all over again", the club's keeps the box until he throws
    out three times. The history sheet, whose words give the right, keeps it."""
    for name in ("chicken", "petty"):
        assert not read_ruleset(RULESETS / f"{name}.yaml").passing.voluntary_after_win
    assert read_ruleset(RULESETS / "history_sheet.yaml").passing.voluntary_after_win


def test_show_says_the_passing_rule_in_words(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    said = json.loads(printed(capsys, "show", "cotton", "--json"))["passing"]["in_words"]
    assert said == ("after every loss (passing=after_loss); after 3 losses in a row (passing=three_losses); "
                    "after a game ending in no main (first_throw=lose_turn); the caster may pass after a win")
    # an ending that needs two settings away from the defaults says both (Chicken calls its main)
    chicken = json.loads(printed(capsys, "show", "chicken", "--json"))["passing"]["in_words"]
    assert chicken.endswith("after a game ending in no main (first_throw=lose_turn, main=thrown)")
    assert "after every loss (passing=after_loss); after 3 losses in a row" in printed(capsys, "show", "cotton")
    petty = json.loads(printed(capsys, "show", "petty", "--json"))["passing"]["in_words"]
    assert petty.startswith("after every loss (passing=after_loss)") and "after a win" not in petty


@pytest.mark.parametrize("name", SHIPPED)
def test_show_and_the_sheet_print_no_expression(capsys, monkeypatch, name):
    monkeypatch.setenv("COLUMNS", "200")
    for command in (["show", name], ["rules", name]):
        text = printed(capsys, *command)
        assert not EXPRESSION.findall(text), (command, EXPRESSION.findall(text))


def test_an_odds_payout_is_said_in_words(capsys):
    bets = json.loads(printed(capsys, "show", "french", "--json"))["bets"]
    said = "the ways of throwing the main to the ways of throwing the chance"
    assert bets["odds"]["pays_in_words"] == (f"{said} (bank_odds=true_odds); {said}, times 19/20 "
                                             f"(bank_odds=twentieth_short); {said}, times 9/10 (bank_odds=tenth_short)")
    assert bets["stake"]["pays_in_words"] == "1 to 1"
    hoyle = json.loads(printed(capsys, "show", "hoyle", "--json"))["bets"]
    assert hoyle["odds"]["pays_in_words"] == said
    craps = json.loads(printed(capsys, "show", "craps", "--json"))["bets"]
    assert craps["odds"]["pays_in_words"] == "the ways of throwing 7 to the ways of throwing the point"
    sheet = json.loads(printed(capsys, "rules", "french", "--format", "json", "--option", "bank_odds=tenth_short"))
    assert {b["bet"]: b["pays_rule"] for b in sheet["bets"]} == {"stake": "1 to 1", "side": "1 to 1",
                                                               "odds": f"{said}, times 9/10"}


# --------------------------------------------------------------------------- derived rulesets


def test_a_derived_file_without_sources_is_warned_about_where_it_extends(write_ruleset):
    path = write_ruleset(DERIVED)
    found = check_file(path)
    assert [(d.severity, d.position.line, d.position.column) for d in found] == [("warning", 2, 1)]
    assert found[0].message == "this ruleset cites no source of its own: it is built on Hazard (Cotton, 1674)"
    assert "sources:" in found[0].hint
    # the same file citing something of its own is not warned about
    cited = write_ruleset(DERIVED + "sources: [{title: My house rules, author: me}]\n", "cited.yaml")
    assert check_file(cited) == []


def test_a_derived_file_without_sources_shows_what_it_is_built_on(write_ruleset, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    path = str(write_ruleset(DERIVED))
    ruleset = read_ruleset(path)
    assert ruleset.sources == () and ruleset.built_on == "Hazard (Cotton, 1674)"
    assert ruleset.inherited_from == "Hazard (Cotton, 1674)" and ruleset.inherited_sources
    show = printed(capsys, "show", path)
    assert "Built on Hazard (Cotton, 1674); it cites no source of its own (extends: cotton)" in show
    assert "Sources of Hazard (Cotton, 1674), which this ruleset is built on (it cites none of its own)" in show
    assert "\nSources\n" not in show
    data = json.loads(printed(capsys, "show", path, "--json"))
    assert data["sources"] == [] and data["built_on"] == "Hazard (Cotton, 1674)"
    assert data["inherited_sources"]["from"] == "Hazard (Cotton, 1674)"
    sheet = printed(capsys, "rules", path)
    assert "Built on Hazard (Cotton, 1674); it cites no source of its own." in sheet
    assert "This ruleset cites no source of its own. It is built on Hazard (Cotton, 1674), which cites:" in sheet
    assert json.loads(printed(capsys, "rules", path, "--format", "json"))["sources"] == []
    graph = printed(capsys, "graph", path)
    assert "Built on Hazard (Cotton, 1674); no source of its own" in graph and "Source: " not in graph


def test_sources_inherited_from_further_up_name_whose_they_are(write_ruleset, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    write_ruleset(DERIVED, "mine.yaml")
    path = write_ruleset("name: Mine again\nextends: mine.yaml\n", "again.yaml")
    ruleset = read_ruleset(path)
    assert (ruleset.built_on, ruleset.inherited_from) == ("My Hazard", "Hazard (Cotton, 1674)")
    (warning,) = check_file(path)
    assert warning.message.endswith("built on My Hazard, whose sources are those of Hazard (Cotton, 1674)")
    assert "Sources of Hazard (Cotton, 1674), which My Hazard is built on" in printed(capsys, "show", str(path))


def test_a_derived_built_in_says_what_it_is_built_on(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert "Built on Hazard (Cotton, 1674) (extends: cotton)" in printed(capsys, "show", "petty")
    assert "Built on Hazard (Hoyle, 1790)." in printed(capsys, "rules", "chicken")
