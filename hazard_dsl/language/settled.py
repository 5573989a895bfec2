"""Answers of the last analysed version, placed in the text as it stands (issue 39).

While an author types, the newest version of a text is not checked yet (the language server
checks in a worker, the newest version only): a quick fix, an inlay hint or a lens is answered
from the last version whose check is done. Its places are that version's; here they are moved
into the newest text. The two texts share a head and a tail of whole lines (a keystroke changes
one line, a paste a few): a line of the head keeps its number, a line of the tail moves by the
difference in length, and anything on a line between them — the lines that changed — is left
out rather than placed on a line that now says something else.
"""

from __future__ import annotations

from ..records import replace
from .values import Edit, Fix, Place, Span


def line_map(old: list[str], new: list[str]):
    """A function from a line of `old` to the same line's number in `new`, or None for a line
    that changed (both are lists of lines)."""
    if old is new or old == new:
        return lambda line: line
    head = 0
    most = min(len(old), len(new))
    while head < most and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < most - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    moved = len(new) - len(old)

    def where(line: int):
        if line < head:
            return line
        if line >= len(old) - tail:
            return line + moved
        return None
    return where


def _span(span: Span, where) -> Span | None:
    start, end = where(span.start.line), where(span.end.line)
    if start is None or end is None or end - start != span.end.line - span.start.line:
        return None
    return Span(Place(start, span.start.column), Place(end, span.end.column))


def _fix(fix: Fix | None, where):
    if fix is None:
        return None
    span = _span(fix.span, where)
    return replace(fix, span=span) if span is not None else False


def problem(found, where):
    """The problem placed in the new text, or None where it, a fix or its repair stands on a
    line that changed (a fix that edits the wrong line would be worse than none)."""
    span = _span(found.span, where)
    if span is None:
        return None
    fixes = tuple(_fix(f, where) for f in found.fixes)
    repair = _fix(found.repair, where)
    if False in fixes or repair is False:
        return None
    return replace(found, span=span, fixes=fixes, repair=repair)


def quick_fix(fix, uri: str, where, placed):
    """A quick fix (`values.QuickFix`) in the new text of `uri`, its problem `placed` (from
    `problem`), or None where one of its edits stands on a line that changed."""
    edits = {}
    for other, found in fix.edits.items():
        if other != uri:  # another file's edits: its lines did not move
            edits[other] = found
            continue
        moved = [_span(e.span, where) for e in found]
        if None in moved:
            return None
        edits[other] = [Edit(span, e.new_text) for span, e in zip(moved, found)]
    return replace(fix, problem=placed, edits=edits)


def hints(found: list, where, lines: list[str]) -> list:
    """Inlay hints (at a line's end) on the lines that did not change, at their end in `lines`."""
    placed = []
    for h in found:
        line = where(h.line)
        if line is not None:
            placed.append(replace(h, line=line, column=len(lines[line].rstrip("\r"))))
    return placed


def lenses(found: list, where) -> list:
    """Lenses over the lines that did not change."""
    return [replace(k, line=where(k.line)) for k in found if where(k.line) is not None]
