"""A document's problems: `check`'s diagnostics placed in the document (`Problem`), each range
narrowed to what it is about, with the fixes its data gives (a diagnostic's `code` and
`suggestion`: `_fixes`); `language.fixes` offers the fixes beyond them."""

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
            span, fixes = (_fixes(doc, d.code, repair, span) if d.suggestion is not None
                           else _fixes_from_words(doc, message, d.hint, span))
        problems.append(Problem(span, d.severity if d.severity in _SEVERITIES else NOTE, message, d.hint, fixes,
                                d.position is not None, d.code, repair))
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
                         "unknown-variable", "unknown-phase", "undeclared-label"})


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


_SUGGESTED = re.compile(r"did you mean (?:'([^']*)'|\"([^\"]*)\")\?")
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")
_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_]+)(?::[A-Za-z]+)?\}")  # a template's {name} or {name:word}


def _fixes_from_words(doc, message: str, hint: str | None, span: Span) -> tuple[Span, tuple]:
    """The checker's "did you mean 'x'?" as a fix replacing the word it is about, and the problem's
    range narrowed to that word: the word is one the message quotes, found where the range
    starts (the checker may place a misspelt label on its whole action, `win nik`, a misspelt
    name on the whole condition, or a flow list's item on its `[`), so a fix never replaces the
    wrong text. (span, ()) where there is no such word.

    Only for a diagnostic that carries no `suggestion` yet (a narration's `{placeholder}`,
    `unknown-placeholder`, is the one left): every other is mended from its data."""
    found = _SUGGESTED.search(message) or (_SUGGESTED.search(hint) if hint else None)
    if found is None or span.start.line != span.end.line:
        return span, ()
    suggestion = found.group(1) if found.group(1) is not None else found.group(2)
    line = doc.line(span.start.line)
    written = line[span.start.column:span.end.column]
    quote = written[:1] if written[:1] in ("'", '"') and written[-1:] == written[:1] and len(written) > 1 else ""
    bare = written[1:-1] if quote else written
    rest = message.replace(found.group(0), "")
    said = {a or b for a, b in _QUOTED.findall(rest)} | set(_PLACEHOLDER.findall(rest))
    said.discard(suggestion)
    if bare and bare in said:
        return span, (Fix(f"Change to {suggestion!r}", span, f"{quote}{suggestion}{quote}"),)
    # the word inside the range, else (a range of one character: a flow list's `[`) on the rest
    # of its line; the first place, as a whole word, of a word the message quotes
    for end in (span.end.column, len(line)) if span.end.column - span.start.column > 1 else (len(line),):
        places = [m for word in said if word and _WORD.fullmatch(word)
                  for m in re.finditer(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])",
                                       line[:end])
                  if m.start() >= span.start.column]
        if places:
            first = min(places, key=lambda m: m.start())
            word_span = span_of((span.start.line, first.start()), (span.start.line, first.end()))
            return word_span, (Fix(f"Change to {suggestion!r}", word_span, suggestion),)
    return span, ()
