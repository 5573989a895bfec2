"""Evaluating checked expressions, for the compiler (and for bets and fees as they run).

Expressions are small trees; they are only ever evaluated here, never by Python's ``eval``:
each tree is turned once into a Python closure. Values are bounded so that no rule file can
grow a number (or a set) without limit.
"""

from __future__ import annotations

import operator
from functools import lru_cache

from ..diagnostics import Position
from ..parse import syntax as ex

MAX_VALUE = 10**12
MAX_CHOICES = 1000

# ways(n): how many of the 36 ordered throws of two dice sum to n.
WAYS = {total: 6 - abs(total - 7) for total in range(2, 13)}


@lru_cache(maxsize=16)
def ways_of(count: int, sides: int) -> dict:
    """total -> how many ordered throws of `count` fair dice of `sides` faces make it (made once
    per kind of dice: every Scope of a machine asks for it; read only, never changed)."""
    ways = {0: 1}
    for _ in range(count):
        step: dict = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                step[total + face] = step.get(total + face, 0) + n
        ways = step
    return ways


class Scope(frozenset):
    """The names an expression may read, the weights of the dice in play for `weight(n)` (each
    total's chance over one common denominator; fair dice: ways(n)), the fair dice's `ways`,
    and the dice's named faces (a name such as `crown` reads as its face's number)."""

    weights: dict = WAYS
    ways: dict = WAYS
    names: dict = {}

    @classmethod
    def of(cls, names, weights: dict | None = None, dice=None) -> "Scope":
        faces = {name: k for k, name in enumerate(getattr(dice, "names", ()) or (), 1)}
        scope = cls(set(names) | set(faces))
        if weights is not None:
            scope.weights = weights
        if dice is not None and (dice.count, dice.sides) != (2, 6):
            scope.ways = ways_of(dice.count, dice.sides)
        scope.names = faces
        return scope


class EvaluationError(Exception):
    def __init__(self, message: str, position: Position | None):
        super().__init__(message)
        self.position = position


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


def _arithmetic(op: str, a: int, b: int, position) -> int:
    if op == "+":
        return _bounded(a + b, position)
    if op == "-":
        return _bounded(a - b, position)
    if op == "*":
        return _bounded(a * b, position)
    if b == 0:
        raise EvaluationError("division by zero", position)
    return a // b if op == "//" else a % b


# --------------------------------------------------------------------------- closures
#
# The compiler evaluates the same few expressions hundreds of thousands of times while it
# explores a large game, so each tree is turned once into a Python closure
# `f(values, dice, options)`: about an order of magnitude faster than walking the tree.

def _count(d, face) -> int:
    return d.count(face)


def _most(d) -> int:
    return max(d.count(f) for f in d)


