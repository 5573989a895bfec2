"""What leaves the program for a person's terminal: printable text, the width, colour.

Rule files come from strangers, so every piece of their text (names, words, descriptions, the
lines quoted in error messages) passes through `printable` on its way out: an escape sequence
could clear the screen or rewrite the title bar, a BEL rings, and rich markup (`[link=…]`) would
be interpreted if handed to rich as markup — so it never is.
"""

from __future__ import annotations

import os
import sys
import unicodedata

FALLBACK_WIDTH = 80  # piped output with no COLUMNS: the width of an ordinary terminal
MIN_WIDTH = 40

_KEEP = {"\n"}


def printable(text: object) -> str:
    """`text` with control and format characters shown as escapes (`\\x1b`, `\\x07`, `\\u202e`)
    instead of acting on the terminal; tabs become spaces, line breaks stay."""
    text = str(text)
    if text.isprintable() and "\t" not in text:
        return text  # the common case, cheaply
    out = []
    for ch in text:
        if ch in _KEEP:
            out.append(ch)
        elif ch == "\t":
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def colour_wanted(stream) -> bool:
    """Colour and styles only on a terminal, and never under NO_COLOR (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def width() -> int:
    """The terminal's width: COLUMNS if set, else the terminal's own, else 80 (piped output)."""
    import shutil  # here, not at the top: output that is not laid out (JSON) never needs it

    try:
        columns = shutil.get_terminal_size((FALLBACK_WIDTH, 24)).columns
    except (OSError, ValueError):
        columns = FALLBACK_WIDTH
    return max(MIN_WIDTH, columns or FALLBACK_WIDTH)


def ensure_encodable() -> None:
    """Output in a locale that cannot encode what we print (PYTHONIOENCODING=ascii, an old
    terminal) degrades — "—" becomes "?" — instead of failing half-way."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "—≈→∈×²".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                try:
                    reconfigure(errors="replace")
                except (OSError, ValueError):
                    pass


def fit(text: str, columns: int | None = None) -> str:
    """Each line of `text` wrapped to the terminal's width, its continuation indented like it
    (a narrated throw runs on under its own text, not under the throw's number)."""
    import textwrap

    columns = columns or width()
    out = []
    for line in text.split("\n"):
        if len(line) <= columns:
            out.append(line)
            continue
        body = line.lstrip(" ")
        indent = " " * (len(line) - len(body))
        more = " " * max(len(indent), 7) if indent else ""  # under the text of a throw's line
        out.extend(textwrap.wrap(body, columns, initial_indent=indent, subsequent_indent=more,
                                 break_on_hyphens=False, break_long_words=True) or [line])
    return "\n".join(out)
