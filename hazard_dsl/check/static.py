"""Ranges and reachability that can be judged from the rules alone, without the explored game.

The game check (`check.game`) finds every value set outside a variable's range and every rule
that can never fire, but only once the game can be explored: while a file has other errors it
waits. What needs no exploration is said in the same run all the same — a constant set or
offered outside a variable's range, a condition on the throw no throw of two dice can meet
(`total == 13`) — so that fixing the other errors does not bring these up one run later.
Only used while the game waits: once it runs, it says the same (and more).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..parse import syntax as ex

# what two six-sided dice can show: the facts of a throw a condition may compare with a number
THROW_FACTS = {"total": range(2, 13), "die1": range(1, 7), "die2": range(1, 7), "high": range(1, 7),
               "low": range(1, 7)}


def static_problems(ruleset) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for phase in ruleset.phases.values():
        for rule in phase.rules:
            for action in rule.actions or ():
                out += _action(ruleset, action)
            if phase.throws and rule.condition is not None:
                never = _never(rule.condition)
                if never is not None:
                    fact, value = never
                    out.append(Diagnostic(f"{rule.describe()} can never fire: the {fact} of two dice is never "
                                          f"{value}", rule.position, "error",
                                          f"the {fact} is {_shown(THROW_FACTS[fact])}",
                                          code="unreachable-rule"))
    return out


def _action(ruleset, action) -> list[Diagnostic]:
    if isinstance(action, ex.Assign):
        variable = ruleset.variables.get(action.variable)
        value = _constant(action.value)
        if variable is not None and value is not None and not variable.allows(value):
            return [Diagnostic(f"set {action.variable} = {value} is outside its range {variable.bounds()}",
                               action.position)]
    if isinstance(action, ex.Choose):
        variable = ruleset.variables.get(action.variable)
        values = _values(action.collection)
        if variable is not None and values:
            outside = [v for v in values if not variable.allows(v)]
            if outside:
                return [Diagnostic(f"choose {action.variable} from … offers {outside[0]}, outside its range "
                                   f"{variable.bounds()}", action.position)]
    return []


def _constant(e):
    if isinstance(e, ex.Number):
        return e.value
    if isinstance(e, ex.Unary) and e.op == "-" and isinstance(e.operand, ex.Number):
        return -e.operand.value
    return None


def _values(collection) -> list | None:
    """The numbers of a collection written with constants only (`5..9`, `{4, 10}`), else None."""
    if isinstance(collection, ex.Range):
        low, high = _constant(collection.low), _constant(collection.high)
        if low is None or high is None or high - low > 10_000:
            return None
        return list(range(low, high + 1)) if high >= low else None
    if isinstance(collection, ex.SetLiteral):
        out = []
        for item in collection.items:
            found = _values(item) if isinstance(item, ex.Range) else [_constant(item)]
            if found is None or None in found:
                return None
            out += found
        return out
    return None


def _never(condition):
    """(fact, value) when the condition is `fact == value` (or `fact in {…}`) with no value a throw
    of two dice shows; conditions joined by `and` are never met when one of them is not."""
    if isinstance(condition, ex.Binary) and condition.op == "and":
        return _never(condition.left) or _never(condition.right)
    if isinstance(condition, ex.Binary) and condition.op == "==":
        for fact, other in ((condition.left, condition.right), (condition.right, condition.left)):
            value = _constant(other)
            if isinstance(fact, ex.Name) and fact.name in THROW_FACTS and value is not None \
                    and value not in THROW_FACTS[fact.name]:
                return fact.name, value
    if isinstance(condition, ex.Member) and not condition.negated and isinstance(condition.element, ex.Name) \
            and condition.element.name in THROW_FACTS:
        values = _values(condition.collection)
        if values and not any(v in THROW_FACTS[condition.element.name] for v in values):
            return condition.element.name, " or ".join(map(str, values[:4]))
    return None


def _shown(r: range) -> str:
    return f"{r.start} to {r.stop - 1}"
