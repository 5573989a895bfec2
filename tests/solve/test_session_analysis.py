"""Hands and sessions solved exactly (`analyse --hand`, `--bankroll --goal --stake`): the
published figures, and the classical gambler's-ruin formula."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from hazard_dsl.cli import main
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.cache import read_ruleset
from hazard_dsl.solve.session import SessionError, game_endings, hand, ruin


def machine(name, **options):
    return compile_ruleset(read_ruleset(f"rulesets/{name}.yaml"), options)


def test_craps_hand_catlin():
    """Expected rolls per shooter's hand, until the seven-out: 1671/196 ≈ 8.53 (Catlin 2013 "about
    8.526"; crapsanalyst mean 8.53); pass-line decisions per hand 495/196 (reference section 8)."""
    h = hand(machine("craps"))
    assert h.throws == Fraction(1671, 196)
    assert h.games == Fraction(495, 196)


def chicken_q(**options):
    return game_endings(machine("chicken", **options)).chance("lose")


def test_chicken_box_passes_after_three_losses():
    """Chicken Hazard, the box passing after three losses in a row (Steinmetz 1870; reference F6):
    games per hand (1 + q + q²)/q³, q the chance of losing a game: about 13.40 with the main
    thrown, about 13.53 with the caster calling 7."""
    for options, about in (({"main": "thrown"}, 13.40), ({}, 13.53)):
        q = chicken_q(**options)
        h = hand(machine("chicken", **options))
        assert h.games == (1 + q + q * q) / q ** 3
        assert round(float(h.games), 2) == about


def test_cotton_dice_pass_after_every_loss():
    """Passing after every loss: 1/q games per hand, 4032/2053 ≈ 1.964 (reference F6/F7)."""
    h = hand(machine("cotton"))
    assert h.games == 1 / game_endings(machine("cotton")).chance("lose") == Fraction(4032, 2053)
    assert h.net == h.games * (Fraction(1979, 4032) - Fraction(2053, 4032))


def classical(win, lose, bankroll, goal):
    r = lose / win
    reach = (1 - r ** bankroll) / (1 - r ** goal)
    decided = (bankroll - goal * reach) / (lose - win)
    return reach, decided / (win + lose)


@pytest.mark.parametrize("name, options", [("cotton", {}), ("craps", {}), ("petty", {}),
                                           ("french", {"not_a_nick": "void"})])
def test_ruin_is_the_classical_formula(name, options):
    """Flat even-money stakes, pushes excluded: the gambler's-ruin formula (Feller, ch. XIV)."""
    m = machine(name, **options)
    g = game_endings(m)
    r = ruin(m, 10, 20, 1)
    reach, games = classical(g.chance("win"), g.chance("lose"), 10, 20)
    assert r.reach_goal == reach and r.ruin == 1 - reach and r.games == games


def test_ruin_with_a_stake_of_two():
    m = machine("cotton")
    g = game_endings(m)
    assert ruin(m, 10, 20, 2).reach_goal == classical(g.chance("win"), g.chance("lose"), 5, 10)[0]


def test_refusals():
    with pytest.raises(SessionError, match="^bankroll must be"):
        ruin(machine("cotton"), 30, 20, 1)
    with pytest.raises(SessionError, match="simulate"):
        ruin(machine("cotton"), 10, 100_000, 1)
    with pytest.raises(SessionError, match="never pass"):
        hand(_no_passing())


def _no_passing():
    from hazard_dsl.records import replace

    return replace(machine("cotton"), passing=None)


def test_cli_hand_and_ruin_json(capsys):
    assert main(["analyse", "craps", "--hand", "--no-options", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hand"]["throws"] == "1671/196" and out["hand"]["games"] == "495/196"
    assert main(["analyse", "cotton", "--bankroll", "10", "--goal", "20", "--stake", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["ruin"]) >= {"bankroll", "goal", "stake", "reach_goal", "ruin", "games"}
    assert Fraction(out["ruin"]["reach_goal"]) + Fraction(out["ruin"]["ruin"]) == 1
    assert main(["analyse", "cotton", "--bankroll", "10"]) == 2
    assert "go together" in capsys.readouterr().err
    assert main(["analyse", "cotton", "--bankroll", "10", "--goal", "1000000", "--stake", "1"]) == 2
    assert "simulate" in capsys.readouterr().err


@pytest.mark.parametrize("value, message", [
    ("'1 // 0'", "passing: division by zero"),
    ("'if option.main == \"called\" then 3 else 1000'", "comes to 1000"),
    ("'option.main'", "must be a number, not a word"),
    ("500", "between 0 (never) and 100"),
])
def test_check_finds_bad_passing_rules(tmp_path, capsys, value, message):
    rules = tmp_path / "p.yaml"
    rules.write_text(f"extends: cotton\nname: X\npassing:\n  losses_in_a_row: {value}\n")
    assert main(["check", str(rules)]) == 1
    err = capsys.readouterr()
    assert message in err.out + err.err


@pytest.mark.parametrize("money, message", [
    ("  against: banc\n", "did you mean 'bank'"),
    ("  stake: stak\n", "did you mean 'stake'"),
    ("  when_short: refuse_it\n", "refuse or forfeit"),
])
def test_check_finds_bad_table_money(tmp_path, capsys, money, message):
    rules = tmp_path / "m.yaml"
    rules.write_text(f"extends: cotton\nname: X\nmoney:\n  unit: shilling\n{money}")
    assert main(["check", str(rules)]) == 1
    err = capsys.readouterr()
    assert message in err.out + err.err


def test_python_api_hand_ruin_session():
    import hazard_dsl

    assert hazard_dsl.load("craps").hand().throws == Fraction(1671, 196)
    cotton = hazard_dsl.load("cotton")
    r = cotton.ruin(10, 20, stake=1)
    assert r.reach_goal + r.ruin == 1
    events = cotton.session(["Ann", "Ben", "Cat"], seed=1)
    assert events[0]["event"] == "session" and events[-1]["event"] == "end"
    assert cotton.show()["money"] == {"unit": "shilling", "units": "shillings", "against": "setters",
                                      "when_short": "refuse", "stake": "stake", "refuse": "at_will"}
