"""The expression language: Lark grammar → the syntax trees of `parse.syntax`, with positions.

The grammar lives in ``grammar/hazard.lark`` (shipped inside the package as data); its LALR(1)
tables are computed from it by Lark at build time into `parse._tables` (``python grammar/tables.py``)
and run by `parse.lalr`, which gives Lark's trees and errors without importing Lark. Expressions
are parsed, never ``eval``'d: the trees are interpreted by `compile.evaluate`. The parser's errors
are turned into our diagnostics with the same positions. The trees are re-exported here, so
`expressions.Binary` and `syntax.Binary` are one class.
"""

from __future__ import annotations

from functools import lru_cache

from ..diagnostics import Diagnostic, Position, RulesetError, Suggestion
from ._tables import TERMINALS
from .lalr import Token, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, parse as _lalr_parse
from .syntax import (Assign, Binary, Boolean, Call, Chain, ChainStep, Choose, Conditional, End, Goto, Member, Name,
                     Number, OptionRef, Pay, Payout, Range, Recast, SetLiteral, String, ThrowAgain, Unary)
from .yaml_nodes import YScalar

# A condition may be long (a chain of 5,000 `and`s is read, checked and compiled in a second or
# so): this bound only keeps one scalar from holding the whole of a megabyte file.
MAX_EXPRESSION_CHARS = 100_000
MAX_INT_DIGITS = 9
# Levels of nesting — brackets, `not`, signs, if/then/else — not the length of a chain (`a and b
# and c …` is one level): no rule needs more, and the later stages recurse into nesting.
MAX_NESTING = 60
MAX_CACHED_CHARS = 200  # the texts worth remembering are the short ones every rule file repeats


# --------------------------------------------------------------------------- parsing


# The options the tables were computed with (grammar/tables.py reads them here): a parser built
# at run time by Lark from the grammar with these is the parser `parse.lalr` runs.
LARK_OPTIONS = dict(
    parser="lalr",
    start=["expression", "actions", "payout"],
    propagate_positions=True,
    maybe_placeholders=True,
    # One lexer for every context: a keyword is a whole word ("winner" is a name, not
    # `win ner`) and is reserved everywhere.
    lexer="basic",
)


# What the parser expected, told in a few words: Lark lists every terminal that could come next
# (eleven of them after `total`); an author wants to hear "a comparison, `and`, `or` or the end".
_VALUE_STARTS = {"NAME", "INT", "STRING", "TRUE", "FALSE", "OPTION", "IF", "LBRACE"}
_ACTIONS = {"WIN", "LOSE", "PUSH", "PAY", "THROW", "SET", "GOTO", "CHOOSE", "RECAST"}
_SINGLE = {  # (priority: lower is told first, words)
    "RPAR": (0, "`)`"), "RBRACE": (0, "`}`"), "COMMA": (1, "`,`"), "EQUAL": (2, "`=`"),
    "THEN": (2, "`then`"), "ELSE": (2, "`else`"), "AGAIN": (2, "`again`"), "FROM": (2, "`from`"),
    "BY": (6, "`by`"), "TO": (2, "`to`"), "FOR": (2, "`for`"), "DOT": (2, "`.`"), "__ANON_0": (5, "`..`"),
    "SEMICOLON": (8, "`;` and another action"), "PAYS": (7, "`pays`"),
}
MAX_ALTERNATIVES = 4


