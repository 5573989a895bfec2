"""The compiled machine: states, transitions, choices, and the limits that keep it finite."""

from __future__ import annotations

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.compile.machine import CHOICE, END, OUTCOMES, THROW
from tests.conftest import machine

NICKS = {5: {5}, 6: {6, 12}, 7: {7, 11}, 8: {8, 12}, 9: {9}}  # Cotton 1674 pp. 168-173; reference §1
OUTS = {5: {2, 3, 11, 12}, 6: {2, 3, 11}, 7: {2, 3, 12}, 8: {2, 3, 11}, 9: {2, 3, 11, 12}}


def test_cotton_machine_for_main_6_has_exactly_the_expected_transitions():
    m = machine("cotton")
    state = m.find("chance_throw", main=6)
    assert state.kind == THROW and len(state.steps) == 36
    for (d1, d2), step in zip(OUTCOMES, state.steps):
        after = m.states[step.target]
        total = d1 + d2
        if total in {6, 12}:
            assert (after.kind, after.result, after.label) == (END, "win", "nick")
        elif total in {2, 3, 11}:
            assert (after.kind, after.result, after.label) == (END, "lose", "out")
        else:
            assert after.kind == THROW and after.phase == "chance"
            assert after.value(m, "main") == 6 and after.value(m, "chance") == total
    chance = m.find("chance", main=6, chance=4)
    for (d1, d2), step in zip(OUTCOMES, chance.steps):
        after = m.states[step.target]
        if d1 + d2 == 4:
            assert (after.result, after.label) == ("win", "chance_win")
        elif d1 + d2 == 6:
            assert (after.result, after.label) == ("lose", "chance_loss")
        else:
            assert step.target == chance.index  # thrown again


def test_cotton_standard_table_for_every_main():
    m = machine("cotton")
    for main in range(5, 10):
        state = m.find("chance_throw", main=main)
        nicks = {a + b for (a, b), s in zip(OUTCOMES, state.steps) if m.states[s.target].label == "nick"}
        outs = {a + b for (a, b), s in zip(OUTCOMES, state.steps) if m.states[s.target].label == "out"}
        assert nicks == NICKS[main] and outs == OUTS[main]


def test_cotton_state_count():
    # set_main; chance_throw for 5 mains; 6 chances per main; ends: nick, out per main, win/loss per chance.
    m = machine("cotton")
    kinds = [s.kind for s in m.states]
    assert kinds.count(THROW) == 1 + 5 + 30
    assert kinds.count(END) == 5 + 5 + 30 + 30


def test_setting_the_main_rethrows_outside_5_to_9():
    m = machine("cotton")
    start = m.states[m.start.target]
    assert start.phase == "set_main"
    for (d1, d2), step in zip(OUTCOMES, start.steps):
        after = m.states[step.target]
        if 5 <= d1 + d2 <= 9:
            assert after.phase == "chance_throw" and after.value(m, "main") == d1 + d2
        else:
            assert step.target == start.index


def test_called_main_is_a_choice_state():
    m = machine("cotton", main="called")
    start = m.states[m.start.target]
    assert start.kind == CHOICE and start.chooser == "caster" and start.variable == "main"
    assert [v for v, _ in start.alternatives] == [5, 6, 7, 8, 9]
    assert all(m.states[step.target].phase == "chance_throw" for _, step in start.alternatives)


def test_petty_extends_cotton_and_only_changes_the_chance_throw():
    petty, cotton = machine("petty"), machine("cotton")
    state = petty.find("chance_throw", main=7)
    for (d1, d2), step in zip(OUTCOMES, state.steps):
        if d1 + d2 in (11, 12):
            assert step.target == state.index
    assert len(petty.states) == len(cotton.states)  # the same states; only the 11s and 12s lead elsewhere
    assert {s.phase for s in petty.states} == {s.phase for s in cotton.states}


def test_craps_is_hazard_with_main_seven():
    craps = machine("craps")
    come_out = craps.states[craps.start.target]
    labels = {a + b: craps.states[s.target].label for (a, b), s in zip(OUTCOMES, come_out.steps)}
    assert {t for t, l in labels.items() if l == "natural"} == {7, 11}
    assert {t for t, l in labels.items() if l == "craps"} == {2, 3, 12}


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_shipped_ruleset_checks_clean():
    from tests.conftest import RULESETS, SHIPPED

    for name in SHIPPED:
        diagnostics = check_file(RULESETS / f"{name}.yaml")
        assert [d for d in diagnostics if d.is_error] == [], name


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_unbounded_variable_is_refused_not_hung(write_ruleset):
    path = write_ruleset("""
name: counter
variables:
  n: 0..1000000000
phases:
  roll:
    - when: total == 12
      do: win boxcars
    - otherwise: set n = n + 1
""")
    diagnostics = check_file(path)
    assert any("more than" in d.message and "states" in d.message for d in diagnostics)
    assert any(d.hint and "'n'" in d.hint for d in diagnostics)


def test_a_label_missing_from_labels_is_a_warning(write_ruleset):
    path = write_ruleset("""name: x
labels:
  nick: "{caster} nicks it."
phases:
  roll:
    - when: total == 7
      do: win nik
    - otherwise: lose out
""")
    (warning,) = [d for d in check_file(path) if d.message.startswith("label 'nik'")]
    assert warning.severity == "warning" and (warning.position.line, warning.position.column) == (7, 11)
    assert warning.hint == "did you mean 'nick'?"
