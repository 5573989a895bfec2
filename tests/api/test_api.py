"""The Python API a notebook uses: load (checked as `check` checks), load_text, analyse, run,
simulate, compare, rules and graph — one bet syntax, errors in Python's terms, results as objects
with `.to_json()` and tables for Jupyter, and short reprs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import hazard_dsl
from hazard_dsl.check import check_file

BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken"
PUBLIC = {"load", "load_text", "Variant", "RulesetError", "Diagnostic", "Analysis", "Comparison", "Hand", "Ruin",
          "Seats", "TableRuin", "Simulation", "TableSimulation", "GoalSimulation", "Estimate"}


def test_import_is_cheap():
    code = "import sys, hazard_dsl; print('numpy' in sys.modules, 'rich' in sys.modules, 'lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.split()
    assert out == ["False", "False", "False"]


def test_the_public_names_are_listed_and_shown_by_dir():
    assert set(hazard_dsl.__all__) == PUBLIC | {"__version__"}
    code = "import sys, hazard_dsl; print(' '.join(n for n in dir(hazard_dsl) if not n.startswith('_')))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.split()
    assert set(shown) == PUBLIC  # before any of them is used, and no more than them
    for name in PUBLIC:
        assert getattr(hazard_dsl, name).__name__ == name
    with pytest.raises(AttributeError, match="no attribute 'lod'"):
        hazard_dsl.lod  # noqa: B018


def test_load_analyse_and_options():
    cotton = hazard_dsl.load("cotton")
    assert cotton.analyse().win == Fraction(1979, 4032)  # hazard-rules.md F2 / games.porg.es
    assert hazard_dsl.load("cotton", main="called").analyse().choices["main"]["best"] == 7
    assert cotton.with_options(main="called").options["main"] == "called"
    assert cotton.analyse(bets={"stake": 1}).combination.edge == Fraction(37, 2016)
    assert cotton.warnings == []


def test_run_is_reproducible_and_replays_dice():
    cotton = hazard_dsl.load("cotton")
    assert [r.dice for r in cotton.run(games=2, seed=5) if hasattr(r, "dice")] == \
        [r.dice for r in cotton.run(games=2, seed=5) if hasattr(r, "dice")]
    records = cotton.run(games=None, dice="3-4 3-4")  # main seven, nicked by a seven
    assert records[-1].ends_game and records[-1].outcome.label == "nick"


def test_compare_gives_figures_and_differences():
    comparison = hazard_dsl.load("cotton").compare("petty", hazard_dsl.load("cotton", main="called"))
    assert isinstance(comparison, hazard_dsl.Comparison)
    assert [a.win for a in comparison.analyses[:2]] == [Fraction(1979, 4032), Fraction(5629, 11088)]
    assert comparison.labels[2] == "Hazard (Cotton, 1674) (main=called)"
    data = comparison.to_json()
    assert data["rulesets"][1]["win"] == "5629/11088" and data["rulesets"][1]["name"] == "Petty Hazard (Barker, 2003)"
    assert data["differences"][0]["rows"]
    markdown = comparison._repr_markdown_()
    assert "How Petty Hazard (Barker, 2003) differs from Hazard (Cotton, 1674)" in markdown
    with pytest.warns(DeprecationWarning, match=r"use its attributes, or \.to_json\(\)"):
        assert comparison["rulesets"][1]["win"] == "5629/11088"  # the old dict, still read


def test_errors_are_clear():
    with pytest.raises(ValueError, match="did you mean 'main'"):
        hazard_dsl.load("cotton", mian="called")
    with pytest.raises(ValueError, match="did you mean 'cotton'"):
        hazard_dsl.load("coton")


def test_ruleset_error_carries_positions(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\nphases:\n  roll:\n    - when: totl == 7\n      do: win\n    - otherwise: lose\n")
    with pytest.raises(hazard_dsl.RulesetError) as info:
        hazard_dsl.load(path)
    assert re.match(r"\S*bad\.yaml:4:13: undefined name 'totl'", str(info.value)), str(info.value)


def test_reprs_are_short():
    craps = hazard_dsl.load("craps")
    analysis = craps.analyse()
    simulated = craps.simulate(games=1_000, seed=1, bets={"pass": 10})
    for thing in (craps, craps.ruleset, craps.machine, craps.machine.states[0], analysis, craps.hand(), simulated,
                  simulated.win, craps.compare("craps"), *craps.run(games=1, seed=1)):
        assert len(repr(thing)) < 300, repr(thing)[:400]
    assert repr(analysis).startswith("<Analysis 'Craps (pass line)': win 244/495")
    assert repr(simulated).startswith("<Simulation 'Craps (pass line)': 1,000 games, win ")


# --------------------------------------------------------------------------- load runs check's checks


# Every file of the broken corpus: `load` refuses it with exactly what `check` reports (the
# same diagnostics, errors, warnings and the note on the checks still to come), and `str()`
# lists every one of them.
@pytest.mark.parametrize("path", sorted(BROKEN.glob("*.yaml")), ids=lambda p: p.name)
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_load_raises_every_problem_check_finds(path, monkeypatch):
    monkeypatch.chdir(BROKEN)  # file names as check prints them
    found = check_file(Path(path.name))
    assert any(d.is_error for d in found)
    with pytest.raises(hazard_dsl.RulesetError) as info:
        hazard_dsl.load(path.name)
    assert sorted(info.value.diagnostics, key=repr) == sorted(found, key=repr)
    said = str(info.value)
    for d in found:
        assert (str(d.position) + ": " if d.position else "") + ("" if d.is_error else f"{d.severity}: ") in said


def test_a_game_that_cannot_end_is_refused_at_load_not_at_analyse():
    with pytest.raises(hazard_dsl.RulesetError, match=r"game_never_ends\.yaml:12:3: from phase 'point' with point "
                                                      r"= 2 no game can ever end"):
        hazard_dsl.load(BROKEN / "game_never_ends.yaml")


def test_a_file_check_rejects_in_its_game_alone_is_refused(tmp_path):
    # it reads, names and types are right, and the command line would analyse it: only the
    # explored game shows that throw 12 is handled by no rule
    path = tmp_path / "gap.yaml"
    path.write_text("name: Gap\nphases:\n  roll:\n    - when: total < 12\n      do: win nick\n")
    with pytest.raises(hazard_dsl.RulesetError) as info:
        hazard_dsl.load(path)
    assert [d.message for d in info.value.diagnostics if d.is_error] == \
        [d.message for d in check_file(path) if d.is_error]
    assert "12" in str(info.value)


def test_warnings_do_not_stop_a_load(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("name: Mine\nextends: cotton\n")  # cites no source of its own: check warns
    variant = hazard_dsl.load(path)
    assert [d.severity for d in variant.warnings] == ["warning"]
    assert "cites no source of its own" in variant.warnings[0].message
    assert variant.warnings == [d for d in check_file(path) if not d.is_error]
    assert variant.with_options(main="called").warnings == variant.warnings


def test_load_text_is_checked_and_named():
    text = "name: Mine\nphases:\n  roll:\n    - when: totl == 7\n      do: win nick\n    - otherwise: lose out\n"
    with pytest.raises(hazard_dsl.RulesetError) as info:
        hazard_dsl.load_text(text, name="my-variant")
    assert str(info.value).startswith("my-variant:4:13: undefined name 'totl'\n    hint: did you mean 'total'?\n")
    variant = hazard_dsl.load_text(text.replace("totl", "total"), name="my-variant")
    assert variant.ruleset.file == "my-variant"
    assert variant.analyse().win == Fraction(1, 6)
    with pytest.raises(hazard_dsl.RulesetError, match=r"^<text>:"):  # the default name
        hazard_dsl.load_text(text)
    with pytest.raises(hazard_dsl.RulesetError, match="never_ends:12:3: from phase 'point'"):
        hazard_dsl.load_text((BROKEN / "game_never_ends.yaml").read_text(), name="never_ends")
    assert hazard_dsl.load_text("\ufeff" + text.replace("totl", "total"), name="bom").name == "Mine"


def test_load_text_extends_only_builtin_rulesets(tmp_path, monkeypatch):
    # a file called cotton.yaml in the working folder is not what `extends: cotton` means here
    (tmp_path / "cotton.yaml").write_text("name: Not Cotton\nphases:\n  roll:\n    - otherwise: win nick\n")
    monkeypatch.chdir(tmp_path)
    petty = hazard_dsl.load_text("name: Mine\nextends: petty\n", name="mine", main="called")
    assert petty.options["main"] == "called"
    assert hazard_dsl.load_text("name: Mine\nextends: cotton\n", name="mine").analyse().win == Fraction(1979, 4032)
    for named in ("./cotton.yaml", str(tmp_path / "cotton.yaml"), "../cotton"):
        with pytest.raises(hazard_dsl.RulesetError, match=r"mine:2:10: extends: no built-in ruleset named") as info:
            hazard_dsl.load_text(f"name: Mine\nextends: {named}\n", name="mine")
        assert "load a rule file beside it by its path" in info.value.diagnostics[0].hint
    with pytest.raises(hazard_dsl.RulesetError, match=r"did you mean 'cotton'"):
        hazard_dsl.load_text("name: Mine\nextends: coton\n", name="mine")


def test_load_text_is_kept_in_the_cache(monkeypatch):
    from hazard_dsl.check import game

    text = "name: Kept\nextends: hoyle\nsources: [{title: mine}]\n"
    first = hazard_dsl.load_text(text, name="kept")
    explored = []
    monkeypatch.setattr(game, "check_game", lambda ruleset: explored.append(ruleset) or [])
    again = hazard_dsl.load_text(text, name="kept")
    assert explored == [] and again.ruleset.digest == first.ruleset.digest  # not explored again
    hazard_dsl.load_text(text, name="another name")
    assert len(explored) == 1  # the name is in what is kept: its messages say it


def test_load_text_refuses_what_is_not_text():
    with pytest.raises(TypeError, match=r"decode it"):
        hazard_dsl.load_text(b"name: x")
    with pytest.raises(ValueError, match=r"name=''"):
        hazard_dsl.load_text("name: x", name="")


# --------------------------------------------------------------------------- one bet syntax, errors in Python's terms


def test_bets_are_one_dict_for_analyse_run_and_simulate():
    craps = hazard_dsl.load("craps")
    # the README's pair, whatever the dict's order: a bet is made after the one it backs
    assert craps.analyse(bets={"pass": 10, "odds": "3-4-5x"}).combination.edge == Fraction(7, 1870)
    assert craps.analyse(bets={"odds": "3-4-5x", "pass": 10}).combination.edge == Fraction(7, 1870)
    amounts = [craps.analyse(bets={"pass": amount}).combination.staked
               for amount in (10, "10", Fraction(10), Decimal("10.00"), "20/2")]
    assert len(set(amounts)) == 1
    records = craps.run(games=None, dice="4-2 3-3 6-6", bets={"odds": "2x", "pass": 10}, bankroll=100)
    made = [m for r in records for m in r.made]
    assert [(m["bet"], m["amount"]) for m in made] == [("pass", "10"), ("odds", "20"), ("pass", "10")]
    assert records[-1].settled[-1]["bankroll"] == "124"  # +10 and +24 (6 to 5 on 20), then −10
    once = craps.run(games=None, dice="4-2 3-3 6-6", bets={"pass": "10@3"})
    assert [[m["bet"] for m in r.made] for r in once] == [[], [], ["pass"]]
    simulated = craps.simulate(games=20_000, seed=1, bets={"pass": 10})
    assert simulated.bets["pass"].net_per_unit.exact == Fraction(-7, 495)
    with pytest.warns(DeprecationWarning, match="old form"):
        old = craps.simulate(games=20_000, seed=1, bets=["pass=10"])
    assert old.bets["pass"] == simulated.bets["pass"]


BAD_ARGUMENTS = [
    # (what is called, the error's type, what its message says)
    (lambda c: c.analyse(bets={"pas": 10}), ValueError, r"bets: 'pas' is not a bet of Craps \(pass line\) "
                                                         r"\(did you mean 'pass'\?\) \(its bets: pass, dont_pass, "),
    (lambda c: c.analyse(bets={"pass": "ten"}), ValueError, r"bets\['pass'\]: 'ten' is not an amount for this bet: "
                                                            r"give an amount of money more than 0: 10, Fraction"),
    (lambda c: c.analyse(bets={"pass": 10.5}), ValueError, r"bets\['pass'\]: 10.5 is a float; money is exact"),
    (lambda c: c.analyse(bets={"pass": 0}), ValueError, r"bets\['pass'\]: 0 is not an amount"),
    (lambda c: c.analyse(bets={"pass": "2x"}), ValueError, r"'2x' is a multiple, but 'pass' backs no other bet"),
    (lambda c: c.analyse(bets={"odds": "2x"}), ValueError, r"'odds' backs 'pass', which is not among the bets"),
    (lambda c: c.analyse(bets={"pass": 10, "odds": "x"}), ValueError,
     r"bets\['odds'\]: 'x' is not an amount .* a multiple of that bet: '2x' or one it names \(3-4-5x\)"),
    (lambda c: c.analyse(bets={"pass": "10@3"}), ValueError, r"makes the bet once, before a throw: that is for run"),
    (lambda c: c.analyse(bets=["pass=10"]), TypeError, r"bets is a dict of bet names and amounts"),
    (lambda c: c.run(bets={"pass": 10}, bankroll="lots"), ValueError, r"bankroll: 'lots' is not an amount"),
    (lambda c: c.run(dice="3-9"), ValueError, r"^dice: throw 1 is '3-9'"),
    (lambda c: c.analyse(policy="foo"), ValueError, r"^policy='foo': "),
    (lambda c: c.analyse(by="pont"), ValueError, r"by='pont': Craps \(pass line\) has no variable 'pont' "
                                                 r"\(did you mean 'point'\?\)"),
    (lambda c: c.ruin(10, 5), ValueError, r"bankroll must be at least the stake \(1\) and less than the goal"),
    (lambda c: c.ruin(10, 20, stake=0.5), ValueError, r"stake: 0.5 is a float"),
    (lambda c: c.simulate(games=0), ValueError, r"games is a whole number from 1 to"),
    (lambda c: c.simulate(games=10, players="Ann,Ben"), TypeError, r"players is a list of names"),
    (lambda c: c.simulate(games=10, players=["Ann", "Ann"]), ValueError, r"each player needs a name of his own"),
    (lambda c: c.simulate(games=10, players=["Ann", "Ben"], strategy="flot"), ValueError,
     r"strategy='flot' is not one of flat, fraction, cautious, best, martingale, paroli, dalembert, labouchere, "
     r"fibonacci \(did you mean 'flat'\?\)"),
    (lambda c: c.simulate(games=10, players=["Ann", "Ben"], bets={"pass": 10}), ValueError,
     r"bets=\{'pass': 10\} is for games without players: sessions at the table stake by strategy and stake"),
    (lambda c: c.rules("pdf"), ValueError, r"format='pdf' is not one of text, markdown, html, json"),
    (lambda c: c.graph("pdf"), ValueError, r"format='pdf' is not one of dot, mermaid, svg, png, json"),
    (lambda c: c.graph(phases=["pont"]), ValueError, r"phases: Craps \(pass line\) has no phase 'pont' \(did you "
                                                     r"mean 'point'\?\)"),
    (lambda c: c.graph(bets=["pas"]), ValueError, r"bets: Craps \(pass line\) has no bet 'pas' \(did you mean"),
]


@pytest.mark.parametrize("call, error, message", BAD_ARGUMENTS, ids=[str(n) for n in range(len(BAD_ARGUMENTS))])
def test_mistakes_are_said_in_python_terms(call, error, message):
    with pytest.raises(error) as info:
        call(hazard_dsl.load("craps"))
    said = str(info.value)
    assert re.search(message, said), said
    assert "--" not in said, said  # no flag of the command line


def test_no_message_is_reworded_each_error_names_its_keyword():
    # the engine's errors carry their argument (hazard_dsl.errors.ArgumentError): the API words
    # them by keyword, never rewriting a message written for the command line (issue 36)
    import hazard_dsl.api as api
    from hazard_dsl.errors import ArgumentError

    assert not hasattr(api, "python_terms") and not hasattr(api, "_in_python_terms")
    craps = hazard_dsl.load("craps")
    with pytest.raises(ArgumentError) as info:
        craps.analyse(policy="foo")
    assert info.value.argument.name == "policy" and str(info.value).startswith("policy='foo': ")
    with pytest.raises(ArgumentError) as info:
        craps.run(dice="3-9")
    assert info.value.argument.name == "dice" and str(info.value).startswith("dice: throw 1 is '3-9'")


# --------------------------------------------------------------------------- results: attributes, JSON, tables


def test_results_give_json_that_json_dumps_takes_as_it_is():
    cotton = hazard_dsl.load("cotton")
    results = [cotton.analyse(by="main"), cotton.hand(), cotton.ruin(5, 10), cotton.compare("petty"),
               cotton.simulate(games=2_000, seed=1),
               hazard_dsl.load("chicken").simulate(games=20, seed=1, players=["Ann", "Ben"], purse=10, rounds=2)]
    for result in results:
        data = result.to_json()
        assert json.loads(json.dumps(data)) == data, type(result).__name__
    assert results[0].to_json()["win"] == "1979/4032"
    assert results[1].to_json()["passing"] == results[1].rule
    assert Fraction(results[2].to_json()["reach_goal"]) == results[2].reach_goal


def test_simulate_games_and_sessions():
    cotton = hazard_dsl.load("cotton")
    report = cotton.simulate(games=20_000, seed=3)
    assert isinstance(report, hazard_dsl.Simulation)
    assert report.games == 20_000 and report.win.exact == Fraction(1979, 4032)
    assert abs(report.win.z) < 4 and report.win.rate == report.win.value
    assert report.to_json()["win"]["exact"] == "1979/4032"
    assert set(report.labels) == {"nick", "out", "chance_win", "chance_loss"}
    assert report.label_results["nick"] == "win"
    assert report.throws.mean.exact == Fraction(870713, 166320)
    assert sum(e.value for e in report.throws.distribution.values()) + report.throws.beyond.value == \
        pytest.approx(1)
    again = cotton.simulate(games=20_000, seed=3, workers=2)  # the same seed, the same numbers
    timing = {"workers", "seconds", "games_per_second", "throws_per_second"}
    assert {k: v for k, v in report.to_json().items() if k not in timing} == \
        {k: v for k, v in again.to_json().items() if k not in timing}
    craps = hazard_dsl.load("craps").simulate(games=20_000, seed=1, bets={"pass": 10})
    assert craps.bets["pass"].net_per_unit.exact == Fraction(-7, 495)
    table = hazard_dsl.load("chicken").simulate(games=200, seed=1, players=["Ann", "Ben"], purse=10, rounds=2)
    assert isinstance(table, hazard_dsl.TableSimulation)
    assert set(table.seats) == {"Ann", "Ben"} and table.sessions == 200 and table.purse == 10
    assert all(0 <= seat.ruined.rate <= 1 for seat in table.seats.values())
    assert table.money_conserved


def test_an_analysis_keeps_every_attribute_of_the_engine():
    from hazard_dsl.solve.analysis import Analysis, analyse

    variant = hazard_dsl.load("craps")
    ours, engine = variant.analyse(), analyse(variant.machine)
    assert isinstance(ours, Analysis) and isinstance(ours, hazard_dsl.Analysis)
    for name in ("win", "edge", "figures", "choices", "throws", "label_results", "never_made"):
        assert getattr(ours, name) == getattr(engine, name), name
    assert {n: f.edge for n, f in ours.bets.items()} == {n: f.edge for n, f in engine.bets.items()}


HOSTILE = """\
name: "Mine | <script>alert(1)</script> *bold*"
labels:
  nick: "{caster} <b>nicks</b> it | at once."
