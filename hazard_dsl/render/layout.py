"""The tables of `render.tables` laid out for a terminal: as wide as it is and never wider, by
rich. Nothing is cut: a table that does not fit gets short headings with a legend, else is shown
in parts (the column that names the rows in each) or in its `narrow` form, else one row at a
time (`text`).

Apart from `tables.py` because it is a job of its own (measuring each cell's shortest width,
spreading the spare columns, choosing the parts), 370 lines that the four formats' simple
writers need not be read beside; it reads a table's fields and builds none of its own kind but
a printable copy (`type(table)`), so that it imports nothing of `tables`.
"""

from __future__ import annotations


GAP = 2  # what rich adds per column: a blank edge each side and two spaces between columns


def text(tables, header, colour: bool = False) -> str:
    """Tables as wide as the terminal (COLUMNS, else the terminal, else 80) and never wider, no
    trailing blanks, text from the rule file shown literally. Nothing is cut or dropped: a cell
    wraps only between words and never inside a number (terminal.wrap); a table that does not fit
    gets short headings with a legend; else it is shown in parts (its first column, which names
    the rows, repeated in each), or its `narrow` form if that takes fewer parts; else one row at a
    time. Titles and captions wrap as prose; a note under the table says what was done."""
    from rich.console import Console

    from .terminal import width

    columns = width()
    # one column more than the text may take: rich's blank right edge, which is stripped
    console = Console(width=columns + 1, highlight=False, soft_wrap=False, emoji=False, markup=False,
                      color_system="standard" if colour else None, force_terminal=colour, no_color=not colour)
    with console.capture() as capture:
        if header:
            _prose(console, header, columns)
        for table in tables:
            _table(console, table, columns, colour)
    import re

    # no trailing blanks, coloured or not (rich pads a styled cell before its closing code)
    lines = [re.sub(r"\s+((?:\x1b\[[0-9;]*m)*)$", r"\1", line) for line in capture.get().splitlines()]
    return "\n".join(lines).strip("\n") + "\n"


def _prose(console, text: str, columns: int, style: str = "", indent: str = "") -> None:
    from rich.text import Text

    from .terminal import printable, wrap

    for line in wrap(printable(text), columns, indent):
        console.print(Text(line, style=style), overflow="ignore", crop=False)


def _table(console, table, columns: int, colour: bool) -> None:
    from .terminal import printable

    table = type(table)(printable(table.title), [printable(c) for c in table.columns],
                  [[printable(cell).strip() for cell in row] for row in table.rows],
                  printable(table.caption) if table.caption else None, table.align,
                  {printable(k): printable(v) for k, v in (table.short or {}).items()}, table.narrow)
    parts = _pieces(table, columns)
    if table.narrow is not None and len(parts or range(999)) > 1:  # the narrow form, if it takes fewer parts
        narrow = _pieces(table.narrow, columns)
        if len(narrow or range(999)) < len(parts or range(999)):
            return _table(console, table.narrow, columns, colour)
    legend: dict = {}
    for _, (_, shortened, _) in parts or []:
        legend.update(shortened)
    before = ["Short headings: " + "; ".join(f"{short} = {full}" for short, full in legend.items()) + "."] \
        if legend else []
    after = []
    if parts is None:  # not even one column beside the names of the rows: one row at a time
        _prose(console, table.title, columns, "bold" if colour else "")
        if _records(console, table, columns, colour):
            after.append(f"One row at a time, to fit {columns} columns: --format markdown, or a wider terminal "
                         f"(COLUMNS), shows it as a table.")
        console.print()
    else:
        for number, (keys, (widths, _, headings)) in enumerate(parts, 1):
            title = table.title if len(parts) == 1 else f"{table.title} (part {number} of {len(parts)})"
            _prose(console, title, columns, "bold" if colour else "")
            _draw(console, table, list(keys), widths, headings, colour)
        if len(parts) > 1:
            after.append(f"In {len(parts)} parts, to fit {columns} columns: --format markdown, or a wider "
                         f"terminal (COLUMNS), shows it as one table.")
    caption = "\n".join(filter(None, [*before, table.caption, *after]))
    if caption:  # under the table's blank last line, and a blank line before what follows
        _prose(console, caption, columns)
        console.print()


