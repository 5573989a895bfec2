"""Words a newcomer reads: no doubled `%%`, plurals from the rule file's unit (penny/pence, never
"pennys"), players named by the user never "he", a declined stake said once, no ending that
cannot happen, no option table whose rows are all equal, one marker for one meaning, and a rule
sheet and headline that match the compiled machine (the history sheet's one throw for the main;
the stake's edge, 1979/4032 for the caster, 1.835%, where a third of the games carry no stake —
the "History of Hazard & Craps" sheet; Scarne via games.porg.es gives 49.08% / 1.84%)."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from hazard_dsl.cli import main
from hazard_dsl.model import plural
from hazard_dsl.render.report import analysis_json, analysis_tables
from hazard_dsl.render.rulesheet import rule_sheet
from hazard_dsl.render.session import SessionNarrator
from hazard_dsl.solve.analysis import analyse

from tests.conftest import SHIPPED, machine

PRONOUN = re.compile(r"\b(he|his|him|himself)\b", re.I)


def printed(capsys, *args) -> str:
    assert main(list(args)) == 0, args
    captured = capsys.readouterr()
    return captured.out + captured.err


def _summary(tables):
    return next(t for t in tables if t.title.startswith("The caster's game"))


# --------------------------------------------------------------------------- no %% anywhere

COMMANDS = [("analyse",), ("rules",), ("rules", "--format", "markdown"), ("show",),
            ("run", "--games", "3", "--seed", "1"),
            ("run", "--players", "Ann,Ben", "--rounds", "1", "--seed", "1")]


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_no_doubled_percent_sign_in_any_output(capsys, monkeypatch, name, command):
    monkeypatch.setenv("COLUMNS", "200")
    text = printed(capsys, command[0], name, *command[1:])
    assert "%%" not in text
    assert not re.search(r"\d\.%", text), "a percentage without its decimals"


def test_the_cocked_dice_analysis_says_each_percentage_once(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    text = printed(capsys, "analyse", "history_sheet", "--option", "cocked=one_in_ten")
    assert "%%" not in text
    assert "With these recasts the caster wins 34.49% of games, against 32.72% if" in " ".join(text.split())


def test_simulate_shows_the_ruined_share_with_its_decimals(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    text = printed(capsys, "simulate", "chicken", "--players", "Ann,Ben", "--games", "200", "--seed", "3463020983",
                   "--workers", "1")
    rows = [line.split() for line in text.splitlines() if line.split()[:1] in (["Ann"], ["Ben"])]
    assert len(rows) == 2
    assert all(re.fullmatch(r"\d+\.\d\d%|<0\.01%", row[-1]) for row in rows), rows
    assert "%%" not in text and not re.search(r"\d\.%", text)


# --------------------------------------------------------------------------- the unit's plural

PENNY = """
name: Penny Hazard
extends: cotton
sources:
  - title: a test of the unit's plural
