"""What leaves the program for a person's terminal: printable text, the width, colour.

Rule files come from strangers, so every piece of their text (names, words, descriptions, the
lines quoted in error messages) passes through `printable` on its way out: an escape sequence
could clear the screen or rewrite the title bar, a BEL rings, and rich markup (`[link=…]`) would
be interpreted if handed to rich as markup — so it never is.
"""

from __future__ import annotations

import os
import re
import sys

from ..printable import printable  # noqa: F401 - below diagnostics and render alike; said from here too

FALLBACK_WIDTH = 80  # piped output with no COLUMNS: the width of an ordinary terminal
MIN_WIDTH = 40


def colour_wanted(stream) -> bool:
    """Colour and styles only on a terminal, and never under NO_COLOR (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    return is_terminal(stream)


def is_terminal(stream) -> bool:
    """Whether `stream` is a terminal (a closed or odd stream is not)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def width() -> int:
    """The terminal's width: COLUMNS if set, else the terminal's own, else 80 (piped output).
    As `shutil.get_terminal_size` works it out, without importing shutil (and the compressors it
    imports): argparse asks it of every command line, to lay out a help it seldom prints."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
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
    """Each line of `text` wrapped to the terminal's width (`wrap`), its continuation indented
    like it (a narrated throw runs on under its own text, not under the throw's number)."""
    columns = columns or width()
    out = []
    for line in text.split("\n"):
        if cells(line) <= columns:
            out.append(line)
            continue
        body = line.lstrip(" ")
        indent = " " * (len(line) - len(body))
        more = " " * max(len(indent), 7) if indent else ""  # under the text of a throw's line
        out.extend(wrap(body, columns, indent, more) or [line])
    return "\n".join(out)


# --------------------------------------------------------------------------- wrapping

# What is never split across lines: a word, a number ("4451/1685", "-1.533%", "6.616e+42"), and
# the small groups a reader takes as one figure: a ratio ("2,053 : 1,979", "4 / 18", "7 to 6",
# "1 in 10"), "≈ 0.4908" and a page ("pp. 168-173"). Only a web address (or a path) that is longer
# than the line is broken, after a "/": the rest of it follows on the next line.
_JOINS = {":", "/", "to", "in", "×"}
_NUMBER_END = re.compile(r"[\d%]\)?$")
_NUMBER_START = re.compile(r"\(?[−+-]?\d")
_ADDRESS = re.compile(r"(?=.*[A-Za-z]).*/.")  # letters and a "/" inside: a web address or a path


def cells(text: str) -> int:
    """The columns `text` takes on a terminal (a wide character takes two)."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def units(line: str) -> list[str]:
    """The pieces of a line of text that a line break may fall between (see `wrap`)."""
    words = [word for word in line.split(" ") if word]  # a no-break space (U+00A0) joins its words
    out: list[str] = []
    k = 0
    while k < len(words):
        word = words[k]
        if (out and word in _JOINS and k + 1 < len(words) and _NUMBER_END.search(out[-1])
                and _NUMBER_START.match(words[k + 1])):
            out[-1] = f"{out[-1]} {word} {words[k + 1]}"
            k += 2
            continue
        if out and (out[-1] in ("≈", "~", "p.", "pp.") and _NUMBER_START.match(word) or out[-1] == "≈"
                    or out[-1].endswith((" =", " ∈")) or word in ("=", "∈")):  # "main = 7", "main ∈ {5,"
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
        k += 1
    return out


def pieces(unit: str) -> list[str]:
    """A unit as the parts it may be broken into when it is longer than a line: a web address
    after each "/", anything else not at all."""
    if "/" in unit and _ADDRESS.match(unit) and not _NUMBER_START.match(unit):
        return [piece for piece in re.split(r"(?<=/)(?=.)", unit) if piece]
    return [unit]


def least(text: str) -> int:
    """The narrowest a column can be and still hold `text` without splitting a unit (a web
    address counts by its longest piece)."""
    return max((cells(piece) for line in text.split("\n") for unit in units(line) for piece in pieces(unit)),
               default=0)


def wrap(text: str, columns: int | None = None, indent: str = "", more: str | None = None) -> list[str]:
    """`text` as lines of at most `columns` (the terminal's width), broken only between units
    (`units`): a number, a ratio or a word is never split. A web address too long for the line
    breaks after a "/"; a piece of one that is longer than a whole line stands alone on its line,
    whole, and only a word longer than a line (never a number a table prints) is cut. Line breaks
    in `text` are kept; `indent` starts the first line, `more` (default: `indent`) the others."""
    columns = columns or width()
    more = indent if more is None else more
    lines: list[str] = []
    start, line = indent, ""

    def put(unit: str, glue: str) -> None:
        nonlocal start, line
        candidate = f"{line}{glue}{unit}" if line else unit
        if cells(start + candidate) <= columns or not line:
            line = candidate
        else:
            lines.append(start + line)
            start, line = more, unit
        if line == unit and cells(start + unit) > columns >= cells(unit):  # a piece of an address: less indented
            start = " " * (columns - cells(unit))

    for paragraph in text.split("\n"):
        for unit in units(paragraph):
            room = columns - cells(more)
            parts = pieces(unit)
            if cells(unit) <= room or len(parts) > 1 and cells(start + f"{line} {unit}") <= columns:
                put(unit, " ")
            elif len(parts) > 1:  # an address longer than a line: from a new line, broken after slashes
                if line:
                    lines.append(start + line)
                    start, line = more, ""
                for k, part in enumerate(parts):
                    put(part, "" if k else " ")
            else:  # a word longer than a line: cut, the only way to show it all
                while cells(unit) > room:
                    if line:
                        lines.append(start + line)
                        start, line = more, ""
                    cut = _cut(unit, columns - cells(start))
                    lines.append(start + unit[:cut])
                    start, unit = more, unit[cut:]
                put(unit, " ")
        lines.append(start + line)
        start, line = more, ""
    return [line.rstrip() for line in lines]


def fitted(text: str, stream) -> str:
    """A message for `stream`: on a terminal, broken between words at its width, the lines after
    the first indented (as a rule file's diagnostics are), so that no word or number is split by
    the terminal; as it is to a pipe or a file, where a line is a line (grep, an editor)."""
    return "\n".join(wrap(text, width(), "", "  ")) if is_terminal(stream) else text


def said_with_command(before: str, command: str, after: str, columns: int | None = None) -> str:
    """`before command after` on one line if it fits; else the sentence, and under it the shell
    command (`command`, its words quoted), broken between words with a backslash at the end of
    each line but the last, so that it can be copied and run as it stands."""
    columns = columns or width()
    line = f"{before} {command} {after}"
    if cells(line) <= columns:
        return line
    lines = wrap(f"{before.rstrip(':')} {after.rstrip('.')}:", columns)
    import shlex

    groups: list[str] = []  # a flag stays with its value: "--bet pass=10"
    for word in shlex.split(command):
        if groups and groups[-1].startswith("-") and " " not in groups[-1] and not word.startswith("-"):
            groups[-1] += " " + shlex.quote(word)
        else:
            groups.append(shlex.quote(word))
    out, current = [], "  "
    for word in groups:
        if current.strip() and cells(f"{current} {word} \\") > columns:
            out.append(current + " \\")
            current = "      " + word
        else:
            current = f"{current} {word}" if current.strip() else current + word
    return "\n".join(lines + out + [current])


def _cut(word: str, room: int) -> int:
    """How many characters of `word` fill `room` columns (at least one)."""
    used = 0
    for k, ch in enumerate(word):
        used += cells(ch)
        if used > room:
            return max(1, k)
    return len(word)
