"""A document's problems: `check`'s diagnostics placed in the document (`Problem`), each range
narrowed to what it is about, with the fixes its data gives (a diagnostic's `code` and
`suggestion`: `_fixes`); `language.fixes` offers the fixes beyond them. No fix is read from
a message's words."""

from __future__ import annotations

import re

from ..diagnostics import ERROR, NOTE, WARNING
from .values import Fix, Problem, Span, span_of

_SEVERITIES = (ERROR, WARNING, NOTE)
_WORD = re.compile(r"[A-Za-z0-9_]+")
_OPERATOR = re.compile(r"[=!<>.+\-*/%]+")


def problems_of(doc) -> list[Problem]:
    _, found = doc.checked
    own = doc.display
    extends = doc.index.extends
    problems = []
    for d in found:
        message = d.message
        if d.position is None:
            span = span_of((0, 0), (0, len(doc.line(0))))
        elif d.position.file != own:  # in a file this one extends: shown on `extends:`
            message = f"{d.position}: {message}"
            span = span_of(extends[1], extends[2]) if extends else span_of((0, 0), (0, len(doc.line(0))))
        else:
            start = (d.position.line - 1, max(0, d.position.column - 1))
            end = (d.end.line - 1, d.end.column - 1) if d.end is not None else _extent(doc, start)
            # (YAML also breaks lines at U+0085, U+2028 and U+2029, which an editor does not:
            # a place past such a character is the checker's, and a range never runs backwards)
            span = span_of(start, max(start, end))
        fixes, repair = (), None
        if d.position is not None and d.position.file == own:
            repair = _repair(doc, d.suggestion)
            span, fixes = _fixes(doc, d.code, repair, span)
        problems.append(Problem(span, d.severity if d.severity in _SEVERITIES else NOTE, message, d.hint, fixes,
                                d.position is not None, d.code, repair, d.subject))
    return problems


def _extent(doc, start: tuple) -> tuple:
    """Where a problem that the checker places at `start` ends: the YAML key or plain value that
    begins there, else the word, the quoted text or the operator (inside an expression)."""
    end = doc.index.spans.get(start)
    if end is not None and end > start:
        return end if end[0] == start[0] else (start[0], len(doc.line(start[0])))
    line, column = start
    text = doc.line(line)
    if column >= len(text):
        return (line, min(column, len(text)))
    for pattern in (_WORD, _OPERATOR):
        found = pattern.match(text, column)
        if found:
            return (line, found.end())
    if text[column] in "'\"":
        close = text.find(text[column], column + 1)
        if close > column:
            return (line, close + 1)
    return (line, column + 1)


# the kinds whose suggestion is a word close to one written (the checker's "did you mean"); the
# mends of a layout slip (`==`, a colon, a closing quote) are `language.fixes`' to offer or not
_CLOSE_WORD = frozenset({"unknown-key", "unknown-value", "unknown-ruleset", "unknown-name", "unknown-option",
                         "unknown-variable", "unknown-phase", "undeclared-label",
                         "unknown-placeholder", "unknown-label"})


def _repair(doc, suggestion) -> Fix | None:
    """A diagnostic's `suggestion` (positions from 1, in this document's file) as a `Fix` placed
    in the document, titled by nothing yet; None where it has none or it runs over lines."""
    if suggestion is None or suggestion.start.line != suggestion.end.line:
        return None
    start = (suggestion.start.line - 1, suggestion.start.column - 1)
    end = (suggestion.end.line - 1, suggestion.end.column - 1)
    if start[0] >= len(doc.lines) or end < start:
        return None
    return Fix("", span_of(start, end), suggestion.text)


def _fixes(doc, code: str | None, repair: Fix | None, span: Span) -> tuple[Span, tuple]:
    """The checker's word close to a misspelt one (its `suggestion`, whatever the message says)
    as a fix, and the problem's range narrowed to the word it replaces: the checker may place a
    misspelt label on its whole action (`win nik`), a misspelt name on the whole condition, or a
    flow list's item on its `[`. A quoted word keeps its quotes inside the range, as written.
    (span, ()) where there is no such repair."""
    if repair is None or code not in _CLOSE_WORD:
        return span, ()
    title = f"Change to {repair.new_text!r}"
    word = repair.span
    line = doc.line(word.start.line)
    before, after = line[word.start.column - 1:word.start.column], line[word.end.column:word.end.column + 1]
    if before in ("'", '"') and after == before:  # 'nik': the range and the fix keep the quotes
        quoted = span_of((word.start.line, word.start.column - 1), (word.end.line, word.end.column + 1))
        return quoted, (Fix(title, quoted, f"{before}{repair.new_text}{before}"),)
    return word, (Fix(title, word, repair.new_text),)
