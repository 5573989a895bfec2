"""The compiler's walk works out one throw of each kind (`_Compiler.kinds`) and lets it stand
for the others; the machine must be the one a walk of every throw builds, state for state. The
second method here is that plain walk: the same compiler with no throw standing for another
(`alike` emptied), for every built-in rule file under each value of each of its options."""

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


def _walk(ruleset, chosen: dict, every_throw: bool):
    compiler = _Compiler(ruleset, resolve_options(ruleset, chosen))
    if every_throw:
        compiler.alike = {name: None for name in compiler.alike}
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
