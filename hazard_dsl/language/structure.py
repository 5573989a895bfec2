"""The shape of a rule file for an editor: folding ranges (every block of YAML by its
indentation), document links (`extends:` to the parent file), workspace symbols (the phases,
variables, labels, options, bets and fees of every open rule file, found by part of their name)
and signature help for the expression language's functions (`ways(`, `weight(`, …: their list
and argument counts are the checker's, `check.names.FUNCTIONS`).

Places are (line, column) from 0, in code points, as the language service speaks them.
"""

from __future__ import annotations

import re

from ..records import record

MAX_WORKSPACE_SYMBOLS = 500


@record(frozen=True)
class Fold:
    start: int  # the line of the key that opens the block
    end: int  # its last line
    kind: str | None = None  # "comment" for a run of comment lines

    def to_json(self) -> dict:
        return {"start_line": self.start, "end_line": self.end, "kind": self.kind}


def folding_ranges(lines: list[str]) -> list[Fold]:
    """A fold for every key or list item whose value is written on the lines below it (its block
    ends at its last line indented further), and for every run of two or more comment lines."""
    folds: list[Fold] = []
    stack: list[tuple[int, int]] = []  # (indent, line) of the blocks still open
    last = -1  # the last line with content
    comments: list[int] = []
    for number, raw in enumerate(lines + [""]):
        text = raw.rstrip("\r")
        stripped = text.lstrip(" ")
        if stripped.startswith("#") and number < len(lines):
            comments.append(number)
            continue
        if len(comments) >= 2:
            folds.append(Fold(comments[0], comments[-1], "comment"))
        comments = []
        if not stripped and number < len(lines):
            continue
        indent = len(text) - len(stripped) if number < len(lines) else -1
        while stack and stack[-1][0] >= indent:
            opened_indent, opened = stack.pop()
            if last > opened:
                folds.append(Fold(opened, last))
        if number < len(lines):
            stack.append((indent, number))
            if stripped.startswith("- ") and re.match(r"-\s+[^\s#]", stripped):  # the item's keys below it
                stack.append((indent + len(re.match(r"-\s+", stripped).group(0)) - 1, number))
            last = number
    unique = {(f.start, f.end, f.kind): f for f in folds}
    return sorted(unique.values(), key=lambda f: (f.start, -f.end))


@record(frozen=True)
class Link:
    """`extends:`'s value, linking to the file it names."""

    line: int
    start: int
    end: int
    target: str  # a file: URI

    def to_json(self) -> dict:
        return {"range": {"start": {"line": self.line, "column": self.start},
                          "end": {"line": self.line, "column": self.end}}, "target": self.target}


def links(index, parents: list) -> list[Link]:
    """The link of a document's `extends:` (its index), to the first of its `parents` (the
    service's documents it extends, nearest first) when that file exists."""
    if index.extends is None or not parents:
        return []
    _, start, end = index.extends
    if start[0] != end[0] or not parents[0].uri.startswith("file:"):
        return []
    return [Link(start[0], start[1], end[1], parents[0].uri)]


@record(frozen=True)
class WorkspaceSymbol:
    name: str
    kind: str
    uri: str
    line: int
    start: int
    end: int
    container: str | None = None

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "uri": self.uri, "container": self.container,
                "range": {"start": {"line": self.line, "column": self.start},
                          "end": {"line": self.line, "column": self.end}}}


def workspace_symbols(documents, query: str) -> list[WorkspaceSymbol]:
    """The definitions of every document in `documents` ({uri: index}) whose name holds `query`
    (its letters in order, any case: `chth` finds `chance_throw`), in file order."""
    wanted = [c for c in query.lower() if not c.isspace()]
    found = []
    for uri, index in documents.items():
        for n in index.definitions:
            if n.kind == "value" or not _holds(n.name.lower(), wanted):
                continue
            container = n.scope or None
            found.append(WorkspaceSymbol(n.name, n.kind, uri, n.start[0], n.start[1], n.end[1], container))
            if len(found) >= MAX_WORKSPACE_SYMBOLS:
                return found
    return found


def _holds(name: str, wanted: list) -> bool:
    at = 0
    for c in wanted:
        at = name.find(c, at)
        if at < 0:
            return False
        at += 1
    return True


@record(frozen=True)
class Signature:
    """A function's signature while its arguments are typed: `label` such as ``min(x, y) -> int``,
    the parameters' names, the one being typed (from 0) and what the function gives."""

    label: str
    parameters: tuple
    active: int
    documentation: str

    def to_json(self) -> dict:
        return {"label": self.label, "parameters": list(self.parameters), "active": self.active,
                "documentation": self.documentation}


# what each argument is called in a signature (a function not listed takes x, y)
_PARAMETERS = {"ways": ("total",), "weight": ("total",)}


def signature_help(line_text: str, column: int) -> Signature | None:
    """The signature of the function whose brackets hold `column` on this line, or None."""
    from ..check.names import FUNCTIONS, MEANINGS

    before = line_text[:column]
    depth, commas = 0, 0
    for k in range(len(before) - 1, -1, -1):
        c = before[k]
        if c in ")}":
            depth += 1
        elif c in "{":
            if depth == 0:
                return None
            depth -= 1
        elif c == "(":
            if depth == 0:
                name = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", before[:k])
                if name is None or name.group(1) not in FUNCTIONS:
                    return None
                function = name.group(1)
                count, result = FUNCTIONS[function]
                names = _PARAMETERS.get(function, ("x", "y"))[:count]
                label = f"{function}({', '.join(names)}) -> {result}"
                return Signature(label, tuple(names), min(commas, count - 1), MEANINGS.get(function, ""))
            depth -= 1
        elif c == "," and depth == 0:
            commas += 1
    return None