def _layout(table, keys, columns: int):
    """The widths of the columns `keys` of `table` within `columns`, with the headings shortened
    where needed or where that lets fewer cells wrap: (widths, {short: full}, headings), or None
    when no layout keeps every number and word of its cells whole."""
    keys = list(keys)
    plain = _widths(table, keys, columns, False)
    short = _widths(table, keys, columns, True) if table.short else None
    if plain is None or short is not None and _height(table, keys, *short) < _height(table, keys, *plain):
        plain = short
    return None if plain is None else (plain[0], plain[2], plain[1])


def _height(table, keys: list[int], widths: dict, headings: dict, shortened: dict) -> int:
    """The lines a layout takes (its headings and rows)."""
    from .terminal import wrap

    return (max(len(wrap(headings[k], widths[k])) for k in keys)
            + sum(max(len(wrap(row[k], widths[k])) if k < len(row) else 1 for k in keys) for row in table.rows))


def _widths(table, keys: list[int], columns: int, own_short: bool):
    """The widths and headings of a layout, or None; `own_short`: the table's short headings
    (every one that is shorter) from the start, as one set; else only when needed."""
    from .terminal import least

    headings = {k: table.columns[k] for k in keys}
    body = {k: [row[k] for row in table.rows if k < len(row)] for k in keys}
    cell_least = {k: max([_least(c, least) for c in body[k]] + [1]) for k in keys}
    room = columns + 1 - GAP * len(keys)

    def need(k):
        return max(cell_least[k], least(headings[k]))

    shortened = {}

    def shorten(k, short):
        if short and least(short) < least(headings[k]) and short not in shortened:
            headings[k] = short
            shortened[short] = table.columns[k]

    if own_short or sum(map(need, keys)) > room:  # the table's own short headings, all of them, alike
        for k in keys:
            if least(headings[k]) > cell_least[k]:
                shorten(k, (table.short or {}).get(table.columns[k]))
    if sum(map(need, keys)) > room:  # then the longest headings, each as short as its cells allow
        for k in sorted(keys, key=lambda k: cell_least[k] - least(headings[k])):
            if sum(map(need, keys)) <= room or least(headings[k]) <= cell_least[k]:
                break
            shorten(k, _abbreviation(headings[k], cell_least[k]))
    if sum(map(need, keys)) > room:
        return None
    widths = {k: need(k) for k in keys}
    _spread(widths, room - sum(widths.values()), [[headings[k] for k in keys]] +
            [[row[k] if k < len(row) else "" for k in keys] for row in table.rows], keys)
    return widths, headings, shortened


