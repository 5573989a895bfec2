"""The compiler's rule index (compile/rule_index.py): which rules it may skip, and proof that
skipping them changes nothing — the same machine, the same rules fired, the same errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard_dsl.compile import compiler, rule_index
from hazard_dsl.compile.rule_index import guards, leading_tests
from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.check.reading import read_ruleset
from tests.parse.test_grammar import expr

VARIABLES = {"n", "m"}


@pytest.mark.parametrize("text, expected", [
    ("n == 3 and total == 7", {"n": {3}}),
    ("total == 7 and 3 == n", {"n": {3}}),  # after a test that cannot fail
    ("n in {1, 2} and n in 2..9", {"n": {2}}),
    ("n >= 3 and n <= 4 and m == 1", {"n": {3, 4}, "m": {1}}),
    ("3 < n and n < 5", {"n": {4}}),
    ("n > 3 and n < 4", {"n": set()}),  # can never hold: never tried
    ("option.vig == 'on_win' and n == 2", {"n": {2}}),
    ("n == 3 or n == 4", {}),  # either: no single value to require
    ("not (n == 3) and total == 7", {}),
    ("total // (n - 5) == 1 and n == 5", {}),  # the division comes first and may fail: it must be tried
    ("n + 0 == 3", {}),
    ("n >= 0", {}),  # open-ended
    ("n in 0..999", {}),  # too many values to be worth it
    ("total == 7", {}),  # `total` is no variable
])
def test_guards(text, expected):
    assert {k: set(v) for k, v in guards(expr(text), VARIABLES).items()} == expected


def test_leading_tests_stop_at_the_first_that_could_fail():
    tests = leading_tests(expr("total == 7 and n == 1 and total // n == 7 and m == 2"))
    assert [type(t).__name__ for t in tests] == ["Binary", "Binary"]


# --- the index changes nothing: property tests against the plain scan

CONDITIONS = ["n == {a}", "total == {t}", "n == {a} and total == {t}", "total == {t} and n == {a}",
              "n >= {a} and n <= {b} and total >= {t}", "n in {{{a}, {b}}} and doublet",
              "total // (n - {a}) == 1 and n == {b}", "n == {a} and total // (n - {b}) == 2",
              "m == {a} and n == {b}", "n != {a} and total == {t}", "(n + 1) % 4 == {a}"]
ACTIONS = ["win", "lose", "set n = {a}; throw again", "set m = {b}; throw again", "throw again"]


def _rule(template: str, action: str, a: int, b: int, t: int) -> str:
    return (f"    - when: {template.format(a=a, b=b, t=t)}\n"
            f"      do: {action.format(a=a % 4, b=b % 4)}\n")


rules = st.lists(st.tuples(st.sampled_from(CONDITIONS), st.sampled_from(ACTIONS), st.integers(0, 4),
                           st.integers(0, 4), st.integers(2, 12)), min_size=1, max_size=40)


def _explore(path, indexed: bool):
    try:
        ruleset = read_ruleset(path)
    except RulesetError:
        return None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rule_index, "MIN_RULES", 2 if indexed else 10**9)
        result = compiler.explore(ruleset)
    machine = result.machine
    shape = None if machine is None else [(s.kind, s.phase, s.values, tuple(x.target for x in s.steps or ()))
                                          for s in machine.states]
    return shape, sorted(result.fired), sorted(result.unhandled), [d.message for d in result.diagnostics.items]


@given(rules=rules, otherwise=st.booleans())
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_index_explores_exactly_what_the_plain_scan_does(rules, otherwise, tmp_path_factory):
    text = "".join(_rule(*r) for r in rules) + ("    - otherwise: lose\n" if otherwise else "")
    path = tmp_path_factory.mktemp("index") / "r.yaml"
    path.write_text(f"name: r\nvariables:\n  n: 0..3\n  m: 0..3\nphases:\n  roll:\n{text}")
    assert _explore(path, True) == _explore(path, False)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_table_of_eight_thousand_rules_is_explored_trying_few(tmp_path):
    lines = []
    for i in range(1000):
        lines += [f"    - when: n == {i} and total == {t}\n      do: set n = {(i + t) % 1000}; throw again\n"
                  for t in (3, 4, 5, 6, 8, 9, 10)]
        lines.append(f"    - when: n == {i} and total == 7\n      do: win\n")
    path = tmp_path / "table.yaml"
    path.write_text("name: table\nvariables:\n  n: 0..999\nphases:\n  roll:\n" + "".join(lines)
                    + "    - when: total == 2\n      do: lose\n    - otherwise: throw again\n")
    result = compiler.explore(read_ruleset(path))
    assert result.machine is not None and not result.diagnostics.items
    states = sum(s.kind == "throw" for s in result.machine.states)
    assert result.tests < states * 11 * 12  # a dozen rules tried per state and total, not 8,000


def test_conditions_past_the_budget_are_refused_with_the_phase(tmp_path):
    lines = "".join(f"    - when: n + 0 == {i} and total == 7\n      do: win\n" for i in range(100))
    path = tmp_path / "slow.yaml"
    path.write_text("name: slow\nvariables:\n  n: 0..99\nphases:\n  roll:\n" + lines
                    + "    - when: total == 2\n      do: lose\n    - otherwise: set n = (n + total) % 100; throw again\n")
    result = compiler.explore(read_ruleset(path), max_tests=5000)
    (d,) = result.diagnostics.items
    assert result.machine is None and result.too_large
    assert "tries more than 5,000 conditions" in d.message and (d.position.line, d.position.column) == (5, 3)
