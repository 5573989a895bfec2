"""One escaper per output format: how text — above all a rule file's text — is written into it.

Rule files come from strangers, and everything they say (names, descriptions, notes, sources,
what a label says, the words of the game) reaches every format the tool writes. Each format has
one escaper here, and every renderer that writes that format uses it, for its own words as well
as the file's, so that no piece of text is forgotten:

- `markdown`: the text shows as typed and never makes markup — no HTML (`<script>`), no link or
  image (`[x](javascript:…)`), no emphasis, code, table cell or strike-through; `markdown_block`
  also keeps each line of a paragraph from starting a heading, list, quote or rule.
- `html`: `html.escape`, quotes too (the text may stand in an attribute).
- `csv_cell`: a cell that a spreadsheet would read as a formula (it begins with `=`, `+`, `-`,
  `@`, a tab or a carriage return: OWASP's list, "CSV Injection") is prefixed with `'`; a number
  (`-0.5`, `-1/36`, `-1.731%`, `1,234`) stays as it is, a number.
- `mermaid` (a label inside double quotes) and `mermaid_title` (the front matter's title): no
  `%%{init…}%%` directive, comment, quote, pipe or markup survives.
- `dot_string` (a DOT double-quoted string) and `dot_html` (inside an HTML-like label `<…>`):
  the text cannot close its string or label, add attributes or name Graphviz's escapes (`\\N`).

Charts (plot.py) need no escaper of their own: matplotlib writes SVG text escaped, and its
mathtext (`$\\frac{x}$` in a ruleset's name would be parsed, and a bad formula is an error) is
switched off for every chart (`text.parse_math`).

Every escaper first makes the text `printable` (terminal.py): control characters are shown as
`\\x1b`, never written, as in the text output.
"""

from __future__ import annotations

import html as _html
import json
import re

from .terminal import printable

# --------------------------------------------------------------------------- Markdown

# Inline Markdown (CommonMark and GitHub's tables and strike-through): `<` and `>` as entities,
# `&` too where it would begin one ("&lt;", "&#60;"; "Hazard & Craps" stays as it is), and a
# backslash before each character that can open markup: a link or image needs `[` (and `]`),
# emphasis `*` or `_`, code a back-tick, a table cell `|`, strike-through `~`, GitHub's math `$`.
# Parentheses, `!`, `#` and `:` do nothing without those, so they are left alone and a sheet's
# "(Cotton, 1674)" stays readable in the Markdown source.
_MARKDOWN = str.maketrans({"<": "&lt;", ">": "&gt;", **{ch: "\\" + ch for ch in "\\`*_[]|~$"}})
_ENTITY = re.compile(r"&(?=#?\w+;)")
# What may open a block at the start of a line: a heading, a quote, a list item, a thematic break
# or a setext underline; an ordered list item (`1.` or `1)`).
_BLOCK_START = re.compile(r"([#>+=-])|(\d{1,9})([.)])")


def _inline(text: str) -> str:
    return _ENTITY.sub("&amp;", text).translate(_MARKDOWN)


def markdown(text: object) -> str:
    """Text for inline Markdown — a table cell, a heading, a list item: shown as typed, never as
    markup. A line break becomes `<br>`, so the text stays within its cell or line."""
    return _inline(printable(text)).replace("\n", "<br>")


def markdown_block(text: object) -> str:
    """Text for a paragraph of its own: as `markdown`, and each line kept from opening a block
    (a heading, list, quote, rule); line breaks are kept, as Markdown's hard breaks."""
    lines = []
    for line in printable(text).split("\n"):
        line = _inline(line.lstrip(" "))  # four spaces would make a code block
        match = _BLOCK_START.match(line)
        if match:
            k = match.end() - 1
            line = line[:k] + "\\" + line[k:]
        lines.append(line)
    return "  \n".join(lines)


# --------------------------------------------------------------------------- HTML


def html(text: object) -> str:
    """Text for HTML, as element content or a quoted attribute's value."""
    return _html.escape(printable(text), quote=True)


# --------------------------------------------------------------------------- CSV

# A cell a spreadsheet reads as a formula begins with one of these (OWASP; the full-width forms
# are read as formulas by some East Asian versions of Excel). The test is made after leading
# blanks, which some spreadsheets skip.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
# A number as this tool writes one in a table: an integer (with thousands separators or not), a
# decimal, an exponent, an exact fraction ("-1/36") or a percentage ("-1.731%").
_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?(?:/\d+)?%?")


def csv_cell(value: object) -> str:
    """A cell for CSV: printable, and prefixed with `'` when a spreadsheet would take it for a
    formula; numbers (`-0.5`, `-1/36`, `+2.5%`) are left as they are."""
    text = printable(value)
    if text.lstrip(" ").startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


# --------------------------------------------------------------------------- Mermaid

# Mermaid's own entity codes (#quot;, #35;): decoded only after the diagram is parsed. `#` goes
# first, so that a rule file's "#lt;" is shown as typed; `%` so that no `%%{init…}%%` directive
# or `%%` comment is ever formed; `"`, `|`, `<`, `>`, `&` and the back-tick so that the text can
# close neither its quotes nor an edge label, nor bring HTML or a Markdown string.
_MERMAID = str.maketrans({"#": "#35;", "%": "#37;", '"': "#quot;", "|": "#124;", "<": "#lt;", ">": "#gt;",
                          "&": "#amp;", "`": "#96;"})


def mermaid(text: object) -> str:
    """Text inside a double-quoted Mermaid label (a node, an edge, a subgraph's title); a line
    break becomes `<br/>`."""
    return printable(text).translate(_MERMAID).replace("\n", "<br/>")


def mermaid_title(text: object) -> str:
    """A title for a Mermaid diagram's YAML front matter: a double-quoted scalar on one line, with
    `%`, `<`, `>`, `&` and `#` as YAML's \\u escapes (the diagram's reader sees the characters; the
    text of the file carries no directive or markup)."""
    quoted = json.dumps(printable(text), ensure_ascii=False)  # a JSON string is a YAML double-quoted one
    for ch in "%<>&#":
        quoted = quoted.replace(ch, f"\\u{ord(ch):04x}")
    return quoted


# --------------------------------------------------------------------------- Graphviz DOT


def dot_string(text: object) -> str:
    """A DOT double-quoted string, quotes included: backslashes doubled (so the text names none of
    Graphviz's label escapes, `\\N`, `\\G`, `\\l`), quotes escaped, a line break as `\\n`."""
    text = printable(text).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text.replace("\n", "\\n") + '"'


def dot_html(text: object) -> str:
    """Text inside an HTML-like DOT label (`label=<…>`): XML-escaped, so it cannot close the label
    or open an element; U+FFFE and U+FFFF, which XML refuses, shown as escapes."""
    text = _html.escape(printable(text), quote=True)
    return text.replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")


__all__ = ["markdown", "markdown_block", "html", "csv_cell", "mermaid", "mermaid_title", "dot_string", "dot_html"]