def _pairs(d) -> int:
    return sum(d.count(f) // 2 for f in set(d))


def _shows(d, *faces) -> bool:
    return all(d.count(f) >= faces.count(f) for f in faces)


# The facts of a throw `d` (a tuple of faces, die1 first), for any number of dice.
_DICE = {
    "total": sum,
    "high": max,
    "low": min,
    "doublet": lambda d: len(set(d)) < len(d),
    "most": _most,
    "pairs": _pairs,
}
_DIE = {f"die{k}": (lambda k: lambda d: d[k])(k - 1) for k in range(1, 10)}
# Functions of the throw, `count(f)`, `shows(a, b, …)`: each takes the throw first.
_THROW_CALLS = {"count": _count, "shows": _shows}


def die_fact(name: str):
    """The function reading a fact of the throw (`total`, `die3`, `most`…)."""
    return _DICE.get(name) or _DIE[name]


def throw_kind(rules):
    """How `rules` (rules, payouts… anything `names_read` takes) tell throws apart: None if they read a single die (die1…), so that every
    ordered throw is its own; `sum` if they read only the total; else the throw's faces as a
    multiset (sorted), since every other fact is the same for 3-5 and 5-3."""
    names = names_read(tuple(rules))
    if any(n.startswith("die") and n[3:].isdigit() for n in names):
        return None
    called = set()
    for reads in _reads_of(tuple(rules)):
        called |= reads[4]
    if names & (set(_DICE) - {"total"}) or called & set(_THROW_CALLS):
        return _sorted
    return sum


def _sorted(d) -> tuple:
    return tuple(sorted(d))


# (the operator module's own functions: a call to C, not to a lambda, in the compiler's hot loop)
_COMPARE = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def uses_single_faces(e) -> bool:
    """Whether an expression looks at more of the throw than its total."""
    return any(reads[1] for reads in _reads_of(e))


def reads_throw(e) -> bool:
    """Whether an expression (or a rule's actions, anything `names_read` takes) reads the throw:
    its total, a die, any other fact of it, `count(…)` or `shows(…)`."""
    return any(any(name in _DICE or name.startswith("die") and name[3:].isdigit() for name in reads[3])
               or not reads[4].isdisjoint(_THROW_CALLS) for reads in _reads_of(e))


def reads_weights(e) -> bool:
    """Whether an expression (or rules, or any part of a rule file) reads the dice's weights:
    `weight(t)`."""
    return any(reads[2] for reads in _reads_of(e))


def options_read(e) -> set[str]:
    """The options an expression (or a tuple, rule, payout… of them) reads: only these can
    change what it computes."""
    read: set = set()
    for reads in _reads_of(e):
        read |= reads[0]
    return read


def names_read(e) -> set[str]:
    """The names (variables, facts of the throw, `phase`, `result`…) an expression (or a
    tuple, rule, payout… of them) reads."""
    read: set = set()
    for reads in _reads_of(e):
        read |= reads[3]
    return read


# What each syntax tree (or rule, payout…) reads, walked once per object: compiling a game asks
# it of the same rules several times over (every rule, each phase's, the phases passed through),
# which was a tenth of compiling Cotton. Kept on the object itself (a record is immutable, so
# what it reads never changes), under this name: it lives and dies with the rule file, and no
# table in the module holds one for a long-running server.
_READS = "_reads_memo"


def _reads_of(e) -> list:
    """What each part of `e` reads (a tuple or list is its items)."""
    found = []
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend(node)
            continue
        if node is None:
            continue
        memo = getattr(node, "__dict__", None)
        kept = memo.get(_READS) if memo is not None else None
        if kept is None:
            options, names, weights, calls = set(), set(), False, set()
            for x in ex.walk(node):
                kind = x.__class__
                if kind is ex.OptionRef:
                    options.add(x.name)
                elif kind is ex.Name:
                    names.add(x.name)
                elif kind is ex.Call:
                    calls.add(x.function)
                    weights = weights or x.function == "weight"
            faces = any((name in _DICE or name in _DIE) and name != "total" for name in names) \
                or not calls.isdisjoint(_THROW_CALLS)
            kept = (frozenset(options), faces, weights, frozenset(names), frozenset(calls))
            if memo is not None:
                memo[_READS] = kept  # (past a frozen record's __setattr__: a memo, not a field)
        found.append(kept)
    return found


def game_options(ruleset) -> set[str]:
    """The options the game itself reads: its rules (phases, conditions, actions), the option
    that picks the dice's loading and those of dice that land off (the dice are the game's as
    much as its rules are)."""
    read = options_read(tuple(ruleset.rules()))
    dice = getattr(ruleset, "dice", None)
    if dice is not None and dice.by_option is not None:
        read.add(dice.by_option)
    cocked = getattr(ruleset, "cocked", None)
    if cocked is not None:  # dice that land off, and how they are recast, are the game's too
        read |= options_read(cocked.rules)
        if cocked.by_option is not None:
            read.add(cocked.by_option)
    return read


def bet_options(bet) -> set[str]:
    """The options a bet reads itself: its rules, payout, commission, multiples, made."""
    return options_read((tuple(r for p in bet.phases.values() for r in p.rules), bet.pays, bet.made,
                         bet.commission, tuple(bet.multiples.values())))


def closure(e, variables):
    """`f(values, dice, options)` computing `e`; `variables` are the ruleset's variable names."""
    if isinstance(e, (ex.Number, ex.Boolean, ex.String)):
        constant = e.value
        return lambda v, d, o: constant
    if isinstance(e, ex.Name):
        name = e.name
        if name in variables:
            face = getattr(variables, "names", {}).get(name)  # a named face (no variable shares its name)
            if face is not None:
                return lambda v, d, o: face
            return lambda v, d, o: v[name]
        fact = die_fact(name)
        return lambda v, d, o: fact(d)
    if isinstance(e, ex.OptionRef):
        name = e.name
        return lambda v, d, o: o[name]
    if isinstance(e, ex.Unary):
        inner = closure(e.operand, variables)
        if e.op == "not":
            return lambda v, d, o: not inner(v, d, o)
        return lambda v, d, o: -inner(v, d, o)
    if isinstance(e, ex.Binary):
        op, position = e.op, e.position
        if op in _COMPARE:
            leaves = _compared_leaves(op, _leaf(e.left, variables), _leaf(e.right, variables))
            if leaves is not None:
                return leaves
        left, right = closure(e.left, variables), closure(e.right, variables)
        if op == "and":
            if _boolean(e.left) and _boolean(e.right):  # (a test's own truth: no bool() to call)
                return lambda v, d, o: left(v, d, o) and right(v, d, o)
            return lambda v, d, o: bool(right(v, d, o)) if left(v, d, o) else False
        if op == "or":
            if _boolean(e.left) and _boolean(e.right):
                return lambda v, d, o: left(v, d, o) or right(v, d, o)
            return lambda v, d, o: True if left(v, d, o) else bool(right(v, d, o))
        if op in _COMPARE:
            compare = _COMPARE[op]
            if isinstance(e.right, (ex.Number, ex.Boolean, ex.String)):
                # against a constant (`total == 7`, `n < 3`): one call fewer per test
                constant = e.right.value
                return lambda v, d, o: compare(left(v, d, o), constant)
            return lambda v, d, o: compare(left(v, d, o), right(v, d, o))
        return lambda v, d, o: _arithmetic(op, left(v, d, o), right(v, d, o), position)
    if isinstance(e, ex.Chain):  # a + b - c …, left to right in a loop: a chain may be thousands long
        first = closure(e.first, variables)
        steps = tuple((step.op, closure(step.operand, variables), step.position) for step in e.steps)

        def chain(v, d, o):
            value = first(v, d, o)
            for op, operand, position in steps:
                value = _arithmetic(op, value, operand(v, d, o), position)
            return value

        return chain
    if isinstance(e, ex.Member):
        negated = e.negated
        constant = constant_set(e.collection)
        if constant is not None and not negated:  # `total in {2, 3}`, `main in 5..9`: one call
            leaf = _leaf(e.element, variables)
            if leaf is not None and leaf[0] is _VARIABLE:
                name = leaf[1]
                return lambda v, d, o: v[name] in constant
            if leaf is not None and leaf[0] is _FACT:
                fact = leaf[1]
                return lambda v, d, o: fact(d) in constant
        element = closure(e.element, variables)
        if constant is not None:
            return lambda v, d, o: (element(v, d, o) in constant) != negated
        members = collection_closure(e.collection, variables)
        return lambda v, d, o: (element(v, d, o) in members(v, d, o)) != negated
    if isinstance(e, ex.Conditional):
        test, then, otherwise = (closure(x, variables) for x in (e.test, e.then, e.otherwise))
        return lambda v, d, o: then(v, d, o) if test(v, d, o) else otherwise(v, d, o)
    if isinstance(e, ex.Call):
        args = [closure(a, variables) for a in e.args]
        if e.function == "ways":
            (arg,) = args
            ways = getattr(variables, "ways", WAYS)
            return lambda v, d, o: ways.get(arg(v, d, o), 0)
        if e.function in _THROW_CALLS:
            call = _THROW_CALLS[e.function]
            return lambda v, d, o: call(d, *(a(v, d, o) for a in args))
        if e.function == "weight":  # the chance of a total under the dice in play, as a whole weight
            (arg,) = args
            weights = getattr(variables, "weights", WAYS)
            return lambda v, d, o: weights.get(arg(v, d, o), 0)
        function = {"abs": abs, "min": min, "max": max}[e.function]
        return lambda v, d, o: function(*(a(v, d, o) for a in args))
    if isinstance(e, (ex.SetLiteral, ex.Range)):
        return collection_closure(e, variables)
    raise EvaluationError("cannot evaluate this expression", getattr(e, "position", None))  # pragma: no cover


# What a leaf of a test reads (`_leaf`): a variable's value, a fact of the throw, or a constant.
_VARIABLE, _FACT, _OPTION, _CONSTANT = "variable", "fact", "option", "constant"


def _leaf(e, variables):
    """(_VARIABLE, name), (_FACT, function of the throw), (_OPTION, name) or (_CONSTANT, value)
    for a name, an option or a literal, as `closure` reads it; None for anything else."""
    if isinstance(e, (ex.Number, ex.Boolean, ex.String)):
        return _CONSTANT, e.value
    if isinstance(e, ex.Name):
        name = e.name
        if name in variables:
            face = getattr(variables, "names", {}).get(name)
            return (_CONSTANT, face) if face is not None else (_VARIABLE, name)
        return _FACT, die_fact(name)
    if isinstance(e, ex.OptionRef):
        return _OPTION, e.name
    return None


def _compared_leaves(op: str, left, right):
    """A comparison of two leaves (`total == main`, `main == 7`, `n < 3`) as one closure that
    reads them itself: the compiler's commonest test, without a call for each side (the same
    comparison, by the same operator, as `closure`'s general form)."""
    if left is None or right is None or left[0] is _CONSTANT:
        return None
    compare = _COMPARE[op]
    a, b = left[1], right[1]
    kinds = (left[0], right[0])
    if op == "==":
        if kinds == (_VARIABLE, _CONSTANT):
            return lambda v, d, o: v[a] == b
        if kinds == (_FACT, _CONSTANT):
            return lambda v, d, o: a(d) == b
        if kinds == (_FACT, _VARIABLE):
            return lambda v, d, o: a(d) == v[b]
        if kinds == (_VARIABLE, _FACT):
            return lambda v, d, o: v[a] == b(d)
        if kinds == (_VARIABLE, _VARIABLE):
            return lambda v, d, o: v[a] == v[b]
        if kinds == (_OPTION, _CONSTANT):  # `option.main == "called"`
            return lambda v, d, o: o[a] == b
        return None
    if kinds == (_VARIABLE, _CONSTANT):
        return lambda v, d, o: compare(v[a], b)
    if kinds == (_FACT, _CONSTANT):
        return lambda v, d, o: compare(a(d), b)
    if kinds == (_FACT, _VARIABLE):
        return lambda v, d, o: compare(a(d), v[b])
    if kinds == (_VARIABLE, _FACT):
        return lambda v, d, o: compare(v[a], b(d))
    if kinds == (_VARIABLE, _VARIABLE):
        return lambda v, d, o: compare(v[a], v[b])
    return None


def _boolean(e) -> bool:
    """Whether `e` is a test whose closure gives True or False itself (a comparison, `in`,
    `not`, `and`, `or`), so that `and` and `or` need not call bool() on it."""
    return (isinstance(e, ex.Member) or isinstance(e, ex.Unary) and e.op == "not"
            or isinstance(e, ex.Binary) and (e.op in _COMPARE or e.op in ("and", "or")))


def collection_closure(e, variables):
    if isinstance(e, ex.Range):
        low, high = closure(e.low, variables), closure(e.high, variables)
        return lambda v, d, o: IntSet([range(low(v, d, o), high(v, d, o) + 1)])
    items = [(isinstance(item, ex.Range), collection_closure(item, variables) if isinstance(item, ex.Range)
              else closure(item, variables)) for item in e.items]

    def build(v, d, o):
        parts = []
        for is_range, fn in items:
            if is_range:
                parts.extend(fn(v, d, o).parts)
            else:
                parts.append(fn(v, d, o))
        return IntSet(parts)

    return build


def constant_set(e) -> frozenset | None:
    """A set written with numbers only (the usual case) becomes a frozenset once."""
    def number(x):
        return x.value if isinstance(x, ex.Number) else None

    if isinstance(e, ex.Range):
        low, high = number(e.low), number(e.high)
        if low is None or high is None or high - low > MAX_CHOICES:
            return None
        return frozenset(range(low, high + 1))
    values: set = set()
    for item in e.items:
        part = constant_set(item) if isinstance(item, ex.Range) else (
            {item.value} if isinstance(item, ex.Number) else None)
        if part is None:
            return None
        values |= part
    return frozenset(values)
