"""Text from a rule file made safe to show: control and format characters as escapes.

Below every stage (a `RulesetError`'s message quotes the file, and so does every front end), so
`diagnostics` and `render` both read it from here and neither reaches into the other. Rule files
come from strangers: an escape sequence could clear the screen or rewrite the title bar, a BEL
rings, a right-to-left override reorders what a reader sees.
"""

from __future__ import annotations

import unicodedata

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
