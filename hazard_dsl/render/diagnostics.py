"""A diagnostic as a person reads it at a terminal or in a pipe: ``file:line:col: severity:
message``, the source line, a caret under the column, the hint.

Here in render, not beside `Diagnostic` (a value every stage makes): the wrapping at the
terminal's width and the colour are the terminal's business, and the data must not reach up
into them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from ..diagnostics import SOURCES, Diagnostic, SourceTexts
from .terminal import colour_wanted, is_terminal, printable, wrap


def render(diagnostic: Diagnostic, sources: SourceTexts = SOURCES, colour: bool = False,
           wrapped: bool = False) -> str:
    """``file:line:col: severity: message``, the source line and a caret under the column.
    Text from the rule file (in the message and the quoted line) is made printable first, so
    an escape sequence in a file is shown, not obeyed; the caret stays under its character."""
    red, yellow, bold, reset = ("\033[31m", "\033[33m", "\033[1m", "\033[0m") if colour else ("",) * 4
    tint = red if diagnostic.is_error else yellow
    where = f"{printable(diagnostic.position)}: " if diagnostic.position else "hazard-dsl: "
    head = f"{where}{diagnostic.severity}:"
    if wrapped:
        # for a person at a terminal: the message wraps between words under its first line
        lines = wrap(f"{head} {printable(diagnostic.message)}", more="    ")
        if not lines[0].startswith(head):  # a path longer than the line: the message under it
            lines = [head, *wrap(printable(diagnostic.message), indent="    ")]
    else:
        # into a pipe or a file, `file:line:col: error: message` stays one line, as compilers
        # print it: editors' quickfix lists, grep and CI annotations read a diagnostic by line
        lines = [f"{head} {printable(diagnostic.message)}"]
    out = [f"{bold}{where}{reset}{tint}{diagnostic.severity}:{reset}{lines[0][len(head):]}", *lines[1:]]
    if diagnostic.position is not None:
        text = sources.line(diagnostic.position)
        if text is not None:
            column = diagnostic.position.column
            before = printable(text[:max(0, column - 1)])
            shown = before + printable(text[max(0, column - 1):])
            col = len(before) + 1
            if len(shown) > 200:  # keep a caret readable on absurdly long lines
                start = max(0, col - 100)
                shown, col = shown[start:start + 200], col - start
            out.append(f"    {shown}")
            out.append(f"    {' ' * max(0, col - 1)}{tint}^{reset}")
    if diagnostic.hint:
        out += wrap(f"hint: {printable(diagnostic.hint)}", indent="    ", more="      ")
    return "\n".join(out)


def print_diagnostics(diagnostics: Iterable[Diagnostic], stream=None) -> None:
    stream = stream if stream is not None else sys.stderr
    colour = colour_wanted(stream)
    wrapped = is_terminal(stream)
    for d in diagnostics:
        print(render(d, colour=colour, wrapped=wrapped), file=stream)
