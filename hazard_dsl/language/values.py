"""The language service's values: places and ranges in a document (from 0, in code points),
its problems with their fixes, hovers, completions, locations, symbols and edits — what
`service.LanguageService` answers and the language server and the workbench turn into their own
forms. Each has `to_json` for the workbench's API."""

from __future__ import annotations

from ..records import record


@record(frozen=True, order=True)
class Place:
    """A place in a document: line and column from 0, the column in code points."""

    line: int
    column: int

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column}


@record(frozen=True)
class Span:
    start: Place
    end: Place

    def to_json(self) -> dict:
        return {"start": self.start.to_json(), "end": self.end.to_json()}


@record(frozen=True)
class Fix:
    """A quick fix: replace `span` with `new_text` (the checker's "did you mean")."""

    title: str
    span: Span
    new_text: str

    def to_json(self) -> dict:
        return {"title": self.title, "range": self.span.to_json(), "new_text": self.new_text}


@record(frozen=True)
class Problem:
    """One of `check`'s diagnostics, with its range in the document: the misspelt word, the bad
    value, the whole key. A problem of a file this one extends stands on the `extends:` value,
    its message led by that file's place. `severity`: error, warning or note."""

    span: Span
    severity: str
    message: str
    hint: str | None = None
    fixes: tuple = ()
    placed: bool = True  # false where the checker gives no place (of the file as a whole): on line 1
    code: str | None = None  # the diagnostic's kind (docs/diagnostics.md): what a fix is chosen by
    repair: Fix | None = None  # the diagnostic's suggestion, placed in this document, if it has one
    subject: str | None = None  # the name a fix needs (a label to declare, a phase to complete)

    def to_json(self) -> dict:
        return {"range": self.span.to_json(), "severity": self.severity, "message": self.message,
                "hint": self.hint, "fixes": [f.to_json() for f in self.fixes], "placed": self.placed}


@record(frozen=True)
class Hover:
    """What the word under a place is, in Markdown, and the word's range."""

    span: Span
    markdown: str

    def to_json(self) -> dict:
        return {"range": self.span.to_json(), "markdown": self.markdown}


@record(frozen=True)
class Completion:
    """One thing that may be written here: `label` as shown, `insert_text` as written (the label
    when None), `kind`: phase, variable, fact, function, label, option, value, bet, fee, keyword,
    key, throw, ruleset or role."""

    label: str
    kind: str
    detail: str | None = None
    documentation: str | None = None
    insert_text: str | None = None

    def to_json(self) -> dict:
        return {"label": self.label, "kind": self.kind, "detail": self.detail,
                "documentation": self.documentation, "insert_text": self.insert_text}


@record(frozen=True)
class Location:
    uri: str
    span: Span

    def to_json(self) -> dict:
        return {"uri": self.uri, "range": self.span.to_json()}


@record(frozen=True)
class Symbol:
    """A phase, variable, option, label, bet or fee defined in the document: `span` is its whole
    block, `name_span` its name; a bet's or a fee's own phases and variables are its children."""

    name: str
    kind: str
    span: Span
    name_span: Span
    children: tuple = ()

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "range": self.span.to_json(),
                "name_range": self.name_span.to_json(), "children": [c.to_json() for c in self.children]}


@record(frozen=True)
class Edit:
    span: Span
    new_text: str

    def to_json(self) -> dict:
        return {"range": self.span.to_json(), "new_text": self.new_text}


@record(frozen=True)
class QuickFix:
    """A code action: the fix of one problem, as edits by URI."""

    title: str
    problem: Problem
    edits: dict  # uri -> [Edit]

    def to_json(self) -> dict:
        return {"title": self.title, "kind": "quickfix", "problem": self.problem.to_json(),
                "edits": {uri: [e.to_json() for e in edits] for uri, edits in self.edits.items()}}


class RenameError(ValueError):
    """A rename refused: the message says why (not a name, taken, defined in another file)."""


def span_of(start: tuple, end: tuple) -> Span:
    return Span(Place(*start), Place(*end))
