"""What the commands share in writing their output: the format asked for, colour, charts, a
session told as it goes, and standard output gone quiet after it failed."""

from __future__ import annotations

import os
import sys
from contextlib import closing


def output_format(args) -> str:
    """The output format asked for: --json is short for --format json."""
    return "json" if getattr(args, "json", False) else getattr(args, "format", "text")


def colour() -> bool:
    """Colour on standard output: only on a terminal, and never under NO_COLOR."""
    from ..render.terminal import colour_wanted

    return colour_wanted(sys.stdout)


def options_line(machine) -> str:
    from ..render.phrases import options_text

    return f"options: {options_text(machine.options)}"


def draw_chart(chart, figures, path: str, **more) -> None:
    """`chart` (one of render.plot's) of `figures` written to `path`, and said so on standard error."""
    chart(figures, path, **more)
    print(f"hazard-dsl: wrote {path}", file=sys.stderr)


def tell(events, narrator, fmt: str) -> dict | None:
    """Print a session's events as they come (commands.sessions.logged: already logged), in
    words or as JSON lines; returns the last one."""
    last = None
    if fmt == "json":
        import json  # imported only for --json
    with closing(events):  # stopped early (a closed pipe): the log is closed all the same
        for event in events:
            if fmt == "json":
                print(json.dumps(event))
            else:
                text = narrator.text(event)  # printable and fitted already
                if text is not None:
                    print(text)
            last = event
    return last


def say_error(message: str) -> None:
    """`hazard-dsl: error: …` on standard error, fitted (`fitted`)."""
    print(fitted(f"hazard-dsl: error: {message}"), file=sys.stderr)


def error_columns(stream=None) -> int | None:
    """The width an error is fitted to on `stream` (standard error): the terminal's; into a
    pipe or a file, the COLUMNS asked for if it is set (as the tables printed into a pipe are
    fitted to it); else None, a line as it is: grep, an editor's list of errors and CI read a
    message by its line, and a log is read by width later (audit 10 finding 14: errors of 164
    to 284 columns with COLUMNS=80)."""
    from ..render.terminal import MIN_WIDTH, is_terminal, width

    if is_terminal(stream if stream is not None else sys.stderr):
        return width()
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    return max(MIN_WIDTH, columns) if columns > 0 else None


def fitted(text: str, stream=None) -> str:
    """An error's text broken between words at `error_columns`, the lines after the first
    indented; a line that already fits is as it was. A number, a word or a flag with its value
    is never split (`terminal.wrap`)."""
    columns = error_columns(stream)
    if columns is None or _fits(text, columns):
        return text
    from ..render.terminal import wrap

    return "\n".join(wrap(text, columns, "", "  "))


def _fits(text: str, columns: int) -> bool:
    """Whether every line of `text` fits `columns`, told without rich (which measures wide
    characters) where no character is wide: the parser's errors need none of the project's
    dependencies (tests/cli/test_did_you_mean.py runs them on other Pythons)."""
    import unicodedata

    if not text.isascii() and any(unicodedata.east_asian_width(ch) in "WF" for ch in text):
        return False
    return all(len(line) <= columns for line in text.split("\n"))


def silence_stdout() -> None:
    """After stdout failed (a closed pipe, a full disk), send what is left to nowhere, so that
    Python's own flush at exit does not print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass
