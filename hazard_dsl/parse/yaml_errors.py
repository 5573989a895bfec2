"""PyYAML's syntax errors told in the words of a rule file's layout.

PyYAML reports what its parser expected (`expected <block end>, but found '?'`, `mapping values
are not allowed here`): true, but in the words of its own tokens. An author thinks in lines and
columns: a key that does not line up with the one above it, a rule that lacks its `- `, a colon
inside a value. `explain` reads the error's problem and context, their marks and the lines of
the file around them, and says which of those it is, with a hint; what it cannot place it still
tells without PyYAML's token names.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Position, Suggestion

TYPE_CHECKING = False  # PyYAML is named only in an annotation: yaml_nodes imports it on first use
if TYPE_CHECKING:
    import yaml

# A line's key: optional `- ` markers, then a plain word followed by `:` and a space or the end.
_KEY = re.compile(r"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<key>[^\s:#'\"{}\[\],&*!|>%@`-][^:#]*?)\s*:(?:\s|$)")

# PyYAML's token names, should a message fall through to the generic case.
_TOKENS = {
    "<block end>": "the end of the indented block",
    "<block mapping start>": "a key indented differently",
    "<block sequence start>": "a list indented differently",
    "<block collection start>": "an indented block",
    "<document start>": "the start of a document",
    "<document end>": "the end of a document",
    "<stream end>": "the end of the file",
    "<scalar>": "a value",
    "'?'": "a key",
    "'-'": "a list item `- `",
    "'<block end>'": "the end of the indented block",
}


def _plain(message: str) -> str:
    for token, words in _TOKENS.items():
        message = message.replace(f"'{token}'", words).replace(token, words)
    return message


def _indent(line: str) -> int:
    """The column (1-based) of a line's first character that is not a space."""
    return len(line) - len(line.lstrip(" ")) + 1


def _open_quote(lines: "_Lines", last: int):
    """(line, column, quote) of the first value on lines 1..last that opens a quote it does not
    close on its line, or None."""
    for number in range(1, last + 1):
        line = lines.get(number)
        m = re.match(r"""^\s*(?:-\s+)*(?:[^\s:#'"][^:#]*?:\s+)?(?P<q>["'])""", line)
        if not m or line.lstrip().startswith("#"):
            continue
        q, start = m["q"], m.end() - 1
        rest = line[start + 1:]
        if q == '"':
            closed = re.search(r'(?<!\\)"', rest.replace("\\\\", "")) is not None
        else:
            closed = "'" in rest.replace("''", "")
        if not closed:
            return number, start + 1, q
    return None


def _nearest_level(lines: "_Lines", number: int, column: int, previous_key: int):
    """(column, key or None for a `- `, line) of the block level above line `number` nearest to
    `column`: the columns at which the lines above open their blocks. On a tie the outer level,
    unless the inner one is the key of the line just above (`do:` between `- ` and `when:`)."""
    levels = []
    limit = 10 ** 9
    n = number - 1
    while n >= 1 and limit > 1:
        line = lines.get(n)
        if line.strip() and not line.lstrip().startswith("#"):
            found = _key(line)
            here = []
            if found:
                if found[2] is not None:
                    here.append((found[2], None, n))
                here.append((found[0], found[1], n))
            else:
                here.append((_indent(line), None, n))
            if here[0][0] < limit:
                levels += [h for h in here if h[0] < limit]
                limit = here[0][0]
        n -= 1
    levels = [lv for lv in levels if lv[0] != column]
    if not levels:
        return None
    best = min(abs(lv[0] - column) for lv in levels)
    near = [lv for lv in levels if abs(lv[0] - column) == best]
    inner = [lv for lv in near if lv[0] == previous_key and lv[2] == number - 1 or lv[0] == previous_key and lv[1]]
    return max(near, key=lambda lv: lv[0]) if inner and len(near) > 1 and inner[0][0] > column else min(near, key=lambda lv: lv[0])


