"""Loaded dice (`dice:`, rulesets/fullams.yaml): exact figures against an independent
calculation written here in plain fractions, the dice in play, and `check`'s errors."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard_dsl.cli import main
from hazard_dsl.play.dice import RandomDice
from hazard_dsl.simulate.vectorised import simulate
from hazard_dsl.solve.analysis import analyse
from tests.conftest import machine

F = Fraction
FAIR = (F(1, 6),) * 6
HIGH = (F(1, 12),) * 3 + (F(1, 4),) * 3
LOW = tuple(reversed(HIGH))

# Cotton's table (reference section 2): nicks and outs on the throw for the chance
NICK = {5: {5}, 6: {6, 12}, 7: {7, 11}, 8: {8, 12}, 9: {9}}
OUT = {5: {2, 3, 11, 12}, 6: {2, 3, 11}, 7: {2, 3, 12}, 8: {2, 3, 11}, 9: {2, 3, 11, 12}}


def totals(die1, die2) -> dict:
    p: dict = {}
    for a in range(6):
        for b in range(6):
            p[a + b + 2] = p.get(a + b + 2, F(0)) + die1[a] * die2[b]
    return p


def cotton_win(die1, die2) -> Fraction:
    """P(the caster wins) in Cotton's game, main thrown until 5-9, from first principles:
    Σ over mains of P(main) × (P(nick) + Σ over chances P(chance) · P(chance before main))."""
    p = totals(die1, die2)
    mains = sum(p[m] for m in range(5, 10))
    win = F(0)
    for m in range(5, 10):
        given = sum(p[t] for t in NICK[m])
        for c in range(2, 13):
            if c not in NICK[m] and c not in OUT[m] and c != m and p[c]:
                given += p[c] * p[c] / (p[c] + p[m])
        win += p[m] / mains * given
    return win


def test_the_independent_calculation_gives_cottons_published_figure():
    assert cotton_win(FAIR, FAIR) == F(1979, 4032)  # reference N2 (games.porg.es, Wikipedia)


@pytest.mark.parametrize("dice, die1, die2", [("fair", FAIR, FAIR), ("high", HIGH, HIGH), ("low", LOW, LOW),
                                             ("one_high", FAIR, HIGH)])
def test_loaded_pairs_exactly(dice, die1, die2):
    a = analyse(machine("fullams", dice=dice))
    assert a.win == cotton_win(die1, die2)
    assert a.figures.lose == 1 - a.win and a.edge == 1 - 2 * a.win


def test_high_fullams_favour_the_caster_and_low_the_setters():
    assert analyse(machine("fullams", dice="high")).edge < 0 < analyse(machine("fullams", dice="low")).edge


def test_weight_is_the_chance_under_the_dice_in_play(tmp_path):
    """`pays: weight(main) to weight(chance)` is the true odds of the dice in play: a bet at
    zero edge, loaded or not; `ways(…)` keeps counting fair throws, and loses to loaded dice."""
    rules = tmp_path / "odds.yaml"
    bet = ("  odds:\n    backer: caster\n    layer: setter\n    made: phase == \"chance\"\n"
           "    pays: {pays}\n    rules:\n      - when: result == \"win\"\n        do: win\n"
           "      - when: result == \"lose\"\n        do: lose\n      - otherwise: throw again\n")
    for pays, zero in (("weight(main) to weight(chance)", True), ("ways(main) to ways(chance)", False)):
        rules.write_text("extends: fullams\nname: Odds\nbets:\n" + bet.format(pays=pays))
        from hazard_dsl.compile.compiler import compile_ruleset
        from hazard_dsl.cache import read_ruleset

        edge = analyse(compile_ruleset(read_ruleset(rules), {"dice": "high"})).bets["odds"].edge
        assert (edge == 0) == zero, (pays, edge)


def test_loaded_random_dice_show_their_loading():
    dice = RandomDice(5, dice=machine("fullams", dice="high").dice)
    faces = Counter()
    for _ in range(6000):
        faces.update(dice.throw())
    high = sum(faces[f] for f in (4, 5, 6)) / 12000
    assert abs(high - 0.75) < 0.02
    one, two = (RandomDice(5, dice=machine("fullams", dice="high").dice) for _ in range(2))
    assert [one.throw() for _ in range(20)] == [two.throw() for _ in range(20)]  # same seed, same throws


def test_fair_dice_throw_as_before():
    """The fair pair is the default, and its draws are unchanged (seeds replay old runs)."""
    old = np.random.default_rng(3)
    expected = [tuple(int(x) for x in old.integers(1, 7, size=2)) for _ in range(10)]
    dice = RandomDice(3, dice=machine("cotton").dice)
    assert [dice.throw() for _ in range(10)] == expected


@pytest.mark.statistical  # a simulation against exact figures
def test_simulation_with_loaded_dice_agrees():
    m = machine("fullams", dice="high")
    exact = analyse(m)
    sim = simulate(m, 40_000, np.random.default_rng(11))
    assert abs(sim.rate("win") - float(exact.win)) <= 4 * sim.standard_error("win")


def test_run_and_analyse_json_with_loaded_dice(capsys):
    assert main(["run", "fullams", "--option", "dice=high", "--seed", "1", "--games", "2"]) == 0
    first = capsys.readouterr().out
    assert main(["run", "fullams", "--option", "dice=high", "--seed", "1", "--games", "2"]) == 0
    assert capsys.readouterr().out == first
    assert main(["analyse", "fullams", "--option", "dice=high", "--json", "--no-options"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dice"]["die1"] == ["1/12"] * 3 + ["1/4"] * 3
    assert F(out["win"]) == cotton_win(HIGH, HIGH)


@pytest.mark.parametrize("dice, message", [
    ("{both: [1/6, 1/6, 1/6, 1/6, 1/6, 1/5]}", "add up to 31/30, not 1"),
    ("{die1: [1/2, -1/6, 1/6, 1/6, 1/6, 1/6]}", "face 2 is negative"),
    ("{die1: [1/6, 1/6, lots, 1/6, 1/6, 1/6]}", "face 3 must be a number"),
    ("{die1: [1/2, 1/2]}", "a list of six numbers"),
    ("{both: [1/6, 1/6, 1/6, 1/6, 1/6, 1/6], die1: [1/6, 1/6, 1/6, 1/6, 1/6, 1/6]}", "not both"),
    ("{by_option: dise, high: {both: [1/6, 1/6, 1/6, 1/6, 1/6, 1/6]}}", "did you mean 'dice'"),
    ("{by_option: dice, hihg: {both: [1/6, 1/6, 1/6, 1/6, 1/6, 1/6]}}", "did you mean 'high'"),
    ("10d6", "hazard-dsl throws 1 to 5 dice"),
    ("{count: 2, sides: 1}", "a die has 2 to 20 faces"),
    ("{count: 4, sides: 20}", "160,000 throws"),
    ("{count: 2, faces: [crown, anchor, crown]}", "names 'crown' twice"),
    ("{count: 2, sides: 8, both: [1/6, 1/6, 1/6, 1/6, 1/6, 1/6]}", "1 to 8: a list of eight numbers"),
])
def test_check_refuses_bad_dice_with_positions(tmp_path, capsys, dice, message):
    rules = tmp_path / "bad.yaml"
    rules.write_text(f"extends: fullams\nname: Bad dice\ndice: {dice}\n")
    assert main(["check", str(rules)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert message in text, text
    assert "bad.yaml:3:" in text


@pytest.mark.parametrize("die1, die2, text", [
    ((F(1),) + (F(0),) * 5, FAIR, "{die1: [1, 0, 0, 0, 0, 0]}"),
    ((F(0),) * 3 + (F(1, 3),) * 3, (F(0),) * 3 + (F(1, 3),) * 3, "{both: [0, 0, 0, 1/3, 1/3, 1/3]}"),
])
def test_faces_that_never_come(tmp_path, capsys, die1, die2, text):
    """A die that never shows some faces: the states those throws would reach are not held
    against the rules (the game still ends wherever these dice can take it)."""
    rules = tmp_path / "zero.yaml"
    rules.write_text(f"extends: cotton\nname: Zero\ndice: {text}\n")
    assert main(["check", str(rules)]) == 0
    capsys.readouterr()
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl.cache import read_ruleset

    assert analyse(compile_ruleset(read_ruleset(rules))).win == cotton_win(die1, die2)


def test_dice_that_cannot_end_the_game_are_refused(tmp_path, capsys):
    rules = tmp_path / "sixes.yaml"
    rules.write_text("extends: cotton\nname: Sixes\ndice: {both: [0, 0, 0, 0, 0, 1]}\n")
    assert main(["check", str(rules)]) == 1
    out = capsys.readouterr()
    assert "some throws never come" in out.out + out.err
    assert main(["run", str(rules), "--seed", "1"]) == 1  # refused, not a game that never ends


faces = st.lists(st.integers(0, 4), min_size=6, max_size=6).filter(lambda w: sum(w) > 0)


@given(w1=faces, w2=faces)
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_loading_matches_the_independent_calculation(tmp_path_factory, w1, w2):
    """Any pair of loaded dice: the compiled machine's exact chance is the first-principles one."""
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl.diagnostics import RulesetError
    from hazard_dsl.check.reading import read_ruleset

    die1 = tuple(F(w, sum(w1)) for w in w1)
    die2 = tuple(F(w, sum(w2)) for w in w2)
    rules = tmp_path_factory.mktemp("dice") / "any.yaml"
    rules.write_text("extends: cotton\nname: Any\ndice:\n"
                     f"  die1: [{', '.join(str(p) for p in die1)}]\n  die2: [{', '.join(str(p) for p in die2)}]\n")
    try:
        m = compile_ruleset(read_ruleset(rules))
    except RulesetError as exc:  # these dice never end a game (no main, or a main and chance that never come)
        assert "never come" in str(exc) or "no game can ever end" in str(exc)
        return
    assert analyse(m).win == cotton_win(die1, die2)


def test_analyse_shows_the_game_under_every_value_of_the_dice(capsys):
    assert main(["analyse", "fullams"]) == 0
    out = capsys.readouterr().out
    assert "Option dice: the caster's game under each value" in out
    assert "-4.821%" in out and "4.438%" in out
    assert main(["analyse", "fullams", "--json"]) == 0
    values = json.loads(capsys.readouterr().out)["game_by_option"]["dice"]
    assert F(values["high"]["win"]) == cotton_win(HIGH, HIGH) and F(values["fair"]["win"]) == F(1979, 4032)
