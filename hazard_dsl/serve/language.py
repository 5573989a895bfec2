"""The workbench's diagnostics, in the API's shape: the one place `serve` asks about a rule file's
text, so that moving to the shared language service (`hazard_dsl.language.service`) is a change
here alone.

Until that service is there, the diagnostics are the checker's (`check.check_ruleset` on the
text, as `hazard-dsl check` runs it): a position (line and column from 1) and an end found by
extending over the name at that position; a "did you mean 'X'?" hint becomes a fix replacing
that name with X. Problems found in another file (a built-in ruleset the text extends) have no
place in the text: they are given with `file` and no line. Hover and completion wait for the
service (`hover` and `completion` return None and [] meanwhile).
"""

from __future__ import annotations

import re

MEANT = re.compile(r"did you mean '([^']+)'\?")
WORD = re.compile(r"[A-Za-z0-9_.]*")


def diagnostic_json(d, lines: list[str] | None = None, name: str | None = None) -> dict:
    """One diagnostic: line, column, end_line and end_column count from 1 (the end is just past
    the last character), in code points; `fixes` each a title, a range and the new text."""
    p = d.position
    here = p is not None and (name is None or p.file == name)
    out = {"line": p.line if here else None, "column": p.column if here else None,
           "end_line": None, "end_column": None, "severity": d.severity, "message": d.message,
           "hint": d.hint, "file": p.file if p is not None else None, "fixes": []}
    if here:
        out["end_line"], out["end_column"] = p.line, p.column
        if lines is not None and 0 < p.line <= len(lines):
            text = lines[p.line - 1]
            word = WORD.match(text, p.column - 1).group(0) if p.column - 1 <= len(text) else ""
            out["end_column"] = p.column + len(word)
            meant = MEANT.search(d.hint or "") or MEANT.search(d.message)
            if meant and word and meant.group(1) != word:
                out["fixes"].append({"title": f"change to {meant.group(1)!r}",
                                     "range": {"line": p.line, "column": p.column,
                                               "end_line": p.line, "end_column": out["end_column"]},
                                     "new_text": meant.group(1)})
    return out


def check_text(text: str, name: str) -> list[dict]:
    """Every problem of the rule file held in `text` (shown as `name`), sorted by position."""
    from ..check import check_ruleset

    _, found = check_ruleset(text=text, name=name)
    lines = text.splitlines()
    return [diagnostic_json(d, lines, name) for d in found]


def hover(text: str, name: str, line: int, column: int):
    """What the name at (line, column) is, when the language service is there."""
    return None


def completion(text: str, name: str, line: int, column: int) -> list:
    """The names that may be written at (line, column), when the language service is there."""
    return []
