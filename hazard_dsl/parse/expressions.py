"""The expression language: Lark grammar → the syntax trees of `parse.syntax`, with positions.

The grammar lives in ``grammar/hazard.lark`` (shipped inside the package as data); its parser is
generated from it at build time into `parse._lalr` (``python grammar/standalone.py``). Expressions
are parsed, never ``eval``'d: the trees are interpreted by `compile.evaluate`. Lark's own errors
are turned into our diagnostics with the same positions. The trees are re-exported here, so
`expressions.Binary` and `syntax.Binary` are one class.
"""

from __future__ import annotations

from functools import lru_cache

from ..diagnostics import Diagnostic, Position, RulesetError
from ._lalr import (Lark_StandAlone, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                    UnexpectedToken, VisitError, v_args)
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


@lru_cache(maxsize=1)
def _parser():
    """The LALR parser of the grammar, loaded from its tables: `_lalr` is Lark's stand-alone
    parser generated from grammar/hazard.lark at build time (``python grammar/standalone.py``),
    so no parser is built at run time and Lark itself is not imported."""
    return Lark_StandAlone()


# The options the stand-alone parser was generated with (grammar/standalone.py gives them as
# flags): a parser built at run time by Lark from the grammar with these is the same parser.
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
            told.extend((3, f"`{_parser().get_terminal(n).pattern.value}`") for n in sorted(value))
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
                pattern = _parser().get_terminal(name).pattern
            except KeyError:
                continue
            if pattern.type == "str":
                told.append((4, f"`{pattern.value}`"))
    words = [w for _, w in sorted(set(told))][:MAX_ALTERNATIVES]
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class _Build(Transformer):
    """Lark tree → our nodes. `at(meta)` turns a Lark offset into a file position."""

    def __init__(self, scalar: YScalar):
        super().__init__()
        self.scalar = scalar

    def at(self, thing) -> Position:
        offset = thing.start_pos if isinstance(thing, Token) else getattr(thing, "start_pos", 0)
        return self.scalar.position_at(offset or 0)

    def __default__(self, data, children, meta):  # pragma: no cover - every rule is handled
        raise ValueError(f"unhandled grammar rule {data}")

    @v_args(meta=True)
    def expression(self, meta, children):
        return children[0]

    @v_args(meta=True)
    def actions(self, meta, children):
        return tuple(children)

    # --- atoms
    def number(self, children):
        (token,) = children
        if len(token) > MAX_INT_DIGITS:
            raise _NodeError(f"the number {token[:12]}… is too large (at most {MAX_INT_DIGITS} digits)", self.at(token))
        return Number(int(token), self.at(token))

    @v_args(meta=True)
    def true(self, meta, children):
        return Boolean(True, self.at(meta))

    @v_args(meta=True)
    def false(self, meta, children):
        return Boolean(False, self.at(meta))

    def string(self, children):
        (token,) = children
        return String(token[1:-1], self.at(token))

    def name(self, children):
        (token,) = children
        return Name(str(token), self.at(token))

    @v_args(meta=True)
    def option(self, meta, children):
        return OptionRef(str(children[0]), self.at(meta))

    @v_args(meta=True)
    def call(self, meta, children):
        function, *args = children
        return Call(str(function), tuple(a for a in args if a is not None), self.at(meta))

    # --- operators
    @v_args(meta=True)
    def neg(self, meta, children):
        sign, operand = children
        return operand if sign == "+" else Unary("-", operand, self.at(sign))

    @v_args(meta=True)
    def not_(self, meta, children):
        return Unary("not", children[0], self.at(meta))

    @v_args(meta=True)
    def or_expr(self, meta, children):
        return _balanced("or", children, self.at(meta))

    @v_args(meta=True)
    def and_expr(self, meta, children):
        return _balanced("and", children, self.at(meta))

    @v_args(meta=True)
    def sum(self, meta, children):
        return self._arithmetic(meta, children)

    @v_args(meta=True)
    def product(self, meta, children):
        return self._arithmetic(meta, children)

    def _arithmetic(self, meta, children):
        """operand (op operand)+: a Binary for two operands, a flat Chain for more."""
        first, rest = children[0], children[1:]
        steps = tuple(ChainStep(str(op), operand, self.at(op)) for op, operand in zip(rest[::2], rest[1::2]))
        if len(steps) == 1:
            (step,) = steps
            return Binary(step.op, first, step.operand, step.position)
        return Chain(first, steps, self.at(meta))

    @v_args(meta=True)
    def compare(self, meta, children):
        left, op, right = children
        return Binary(str(op), left, right, self.at(op))

    @v_args(meta=True)
    def member(self, meta, children):
        return Member(children[0], children[1], False, self.at(meta))

    @v_args(meta=True)
    def not_member(self, meta, children):
        return Member(children[0], children[1], True, self.at(meta))

    @v_args(meta=True)
    def conditional(self, meta, children):
        return Conditional(children[0], children[1], children[2], self.at(meta))

    @v_args(meta=True)
    def set_literal(self, meta, children):
        return SetLiteral(tuple(c for c in children if c is not None), self.at(meta))

    @v_args(meta=True)
    def range(self, meta, children):
        return Range(children[0], children[1], self.at(meta))

    # --- actions
    @v_args(meta=True)
    def win(self, meta, children):
        return End("win", str(children[0]) if children[0] else "win", self.at(meta), children[1])

    @v_args(meta=True)
    def payout_to(self, meta, children):
        return Payout(children[0], children[1], "to", self.at(meta))

    @v_args(meta=True)
    def payout_for(self, meta, children):
        return Payout(children[0], children[1], "for", self.at(meta))

    @v_args(meta=True)
    def pay(self, meta, children):
        return Pay(str(children[0]), self.at(children[0]))

    @v_args(meta=True)
    def lose(self, meta, children):
        return End("lose", str(children[0]) if children[0] else "lose", self.at(meta))

    @v_args(meta=True)
    def push(self, meta, children):
        return End("push", str(children[0]) if children[0] else "push", self.at(meta))

    @v_args(meta=True)
    def throw_again(self, meta, children):
        return ThrowAgain(self.at(meta))

    @v_args(meta=True)
    def assign(self, meta, children):
        return Assign(str(children[0]), children[1], self.at(children[0]))

    @v_args(meta=True)
    def goto(self, meta, children):
        return Goto(str(children[0]), self.at(children[0]))

    @v_args(meta=True)
    def choose(self, meta, children):
        variable, collection, role = children
        return Choose(str(variable), collection, str(role) if role else "caster", self.at(meta))


    @v_args(meta=True)
    def recast(self, meta, children):
        *ways, role = children
        return Recast(tuple(str(w) for w in ways), str(role) if role else None, self.at(meta))


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
        self.diagnostic = Diagnostic(message, position)


