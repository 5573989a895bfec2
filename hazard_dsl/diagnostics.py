"""Positions in rule files and the diagnostics reported against them.

Every stage of the pipeline (YAML, expressions, checks, compilation) reports problems as
`Diagnostic` values carrying a `Position`; a stage collects all it finds and raises them
together as one `RulesetError`, so `hazard-dsl check` can show every problem of a file at once,
sorted by position, as ``file:line:col: error: message`` followed by the source line and a caret.
"""

from __future__ import annotations

from collections.abc import Iterable  # (not `typing`, which costs 3 ms of every command's start)

from .printable import printable
from .records import field, record

ERROR = "error"
WARNING = "warning"
NOTE = "note"


def nearest(word: str, known) -> str | None:
    """The known word closest to `word`, if one is close enough to be what was meant: the fact
    behind "did you mean" (a `Suggestion`'s text)."""
    import difflib

    # the word itself is no suggestion (a FIFO named `p.yaml` is beside the file, but no rule file)
    close = difflib.get_close_matches(str(word), [str(k) for k in known if str(k) != str(word)], n=1)
    return close[0] if close else None


def did_you_mean(word: str, known) -> str:
    """" (did you mean 'cotton'?)" for a close known word, or "" — one helper for every name a
    person types: rulesets, options, values, bets, commands."""
    close = nearest(word, known)
    return f" (did you mean {close!r}?)" if close is not None else ""


@record(frozen=True, order=True)
class Position:
    """A place in a source file; line and column count from 1."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@record(frozen=True)
class Suggestion:
    """A repair as data: put `text` in place of what lies from `start` up to `end` (one past
    the last character replaced; `start == end` inserts). The did-you-mean of a misspelt key,
    name or value, and the mends of a layout error, are given so — an editor's quick fix, the
    workbench's one-click fix and any other front end apply it without reading the message."""

    text: str
    start: Position
    end: Position


@record(frozen=True)
class Diagnostic:
    """One problem: where it starts (`position`) and, when a stage knows it, where it ends (`end`,
    one past the last character: the misspelt word, the bad value, the whole key). Without an
    end, an editor's range is worked out from the source (`language.ranges`).

    `code` names the kind of problem, short and stable ("unknown-key", "unknown-name",
    "yaml-syntax", …; the table is in docs/diagnostics.md): a front end or a test tells kinds
    apart by it, never by the wording of `message`, which may become more precise. `suggestion`,
    when the stage knows one, is the repair as data (`Suggestion`): the quick fixes are built
    from it, not from "did you mean" in the message. `subject`, where a fix needs a name rather
    than a place (the label to declare, the phase whose rules leave throws unhandled), is that
    name as written in the file. `column`, for a problem of layout whose repair is a column (the
    `- ` of a rule written without one, the column a key lines up in), is that column: the reader
    mends the layout by it (`parse.yaml_errors.repair`), never by reading the hint.

    `names` are the names and words the message quotes (variables, options and their values,
    labels, bets, phases, faces, the nearest name offered), as written; `reads` the sections of
    the file the problem was judged against beyond its own place ("dice", "money", "bets",
    "phases", …). A later step decides from them, never from the message: whether the problem
    only follows from a part dropped for its own error (`check.reading`), which part of a child
    file breaks an inherited line (`check.placed`). They are facts for the code, not shown: left
    out of equality, `repr` and every JSON form, so two problems said alike stay one."""

    message: str
    position: Position | None = None
    severity: str = ERROR
    hint: str | None = None
    end: Position | None = None
    code: str | None = None
    suggestion: Suggestion | None = None
    subject: str | None = None
    column: int | None = None
    names: tuple = field(default=(), repr=False, compare=False)
    reads: tuple = field(default=(), repr=False, compare=False)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def sort_key(self):
        p = self.position
        return (p.file, p.line, p.column) if p else ("", 0, 0)


MAX_DIAGNOSTICS = 200  # per file: past this many, a reader learns nothing more from the list


class RulesetError(Exception):
    """Raised with every diagnostic a stage found (`.diagnostics`, sorted by position; a note
    with no position, such as "the later checks run once these errors are fixed", comes last);
    warnings may ride along. `str()` is one line for each, ``file:line:col: message``, with
    ``warning:`` or ``note:`` before the message of those that are not errors and the hint, if
    any, on a line of its own; text from the file is shown, never obeyed (control characters as
    escapes). Past MAX_DIAGNOSTICS they are counted, not listed."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        found = sorted(diagnostics, key=lambda d: (d.position is None and d.severity == NOTE, d.sort_key()))
        if len(found) > MAX_DIAGNOSTICS:
            rest = found[MAX_DIAGNOSTICS:]
            errors = sum(d.is_error for d in rest)
            found = found[:MAX_DIAGNOSTICS] + [Diagnostic(
                f"… and {len(rest)} more problems ({errors} errors) not shown", None,
                ERROR if errors else WARNING)]
        self.diagnostics = found
        super().__init__("\n".join(_line(d) for d in self.diagnostics))

    def __reduce__(self):
        # an Exception pickles as its class called with its args — here the message text, which
        # is no list of diagnostics: a worker process's error then failed to unpickle and
        # multiprocessing waited for ever. It travels as itself: its diagnostics, its attributes.
        return (_unpickled, (type(self), self.args, self.__dict__))


def _unpickled(cls, args, state):
    """A RulesetError (or subclass) as pickled, without running its __init__ again (which
    would sort and cut the list a second time)."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


def _line(d: Diagnostic) -> str:
    said = d.message if d.is_error else f"{d.severity}: {d.message}"
    line = f"{d.position}: {said}" if d.position else said
    return printable(line) + (f"\n    hint: {printable(d.hint)}" if d.hint else "")


@record
class Diagnostics:
    """A collector: stages append to it and raise once at the end."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, message: str, position: Position | None = None, hint: str | None = None, *,
              code: str | None = None, suggestion: Suggestion | None = None,
              end: Position | None = None, subject: str | None = None, names: tuple = (),
              reads: tuple = ()) -> None:
        self.items.append(Diagnostic(message, position, ERROR, hint, end, code, suggestion, subject,
                                     names=names, reads=reads))

    def warning(self, message: str, position: Position | None = None, hint: str | None = None, *,
                code: str | None = None, suggestion: Suggestion | None = None,
                end: Position | None = None, subject: str | None = None, names: tuple = (),
                reads: tuple = ()) -> None:
        self.items.append(Diagnostic(message, position, WARNING, hint, end, code, suggestion, subject,
                                     names=names, reads=reads))

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.items.extend(other)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise RulesetError(self.items)


class SourceTexts:
    """The text of every file read so far, so diagnostics can quote their line."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}

    def add(self, file: str, text: str) -> None:
        self._lines[file] = text.splitlines()

    def line(self, position: Position) -> str | None:
        lines = self._lines.get(position.file)
        if lines is None or not 1 <= position.line <= len(lines):
            return None
        return lines[position.line - 1]


SOURCES = SourceTexts()
