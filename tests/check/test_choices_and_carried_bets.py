"""Bets around choices and across games: a game that ends at a choice ends for its bets too,
a bet carried into a new game cannot read what the new game resets, a bet must be decided."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from hazard_dsl.check import check_file
from hazard_dsl.cli import main
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.solve.analysis import analyse

HERE = Path(__file__).resolve().parents[1] / "data" / "rulesets"


def test_a_game_that_ends_at_a_choice_ends_for_its_bets():
    analysis = analyse(compile_ruleset(read_ruleset(HERE / "stop_or_go.yaml")))
    assert (analysis.win, analysis.figures.push, analysis.figures.expected_throws) == (
        Fraction(1, 6), Fraction(5, 6), 1)
    flat = analysis.bets["flat"]
    assert (flat.win, flat.lose, flat.push) == (Fraction(1, 6), 0, Fraction(5, 6))
    assert flat.edge == Fraction(-1, 6)
    assert flat.expected_throws == 1


def test_check_sees_every_rule_of_a_bet_around_a_choice():
    # the bet's lose fires only if the caster throws on, which the optimal caster never does
    assert check_file(HERE / "stop_or_go.yaml") == []


def test_run_keeps_games_that_end_at_a_choice_apart(capsys):
    assert main(["run", str(HERE / "stop_or_go.yaml"), "--dice", "1-2 3-4 1-2", "--json", "--bet", "flat=2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    throws = [line for line in lines if "dice" in line]
    assert [(t["game"], t["result"], t["label"]) for t in throws] == [
        (1, "push", "stop"), (2, "win", "seven"), (3, "push", "stop")]
    assert throws[0]["then"] == [{"by": "caster", "variable": "go", "value": 0}]
    settled = [b for t in throws for b in t["bets"] if b["event"] != "made"]
    assert [(b["event"], b.get("won")) for b in settled] == [("push", None), ("win", "2"), ("push", None)]


def test_a_carried_bet_reading_a_reset_variable_is_a_positioned_error(tmp_path, capsys):
    path = tmp_path / "carried.yaml"
    path.write_text("name: carried\nextends: hoyle\n"
                    "bets: {odds: {rules: [{when: total == main, do: win}, {otherwise: throw again}]}}\n")
    # (besides the warning that this test file cites no source of its own)
    diagnostics = [d for d in check_file(path) if d.severity != "note" and "no source of its own" not in d.message]
    assert diagnostics and all(d.is_error for d in diagnostics)
    first = diagnostics[0]
    assert first.position.file.endswith("carried.yaml") and first.position.line == 3
    assert "payout of" in first.message and "chance = 0" in first.message
    assert "new game" in first.hint
    assert main(["check", str(path)]) == 1
    assert main(["analyse", str(path)]) == 1
    assert "internal error" not in capsys.readouterr().err


def test_a_bet_never_decided_is_an_error(tmp_path, capsys):
    path = tmp_path / "never.yaml"
    path.write_text("name: never\nextends: craps\nbets:\n  pass:\n    rules:\n      - otherwise: throw again\n")
    diagnostics = check_file(path)
    assert any("never decided" in d.message and d.position.line == 4 for d in diagnostics)
    assert main(["analyse", str(path)]) == 1
    assert "internal error" not in capsys.readouterr().err


def test_nonsense_payouts_are_errors_not_crashes(tmp_path, capsys):
    for pays in ("1 to 0", "-1 to 1", "0 for 0"):
        path = tmp_path / "pays.yaml"
        path.write_text(f"name: p\nextends: craps\nbets:\n  pass:\n    pays: {pays}\n")
        diagnostics = check_file(path)
        assert any("payout" in d.message and d.is_error for d in diagnostics), pays
        assert main(["analyse", str(path)]) == 1
        assert "internal error" not in capsys.readouterr().err


def test_a_game_without_a_throw_ends_a_tape_run(tmp_path, capsys):
    path = tmp_path / "at_once.yaml"
    path.write_text("name: at once\nphases:\n  decide:\n    throw: false\n    rules:\n      - otherwise: win\n")
    assert main(["run", str(path), "--dice", "1-1 2-2"]) == 0  # it used to loop for ever
    out = capsys.readouterr().out
    assert "decided without a throw" in out and "1 game, 0 throws" in out
    assert main(["run", str(path), "--games", "2", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["game"], line["throw"], line["result"]) for line in lines] == [(1, 0, "win"), (2, 0, "win")]


def test_the_throw_is_named_after_a_choice_it_led_to(tmp_path, capsys):
    path = tmp_path / "say.yaml"
    path.write_text("name: say\nvariables:\n  go: 0..1\nlabels:\n  stop: \"{caster} stops on {total} ({throw}).\"\n"
                    "phases:\n  first:\n    - when: total == 7\n      do: win\n"
                    "    - otherwise: choose go from {0} by caster; goto decide\n"
                    "  decide:\n    throw: false\n    rules:\n      - otherwise: push stop\n")
    assert main(["run", str(path), "--dice", "1-2"]) == 0
    out = capsys.readouterr().out
    assert "The caster stops on 3 (deuce-ace)." in out and "{total}" not in out