phases:
  roll:
    - when: total == 7
      do: win nick
    - otherwise: lose out
"""


def test_notebook_tables_escape_the_rule_files_text(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE)
    variant = hazard_dsl.load(path)
    for result in (variant.analyse(), variant.compare(variant), variant.simulate(games=500, seed=1)):
        html = result._repr_html_()
        assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert html.startswith('<div class="hazard-dsl">')
        markdown = result._repr_markdown_()
        assert "<script>" not in markdown and "\\*bold\\*" in markdown
        # a table row has as many cells as its heading: no pipe of the file's makes one more
        for block in re.findall(r"(?m)(?:^\|.*\|\n)+", markdown):
            rows = block.splitlines()
            cells = [len(re.findall(r"(?<!\\)\|", row)) for row in rows]
            assert len(set(cells)) == 1, block
        assert "Mine \\| &lt;script&gt;" in markdown
    text = str(variant.analyse())
    assert "Mine | <script>alert(1)</script> *bold*" in text  # the command line's text: as typed


def test_rules_and_graph_in_every_format():
    petty = hazard_dsl.load("petty")
    assert petty.rules().startswith("Petty Hazard")
    assert petty.rules("markdown").startswith("# Petty Hazard")
    assert "<html" in petty.rules("html")
    assert json.loads(petty.rules("json"))["title"] == petty.name
    assert petty.graph().startswith("digraph")
    assert petty.graph("mermaid").startswith("---\ntitle:")
    assert json.loads(petty.graph("json"))["ruleset"] == petty.name
    craps = hazard_dsl.load("craps")
    assert "pass" in craps.graph("dot", phases="point", bets=["pass"])
    from hazard_dsl.render.graph import graphviz_available

    if graphviz_available():
        assert petty.graph("svg").lstrip().startswith("<?xml")
        assert petty.graph("png").startswith(b"\x89PNG")


def test_graphviz_missing_is_said_in_python_terms(monkeypatch):
    monkeypatch.setenv("PATH", os.devnull)
    with pytest.raises(ValueError) as info:
        hazard_dsl.load("petty").graph("svg")
    assert "format='svg' needs Graphviz's `dot` program" in str(info.value) and "--" not in str(info.value)


def test_no_deprecation_warning_from_the_new_forms():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hazard_dsl.load("craps").simulate(games=1_000, seed=1, bets={"pass": 10}).to_json()
