"""The interpreter for checked expressions, used while the compiler explores the game.

Expressions are small trees; they are only ever evaluated here, never by Python's ``eval``.
Values are bounded so that no rule file can grow a number (or a set) without limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Position
from ..parse import expressions as ex

MAX_VALUE = 10**12
MAX_CHOICES = 1000

# ways(n): how many of the 36 ordered throws of two dice sum to n.
WAYS = {total: 6 - abs(total - 7) for total in range(2, 13)}


class EvaluationError(Exception):
    def __init__(self, message: str, position: Position | None):
        super().__init__(message)
        self.position = position


@dataclass(frozen=True)
class Env:
    values: dict  # variable -> int
    options: dict  # option -> value
    dice: tuple | None  # (die1, die2), or None where no dice are thrown


class IntSet:
    """A set of ints made of single values and ranges; ranges stay ranges (4..10**9 is cheap)."""

    def __init__(self, parts):
        self.parts = tuple(parts)  # ints and `range`s

    def __contains__(self, value) -> bool:
        return any(value in p if isinstance(p, range) else value == p for p in self.parts)

    def size(self) -> int:
        return sum(len(p) if isinstance(p, range) else 1 for p in self.parts)

    def values(self, position) -> list[int]:
        if self.size() > MAX_CHOICES:
            raise EvaluationError(f"a choice among more than {MAX_CHOICES} values", position)
        out: set[int] = set()
        for p in self.parts:
            out.update(p if isinstance(p, range) else (p,))
        return sorted(out)


def _bounded(value: int, position) -> int:
    if abs(value) > MAX_VALUE:
        raise EvaluationError(f"the value {value} is beyond ±{MAX_VALUE}", position)
    return value


def evaluate(e, env: Env):
    if isinstance(e, ex.Number):
        return e.value
    if isinstance(e, ex.Boolean):
        return e.value
    if isinstance(e, ex.String):
        return e.value
    if isinstance(e, ex.Name):
        if e.name in env.values:
            return env.values[e.name]
        d1, d2 = env.dice
        if e.name == "total":
            return d1 + d2
        if e.name == "die1":
            return d1
        if e.name == "die2":
            return d2
        if e.name == "high":
            return max(d1, d2)
        if e.name == "low":
            return min(d1, d2)
        if e.name == "doublet":
            return d1 == d2
        raise EvaluationError(f"undefined name {e.name!r}", e.position)  # pragma: no cover - checked before
    if isinstance(e, ex.OptionRef):
        return env.options[e.name]
    if isinstance(e, ex.Unary):
        value = evaluate(e.operand, env)
        return (not value) if e.op == "not" else -value
    if isinstance(e, ex.Binary):
        if e.op == "and":
            return bool(evaluate(e.left, env)) and bool(evaluate(e.right, env))
        if e.op == "or":
            return bool(evaluate(e.left, env)) or bool(evaluate(e.right, env))
        left, right = evaluate(e.left, env), evaluate(e.right, env)
        op = e.op
        if op == "==":
            return left == right
        if op == "!=":
            return left != right
        if op == "<":
            return left < right
        if op == "<=":
            return left <= right
        if op == ">":
            return left > right
        if op == ">=":
            return left >= right
        if op == "+":
            return _bounded(left + right, e.position)
        if op == "-":
            return _bounded(left - right, e.position)
        if op == "*":
            return _bounded(left * right, e.position)
        if right == 0:
            raise EvaluationError("division by zero", e.position)
        return left // right if op == "//" else left % right
    if isinstance(e, ex.Member):
        found = evaluate(e.element, env) in collection(e.collection, env)
        return not found if e.negated else found
    if isinstance(e, ex.Conditional):
        return evaluate(e.then, env) if evaluate(e.test, env) else evaluate(e.otherwise, env)
    if isinstance(e, ex.Call):
        args = [evaluate(a, env) for a in e.args]
        if e.function == "ways":
            return WAYS.get(args[0], 0)
        if e.function == "abs":
            return abs(args[0])
        if e.function == "min":
            return min(args)
        if e.function == "max":
            return max(args)
    if isinstance(e, (ex.SetLiteral, ex.Range)):
        return collection(e, env)
    raise EvaluationError("cannot evaluate this expression", getattr(e, "position", None))  # pragma: no cover


def collection(e, env: Env) -> IntSet:
    if isinstance(e, ex.Range):
        low, high = evaluate(e.low, env), evaluate(e.high, env)
        return IntSet([range(low, high + 1)])
    parts = []
    for item in e.items:
        if isinstance(item, ex.Range):
            parts.extend(collection(item, env).parts)
        else:
            parts.append(evaluate(item, env))
    return IntSet(parts)