def _parse(scalar: YScalar, start: str, what: str):
    text = scalar.text
    if not text.strip():
        raise RulesetError([Diagnostic(f"empty {what}", scalar.position)])
    if len(text) > MAX_EXPRESSION_CHARS:
        raise RulesetError([Diagnostic(f"the {what} is longer than {MAX_EXPRESSION_CHARS:,} characters",
                                       scalar.position)])
    try:
        tree = _tree(text, start) if len(text) <= MAX_CACHED_CHARS else _parser().parse(text, start=start)
    except UnexpectedCharacters as exc:
        raise RulesetError([Diagnostic(f"unexpected character {text[exc.pos_in_stream]!r} in {what}",
                                       scalar.position_at(exc.pos_in_stream))]) from None
    except UnexpectedEOF as exc:
        raise RulesetError([Diagnostic(f"the {what} {_ends(what)} too soon; expected {_describe_expected(exc.expected, what)}",
                                       scalar.position_at(len(text)))]) from None
    except UnexpectedToken as exc:
        token = exc.token
        accepts = exc.accepts or exc.expected
        hint = None
        if token.type == "$END":
            message = f"the {what} {_ends(what)} too soon; expected {_describe_expected(accepts, what)}"
            offset = len(text)
        elif token.type == "EQUAL" and "COMPARE" in accepts:
            message = f"unexpected '=' in {what}: to compare, write `==`"
            hint = "`=` sets a variable (`set main = total`); `==` asks whether two values are equal"
            offset = token.start_pos or 0
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
        raise RulesetError([Diagnostic(message, scalar.position_at(offset), hint=hint)]) from None
    except UnexpectedInput as exc:  # pragma: no cover - the three above are exhaustive in Lark 1.x
        raise RulesetError([Diagnostic(f"cannot read the {what}", scalar.position_at(getattr(exc, "pos_in_stream", 0) or 0))]) from None
    except RecursionError:
        raise RulesetError([Diagnostic(f"the {what} is nested too deeply", scalar.position)]) from None
    deepest = _deepest(tree)
    if deepest is not None:
        raise RulesetError([Diagnostic(f"the {what} is nested too deeply (more than {MAX_NESTING} levels of "
                                       f"brackets, `not`, signs or if … then … else)", scalar.position_at(deepest))])
    try:
        return _Build(scalar).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, _NodeError):
            raise RulesetError([exc.orig_exc.diagnostic]) from None
        raise
    except RecursionError:
        raise RulesetError([Diagnostic(f"the {what} is nested too deeply", scalar.position)]) from None


@lru_cache(maxsize=4096)
def _tree(text: str, start: str):
    """Lark's parse tree of a text. A rule file says `total == 7` or `throw again` many times:
    each distinct text is parsed once (its tree is read, never changed; the positions come
    from each scalar when the tree is built into ours)."""
    return _parser().parse(text, start=start)


def _deepest(tree) -> int | None:
    """The text offset of a node nested more than MAX_NESTING deep, or None. Iterative, so a
    tree too deep for recursion is measured all the same."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = getattr(node, "meta", None)
            return getattr(meta, "start_pos", None) or getattr(node, "start_pos", 0) or 0
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