class _Lines:
    def __init__(self, text: str):
        self.lines = text.split("\n")

    def get(self, number: int) -> str:
        """Line `number` (1-based) without its line ending, or ''."""
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1].rstrip("\r")
        return ""

    def next(self, number: int) -> tuple[int, str]:
        """The nearest line after `number` that holds something other than a comment."""
        n = number + 1
        while n <= len(self.lines):
            line = self.get(n)
            if line.strip() and not line.lstrip().startswith("#"):
                return n, line
            n += 1
        return 0, ""

    def previous(self, number: int) -> tuple[int, str]:
        """The nearest line before `number` that holds something other than a comment."""
        n = number - 1
        while n >= 1:
            line = self.get(n)
            if line.strip() and not line.lstrip().startswith("#"):
                return n, line
            n -= 1
        return 0, ""


def _key(line: str):
    """(column of the key, 1-based; the key; column of the first `- ` or None) of a line, or None."""
    m = _KEY.match(line)
    if not m:
        return None
    column = len(m["indent"]) + len(m["dashes"]) + 1
    dash = len(m["indent"]) + 1 if m["dashes"] else None
    return column, m["key"].strip(), dash


_RULE_STARTS = ("when", "otherwise")


def _rule_without_dash(lines: "_Lines", error_line: int):
    """(line, column, key, column of the list's `- `, a line with a `- `) of the first rule of the
    `rules:` list around `error_line` that starts with `when:` or `otherwise:` where a `- ` is
    due: before the list's first `- ` (the first rule), or to the left of the keys of the item
    above it; None when there is none."""
    for number in range(min(error_line, len(lines.lines)), 0, -1):
        opener = lines.get(number)
        if re.match(r"\s*(?:-\s+)?rules:\s*(#.*)?$", opener):
            break
    else:
        return None
    base = _indent(opener)
    block = []
    n = number + 1
    while n <= len(lines.lines):
        line = lines.get(n)
        if line.strip() and not line.lstrip().startswith("#"):
            level = _indent(line) == base and not line.lstrip().startswith("- ")
            if _indent(line) < base or (level and (_key(line) or (0, ""))[1] not in ("when", "do", "otherwise", "say")):
                break  # (a list may stand in its key's column: then its rule keys there are its own)
            block.append((n, line))
        n += 1
    if not block or error_line > block[-1][0] + 1:
        return None
    dashes = [(n, _key(line)[2]) for n, line in block if _key(line) and _key(line)[2] is not None]
    if not dashes:
        return None
    dash = min(d for _, d in dashes)
    item_seen = False
    for n, line in block:
        k = _key(line)
        if k is None:
            continue
        if k[2] == dash:
            item_seen = True
            continue
        if k[2] is None and k[1] in _RULE_STARTS and (k[0] < dash + 2 or (k[0] == dash + 2 and not item_seen)):
            return n, k[0], k[1], dash, next(m for m, d in dashes if d == dash)
    return None


def _misaligned(key: str, column: int, other: str, level: int, line: int, position: Position) -> Diagnostic:
    """`do:` must line up with `when:` on line 7: it is 1 column further right."""
    off = abs(column - level)
    side = "right" if column > level else "left"
    return Diagnostic(f"`{key}:` must line up with {other} on line {line}; it is {off} column{'s' if off > 1 else ''} "
                      f"further {side}", position,
                      hint=f"start `{key}:` in column {level}, under {other}: the keys of one mapping line up",
                      code="misaligned-key", column=level)


def _inserted(text: str, at: Position) -> Suggestion:
    """A repair inserting `text` at `at`."""
    return Suggestion(text, at, at)


def dash_before(at: Position, dash: int | None = None) -> Suggestion | None:
    """A rule's missing `- `, as data: the two columns before its first key at `at` become `- `,
    where the line is indented that far and (when the list's `- ` column is known) the dash then
    lines up with the list's others."""
    if at.column < 3 or (dash is not None and dash != at.column - 2):
        return None
    return Suggestion("- ", Position(at.file, at.line, at.column - 2), at)


