"""Which rules of a phase can fire, by the value of one variable: the compiler's way through a
phase of thousands of rules.

The compiler tries a phase's rules in order for every state and every throw, and the first
that holds fires. A rule file that spells out a table — `when: n == 0 and total == 3`, `when:
n == 0 and total == 4`, …, a thousand values of n by eight throws — makes that a scan of 8,000
conditions for each of 11,000 (state, throw) pairs: minutes. Yet a rule whose condition opens
with `n == 0` can only fire where n is 0. Here each rule's *guard* is read from its condition
— the values a variable must have for it to hold — and the compiler tries, for a state, only
the rules whose guard admits its value, in their order.

Nothing changes but the speed: a guard is taken only from the tests a condition makes first,
before any test that could fail (`total // (n - 5) == 1` may divide by zero; `n == 5` cannot),
so a rule that is skipped is one whose condition would have stopped, false, at that very test.
"""

from __future__ import annotations

from heapq import merge

from ..parse import syntax as ex
from .evaluate import constant_set

MIN_RULES = 16  # a phase of fewer rules is tried as it stands
MAX_GUARD_VALUES = 64  # `n in 0..999` guards little: such a rule is tried everywhere
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_ATOMS = (ex.Name, ex.Number, ex.OptionRef, ex.String, ex.Boolean)


def leading_tests(condition) -> list:
    """The tests an `and` chain makes, in the order it makes them, up to the first that could
    fail (a comparison of names and numbers, or membership in a set written with numbers,
    cannot)."""
    tests, stack = [], [condition]
    while stack:  # in order: left before right
        node = stack.pop()
        if isinstance(node, ex.Binary) and node.op == "and":
            stack += [node.right, node.left]
            continue
        if not _cannot_fail(node):
            break
        tests.append(node)
    return tests


def _cannot_fail(node) -> bool:
    if isinstance(node, _ATOMS):
        return True
    if isinstance(node, ex.Binary) and node.op in _COMPARE:
        return isinstance(node.left, _ATOMS) and isinstance(node.right, _ATOMS)
    if isinstance(node, ex.Member):
        return isinstance(node.element, _ATOMS) and constant_set(node.collection) is not None
    return False


def guards(condition, variables) -> dict:
    """{variable: the values it must have for `condition` to hold}, from its leading tests:
    `n == 3` (or `3 == n`), `n in {3, 4}`, and bounds that close on a few values (`n >= 3 and
    n <= 4`); none for a variable without such tests."""
    equal: dict = {}  # name -> frozenset of values
    low: dict = {}
    high: dict = {}
    for test in leading_tests(condition):
        if isinstance(test, ex.Member) and not test.negated and isinstance(test.element, ex.Name) \
                and test.element.name in variables:
            values = constant_set(test.collection)
            name = test.element.name
            equal[name] = equal[name] & values if name in equal else values
            continue
        if not (isinstance(test, ex.Binary) and test.op in ("==", "<", "<=", ">", ">=")):
            continue
        op, name, number = test.op, None, None
        if isinstance(test.left, ex.Name) and test.left.name in variables and isinstance(test.right, ex.Number):
            name, number = test.left.name, test.right.value
        elif isinstance(test.right, ex.Name) and test.right.name in variables and isinstance(test.left, ex.Number):
            name, number = test.right.name, test.left.value
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)  # 3 < n is n > 3
        if name is None:
            continue
        if op == "==":
            equal[name] = equal[name] & {number} if name in equal else frozenset((number,))
        elif op in (">", ">="):
            low[name] = max(low.get(name, number), number + (op == ">"))
        else:
            high[name] = min(high.get(name, number), number - (op == "<"))
    found: dict = {}
    for name in set(equal) | (set(low) & set(high)):
        lo, hi = low.get(name), high.get(name)
        if name in equal:
            values = frozenset(v for v in equal[name] if (lo is None or v >= lo) and (hi is None or v <= hi))
        elif hi - lo < MAX_GUARD_VALUES:
            values = frozenset(range(lo, hi + 1))
        else:
            continue
        if len(values) <= MAX_GUARD_VALUES:
            found[name] = values
    return found


class RuleIndex:
    """A phase's (test, rule) pairs, tried for a state only where its guard admits the value of
    the variable that guards most of them."""

    def __init__(self, tests: tuple, variables):
        self.tests = tests
        self.variable = None
        if len(tests) < MIN_RULES:
            return
        per_rule = [guards(rule.condition, variables) if rule.condition is not None else {} for _, rule in tests]
        counts: dict = {}
        for found in per_rule:
            for name in found:
                counts[name] = counts.get(name, 0) + 1
        if not counts or max(counts.values()) < MIN_RULES // 2:
            return
        self.variable = max(counts, key=lambda name: (counts[name], name))
        self.unguarded: list = []
        self.by_value: dict = {}
        for position, found in enumerate(per_rule):
            values = found.get(self.variable)
            if values is None:
                self.unguarded.append(position)
            for value in values or ():
                self.by_value.setdefault(value, []).append(position)
        self._for_value: dict = {}

    def tests_for(self, values: dict) -> tuple:
        """The (test, rule) pairs that can fire in a state with these values, in order."""
        if self.variable is None:
            return self.tests
        value = values[self.variable]
        found = self._for_value.get(value)
        if found is None:
            found = self._for_value[value] = tuple(
                self.tests[p] for p in merge(self.by_value.get(value, ()), self.unguarded))
        return found
