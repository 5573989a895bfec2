"""Quick fixes beyond "did you mean", each made from a diagnostic's data (its `code`, its
`suggestion`, its `subject`), never from its words, and only where the text at the problem's
place is what the diagnostic says:

- `=` in a condition (`single-equals`, whose suggestion is `==`) → `==`;
- a rule without its `- ` (`missing-dash`, or a `duplicate-key` `when:`/`otherwise:` that
  starts the next rule; the suggestion is `- ` over the two spaces before its first key);
- a phase whose rules leave throws unhandled (`unhandled-throw`, the phase its `subject`) → a
  last rule `- otherwise: throw again`, at the indentation of the phase's rules;
- a label used but not declared (`undeclared-label`, the label its `subject`) → the label
  declared first under `labels:`, saying its name in words.

Each fix is (title, edits) on one document; places are (line, column) from 0, in code points.
"""

from __future__ import annotations

import re

_DASHED = ("missing-dash", "duplicate-key")


def fixes(problem, lines: list[str], index) -> list[tuple[str, list[tuple]]]:
    """The fixes of one problem (a `service.Problem`): [(title, [(start, end, new_text)])], with
    start and end places (line, column). `lines`: the document's lines; `index`: its names."""
    code, repair, subject = problem.code, problem.repair, problem.subject
    if code == "single-equals" and repair is not None:
        return _compare(lines, repair)
    if code in _DASHED and repair is not None and repair.new_text == "- ":
        return _dash(lines, repair)
    if code == "unhandled-throw" and subject is not None:
        return _otherwise(lines, index, subject)
    if code == "undeclared-label" and subject is not None:
        return _declare(lines, subject)
    return []


def _line(lines: list[str], number: int) -> str:
    return lines[number].rstrip("\r") if 0 <= number < len(lines) else ""


def _compare(lines, repair) -> list:
    """The checker's repair (its text and place, not its message), where the text there is
    still a lone `=`."""
    line, column = repair.span.start.line, repair.span.start.column
    end = (repair.span.end.line, repair.span.end.column)
    text = _line(lines, line)
    if text[column:column + 1] != "=" or text[column + 1:column + 2] == "=" or text[column - 1:column] in "=!<>":
        return []
    return [("Write `==` to compare", [((line, column), end, repair.new_text)])]


def _dash(lines, repair) -> list:
    """The `- ` the diagnostic suggests, where the two columns it replaces are still spaces
    before the rule's first key."""
    line, column = repair.span.start.line, repair.span.start.column
    text = _line(lines, line)
    indent = len(text) - len(text.lstrip(" "))
    if (repair.span.end.line, repair.span.end.column) != (line, indent) or column != indent - 2 \
            or not re.match(r"[A-Za-z_]\w*\s*:", text[indent:]):
        return []
    return [("Add the missing `- ` of this rule", [((line, column), (line, indent), "- ")])]


def _otherwise(lines, index, phase: str) -> list:
    """`- otherwise: throw again` after the last rule of the game's phase `phase`."""
    defined = [n for n in index.definitions if n.kind == "phase" and n.name == phase and n.scope == ""]
    if not defined or defined[0].block_end is None:
        return []
    first, last = defined[0].start[0], defined[0].block_end[0]
    items = [k for k in range(first + 1, last + 1) if re.match(r"\s*- ", _line(lines, k))]
    if not items:
        return []
    dash = _line(lines, items[-1]).index("-")
    end_line = last
    new = f"{' ' * dash}- otherwise: throw again\n"
    return [(f"Add `otherwise: throw again` as the last rule of phase {phase!r}",
             [((end_line + 1, 0), (end_line + 1, 0), new)])] if end_line + 1 <= len(lines) else []


def _declare(lines, label: str) -> list:
    said = label.replace("_", " ").strip().capitalize() + "."
    said = said.replace('"', "'")
    for k, raw in enumerate(lines):
        text = raw.rstrip("\r")
        if re.match(r"labels\s*:\s*(#.*)?$", text):
            below = next((_line(lines, j) for j in range(k + 1, len(lines))
                          if _line(lines, j).strip() and not _line(lines, j).lstrip().startswith("#")), "")
            indent = len(below) - len(below.lstrip(" ")) if below.startswith(" ") else 2
            return [(f"Declare the label {label!r} under `labels:`",
                     [((k + 1, 0), (k + 1, 0), f"{' ' * indent}{label}: \"{said}\"\n")])]
        if re.match(r"labels\s*:", text):
            return []  # a flow mapping (`labels: {…}`): not edited here
    return []  # (the checker says a label is not declared only where a file declares labels)