def _describe_expected(expected, what: str = "expression") -> str:
    """The terminals Lark expected, grouped into at most MAX_ALTERNATIVES phrases an author knows."""
    expected = set(expected)
    told: list[tuple[int, str]] = []
    value = expected & _VALUE_STARTS
    if value:
        if value == {"NAME"}:
            told.append((3, "a name"))
        elif value & {"NAME", "INT"}:
            told.append((3, "a value (a number, a name or a quoted word)"))
        else:
            told.extend((3, f"`{TERMINALS[n][1]}`") for n in sorted(value))
    elif "LPAR" in expected and not expected & {"COMPARE", "AND", "OR", "$END", "MUL"}:
        told.append((0, "`(`"))
    if "NOT" in expected and value:
        told.append((4, "`not`"))
    closing = expected & {"RPAR", "RBRACE", "COMMA"}  # inside brackets: their close is the likely want
    if expected & {"COMPARE", "IN"} and not closing:
        told.append((5, "a comparison (`==`, `!=`, `<`, `in` …)"))
    if not closing:
        told.extend((6, f"`{w.lower()}`") for w in ("AND", "OR") if w in expected)
    if expected & _ACTIONS:
        told.append((3, "an action (`win`, `lose`, `push`, `set`, `goto`, `throw again`, `choose` …)"))
    for name in expected:
        if name in _SINGLE:
            told.append(_SINGLE[name])
    if "$END" in expected:
        told.append((9, f"the end of the {what}"))
    if not told and expected & {"ADD", "MUL"}:
        told.append((7, "`+`, `-`, `*`, `//` or `%`"))
    if not told:  # a terminal this table does not know: its literal text, never its name
        for name in sorted(expected):
            try:
                kind, pattern = TERMINALS[name]
            except KeyError:
                continue
            if kind == "str":
                told.append((4, f"`{pattern}`"))
    words = [w for _, w in sorted(set(told))][:MAX_ALTERNATIVES]
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class _Builder:
    """Parse tree → our nodes, by the rule each tree node was reduced by. A plain recursive walk
    with a table of handlers (Lark's Transformer rebuilt a decorated method for every node it
    visited, which cost more than the parse). Nesting is bounded before (`_deepest`), and a chain
    (`a and b and …`) is one node with many children, so the recursion stays shallow."""

    __slots__ = ("at_offset",)

    def __init__(self, scalar: YScalar):
        self.at_offset = scalar.position_at

    def at(self, thing) -> Position:
        return self.at_offset(thing.start_pos or 0)  # a token's start, or a tree's as Lark places it

    def build(self, node):
        if node is None or node.__class__ is Token:
            return node
        return _RULES[node.data](self, node.children, node)

    def all(self, children) -> list:
        build = self.build
        return [build(c) for c in children]

    # --- atoms
    def number(self, children, tree):
        (token,) = children
        if len(token) > MAX_INT_DIGITS:
            raise _NodeError(f"the number {token[:12]}… is too large (at most {MAX_INT_DIGITS} digits)", self.at(token))
        return Number(int(token), self.at(token))

    def true(self, children, tree):
        return Boolean(True, self.at(tree))

    def false(self, children, tree):
        return Boolean(False, self.at(tree))

    def string(self, children, tree):
        (token,) = children
        return String(token[1:-1], self.at(token))

    def name(self, children, tree):
        (token,) = children
        return Name(str(token), self.at(token))

    def option(self, children, tree):
        return OptionRef(str(children[0]), self.at(tree), self.at(children[0]))

    def call(self, children, tree):
        function, *args = children
        return Call(str(function), tuple(self.build(a) for a in args if a is not None), self.at(tree))

    # --- operators
    def neg(self, children, tree):
        sign, operand = children
        operand = self.build(operand)
        return operand if sign == "+" else Unary("-", operand, self.at(sign))

    def not_(self, children, tree):
        return Unary("not", self.build(children[0]), self.at(tree))

    def or_expr(self, children, tree):
        return _balanced("or", self.all(children), self.at(tree))

    def and_expr(self, children, tree):
        return _balanced("and", self.all(children), self.at(tree))

    def arithmetic(self, children, tree):
        """operand (op operand)+: a Binary for two operands, a flat Chain for more."""
        build = self.build
        first, rest = build(children[0]), children[1:]
        steps = tuple(ChainStep(str(op), build(operand), self.at(op)) for op, operand in zip(rest[::2], rest[1::2]))
        if len(steps) == 1:
            (step,) = steps
            return Binary(step.op, first, step.operand, step.position)
        return Chain(first, steps, self.at(tree))

    def compare(self, children, tree):
        left, op, right = children
        return Binary(str(op), self.build(left), self.build(right), self.at(op))

    def member(self, children, tree):
        return Member(self.build(children[0]), self.build(children[1]), False, self.at(tree))

    def not_member(self, children, tree):
        return Member(self.build(children[0]), self.build(children[1]), True, self.at(tree))

    def conditional(self, children, tree):
        return Conditional(*self.all(children[:3]), self.at(tree))

    def set_literal(self, children, tree):
        return SetLiteral(tuple(self.build(c) for c in children if c is not None), self.at(tree))

    def range(self, children, tree):
        return Range(self.build(children[0]), self.build(children[1]), self.at(tree))

    # --- actions
    def expression(self, children, tree):
        return self.build(children[0])

    def actions(self, children, tree):
        return tuple(self.all(children))

    def win(self, children, tree):
        return End("win", str(children[0]) if children[0] else "win", self.at(tree), self.build(children[1]),
                   self.at(children[0]) if children[0] else None)

    def payout_to(self, children, tree):
        return Payout(self.build(children[0]), self.build(children[1]), "to", self.at(tree))

    def payout_for(self, children, tree):
        return Payout(self.build(children[0]), self.build(children[1]), "for", self.at(tree))

    def pay(self, children, tree):
        return Pay(str(children[0]), self.at(children[0]))

    def lose(self, children, tree):
        return End("lose", str(children[0]) if children[0] else "lose", self.at(tree),
                   label_position=self.at(children[0]) if children[0] else None)

    def push(self, children, tree):
        return End("push", str(children[0]) if children[0] else "push", self.at(tree),
                   label_position=self.at(children[0]) if children[0] else None)

    def throw_again(self, children, tree):
        return ThrowAgain(self.at(tree))

    def assign(self, children, tree):
        return Assign(str(children[0]), self.build(children[1]), self.at(children[0]))

    def goto(self, children, tree):
        return Goto(str(children[0]), self.at(children[0]))

    def choose(self, children, tree):
        variable, collection, role = children
        return Choose(str(variable), self.build(collection), str(role) if role else "caster", self.at(tree),
                      self.at(variable))

    def recast(self, children, tree):
        *ways, role = children
        return Recast(tuple(str(w) for w in ways), str(role) if role else None, self.at(tree))