def _appended(lines: "_Lines", number: int, file: str, text: str) -> Suggestion:
    """A repair putting `text` at the end of line `number` (a quote closed where its line ends)."""
    return _inserted(text, Position(file, number, len(lines.get(number)) + 1))


def _closed(lines: "_Lines", number: int, column: int, file: str, closer: str) -> Suggestion:
    """A repair closing a bracket opened at `column` of line `number`: before a comment that
    follows it on the line, else at the line's end (as `repair` reads on)."""
    line = lines.get(number)
    comment = line.find(" #", column)
    return _inserted(closer, Position(file, number, (len(line) if comment < 0 else comment) + 1))


def explain(exc: yaml.MarkedYAMLError, text: str, file: str) -> Diagnostic:
    """A diagnostic for a YAML syntax error, in layout terms, with a hint where one helps."""
    lines = _Lines(text)
    problem = exc.problem or ""
    context = exc.context or ""
    pmark, cmark = exc.problem_mark, exc.context_mark
    mark = pmark or cmark

    def at(line: int, column: int) -> Position:
        return Position(file, max(line, 1), max(column, 1))

    position = at(mark.line + 1, mark.column + 1) if mark else at(1, 1)

    # --- a rule without its `- `, wherever it stands in its list (the first rule too): said
    # before any reading of the columns, which would blame the `do:` or the next `- ` instead
    if mark is not None:
        found = _rule_without_dash(lines, mark.line + 1)
        if found is not None:
            number, column, key, dash, example = found
            return Diagnostic(f"a rule is a list item: write `- {key}: …`", at(number, column),
                              hint=f"each rule of this list starts with `- ` in column {dash}, like the one on "
                                   f"line {example}, with its other keys lined up under `{key}:`",
                              code="missing-dash", suggestion=dash_before(at(number, column), dash), column=dash)

    # --- a tab
    if "'\\t'" in problem and pmark is not None:
        line = lines.get(pmark.line + 1)
        if not line[:pmark.column].strip():
            return Diagnostic("a tab is used for indentation; YAML indents with spaces only", position,
                              hint="replace the tab with spaces, lining the key up with the keys beside it",
                              code="tab-indent")
        return Diagnostic("a tab cannot start a value here", position,
                          hint="use spaces instead of the tab, or quote the value", code="tab-value")

    # --- a quote left open on an earlier line: YAML read on to the next quote, lines below
    if pmark is not None and "quoted scalar" not in context:
        opened = _open_quote(lines, pmark.line)
        if opened is not None and opened[0] < pmark.line + 1:
            number, column, quote = opened
            return Diagnostic(f"the quote {quote} opened here is not closed on its line", at(number, column),
                              hint=f"end the value with {quote} on the same line, or write it without quotes "
                                   f"(YAML read on to line {pmark.line + 1})", code="unclosed-quote",
                              suggestion=_appended(lines, number, file, quote))
    if "found '<scalar>'" in problem and pmark is not None:
        before = lines.get(pmark.line + 1)[:pmark.column].rstrip()
        if before.endswith(('"', "'")):
            return Diagnostic("text follows the closing quote of this value", position,
                              hint=f"put the whole value inside the quotes (a {before[-1]} inside it is written "
                                   f"{before[-1] * 2 if before[-1] == chr(39) else chr(92) + chr(34)}), "
                                   f"or write it without quotes", code="text-after-quote")

    # --- an unclosed quote
    if "quoted scalar" in context and cmark is not None:
        quote = lines.get(cmark.line + 1)[cmark.column:cmark.column + 1] or '"'
        return Diagnostic(f"the quote {quote} opened here is never closed", at(cmark.line + 1, cmark.column + 1),
                          hint=f"end the value with {quote} on the same line, or write it without quotes",
                          code="unclosed-quote", suggestion=_appended(lines, cmark.line + 1, file, quote))

    # --- an unclosed bracket or brace
    if ("flow sequence" in context or "flow mapping" in context) and cmark is not None:
        opener = "[" if "sequence" in context else "{"
        closer = "]" if opener == "[" else "}"
        if "found ':'" in problem or "got ':'" in problem:
            tail = f"; line {pmark.line + 1} is read as still inside it" if pmark else ""
        else:
            tail = ""
        return Diagnostic(f"the `{opener}` opened here is never closed{tail}", at(cmark.line + 1, cmark.column + 1),
                          hint=f"close it with `{closer}` (items are separated by `, `), or quote the value if the "
                               f"`{opener}` is part of a text", code="unclosed-bracket",
                          suggestion=_closed(lines, cmark.line + 1, cmark.column + 1, file, closer))

    # --- `key value` with no colon
    if "could not find expected ':'" in problem and cmark is not None:
        line = lines.get(cmark.line + 1)
        word = re.match(r"\s*(?:-\s+)*(\S+)", line)
        if word:
            end = word.end(1)
            return Diagnostic(f"`{line.strip()}` has no colon after its key", at(cmark.line + 1, end + 1),
                              hint=f"write `{word[1]}: {line[end:].strip()}`".rstrip(": `") + "`",
                              code="missing-colon", suggestion=_inserted(":", at(cmark.line + 1, end + 1)))

    # --- a colon where none may be: a colon in a value, a key too deep, a key line without colon above
    if problem.startswith("mapping values are not allowed") and pmark is not None:
        number = pmark.line + 1
        line = lines.get(number)
        mine = _key(line)
        before = line[:pmark.column]
        if mine and mine[0] - 1 < pmark.column and ": " in before[mine[0] - 1:] + " ":
            # an earlier `key:` on the same line: the colon is inside that key's value
            value = line[line.index(":", mine[0] - 1) + 1:].strip()
            return Diagnostic(f"the value of `{mine[1]}:` holds `: `, which YAML reads as another key", position,
                              hint=f'quote the value: `{mine[1]}: "{value}"`', code="colon-in-value")
        previous_number, previous = lines.previous(number)
        theirs = _key(previous)
        if previous and theirs is None and ":" not in previous:
            word = re.match(r"(\s*(?:-\s+)*)(\S+)", previous)
            rest = previous[word.end(2):].strip()
            return Diagnostic(f"`{previous[word.end(1):].strip()}` has no colon after its key", at(previous_number, word.end(2) + 1),
                              hint=f"write `{word[2]}: {rest}`" if rest else f"write `{word[2]}:`",
                              code="missing-colon", suggestion=_inserted(":", at(previous_number, word.end(2) + 1)))
        if mine and theirs and mine[0] > theirs[0]:
            return _misaligned(mine[1], mine[0], f"`{theirs[1]}:`", theirs[0], previous_number, at(number, mine[0]))
        if mine:
            return Diagnostic(f"`{mine[1]}:` cannot start a key here: the line above does not open a mapping",
                              at(number, mine[0]),
                              hint="line it up with the keys of its mapping, or quote the value if the colon is part of a text",
                              code="misplaced-key")

    # --- a key or item at a column the block above does not expect
    if (problem.startswith("expected <block end>") or problem.startswith("expected '<document start>'")) \
            and pmark is not None:
        number = pmark.line + 1
        line = lines.get(number)
        mine = _key(line)
        previous_number, previous = lines.previous(number)
        theirs = _key(previous)
        opener = _key(lines.get(cmark.line + 1)) if cmark is not None else None
        if mine and mine[2] is None and opener and opener[2] == mine[0] and theirs and theirs[2] is None:
            # a key in the column of the list's `- `, after the item's other keys: a new rule without its dash
            return Diagnostic(
                f"a rule is a list item: write `- {mine[1]}: …`", at(number, mine[0]),
                hint=f"each rule starts with `- ` in column {opener[2]}, like the one on line {cmark.line + 1}; "
                     f"a key of the rule above lines up with `{theirs[1]}:` (column {theirs[0]}) instead",
                code="missing-dash", suggestion=dash_before(at(number, mine[0]), opener[2]), column=opener[2])
        if mine and theirs and mine[2] is None:
            column, key, _ = mine
            if theirs[2] is not None and column == theirs[2]:
                # the key stands where the `- ` of the rule above stands
                return Diagnostic(
                    f"`{key}:` must line up with `{theirs[1]}:` on line {previous_number} (column {theirs[0]}), "
                    f"or start a new list item with `- `", at(number, column),
                    hint=f"a rule is a list item: `- when: …` with its `do:` under `when:`; indent `{key}:` to "
                         f"column {theirs[0]}, or write `- {key}: …` for a new item", code="misaligned-key",
                    column=theirs[0])
            target = _nearest_level(lines, number, column, theirs[0])
            if target is not None:
                level, name, line_number = target
                what = f"`{name}:`" if name else "the `- `"
                return _misaligned(key, column, what, level, line_number, at(number, column))
            if column > theirs[0]:
                return _misaligned(key, column, f"`{theirs[1]}:`", theirs[0], previous_number, at(number, column))
        if mine and mine[2] is not None:
            dash = mine[2]
            # the key the list belongs to: the nearest line above indented less than this `- `
            n = number - 1
            while n >= 1 and (not lines.get(n).strip() or lines.get(n).lstrip().startswith("#")
                              or _indent(lines.get(n)) >= dash):
                n -= 1
            first_number, first = lines.next(n) if n >= 1 else (0, "")
            parent = lines.get(n) if n >= 1 else ""
            opens = bool(re.search(r":\s*(#.*)?$", parent))
            below = _key(first) if first_number and first_number < number and opens else None
            if below and below[2] is None and below[0] > dash:
                return Diagnostic(
                    f"a rule is a list item: write `- {below[1]}: …`", at(first_number, below[0]),
                    hint=f"line {number} starts a list item in column {dash}, so each item under line {n} starts "
                         f"with `- ` in that column", code="missing-dash",
                    suggestion=dash_before(at(first_number, below[0]), dash), column=dash)
            for m in range(number - 1, 0, -1):
                other = _key(lines.get(m))
                if other and other[2] is not None and other[2] != dash and abs(other[2] - dash) <= 3:
                    return Diagnostic(
                        f"this `- ` is in column {dash}, the one of line {m} in column {other[2]}; "
                        f"the items of one list line up", at(number, dash),
                        hint=f"start it in column {other[2]}", code="misaligned-item")
                if other and other[2] == dash:
                    break
            return Diagnostic(
                "this list item `- ` is not lined up with the list it belongs to", at(number, dash),
                hint="the items of one list start with `- ` in the same column", code="misaligned-item")

    if "did not find expected key" in problem and pmark is not None:
        return Diagnostic("this line is not lined up with the keys above it", position,
                          hint="the keys of one mapping start in the same column; a list item starts with `- `",
                          code="misaligned-key")
    if "did not find expected '-' indicator" in problem and pmark is not None:
        return Diagnostic("this line is not lined up with the list items above it", position,
                          hint="each item of a list starts with `- ` in the same column", code="misaligned-item")

    if "found another document" in problem:
        return Diagnostic("a rule file holds one YAML document; this `---` starts a second", position,
                          hint="remove the `---` line, or put the second document in a file of its own",
                          code="second-document")

    message = _plain(problem or context or "invalid YAML")
    if context and problem and not context.startswith("while "):
        message = f"{_plain(problem)} ({_plain(context)})"
    return Diagnostic(f"YAML syntax: {message}", position, code="yaml-syntax")


