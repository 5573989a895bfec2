"""The syntax trees of the expression language: small immutable values with positions.

Kept apart from the parser (`parse.expressions`, which needs Lark) so that everything downstream
of reading — the checker, the compiler, the solver, a ruleset loaded from the reading cache —
uses the trees without loading Lark. Every node carries a `Position` in the rule file (its first
character; for a comparison or an arithmetic operator, the operator, where a type error is best
shown).
"""

from __future__ import annotations

from ..records import field, record

from ..diagnostics import Position


# --------------------------------------------------------------------------- syntax trees


@record(frozen=True)
class Number:
    value: int
    position: Position


@record(frozen=True)
class Boolean:
    value: bool
    position: Position


@record(frozen=True)
class String:
    value: str
    position: Position


@record(frozen=True)
class Name:
    """A variable (`main`), a fact of the throw (`total`, `die1`, `doublet`…)."""

    name: str
    position: Position


@record(frozen=True)
class OptionRef:
    name: str
    position: Position
    name_position: Position | None = field(repr=False, compare=False, default=None)  # as End.label_position


@record(frozen=True)
class Call:
    function: str
    args: tuple
    position: Position


@record(frozen=True)
class Unary:
    op: str  # "-" or "not"
    operand: object
    position: Position


@record(frozen=True)
class Binary:
    op: str  # "and" "or" "+" "-" "*" "//" "%" "==" "!=" "<" "<=" ">" ">="
    left: object
    right: object
    position: Position


@record(frozen=True)
class ChainStep:
    """One operator of a `Chain` and the operand after it."""

    op: str  # "+" "-" | "*" "//" "%"
    operand: object
    position: Position  # the operator's


@record(frozen=True)
class Chain:
    """Three operands or more joined by arithmetic of one precedence, computed left to right:
    `a + b - c` is (a + b) - c. Kept flat (a sum of 5,000 terms is a tuple of 4,999 steps, not
    a tree 5,000 deep, which every recursive walk — and pickle — would choke on); two operands
    are a `Binary`. A chain of `and` or of `or` is a balanced tree of `Binary`s instead (the
    same value, in the same order of evaluation, at a depth of log2 n)."""

    first: object
    steps: tuple  # (ChainStep, …)
    position: Position  # the first operand's start


@record(frozen=True)
class Member:
    element: object
    collection: object  # SetLiteral or Range
    negated: bool
    position: Position


@record(frozen=True)
class Range:
    low: object
    high: object
    position: Position


@record(frozen=True)
class SetLiteral:
    items: tuple  # expressions or Ranges
    position: Position


@record(frozen=True)
class Conditional:
    test: object
    then: object
    otherwise: object
    position: Position


def walk(tree):
    """Every node of a syntax tree — or of anything holding trees (a tuple of actions, a rule,
    a payout) — iteratively, so a deep tree is walked all the same. The one traversal the
    checker, the compiler and the analysis use to ask what an expression reads."""
    stack = [tree]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        kind = node.__class__
        inside = _INSIDE.get(kind)
        if inside is None:
            inside = _inside(kind)
        if inside is _SEQUENCE:
            extend(node)
        elif inside is not _LEAF:
            yield node
            extend([getattr(node, name) for name in inside])


_SEQUENCE, _LEAF = object(), object()
_INSIDE: dict = {}  # a class -> what `walk` looks into: its items, its fields but the position, or nothing


def _inside(kind: type):
    if issubclass(kind, (tuple, list)):
        found = _SEQUENCE
    elif hasattr(kind, "__record_fields__") and not issubclass(kind, type):
        found = tuple(name for name in kind.__record_fields__ if not name.endswith("position"))
    else:
        found = _LEAF
    _INSIDE[kind] = found
    return found


# --------------------------------------------------------------------------- actions


@record(frozen=True)
class Payout:
    """What a winning bet pays: `30 to 1` nets 30 per unit staked; `30 for 1` returns 30 with the
    stake, so nets 29. The two numbers are expressions (`ways(main) to ways(chance)`)."""

    win: object
    stake: object
    kind: str  # "to" | "for"
    position: Position


@record(frozen=True)
class End:
    """win / lose / push, with the period's word for it (nick, out, crabs…); a bet's win may say
    what it pays."""

    result: str  # "win" | "lose" | "push"
    label: str
    position: Position
    payout: Payout | None = None
    # where the label is written (a misspelt one's repair replaces it), or None where it is not
    # (`win` alone); a place, not a part of the action: not compared, not walked
    label_position: Position | None = field(repr=False, compare=False, default=None)


@record(frozen=True)
class Pay:
    """A fee falls due (the half guinea to the box)."""

    fee: str
    position: Position


@record(frozen=True)
class ThrowAgain:
    position: Position


@record(frozen=True)
class Assign:
    variable: str
    value: object
    position: Position


@record(frozen=True)
class Goto:
    phase: str
    position: Position


@record(frozen=True)
class Choose:
    """A player picks a value instead of the dice (the caster calls a main)."""

    variable: str
    collection: object
    role: str
    position: Position
    variable_position: Position | None = field(repr=False, compare=False, default=None)  # as End.label_position


@record(frozen=True)
class Recast:
    """Dice that landed off (cocked or wild) are thrown again (`cocked:` rules only): `recast
    both`, `recast off` (the off die alone, the other keeping the face it shows), or the
    chooser's pick between them, `recast off or both by caster`."""

    ways: tuple  # "off" and/or "both", as written
    role: str | None  # who picks, where there are two ways
    position: Position


# What `recast` may name: the die (or dice) that landed off, or both dice.
RECAST_WAYS = ("off", "both")

Action = End | ThrowAgain | Assign | Goto | Choose | Pay | Recast
