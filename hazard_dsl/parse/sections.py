"""A rule file's text with some top-level sections left unread: what the game's reading parses.

`without(text, names)` gives the text with the named top-level sections (`bets:`, `fees:`,
`printed:`) turned into empty lines, so that every other line keeps its number and its
characters their columns, and the YAML reader builds nodes for the game alone: craps' 39 bets
are two thirds of its lines, and composing and positioning them was most of the cost of
reading it from a new text (docs/performance.md, "From the rule text to P(win)").

The cut is made on the text, before any YAML is read, so it is made only where it is certain to
give the nodes the whole text gives for the sections kept: a block mapping at the top whose
every line at the left margin is a comment or a known key written plainly (`bets:`), each once;
no `extends:` (the sections are then merged with another file's); no document markers, no line
break but `\\n`; and no line of a section left out that opens a quoted scalar or a flow
collection it does not close on that line (PyYAML lets one run on over a line at the margin:
`x: "a` then `phases: b"` is one string). Anything else returns None: the whole text is read.
A section kept that runs on into the next is caught after reading (`kept_as_cut`).
"""

from __future__ import annotations

import re

from .keys import RULESET

# a line at the left margin that holds something: a key, a comment or anything else
_MARGIN = re.compile(r"^[^\s#]", re.M)
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?:[ \t]|$)", re.M)
_KNOWN = frozenset(RULESET.allowed)
# YAML 1.1 reads these as line breaks too: with any of them the lines are not `\n`'s
_OTHER_BREAKS = ("\r", "\x85", "\u2028", "\u2029", "\ufeff")
# a single-quoted scalar opens after a key's colon, a list's dash, a flow opener or a comma
_SINGLE_OPENS = re.compile(r"(?:^|[:\-\[{,][ \t]*)'")


def top_level(text: str) -> dict | None:
    """The top-level keys of `text` → (start, end) of each one's lines in the text, in file
    order, or None where the text cannot be cut safely on its lines (see the module's docstring)."""
    if any(mark in text for mark in _OTHER_BREAKS):
        return None
    starts: list = []
    for margin in _MARGIN.finditer(text):
        at = margin.start()
        key = _KEY.match(text, at)
        if key is None or key.group(1) not in _KNOWN:
            return None  # `---`, `- item`, `{…}`, `"name":`, a misspelt key: read the whole text
        starts.append((key.group(1), at))
    sections: dict = {}
    for k, (name, at) in enumerate(starts):
        if name in sections or name == "extends":
            return None
        sections[name] = (at, starts[k + 1][1] if k + 1 < len(starts) else len(text))
    if not sections or text[:starts[0][1]].strip("\n") and not _comments(text[:starts[0][1]]):
        return None
    return sections


def _comments(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.split("\n"))


def without(text: str, names) -> tuple[str, tuple] | None:
    """`text` with the sections `names` that it has turned into empty lines, and the names it
    had; None where the text cannot be cut (then the whole of it is to be read) or has none of
    them."""
    sections = top_level(text)
    if sections is None:
        return None
    cut = [name for name in names if name in sections]
    if not cut:
        return None
    pieces, last = [], 0
    for start, end in sorted(sections[name] for name in cut):
        part = text[start:end]
        if not _closed_on_each_line(part):
            return None
        pieces.append(text[last:start])
        pieces.append("\n" * part.count("\n"))
        last = end
    pieces.append(text[last:])
    return "".join(pieces), tuple(cut)


def kept_as_cut(root, text: str, cut: tuple) -> bool:
    """Whether the nodes read from the cut text have, at the top, exactly the keys the text was
    cut around (a section kept that ran on into the next would have swallowed its key)."""
    sections = top_level(text)
    entries = getattr(root, "entries", None)
    return sections is not None and entries is not None and \
        list(entries) == [name for name in sections if name not in cut]


def _closed_on_each_line(part: str) -> bool:
    """Whether no line of `part` leaves a quoted scalar or a flow collection open (a cautious
    count: a line it cannot judge, such as one with an odd number of double quotes in a plain
    word, counts as open, and the whole text is read)."""
    for line in part.split("\n"):
        hash_at = line.find(" #")
        if hash_at >= 0 and '"' not in line and "'" not in line:
            line = line[:hash_at]
        if '"' in line and (line.count('"') - line.count('\\"')) % 2:
            return False
        if "'" in line and line.count("'") % 2 and _SINGLE_OPENS.search(line.lstrip()):
            return False
        if ("[" in line or "{" in line) and \
                line.count("[") + line.count("{") != line.count("]") + line.count("}"):
            return False
    return True
