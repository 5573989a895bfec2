"""Formatting a rule file without changing what it says: the spaces and tabs at the ends of
lines go, and the file ends with one line break. Nothing else is touched: a line with a `#` on
it (a comment, or a `#` inside a value) keeps every byte, indentation and quoting stay as the
author wrote them, and the line breaks (\\n or \\r\\n) stay what they are.

Safe by construction and checked: the text is formatted only when its YAML reads; the lines of a
value written over several lines (a block `|` or `>`, whose spaces at the ends of lines may be its
own text) are left as they are; and the result is given only when it reads to the very same
values, else the file is left as it is.

Edits are (line, start column, end column, new text), places from 0 in code points.
"""

from __future__ import annotations


def formatted(text: str, display: str = "untitled.yaml") -> str | None:
    """The formatted text, or None when it cannot be formatted safely (its YAML does not read,
    or formatting would change a value)."""
    root = _read(text, display)
    if root is None:
        return None
    before = _plain(root)
    kept = _within_scalars(root)
    lines = text.split("\n")
    out = []
    for number, line in enumerate(lines):
        ending = "\r" if line.endswith("\r") else ""
        body = line[:-1] if ending else line
        out.append((body if "#" in body or number in kept else body.rstrip(" \t")) + ending)
    result = "\n".join(out)
    while result.endswith("\n\n") or result.endswith("\r\n\r\n"):
        result = result[:-2] if result.endswith("\r\n\r\n") else result[:-1]
    if result and not result.endswith("\n"):
        result += "\r\n" if "\r\n" in text else "\n"
    if result == text:
        return text
    return result if _values(result, display) == before else None


def edits(text: str, display: str = "untitled.yaml") -> list[tuple]:
    """The edits that format `text`, each ((line, column), (line, column), new_text), not
    overlapping: a line's trailing spaces removed, then the end of the file made one line break;
    [] when it is formatted already or cannot be formatted safely."""
    result = formatted(text, display)
    if result is None or result == text or not result:
        return []
    old, new = text.split("\n"), result.split("\n")

    def body(line: str) -> int:  # its length before a \r that ends it
        return len(line) - line.endswith("\r")

    last = len(new) - 2  # the last line with content (the formatted text ends with a line break)
    found = [((k, body(new[k])), (k, body(old[k])), "") for k in range(last + 1) if new[k] != old[k]]
    ending = "\r\n" if new[last].endswith("\r") else "\n"
    rest = "\n".join(old[last:])[body(old[last]):]  # what follows the last line's words as it is
    if rest != ending:
        found.append(((last, body(old[last])), (len(old) - 1, len(old[-1])), ending))
    return found


def _read(text: str, display: str):
    from ..diagnostics import RulesetError
    from ..parse.yaml_nodes import load_yaml

    try:
        return load_yaml(text, display, register=False)
    except (RulesetError, RecursionError, ValueError):
        return None


def _values(text: str, display: str):
    root = _read(text, display)
    return None if root is None else _plain(root)


def _within_scalars(node, found: set | None = None) -> set:
    """The lines (from 0) of every value written over more than one line (a block `|` or `>`, a
    long plain or quoted text): spaces at the end of such a line may be the value's own."""
    from ..parse.yaml_nodes import YMap, YScalar, YSeq

    found = set() if found is None else found
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, YMap):
            stack += [value for _, value in n.entries.values()]
        elif isinstance(n, YSeq):
            stack += list(n.items)
        elif isinstance(n, YScalar) and n.position is not None:
            end = n.end()
            if end.line != n.position.line:
                found.update(range(n.position.line - 1, end.line))
    return found


def _plain(node):
    from ..parse.yaml_nodes import YMap, YScalar, YSeq

    if isinstance(node, YMap):
        return {key: _plain(value) for key, (_, value) in node.entries.items()}
    if isinstance(node, YSeq):
        return [_plain(item) for item in node.items]
    if isinstance(node, YScalar):
        return (type(node.value).__name__, node.value)
    return node