_RULES = {name: method for name, method in vars(_Builder).items() if not name.startswith("_")
          and name not in ("at", "build", "all", "arithmetic")}
_RULES["sum"] = _RULES["product"] = _Builder.arithmetic


def _balanced(op: str, operands: list, position: Position):
    """`a and b and c and d` as ((a and b) and (c and d)): `and` and `or` are associative, and
    Python's own `and` in the evaluator keeps the order and the short cut, so a chain of 5,000
    is a tree log2(5,000) = 13 deep. `position` is where the whole chain starts; each inner
    node starts where its first operand does."""
    if len(operands) == 1:
        return operands[0]
    middle = len(operands) // 2
    left = _balanced(op, operands[:middle], position)
    right = _balanced(op, operands[middle:], _start(operands[middle]))
    return Binary(op, left, right, position)


def _start(node) -> Position:
    """Where an operand begins: a comparison's or a sum's own position is its operator's."""
    while isinstance(node, Binary) and node.op not in ("and", "or"):
        node = node.left
    return node.position


def _ends(what: str) -> str:
    return "end" if what.endswith("s") else "ends"


class _NodeError(Exception):
    def __init__(self, message: str, position: Position):
        super().__init__(message)
        self.diagnostic = Diagnostic(message, position, code="number-too-large")