def _spread(widths: dict, spare: int, rows: list[list[str]], keys: list[int]) -> None:
    """Share the room to spare among the columns so that the table takes as few lines as it can:
    each time to the column whose widening saves the most lines for the room it takes (looking
    as far ahead as the next line saved); what is left, to the first column (the names of the
    rows) and then the others, up to the width of their longest line."""
    # each cell as its text: its lines at a width are counted once (`_lines`), whichever layout
    # of whichever part of the table asks
    shapes = rows
    most = {k: max(_longest(row[i]) for row in rows) for i, k in enumerate(keys)}
    count = _lines
    column: dict = {}  # (column, width) -> the lines of each of its cells

    lines = [[count(shape, widths[k]) for shape, k in zip(row, keys)] for row in shapes]
    # first the lines of the table (a row is as tall as its tallest cell), then, where no column
    # alone can save one (two cells of a row that both wrap), the lines of the cells themselves
    for by_row in (True, False):
        while spare > 0:
            best = None
            # each row's tallest cell and the tallest of the others: the height of the row
            # without column i is the one, or the other when i is the tallest
            tops = [_two_tallest(row) for row in lines] if by_row else None
            # the table's lines now: by rows, each row's tallest cell (a cell's lines are at least 1)
            rows_now = sum(first for _, first, _ in tops) if by_row else None
            for i, k in enumerate(keys):
                if widths[k] >= most[k]:
                    continue
                others = [(second if j == i else first) for j, first, second in tops] if by_row else [0] * len(lines)
                now = rows_now if by_row else sum(row[i] for row in lines)
                # the first widening that saves a line: a row's height falls only when its cell
                # here is its tallest (taller than the others) and takes a line fewer, which it
                # first does at `_narrowest` (a cell's lines never grow with the width)
                first = min((w for o, row, cells in zip(others, lines, shapes) if row[i] > o
                             for w in (_narrowest(cells[i], row[i] - 1),) if w is not None), default=None)
                step = None if first is None else first - widths[k]
                if step is not None and step <= min(spare, most[k] - widths[k]):
                    counts = column.get((i, widths[k] + step))
                    if counts is None:
                        counts = column[i, widths[k] + step] = [count(row[i], widths[k] + step) for row in shapes]
                    saved = now - sum(max(o, n) for o, n in zip(others, counts))
                    if best is None or saved / step > best[0]:
                        best = (saved / step, k, i, step, counts)
            if best is None:
                break
            _, k, i, step, counts = best
            widths[k] += step
            spare -= step
            for row, n in zip(lines, counts):
                row[i] = n
    for k in sorted(keys, key=lambda k: k != keys[0]):  # no line to save: room to read
        extra = min(spare, max(0, most[k] - widths[k]))
        widths[k] += extra
        spare -= extra


def _two_tallest(row: list[int]) -> tuple[int, int, int]:
    """(where the tallest is — the first, if several —, its height, the tallest of the others),
    heights at least 1; one pass, as it is asked of every row at every widening."""
    j, top, second = 0, row[0], 1
    for m in range(1, len(row)):
        n = row[m]
        if n > top:
            j, top, second = m, n, max(second, top)
        elif n > second:
            second = n
    return j, max(top, 1), second


_SHAPES: dict = {}  # cell text -> each of its lines as the widths of its units
_LINES: dict = {}  # (cell text, width) -> lines it takes
MAX_REMEMBERED = 200_000  # entries of each, in a long-running process (the web workbench)


_LEAST: dict = {}  # cell text -> terminal.least of it


def _least(text: str, least) -> int:
    found = _LEAST.get(text)
    if found is None:
        if len(_LEAST) >= MAX_REMEMBERED:
            _LEAST.clear()
        found = _LEAST[text] = least(text)
    return found


def _shape(text: str) -> tuple:
    found = _SHAPES.get(text)
    if found is None:
        from .terminal import cells, units

        if len(_SHAPES) >= MAX_REMEMBERED:
            _SHAPES.clear()
        found = _SHAPES[text] = tuple(tuple(cells(u) for u in units(line)) for line in text.split("\n"))
    return found


def _longest(text: str) -> int:
    """The width of the longest line of a cell, its units one space apart."""
    return max((sum(line) + len(line) - 1 for line in _shape(text) if line), default=0)


def _lines(text: str, width: int) -> int:
    """The lines a cell takes at `width`, its units never split."""
    key = (text, width)
    found = _LINES.get(key)
    if found is not None:
        return found
    total = 0
    for line in _shape(text):
        used = -1
        total += 1
        for u in line:
            if used < 0:
                used = u
            elif used + 1 + u > width:
                total += 1
                used = u
            else:
                used += 1 + u
    if len(_LINES) >= MAX_REMEMBERED:
        _LINES.clear()
    _LINES[key] = total
    return total


_NARROWEST: dict = {}  # (cell text, lines) -> the least width at which it takes no more lines


def _narrowest(text: str, lines: int) -> int | None:
    """The least width at which a cell takes at most `lines` lines (None: at no width)."""
    key = (text, lines)
    if key in _NARROWEST:
        return _NARROWEST[key]
    low, high = 1, max(_longest(text), 1)
    found = None
    if _lines(text, high) <= lines:
        while low < high:  # the lines a cell takes never grow with the width
            middle = (low + high) // 2
            if _lines(text, middle) <= lines:
                high = middle
            else:
                low = middle + 1
        found = low
    if len(_NARROWEST) >= MAX_REMEMBERED:
        _NARROWEST.clear()
    _NARROWEST[key] = found
    return found