# --------------------------------------------------------------------------- reading on past a layout error


def repair(text: str, d: Diagnostic):
    """(the text with the layout error `d` mended as its message says, the edit as (line, first
    column moved, columns moved)) or None when the message names no one mend. `check` reads the
    mended text on, so that the names and types of every other part are checked in the same run;
    the edit maps the later positions on that line back to the author's text."""
    if d.position is None:
        return None
    lines = text.split("\n")
    number, column = d.position.line, d.position.column
    if not 1 <= number <= len(lines):
        return None
    line = lines[number - 1]
    if d.code == "missing-dash":
        return _item(lines, number, column, d.column) if d.column is not None else None
    if d.code == "misaligned-key" and d.column is not None:
        if _indent(line) != column:
            return None
        return _shift(lines, number, d.column - column)
    fix = d.suggestion
    if d.code == "unclosed-quote" and fix is not None and fix.start.line == number:
        lines[number - 1] = line + fix.text
        return "\n".join(lines), []
    if d.code == "unclosed-bracket" and fix is not None and fix.start.line == number:
        cut = fix.start.column - 1
        lines[number - 1] = line[:cut] + fix.text + line[cut:]
        return "\n".join(lines), [(number, cut + 2, 1)]
    if d.code == "tab-indent" and column == 1:
        # as deep as the line above, or one step deeper under a key that opens a block
        above = next((lines[n] for n in range(number - 2, -1, -1)
                      if lines[n].strip() and not lines[n].lstrip().startswith("#")), "")
        k = _key(above)
        depth = (k[0] - 1 if k else _spaces(above)) + (2 if above.rstrip().endswith(":") else 0)
        lead = len(line) - len(line.lstrip(" \t"))
        lines[number - 1] = " " * depth + line[lead:]
        return "\n".join(lines), [(number, depth + 1, depth - lead)]
    if d.code == "missing-colon" and 1 < column <= len(line) + 1:
        lines[number - 1] = line[:column - 1] + ":" + line[column - 1:]
        return "\n".join(lines), [(number, column + 1, 1)]
    return None