def _parse(scalar: YScalar, start: str, what: str):
    text = scalar.text
    if not text.strip():
        raise RulesetError([Diagnostic(f"empty {what}", scalar.position, code="empty-expression")])
    if len(text) > MAX_EXPRESSION_CHARS:
        raise RulesetError([Diagnostic(f"the {what} is longer than {MAX_EXPRESSION_CHARS:,} characters",
                                       scalar.position, code="expression-too-long")])
    try:
        tree, deepest = _tree(text, start) if len(text) <= MAX_CACHED_CHARS else _measured(text, start)
    except UnexpectedCharacters as exc:
        raise RulesetError([Diagnostic(f"unexpected character {text[exc.pos_in_stream]!r} in {what}",
                                       scalar.position_at(exc.pos_in_stream), code="expression-syntax")]) from None
    except UnexpectedToken as exc:
        token = exc.token
        accepts = exc.accepts or exc.expected
        hint = fix = None
        code = "expression-syntax"
        if token.type == "$END":
            message = f"the {what} {_ends(what)} too soon; expected {_describe_expected(accepts, what)}"
            offset = len(text)
        elif token.type == "EQUAL" and "COMPARE" in accepts:
            message = f"unexpected '=' in {what}: to compare, write `==`"
            hint = "`=` sets a variable (`set main = total`); `==` asks whether two values are equal"
            offset = token.start_pos or 0
            code, fix = "single-equals", _over(scalar, offset, offset + 1, "==")
        else:
            message = f"unexpected {str(token)!r} in {what}; expected {_describe_expected(accepts, what)}"
            offset = token.start_pos or 0
            if token.type == "COMPARE" and str(token) == "==" and "EQUAL" in accepts:
                hint = "`set` takes one `=`: `set main = total`"
            if token.type == "NAME" and offset and text[offset - 1] in "0123456789":  # 0x1f, 0b101, 1_000, 7e3
                start = offset
                while start and text[start - 1] in "0123456789":
                    start -= 1
                written = text[start:offset] + str(token)
                message = (f"a number in the {what} is written in decimal digits 0-9, not "
                           f"{written if len(written) <= 16 else written[:12] + '…'}")
                offset = start
                code = "number-digits"
        raise RulesetError([Diagnostic(message, scalar.position_at(offset), hint=hint, code=code,
                                       suggestion=fix)]) from None
    except UnexpectedInput as exc:  # pragma: no cover - the two above are the parser's only errors
        raise RulesetError([Diagnostic(f"cannot read the {what}", scalar.position_at(getattr(exc, "pos_in_stream", 0) or 0),
                                       code="expression-syntax")]) from None
    except RecursionError:
        raise RulesetError([Diagnostic(f"the {what} is nested too deeply", scalar.position,
                                       code="expression-too-deep")]) from None
    if deepest is not None:
        raise RulesetError([Diagnostic(f"the {what} is nested too deeply (more than {MAX_NESTING} levels of "
                                       f"brackets, `not`, signs or if … then … else)", scalar.position_at(deepest),
                                       code="expression-too-deep")])
    try:
        return _Builder(scalar).build(tree)
    except _NodeError as exc:
        raise RulesetError([exc.diagnostic]) from None
    except RecursionError:
        raise RulesetError([Diagnostic(f"the {what} is nested too deeply", scalar.position,
                                       code="expression-too-deep")]) from None


def _over(scalar: YScalar, start: int, end: int, text: str) -> Suggestion | None:
    """`text` in place of characters `start` up to `end` of the scalar's text, where they stand
    as written on one line."""
    first, last = scalar.position_at(start), scalar.position_at(end)
    if first.line != last.line or last.column - first.column != end - start:
        return None
    return Suggestion(text, first, last)


@lru_cache(maxsize=4096)
def _tree(text: str, start: str):
    """The parse tree of a text, and where it nests too deeply (`_measured`). A rule file
    says `total == 7` or `throw again` many times: each distinct text is parsed once (its tree
    is read, never changed; the positions come from each scalar when the tree is built into ours)."""
    return _measured(text, start)


def _measured(text: str, start: str):
    tree = _lalr_parse(text, start)
    deepest = _deepest(tree)
    return tree, deepest if deepest is not None else _deepest_bracket(text)


def _deepest_bracket(text: str) -> int | None:
    """The offset of a bracket opened inside MAX_NESTING others, or None. Redundant brackets,
    `((total))`, leave no node in the tree, so the tree's depth alone let 49,000 of them pass
    the documented bound (audit 10 finding 16). Quoted text holds no bracket; a text is read
    only if it has more than MAX_NESTING brackets at all."""
    if text.count("(") <= MAX_NESTING:
        return None
    depth, quote = 0, None
    for at, ch in enumerate(text):
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
            if depth > MAX_NESTING:
                return at
        elif ch == ")":
            depth -= 1
    return None


def _deepest(tree) -> int | None:
    """The text offset of a node nested more than MAX_NESTING deep, or None. Iterative, so a
    tree too deep for recursion is measured all the same."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node.start_pos or 0
        for child in getattr(node, "children", ()):
            if child is not None:
                stack.append((child, depth + 1))
    return None


def parse_expression(scalar: YScalar, what: str = "expression"):
    """Parse a condition or value written in a YAML scalar."""
    return _parse(scalar, "expression", what)


def parse_actions(scalar: YScalar) -> tuple:
    """Parse a `do:` / `otherwise:` action list."""
    return _parse(scalar, "actions", "actions")


def parse_payout(scalar: YScalar) -> Payout:
    """Parse a bet's `pays:` (`7 to 6`, `30 for 1`, `ways(7) to ways(point)`)."""
    return _parse(scalar, "payout", "payout")