def _abbreviation(heading: str, room: int) -> str | None:
    """A heading cut to `room` columns, each part of a compound name kept ("chance_loss" →
    "ch_lo"), or None when that is not possible."""
    import re

    words = heading.split(" ")
    longest = max(words, key=len)
    parts = re.split(r"([_:|=.()-])", longest)
    for keep in range(max(map(len, parts)), 0, -1):
        short = "".join(p if re.fullmatch(r"[_:|=.()-]", p) else p[:keep] for p in parts)
        if len(short) <= max(room, 3):
            candidate = " ".join(short if w is longest else w for w in words)
            return candidate if candidate != heading else None
    return None


def _pieces(table, columns: int):
    """The table whole, as [(its columns, layout)], or in parts (`_parts`), or None."""
    layout = _layout(table, range(len(table.columns)), columns)
    return [(range(len(table.columns)), layout)] if layout is not None else _parts(table, columns)


def _parts(table, columns: int):
    """The table cut into parts side by side no more: each the first column and as many of the
    others as fit; None when not even one fits beside the first."""
    parts = []
    group: list[int] = [0]
    for k in range(1, len(table.columns)):
        if _layout(table, group + [k], columns) is not None:
            group.append(k)
            continue
        if len(group) == 1 or _layout(table, [0, k], columns) is None:
            return None
        parts.append(group)
        group = [0, k]
    parts.append(group)
    return [(keys, _layout(table, keys, columns)) for keys in parts]


def _draw(console, table, keys: list[int], widths: dict, headings: dict, colour: bool) -> None:
    from rich import box
    from rich.table import Table as RichTable
    from rich.text import Text

    from .terminal import wrap

    t = RichTable(box=box.SIMPLE_HEAD, header_style="bold" if colour else "", pad_edge=False,
                  collapse_padding=True)
    for k in keys:
        justify = table.align[k] if table.align else ("left" if k == 0 else "right")
        t.add_column(Text("\n".join(wrap(headings[k], widths[k]))), justify=justify, width=widths[k], no_wrap=True)
    # The body as one cell a column, each row's lines padded to its tallest cell: rich draws a
    # handful of texts rather than a cell at a time (most of its work), and the lines are the
    # same, since it aligns each line of a cell alike and tops the cells of a row.
    body: list[list[str]] = [[] for _ in keys]
    for row in table.rows:
        cells = [("\n".join(wrap(row[k], widths[k])) if k < len(row) else "").split("\n") for k in keys]
        height = max(map(len, cells))
        for lines, cell in zip(body, cells):
            lines += cell + [""] * (height - len(cell))
    if table.rows:
        t.add_row(*(Text("\n".join(lines)) for lines in body))
    console.print(t, overflow="ignore", crop=False)


def _records(console, table, columns: int, colour: bool) -> bool:
    """Each row as a block: its name, then each other column's heading and value, wrapped; a
    table of two columns as a list under its headings (a value beside its row's name, as in the
    table). Returns whether the layout needs saying (it does not look like the table)."""
    from rich.text import Text

    from .terminal import wrap

    def say(lines, style=""):
        for line in lines:
            console.print(Text(line, style=style), overflow="ignore", crop=False)

    pair = len(table.columns) == 2 and all(len(row[0]) <= 6 and "\n" not in row[0] for row in table.rows)
    if pair:
        key = max([len(row[0]) for row in table.rows] + [len(table.columns[0])])
        console.print()
        say([f" {table.columns[0]:<{key}}  {table.columns[1]}".rstrip()], "bold" if colour else "")
        say([" " + "─" * (columns - 1)])
        for row in table.rows:
            say(wrap(row[1], columns, f" {row[0]:<{key}}  ", " " * (key + 3)))
        return False
    for row in table.rows:
        say(wrap(row[0], columns, " ", "   "))
        for k in range(1, len(row)):
            say(wrap(f"{table.columns[k]}: {row[k]}", columns, "    ", "      "))
    return True