money:
  unit: penny
{units}  stake: stake
"""


def test_plural_by_rule_when_the_file_gives_none():
    assert [plural(w) for w in ("shilling", "penny", "day", "cross", "franc", "dollar")] == \
        ["shillings", "pennies", "days", "crosses", "francs", "dollars"]


@pytest.mark.parametrize("units, many", [("  units: pence\n", "pence"), ("", "pennies")])
def test_amounts_take_the_units_plural_never_pennys(capsys, monkeypatch, write_ruleset, units, many):
    monkeypatch.setenv("COLUMNS", "200")
    path = str(write_ruleset(PENNY.format(units=units)))
    assert "ok" in printed(capsys, "check", path)
    run = printed(capsys, "run", path, "--players", "Ann,Ben", "--rounds", "2", "--seed", "2", "--purse", "3")
    sheet = printed(capsys, "rules", path)
    show = printed(capsys, "show", path)
    for text in (run, sheet, show):
        assert "pennys" not in text
        assert "pennies" not in text or many == "pennies"
    assert f"Ann 3 {many}, Ben 3 {many}" in run
    assert "sets 1 penny;" in run
    assert f"(in {many})" in sheet and f"Bets (in {many})" in show
    data = json.loads(printed(capsys, "show", path, "--format", "json"))
    assert data["money"]["unit"] == "penny" and data["money"]["units"] == many


def test_the_checker_knows_units_and_names_a_misspelt_key(capsys, write_ruleset):
    path = str(write_ruleset(PENNY.format(units="  unitz: pence\n")))
    assert main(["check", path]) == 1
    err = capsys.readouterr().err
    assert "unknown key 'unitz' in money" in err and "did you mean 'unit" in err


def test_an_old_file_without_units_is_valid_and_says_shillings(capsys):
    assert printed(capsys, "check", "cotton").strip().endswith("ok")
    assert machine("cotton").ruleset.money_units == "shillings"
    assert machine("craps").ruleset.money_units == "dollars"


# --------------------------------------------------------------------------- people

@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("seed", ["1", "7"])
def test_players_named_by_the_user_are_never_he(capsys, monkeypatch, name, seed):
    monkeypatch.setenv("COLUMNS", "200")
    # a small purse, so that stakes are refused and the dice pass for want of money too
    text = printed(capsys, "run", name, "--players", "Ann,Ben,Cat", "--rounds", "2", "--seed", seed, "--purse", "2",
                   "--stake", "2")
    # a layout's own word for what passes (`words: box: the shaker`), else Hazard's box
    assert f"Ann takes {machine(name).ruleset.words.box or 'the box'}" in text
    assert not PRONOUN.findall(text), [line for line in text.splitlines() if PRONOUN.search(line)]


def test_a_declined_stake_is_said_once():
    narrator = SessionNarrator(machine("cotton"))
    declined = narrator.text({"event": "refuse", "player": "Ben", "caster": "Ann", "amount": "5",
                              "why": "Ann declines it", "declined": True})
    assert declined.strip() == "Ann declines Ben's stake of 5s."  # Cotton's coinage: shillings and pence
    short = narrator.text({"event": "refuse", "player": "Ben", "caster": "Ann", "amount": "1",
                           "why": "Ann cannot cover it (0 in the purse)"})
    assert " ".join(short.split()) == "Ann refuses Ben's stake of 1s: Ann cannot cover it (nothing in the purse)."


# --------------------------------------------------------------------------- endings that can happen

def test_passing_names_only_endings_the_machine_can_reach(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    # Cotton throws again outside 5-9: no game ends no_main, so nothing is said of it
    assert "no main" not in machine("cotton").passing.says()
    run = printed(capsys, "run", "cotton", "--players", "Ann,Ben", "--rounds", "1", "--seed", "1")
    assert "no main" not in run.splitlines()[0] + run.splitlines()[1]
    assert "after a game ending in no main" not in printed(capsys, "rules", "cotton")
    # the history sheet's bad first throw loses the turn: there it is said, in words (not no_main)
    assert "after a game ending in no main" in machine("history_sheet").passing.says()
    assert "after a game ending in no main" in printed(capsys, "rules", "history_sheet")


def test_chickens_sheet_says_which_losses_count_toward_the_three(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    text = printed(capsys, "rules", "chicken")
    assert ("The dice pass after three losses in a row (any loss counts: chance loss or out; a win starts the "
            "count again).") in text


# --------------------------------------------------------------------------- the sheet matches the machine

def _phase_lines(text: str) -> dict:
    # a phase's heading is its name in words ("1. set main — …"): keyed here by its name
    return {m.group(1).replace(" ", "_"): m.group(2) for m in re.finditer(r"^\d+\. ([\w ]+?) — (.*)$", text, re.M)}


def test_the_history_sheets_first_phase_is_one_throw(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    phases = _phase_lines(printed(capsys, "rules", "history_sheet"))
    assert phases["set_main"] == "one throw for the main; outside 5–9 the caster loses the turn"
    assert "until" not in phases["set_main"]
    # the same phase, where a bad first throw is thrown again or lost
    assert _phase_lines(printed(capsys, "rules", "cotton"))["set_main"] == \
        "the caster throws until 5–9 comes up; that throw is the main"
    assert _phase_lines(printed(capsys, "rules", "cotton", "--option", "first_throw=lose"))["set_main"] == \
        "one throw for the main; outside 5–9 the caster loses"
    # the graph says the phase as the sheet does
    assert "one throw for the main; outside 5–9 the caster loses" in printed(capsys, "graph", "history_sheet")


def test_the_headline_edge_is_the_stakes_where_some_games_carry_none():
    a = analyse(machine("history_sheet"))
    rows = {row[0]: row[1:] for row in _summary(analysis_tables(a)).rows}
    assert rows["edge of the stake (per stake laid)"] == ["37/2016", "1.835%"]
    assert rows["games ending before any stake (no main)"] == ["1/3", "33.33%"]
    assert rows["caster's net per game, in stakes (no main as a push)"] == ["-37/3024", "-1.224%"]
    assert "edge" not in rows  # no unlabelled edge
    out = analysis_json(a)
    assert out["stake"] == {"bet": "stake", "edge": "37/2016", "made_per_game": "2/3", "unmade": {"no_main": "1/3"}}
    assert Fraction(out["edge"]) == Fraction(37, 3024)  # the game's own figure stays where it was
    sheet = rule_sheet(machine("history_sheet"))
    assert "Where a stake is laid, the caster wins 1979/4032 (49.08%)" in " ".join(sheet.split())
    assert "1.835% of the stake" in " ".join(sheet.split())
    assert "no_main as a push" in " ".join(sheet.split())


def test_a_lost_first_throw_is_counted_as_a_loss_but_the_stakes_edge_leads():
    a = analyse(machine("cotton", first_throw="lose"))
    rows = {row[0]: row[1:] for row in _summary(analysis_tables(a)).rows}
    assert rows["edge of the stake (per stake laid)"] == ["37/2016", "1.835%"]
    assert rows["caster's net per game, in stakes (bad main as a loss)"] == ["-1045/3024", "-34.557%"]


def test_where_every_game_carries_a_stake_the_edge_is_one_row():
    a = analyse(machine("cotton"))
    rows = {row[0]: row[1:] for row in _summary(analysis_tables(a)).rows}
    assert rows["edge"] == ["37/2016", "1.835%"]
    assert a.stake is None and "stake" not in analysis_json(a)


# --------------------------------------------------------------------------- tables and legends

@pytest.mark.parametrize("name", SHIPPED)
def test_no_option_table_has_all_rows_equal(name):
    from hazard_dsl.commands.analyse import game_by_option

    m = machine(name)
    a = analyse(m)
    a.game_by_option = game_by_option(m.ruleset, a.options, "optimal")
    tables = [t for t in analysis_tables(a) if t.title.startswith("Option ")]
    for t in tables:
        assert len({tuple(row[1:]) for row in t.rows}) > 1, (t.title, t.rows)
    # an option the game reads but that changes nothing here is said in one line instead
    same = [o for o, values in a.game_by_option.items() if len({tuple(sorted(f.items())) for f in values.values()}) == 1]
    for option in same:
        assert not any(t.title.startswith(f"Option {option}: the caster's game") for t in tables)
        assert any(f"every value of {', '.join(same)} here" in (t.caption or "") for t in analysis_tables(a))


def test_an_option_that_changes_nothing_is_said_in_one_line(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    text = " ".join(printed(capsys, "analyse", "chicken").split())  # a caption wraps at its table's width
    assert "Option first_throw: the caster's game" not in text
    assert "The caster's game is the same under every value of first_throw here" in text


def test_the_craps_legend_gives_each_marker_one_meaning(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    text = printed(capsys, "analyse", "craps")
    legend = [line for line in text.splitlines() if line.startswith("less ")]
    markers = [line.split(":")[0] for line in legend]
    assert markers == ["less 5% of bet", "less 5% of win"]
    assert "point with point" not in text


def test_compare_gives_the_stakes_edge_beside_the_games_where_some_games_carry_no_stake(capsys, monkeypatch):
    """The history sheet ends a third of its games before any stake: compare's headline row is
    the stake's edge per stake laid (37/2016, as Cotton's), and the per-game edge is named so."""
    monkeypatch.setenv("COLUMNS", "200")
    rows = {line.split("  ")[0].strip(): line.split() for line in
            printed(capsys, "compare", "cotton", "history_sheet").splitlines() if line.strip()}
    assert rows["edge per stake laid"][-4:] == ["37/2016", "(1.835%)", "37/2016", "(1.835%)"]
    assert rows["caster's net per game"][-4:] == ["-37/2016", "(-1.835%)", "-37/3024", "(-1.224%)"]
    plain = printed(capsys, "compare", "cotton", "petty")  # every game staked: one edge, as before
    assert "edge per stake laid" not in plain and "\n edge " in plain
