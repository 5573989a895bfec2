"""The expression language's LALR(1) parser: the tables Lark computes from grammar/hazard.lark
(`parse._tables`, written at build time by ``python grammar/tables.py``), run here.

It gives what Lark's own parser of the grammar gives, tree for tree and error for error: the
same trees (a `Tree` per rule, `?rule`s of one child inlined, anonymous tokens dropped, None
where an optional `[x]` is absent), each tree placed where Lark places it (`start_pos`: where its
first child's container starts — `(a or b) and c` starts at the bracket), the same tokens, and
the same errors at the same places, with what was expected and what would have been accepted
(tests/test_standalone_parser.py compares the two on every expression of the corpus and of the
broken corpus, and every prefix of them). Lark itself is not imported: Lark's stand-alone module
cost a fifth of a short command's imports and built its parser again at every start; this is
the lexer's one regular expression and a loop over a table.

Why not simpler: a tree's place, the errors' `expected` and `accepts`, and when a lexical error
is found (only when the parser asks for the token: `a == ) $` is an unexpected `)`, not an
unexpected `$`) are what authors see in messages, and follow Lark's rules exactly.

What it buys, measured by bench/bench_lalr.py against Lark's own LALR parser of the same grammar
(2026-11-28, docs/performance.md): a start ×16 shorter (6.6 ms against 108 ms: Lark builds its
tables at every start), and the corpus' 615 distinct expressions parsed ×3 faster (16 ms
against 48 ms).
"""

from __future__ import annotations

import re

from ._tables import ACTIONS, ALLOWED, END, IGNORE, KEYWORDS, NEWLINE_TYPES, RULES, START, TOKENS

_MATCH = re.compile(TOKENS).match


class Token(str):
    """A token: its text, with its terminal's name (`type`) and where it starts in the text."""

    def __new__(cls, type_: str, value: str, start_pos: int, line: int, column: int):
        token = str.__new__(cls, value)
        token.type, token.start_pos, token.line, token.column = type_, start_pos, line, column
        return token

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"


class Tree:
    """A rule's node: `data` (the rule, or its alias), `children` (trees, tokens and Nones) and
    `start_pos` (None for a tree with nothing in it)."""

    __slots__ = ("data", "children", "start_pos", "container_start_pos")

    def __init__(self, data: str, children: list):
        self.data, self.children = data, children
        self.start_pos = self.container_start_pos = None

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"


class UnexpectedInput(Exception):
    """The text is not in the language."""

    pos_in_stream: int
    line: int
    column: int


class UnexpectedCharacters(UnexpectedInput):
    """No token starts at `pos_in_stream`; `allowed` names the terminals there are."""

    def __init__(self, text: str, position: int, line: int, column: int):
        super().__init__(f"no token at {line}:{column}: {text[position]!r}")
        self.pos_in_stream, self.line, self.column = position, line, column
        self.allowed = ALLOWED


class UnexpectedToken(UnexpectedInput):
    """`token` cannot come where it is: `expected` names the terminals the parser had an action
    for there, `accepts` those of them it would have taken (after the reductions they lead to)."""

    def __init__(self, token: Token, expected: set, states: list, end_state: int):
        super().__init__(f"unexpected {token!r} at {token.line}:{token.column}")
        self.token, self.expected = token, expected
        self.pos_in_stream, self.line, self.column = token.start_pos, token.line, token.column
        self._states, self._end_state, self._accepts = states, end_state, None

    @property
    def accepts(self) -> set:
        if self._accepts is None:
            top = ACTIONS[self._states[-1]]
            self._accepts = {kind for kind in top if kind.isupper() and _takes(self._states, kind, self._end_state)}
        return self._accepts


def parse(text: str, start: str) -> Tree:
    """The tree of `text` from the rule `start` (expression, actions or payout), or an
    UnexpectedCharacters or UnexpectedToken where it goes wrong."""
    states = [START[start]]
    values: list = []
    end_state = END[start]
    position, end, line, line_start = 0, len(text), 1, 0
    last = None
    while True:
        token = None
        while position < end:  # the next token, read only now that the parser wants it
            found = _MATCH(text, position)
            if found is None:
                raise UnexpectedCharacters(text, position, line, position - line_start + 1)
            kind, value = found.lastgroup, found.group()
            at, at_line, at_column = position, line, position - line_start + 1
            if kind in NEWLINE_TYPES:
                breaks = value.count("\n")
                if breaks:
                    line += breaks
                    line_start = position + value.rindex("\n") + 1
            position = found.end()
            if kind not in IGNORE:
                if kind == "NAME":
                    kind = KEYWORDS.get(value, kind)
                token = Token(kind, value, at, at_line, at_column)
                break
        if token is None:
            ending = Token("$END", "", last.start_pos, last.line, last.column) if last is not None else \
                Token("$END", "", 0, 1, 1)
            return _feed(states, values, ending, end_state, True)
        _feed(states, values, token, end_state, False)
        last = token


def _feed(states: list, values: list, token: Token, end_state: int, is_end: bool):
    """Reduce as the table says until `token` is shifted (or, at the end, the start rule is
    complete: its tree is returned)."""
    kind = token.type
    while True:
        code = ACTIONS[states[-1]].get(kind)
        if code is None:
            expected = {symbol for symbol in ACTIONS[states[-1]] if symbol.isupper()}
            raise UnexpectedToken(token, expected, states, end_state)
        if code >= 0:
            states.append(code)
            values.append(token)
            return None
        origin, size, name, single, include, after = RULES[~code]
        if size:
            children = values[-size:]
            del states[-size:]
            del values[-size:]
        else:
            children = []
        states.append(ACTIONS[states[-1]][origin])
        values.append(_reduce(children, name, single, include, after))
        if is_end and states[-1] == end_state:
            return values[-1]


def _reduce(children: list, name: str, single: bool, include, after: int):
    """A rule's node from the symbols it took, as Lark makes it (filter, inline, place)."""
    first = None  # where the first child's container starts (a token's own start)
    for child in children:
        if child.__class__ is Token:
            first = child.start_pos
            break
        if child.start_pos is not None:
            first = child.container_start_pos
            break
    if include is not None:
        kept: list = []
        for index, inlined, nones in include:
            if nones:
                kept += [None] * nones
            if inlined:
                kept += children[index].children
            else:
                kept.append(children[index])
        if after:
            kept += [None] * after
        children = kept
    node = children[0] if single and len(children) == 1 else Tree(name, children)
    if first is not None and node.__class__ is Tree:
        if node.start_pos is None:
            node.start_pos = first
        node.container_start_pos = first
    return node


def _takes(states: list, kind: str, end_state: int) -> bool:
    """Whether the parser, in `states`, would take a token of terminal `kind` (Lark's accepts)."""
    states = list(states)
    while True:
        code = ACTIONS[states[-1]].get(kind)
        if code is None:
            return False
        if code >= 0:
            return True
        origin, size = RULES[~code][:2]
        if size:
            del states[-size:]
        states.append(ACTIONS[states[-1]][origin])
        if kind == "$END" and states[-1] == end_state:
            return True
