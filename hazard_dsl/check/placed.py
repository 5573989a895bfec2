"""Each problem placed in the file its author can change.

A file that extends another inherits its settings; when the child's own changes break one (a
child of `cotton` that replaces `set_main` without the rule ending a game with `no_main`, which
cotton's `passing: after_labels:` names), the names and game checks find the problem at the
inherited line, in the parent. The parent may be a built-in under site-packages, or a file that
checks clean on its own: either way the fix belongs in the child. So such a problem is moved
into the child — at the part of it that breaks the setting (its phase, its section), else at
its `extends:` — saying what it inherits from where and how to override it.

What a problem is about is read from its facts (`Diagnostic.names`, `.subject`), never from its
message; the parent's lines and the child's sections are read from the files themselves.
"""

from __future__ import annotations

import re

from ..diagnostics import SOURCES, Diagnostic, Position
from ..parse.keys import MERGED_BY_NAME
from ..parse.yaml_nodes import YMap, load_yaml


def placed_in(own: str, diagnostics: list, text: str | None = None) -> list:
    """`diagnostics` with each one found in another file than `own` (a file `own` extends)
    moved into `own`. The errors of `extends:` itself (a cycle, a missing file) stay where they
    are: they are about the chain, not about a setting inherited through it."""
    elsewhere = [d for d in diagnostics if d.position is not None and d.position.file != own
                 and not _of_extends(d.position)]
    if not elsewhere:
        return diagnostics
    from ..diagnostics import RulesetError

    try:
        root = load_yaml(text if text is not None else _text(own), own, register=False)
    except (RulesetError, OSError, RecursionError):
        return diagnostics
    if not isinstance(root, YMap):
        return diagnostics
    out = []
    for d in diagnostics:
        out.append(_moved(d, own, root) if d in elsewhere else d)
    return out


def _of_extends(at: Position) -> bool:
    """Whether a problem stands in its file's `extends:` (a cycle, a file missing or not a rule
    file: an error of the chain), as the file's own lines show."""
    return _section_of(SOURCES._lines.get(at.file) or [], at.line)[0] == "extends"


def _text(own: str) -> str:
    lines = SOURCES._lines.get(own)
    if lines is None:
        raise OSError(own)
    return "\n".join(lines)


def _moved(d: Diagnostic, own: str, root) -> Diagnostic:
    parent_file = d.position.file
    lines = SOURCES._lines.get(parent_file) or []
    number = d.position.line
    quoted = lines[number - 1].strip() if 1 <= number <= len(lines) else ""
    section, entry = _section_of(lines, number)
    parent_name = _stem(parent_file)
    names = set(d.names) | ({d.subject} if d.subject else set())
    target, why = None, ""
    # the part of the child that breaks it: a phase (or a bet, …) it replaces whose inherited
    # version names what the message names
    for key in MERGED_BY_NAME:
        node = root.get(key)
        if not isinstance(node, YMap):
            continue
        for name, (key_node, _) in node.entries.items():
            block = _block(lines, key, name)
            if block and any(re.search(rf"\b{re.escape(n)}\b", block) for n in names if n):
                target = key_node.position
                singular = key.rstrip("s")
                why = (f"this file replaces {singular} {name!r}, whose version in {parent_name} "
                       f"{'ends a game with' if key == 'phases' else 'names'} "
                       f"{', '.join(repr(n) for n in sorted(names) if n and n in block)}; ")
                break
        if target is not None:
            break
    if target is None:
        # a declaration the child changes that the inherited line or the message uses (a
        # variable's range narrowed under a parent's `set main = total`)
        for key in ("variables", "options", "labels", "bets", "fees"):
            node = root.get(key)
            if not isinstance(node, YMap):
                continue
            for name, (key_node, _) in node.entries.items():
                if name in names or re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", quoted):
                    target = key_node.position
                    why = f"this file changes {key.rstrip('s')} {name!r}, which {parent_name}'s line {number} uses; "
                    break
            if target is not None:
                break
    if target is None and section and root.get(section) is not None:
        target = root.key_position(section)
    if target is None:
        target = root.key_position("extends") if root.get("extends") is not None else Position(own, 1, 1)
    override = (f"give this file its own `{section}: {entry}:`" if section in MERGED_BY_NAME and entry
                else f"give this file its own `{section}:` (it replaces the inherited one whole)" if section
                else "override it in this file")
    what = f"the inherited `{quoted}`" if quoted else "an inherited setting"
    message = f"{d.message} — {what} of {parent_name} ({_base(parent_file)}, line {number})"
    hint = f"{why}change this file to fit it, or override it: {override}" + (f"; {d.hint}" if d.hint else "")
    return Diagnostic(message, Position(own, target.line, target.column), d.severity, hint,
                      names=d.names, reads=d.reads)


def _base(file: str) -> str:
    return file.replace("\\", "/").rsplit("/", 1)[-1]


def _stem(file: str) -> str:
    name = file.replace("\\", "/").rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def _section_of(lines: list, number: int) -> tuple[str | None, str | None]:
    """The top-level key the line `number` of a file lies under, and the key under it (at the
    next indentation) when the line lies deeper."""
    section = entry = None
    for n in range(min(number, len(lines)), 0, -1):
        line = lines[n - 1]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.match(r"(\s*)([A-Za-z_][\w]*)\s*:", line)
        if not m:
            continue
        if not m[1]:
            section = m[2]
            break
        if entry is None and n < number and len(m[1]) == 2:
            entry = m[2]
    if section not in MERGED_BY_NAME:
        entry = None
    return section, entry


def _block(lines: list, section: str, name: str) -> str:
    """The text of `section: name:` in a file (the lines under the entry), or ''."""
    inside = False
    start = None
    for n, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            inside = line.startswith(f"{section}:")
            if start is not None:
                return "\n".join(lines[start:n])
            continue
        if inside and indent == 2:
            if start is not None:
                return "\n".join(lines[start:n])
            if re.match(rf"\s*{re.escape(name)}\s*:", line):
                start = n
    return "\n".join(lines[start:]) if start is not None else ""
