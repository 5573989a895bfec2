"""The compiler's walk works out one throw of each kind (`_Compiler.kinds`) and lets it stand
for the others, and gives a rule's step again to every throw of a state it fires for when no
throw changes it (`_Compiler._throw`'s `same`); the machine must be the one a walk of every
throw builds, state for state. The second method here is that plain walk: the same compiler
with no throw standing for another (`alike` emptied) and every step run afresh (`_blind` false
for every rule), for every built-in rule file under each value of each of its options."""

from __future__ import annotations

from pathlib import Path

import pytest

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.compile.compiler import _Compiler
from hazard_dsl.compile.options import resolve_options

RULESETS = sorted(Path(__file__).resolve().parents[2].joinpath("rulesets").glob("*.yaml"))


def _choices(ruleset) -> list:
    found = [{}]
    for name, option in ruleset.options.items():
        found += [{name: value} for value in option.values]
    return found


def _walk(ruleset, chosen: dict, every_throw: bool, share_steps: bool | None = None):
    compiler = _Compiler(ruleset, resolve_options(ruleset, chosen))
    if every_throw:
        compiler.alike = {name: None for name in compiler.alike}
    if not (not every_throw if share_steps is None else share_steps):
        compiler._blind = lambda rule: False  # every throw's step run afresh
    return compiler.explore()


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_one_throw_of_each_kind_builds_the_machine_every_throw_builds(path):
    ruleset = read_ruleset(str(path))
    for chosen in _choices(ruleset):
        grouped, plain = _walk(ruleset, chosen, False), _walk(ruleset, chosen, True)
        said = [d.message for d in grouped.diagnostics.items]
        assert said == [d.message for d in plain.diagnostics.items], chosen
        assert (grouped.machine is None) == (plain.machine is None), chosen
        if grouped.machine is None:
            continue
        one, every = grouped.machine, plain.machine
        assert one.variables == every.variables
        assert one.start == every.start, chosen
        assert one.states == every.states, chosen
        assert one.recast == every.recast, chosen
        assert grouped.fired == plain.fired and grouped.entered == plain.entered, chosen


def test_the_throws_that_stand_for_the_others_by_total():
    """Two six-sided dice by their total: the first throw of each total, in the order of the
    throws (die 1 slowest), is (1, t - 1) for t ≤ 7 and (t - 6, 6) above; 11 totals."""
    ruleset = read_ruleset(str(RULESETS[0].parent / "cotton.yaml"))
    compiler = _Compiler(ruleset, resolve_options(ruleset, {}))
    firsts, places = compiler.kinds(sum)
    assert firsts == tuple((1, t - 1) if t <= 7 else (t - 6, 6) for t in range(2, 13))
    # each of the 36 throws (d1, d2) is stood for by its total's: place total - 2
    assert places == tuple(d1 + d2 - 2 for d1 in range(1, 7) for d2 in range(1, 7))


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_step_given_again_is_the_step_run_again(path):
    """Steps shared within a state (`same`) against each run afresh, one throw of each kind
    both ways: the same machine, rules fired, phases entered, problems, and the same count of
    conditions tried (the budget `MAX_RULE_TESTS` is spent alike)."""
    ruleset = read_ruleset(str(path))
    for chosen in _choices(ruleset):
        shared, afresh = _walk(ruleset, chosen, False, True), _walk(ruleset, chosen, False, False)
        assert [d.message for d in shared.diagnostics.items] == [d.message for d in afresh.diagnostics.items]
        assert shared.tests == afresh.tests, chosen
        assert shared.fired == afresh.fired and shared.entered == afresh.entered, chosen
        assert shared.unhandled == afresh.unhandled and shared.thrown == afresh.thrown, chosen
        if shared.machine is not None:
            assert shared.machine.states == afresh.machine.states, chosen
            assert shared.machine.recast == afresh.machine.recast, chosen


def test_cotton_chance_shares_its_throw_again():
    """In Cotton's chance (main 6, chance 4) the 11 totals fire three rules: 4 wins, 6 loses,
    the other nine throw again, one step given nine times (counted from the rule file: `total
    == chance`, `total == main`, `otherwise: throw again`)."""
    ruleset = read_ruleset(str(RULESETS[0].parent / "cotton.yaml"))
    machine = _walk(ruleset, {}, False, True).machine
    (state,) = [s for s in machine.states if s.kind == "throw" and s.phase == "chance" and s.values == (6, 4)]
    compiler = _Compiler(ruleset, resolve_options(ruleset, {}))
    firsts, places = compiler.kinds(sum)
    by_total = {sum(firsts[place]): state.steps[k] for k, place in enumerate(places)}
    again = [by_total[t] for t in range(2, 13) if t not in (4, 6)]
    assert all(step is again[0] for step in again) and again[0].target == state.index
    assert machine.states[by_total[4].target].result == "win"
    assert machine.states[by_total[6].target].result == "lose"


@pytest.mark.parametrize("name", ["cotton", "hoyle", "history_sheet"])
def test_a_state_made_by_its_fields_is_the_record_its_init_makes(name):
    """The walk fills each state's fields in their order (`compiler._state`): every state is the
    record `State(**fields)` makes, field for field, in the same order, hashed and pickled
    alike (a machine is kept in the reading cache by pickle)."""
    import pickle

    from hazard_dsl.compile.machine import State
    from hazard_dsl.records import fields

    ruleset = read_ruleset(str(RULESETS[0].parent / f"{name}.yaml"))
    for chosen in _choices(ruleset):
        machine = _walk(ruleset, chosen, False).machine
        for state in machine.states:
            made = State(**{field: getattr(state, field) for field in fields(State)})
            assert list(vars(state).items()) == list(vars(made).items())
            assert state == made and hash(state) == hash(made)
            assert pickle.dumps(state) == pickle.dumps(made)