def _shift(lines: list, number: int, by: int, edits: list | None = None):
    """Line `number` and the lines deeper under it moved `by` columns."""
    if by == 0:
        return None
    edits = [] if edits is None else edits
    base = _spaces(lines[number - 1])
    if base + by < 0:
        return None
    n = number
    while n <= len(lines):
        line = lines[n - 1]
        if n > number and line.strip() and not line.lstrip().startswith("#") and _spaces(line) <= base:
            break
        if line.strip() and _spaces(line) + by >= 0:
            lines[n - 1] = " " * (_spaces(line) + by) + line.lstrip(" ")
            edits.append((n, _spaces(line) + by + 1, by))
        n += 1
    return "\n".join(lines), edits


def _item(lines: list, number: int, column: int, dash: int):
    """A rule written without its `- ` made a list item: `- ` in column `dash`, its keys under
    the first one (those of its own level, in the key's column or the dash's)."""
    key_column = dash + 2
    edits = []
    first = lines[number - 1]
    lines[number - 1] = " " * (dash - 1) + "- " + first.lstrip(" ")
    edits.append((number, key_column, key_column - column))
    n = number + 1
    while n <= len(lines):
        line = lines[n - 1]
        if not line.strip() or line.lstrip().startswith("#"):
            n += 1
            continue
        here = _indent(line)
        k = _key(line)
        if here < min(column, dash) or (line.lstrip().startswith("-") and here <= dash) \
                or (k and k[2] is None and k[1] in _RULE_STARTS and here <= key_column):
            break
        if k and k[2] is None and here in (column, dash, key_column):
            by = key_column - here
        else:
            by = key_column - column  # deeper: moved with its key
        if by:
            lines[n - 1] = " " * max(0, _spaces(line) + by) + line.lstrip(" ")
            edits.append((n, max(1, here + by), by))
        n += 1
    return "\n".join(lines), edits


def _spaces(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def unmend(position, edits: list):
    """A position in the mended text as it stands in the author's (`repair`'s edits undone,
    the last first)."""
    if position is None:
        return None
    line, column = position.line, position.column
    for number, start, by in reversed(edits):
        if number == line and column >= start:
            column = max(1, column - by)
    return Position(position.file, line, column) if column != position.column else position
