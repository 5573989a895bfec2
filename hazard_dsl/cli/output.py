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
    """`hazard-dsl: error: …` on standard error, fitted to a terminal (`terminal.fitted`)."""
    from ..render.terminal import fitted

    print(fitted(f"hazard-dsl: error: {message}", sys.stderr), file=sys.stderr)


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
