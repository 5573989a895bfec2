"""The rule language said in words, for people: what `show` and the rule sheet print where a
rule file wrote an expression (how many losses pass the dice, what a bet pays).

A reader of `show` should never meet `(if option.passing == "three_losses" then 3 else 1)`:
an expression over the options is said once for each value of the options it reads
("after every loss (passing=after_loss); after 3 losses in a row (passing=three_losses)"),
and the rest in the game's words ("the ways of throwing the main to the ways of throwing the
chance"). Only the values are computed, by the one evaluator (`compile.evaluate`); nothing
here decides a rule.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from ..parse import syntax as ex

MAX_SETTINGS = 24  # option settings said one by one; past this, the expression is said as it stands

FACTS = {"total": "the total thrown", "die1": "the first die", "die2": "the second die",
          "high": "the higher die", "low": "the lower die", "doublet": "a doublet",
          "die3": "the third die", "die4": "the fourth die", "die5": "the fifth die",
          "most": "the most dice showing one face", "pairs": "the pairs among the dice"}
_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "//": "divided by (rounded down)", "%": "modulo"}
_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
            ">=": "is at least"}


def _options_read(e) -> list[str]:
    from ..compile.evaluate import options_read

    return sorted(options_read(e))


def value(e, options: dict):
    """The value of an expression that reads only options (and numbers), or None. The ways of a
    total stay words ("the ways of throwing 7"): they say where a payout comes from."""
    from ..compile.evaluate import EvaluationError, closure

    if any(isinstance(x, ex.Name) or (isinstance(x, ex.Call) and x.function in ("ways", "weight"))
           for x in ex.walk(e)):
        return None
    try:
        return closure(e, ())({}, None, options)
    except (EvaluationError, KeyError, TypeError, ZeroDivisionError):
        return None


def expression(e, options: dict | None = None) -> str:
    """An expression in words; with `options`, what reads only options is worked out."""
    if options is not None and not isinstance(e, (ex.Number, ex.Boolean, ex.String)):
        worked = value(e, options)
        if worked is not None and not isinstance(worked, (set, frozenset)) and not hasattr(worked, "parts"):
            return _plain(worked)
    if isinstance(e, ex.Number):
        return str(e.value)
    if isinstance(e, ex.Boolean):
        return "yes" if e.value else "no"
    if isinstance(e, ex.String):
        return e.value
    if isinstance(e, ex.Name):
        return FACTS.get(e.name, f"the {e.name}")
    if isinstance(e, ex.OptionRef):
        return f"the option {e.name}"
    if isinstance(e, ex.Call):
        args = [expression(a, options) for a in e.args]
        if e.function == "ways" and len(args) == 1:
            return f"the ways of throwing {args[0]}"
        if e.function == "weight" and len(args) == 1:
            return f"the chance of throwing {args[0]} with the dice in play"
        if e.function == "abs" and len(args) == 1:
            return f"the size of {args[0]}"
        if e.function == "count" and len(args) == 1:
            return f"the dice showing {args[0]}"
        if e.function == "shows":
            return f"the throw shows {' and '.join(args)}"
        if e.function in ("min", "max") and len(args) == 2:
            return f"the {'smaller' if e.function == 'min' else 'larger'} of {args[0]} and {args[1]}"
        return f"{e.function} of {' and '.join(args)}"
    if isinstance(e, ex.Unary):
        inner = expression(e.operand, options)
        return f"not ({inner})" if e.op == "not" else f"minus {inner}"
    if isinstance(e, ex.Binary):
        left, right = (f"({text})" if isinstance(side, ex.Conditional) else text
                       for side, text in ((e.left, expression(e.left, options)),
                                          (e.right, expression(e.right, options))))
        if e.op in ("and", "or"):
            return f"{left} {e.op} {right}"
        if e.op in _COMPARE:
            return f"{left} {_COMPARE[e.op]} {right}"
        return f"{left} {_ARITHMETIC.get(e.op, e.op)} {right}"
    if isinstance(e, ex.Member):
        return f"{expression(e.element, options)} is {'not ' if e.negated else ''}{_collection(e.collection, options)}"
    if isinstance(e, ex.Conditional):
        test = value(e.test, options) if options is not None else None
        if test is True:
            return expression(e.then, options)
        if test is False:
            return expression(e.otherwise, options)
        return (f"{expression(e.then, options)} if {expression(e.test, options)}, "
                f"otherwise {expression(e.otherwise, options)}")
    if isinstance(e, (ex.Range, ex.SetLiteral)):
        return _collection(e, options)
    return "?"


def _collection(e, options) -> str:
    if isinstance(e, ex.Range):
        return f"from {expression(e.low, options)} to {expression(e.high, options)}"
    if isinstance(e, ex.SetLiteral):
        items = [_collection(i, options) if isinstance(i, ex.Range) else expression(i, options) for i in e.items]
        return "one of " + ", ".join(items) if len(items) > 1 else (items[0] if items else "nothing")
    return f"in {expression(e, options)}"


def _plain(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _factor(e) -> tuple[Fraction, object]:
    """A product split into its constant factor and the rest (`ways(main) * 19` → 19, ways(main))."""
    if isinstance(e, ex.Binary) and e.op == "*":
        for constant, rest in ((e.left, e.right), (e.right, e.left)):
            if isinstance(constant, ex.Number) and constant.value:
                k, inner = _factor(rest)
                return k * constant.value, inner
    return Fraction(1), e


def payout(pays, options: dict | None = None) -> str:
    """What a win pays, in words: "1 to 1", "30 for 1", "the ways of throwing the main to the ways
    of throwing the chance", a common factor said apart ("…, times 19/20")."""
    win, stake = pays.win, pays.stake
    if options is not None:
        win, stake = _settled(win, options), _settled(stake, options)
    (k_win, rest_win), (k_stake, rest_stake) = _factor(win), _factor(stake)
    if (k_win, k_stake) != (1, 1) and not isinstance(rest_win, ex.Number) and not isinstance(rest_stake, ex.Number):
        scale = k_win / k_stake
        text = f"{expression(rest_win, options)} {pays.kind} {expression(rest_stake, options)}"
        return text if scale == 1 else f"{text}, times {scale}"
    return f"{expression(win, options)} {pays.kind} {expression(stake, options)}"


def _settled(e, options: dict):
    """The expression with what reads only options worked out: a conditional over the options
    becomes the branch taken, a number computed from options a number."""
    if isinstance(e, (ex.Number, ex.Boolean, ex.String, ex.Name)):
        return e
    worked = value(e, options)
    if isinstance(worked, int) and not isinstance(worked, bool):
        return ex.Number(worked, e.position)
    if isinstance(e, ex.Conditional):
        test = value(e.test, options)
        if isinstance(test, bool):
            return _settled(e.then if test else e.otherwise, options)
        return e
    if isinstance(e, ex.Binary):
        return ex.Binary(e.op, _settled(e.left, options), _settled(e.right, options), e.position)
    if isinstance(e, ex.Call):
        return ex.Call(e.function, tuple(_settled(a, options) for a in e.args), e.position)
    return e


def by_options(e, ruleset, say) -> list[tuple[str, dict]]:
    """`say(options)` for each setting of the options `e` reads, settings that say the same thing
    merged: [(words, {option: [values…]})]. One entry with {} when `e` reads no option."""
    names = [n for n in _options_read(e) if n in ruleset.options]
    if not names:
        return [(say(ruleset.default_options()), {})]
    settings = list(product(*(ruleset.options[n].values for n in names)))
    if len(settings) > MAX_SETTINGS:
        return [(say(None), {})]
    said: dict[str, dict] = {}
    for values in settings:
        options = {**ruleset.default_options(), **dict(zip(names, values))}
        group = said.setdefault(say(options), {n: [] for n in names})
        for n, v in zip(names, values):
            if v not in group[n]:
                group[n].append(v)
    return list(said.items())


def setting(group: dict, ruleset) -> str:
    """"passing=after_loss", or "" where every value of an option says the same."""
    parts = []
    for name, values in group.items():
        if len(values) == len(ruleset.options[name].values):
            continue
        parts.append(f"{name}={' or '.join(map(str, values))}")
    return ", ".join(parts)


def losses(n) -> str:
    """How many losses pass the dice, in words."""
    if n is None or n == 0:
        return "losses alone never pass the dice"
    if n == 1:
        return "after every loss"
    return f"after {n} losses in a row"
