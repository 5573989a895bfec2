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
from ..model import TWO_DICE, dice_shape

def throw_ranges(shape) -> dict:
    """What the dice can show: the facts of a throw a condition may compare with a number."""
    faces = range(1, shape.sides + 1)
    out = {"total": range(shape.count, shape.count * shape.sides + 1),
           **{f"die{k}": faces for k in range(1, shape.count + 1)}, "high": faces, "low": faces,
           "most": range(1, shape.count + 1), "pairs": range(0, shape.count // 2 + 1)}
    return out


# what two six-sided dice can show
THROW_FACTS = throw_ranges(TWO_DICE)


def static_problems(ruleset) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    shape = dice_shape(ruleset)
    facts = throw_ranges(shape)
    dice = "two dice" if shape == TWO_DICE else shape.written()
    for phase in ruleset.phases.values():
        for rule in phase.rules:
            for action in rule.actions or ():
                out += _action(ruleset, action)
            if phase.throws and rule.condition is not None:
                never = _never(rule.condition, facts)
                if never is not None:
                    fact, value = never
                    out.append(Diagnostic(f"{rule.describe()} can never fire: the {fact} of {dice} is never "
                                          f"{value}", rule.position, "error",
                                          f"the {fact} is {_shown(facts[fact])}",
                                          code="unreachable-rule", names=(rule.phase,)))
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


def _never(condition, facts: dict = THROW_FACTS):
    """(fact, value) when the condition is `fact == value` (or `fact in {…}`) with no value a throw
    of the dice shows; conditions joined by `and` are never met when one of them is not."""
    if isinstance(condition, ex.Binary) and condition.op == "and":
        return _never(condition.left, facts) or _never(condition.right, facts)
    if isinstance(condition, ex.Binary) and condition.op == "==":
        for fact, other in ((condition.left, condition.right), (condition.right, condition.left)):
            value = _constant(other)
            if isinstance(fact, ex.Name) and fact.name in facts and value is not None \
                    and value not in facts[fact.name]:
                return fact.name, value
    if isinstance(condition, ex.Member) and not condition.negated and isinstance(condition.element, ex.Name) \
            and condition.element.name in facts:
        values = _values(condition.collection)
        if values and not any(v in facts[condition.element.name] for v in values):
            return condition.element.name, " or ".join(map(str, values[:4]))
    return None


def _shown(r: range) -> str:
    return f"{r.start} to {r.stop - 1}"
