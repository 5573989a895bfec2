"""Highlighting of the expression language inside a rule file's YAML strings: every token of
every condition, action list and payout, read by the expression language's own lexer (the
terminals of grammar/hazard.lark, `parse._tables`), placed in the file through the YAML
loader's positions (`parse.yaml_nodes`), and told by what it is: a keyword, an action, a
variable or a fact, a function, an option, a phase after `goto`, a label after `win`/`lose`/
`push`, a number, a quoted word, an operator.

A token that does not lex (a stray `$`) ends the scalar's tokens there; the checker says why.
Places are (line, column) from 0, in code points, as the language service speaks them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..records import record

# the kinds, in the order an LSP client is told them (their LSP names: SemanticTokenTypes)
KINDS = ("keyword", "variable", "function", "number", "string", "operator", "enumMember", "namespace",
         "parameter", "property")
# what each kind stands for here (documented in docs/editors.md)
MEANING = {"keyword": "a keyword or an action word (and, in, goto, win, set …)",
           "variable": "a variable or a fact of the throw (total, main)",
           "function": "a function (ways, weight, abs, min, max)", "number": "a number",
           "string": "a quoted word (an option's value, a phase's name)", "operator": "an operator",
           "enumMember": "a label (after win, lose, push)", "namespace": "a phase (after goto)",
           "parameter": "an option (after option.)", "property": "a bet or a fee (after pay)"}

_EXPRESSION_KEYS = {"when", "made", "do", "otherwise", "pays", "losses_in_a_row"}
_ACTIONS = {"WIN", "LOSE", "PUSH"}


@record(frozen=True)
class Token:
    line: int
    column: int
    length: int
    kind: str

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "length": self.length, "kind": self.kind}


@lru_cache(maxsize=1)
def _lexer():
    from ..parse.lalr import IGNORE, KEYWORDS, TOKENS  # the parser's own lexer tables

    return re.compile(TOKENS).match, KEYWORDS, IGNORE


@lru_cache(maxsize=4096)
def lex(text: str) -> tuple:
    """(offset, length, kind) of every token of an expression's text, as the parser's lexer reads
    it, told by what it is."""
    match, keywords, ignore = _lexer()
    out, position, before = [], 0, []  # before: the kinds of the tokens read so far
    while position < len(text):
        found = match(text, position)
        if found is None or found.end() == position:
            break
        kind, value = found.lastgroup, found.group()
        at, position = position, found.end()
        if kind in ignore:
            continue
        if kind == "NAME":
            kind = keywords.get(value, kind)
        told = _told(kind, before, text, position)
        before.append(kind)
        if told is not None:
            out.append((at, len(value), told))
    return tuple(out)


def _told(kind: str, before: list, text: str, after: int) -> str | None:
    last = before[-1] if before else None
    if kind == "NAME":
        if last == "DOT" and len(before) >= 2 and before[-2] == "OPTION":
            return "parameter"
        if last == "GOTO":
            return "namespace"
        if last in _ACTIONS:
            return "enumMember"
        if last == "PAY":
            return "property"
        if text[after:].lstrip().startswith("("):
            return "function"
        return "variable"
    if kind == "INT":
        return "number"
    if kind == "STRING":
        return "string"
    if kind in ("COMPARE", "ADD", "MUL", "EQUAL", "__ANON_0", "DOT"):
        return "operator"
    if kind.isalpha() and kind.isupper() and kind not in ("LPAR", "RPAR", "LBRACE", "RBRACE", "COMMA",
                                                          "SEMICOLON"):
        return "keyword"
    return None


def tokens(text: str, display: str = "untitled.yaml") -> list[Token]:
    """Every token of the expressions in a rule file's text, in file order ([] when its YAML does
    not read)."""
    from ..diagnostics import RulesetError
    from ..parse.yaml_nodes import load_yaml

    try:
        root = load_yaml(text, display, register=False)
    except (RulesetError, RecursionError, ValueError):
        return []
    found: list[Token] = []
    try:
        _walk(root, None, found, 0)
    except RecursionError:
        return []
    return sorted(found, key=lambda t: (t.line, t.column))


def _walk(node, key: str | None, found: list, depth: int) -> None:
    from ..parse.yaml_nodes import YMap, YSeq

    if isinstance(node, YMap):
        for name, (_, value) in node.entries.items():
            if key == "multiples" or (key == "commission" and name == "paid"):
                _scalar(value, found)
            elif name in _EXPRESSION_KEYS:
                _scalar(value, found)
            else:
                _walk(value, name, found, depth + 1)
    elif isinstance(node, YSeq):
        for item in node.items:
            _walk(item, key, found, depth + 1)


def _scalar(node, found: list) -> None:
    from ..parse.yaml_nodes import YScalar

    if not isinstance(node, YScalar) or isinstance(node.value, bool) or not isinstance(node.value, (str, int)):
        return
    text = node.text
    for offset, length, kind in lex(text):
        start = node.position_at(offset)
        end = node.position_at(offset + length - 1)
        if start.line != end.line:  # (a token is one line; a folded scalar's break is no token)
            continue
        found.append(Token(start.line - 1, start.column - 1, end.column - start.column + 1, kind))


def encoded(found: list[Token], columns=None) -> list[int]:
    """LSP's relative encoding: five integers per token (line delta, start delta, length, kind,
    modifiers). `columns(line, column) -> column` converts a place to the client's units."""
    data, last_line, last_column = [], 0, 0
    for t in found:
        start = columns(t.line, t.column) if columns else t.column
        end = columns(t.line, t.column + t.length) if columns else t.column + t.length
        line_delta = t.line - last_line
        data += [line_delta, start - last_column if line_delta == 0 else start, end - start, KINDS.index(t.kind), 0]
        last_line, last_column = t.line, start
    return data
