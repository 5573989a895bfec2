"""One small table type, rendered four ways: a terminal table (rich, laid out to the terminal's
width by `render.layout`), Markdown, CSV, or kept as data for JSON; and the figures as text in
its cells (`exact`, `shown`, `percent`…). Reports build `Table`s; only this module (and its
layout) knows the formats, and every cell, title and caption is written through that format's
escaper (escape.py)."""

from __future__ import annotations

import io
from fractions import Fraction

from ..money import digits as _digits, exact  # below simulate, which writes exact strings too
from ..records import field, record

FORMATS = ("text", "json", "markdown", "csv")


LONG_FRACTION = 40  # characters: longer exact fractions are abbreviated in tables for people


def shown(value: Fraction | int) -> str:
    """A fraction for a table: exact when short, else `≈ 0.4908 (exact in --json)` (exact in CSV)."""
    value = Fraction(value)
    if value.numerator.bit_length() + value.denominator.bit_length() > 3.33 * LONG_FRACTION:
        return Cell(f"≈ {approximate(value)} (exact in --json)", [("", exact(value))])
    return exact(value)


def approximate(value: Fraction) -> str:
    """Four significant digits, for numbers of any size (6.616e+42, 1.2e-9)."""
    try:
        number = float(value)
    except OverflowError:
        number = float("inf") if value > 0 else float("-inf")
    if number in (0.0, float("inf"), float("-inf")) and value:  # beyond a float: say its size
        exponent = len(_digits(abs(value.numerator))) - len(_digits(value.denominator))
        return f"{'-' if value < 0 else ''}10^{exponent}"
    return f"{number:.4g}"


def percent(value: Fraction, digits: int = 2) -> str:
    """Exact rounding (half to even) of a probability to a percentage for people ("49.08%"; in CSV
    the number alone, under a heading that says %)."""
    rounded = round(Fraction(value) * 100, digits)
    number = f"{float(rounded):.{digits}f}"
    return Cell(f"{number}%", [("", number)])


def decimal(value: Fraction, digits: int = 4) -> str:
    return f"{float(round(Fraction(value), digits)):.{digits}f}"


def both(value: Fraction, digits: int = 2) -> str:
    """`1979/4032 (49.08%)`; in CSV two cells, the fraction and (in a column NAME %) the percentage."""
    pct = percent(value, digits)
    return Cell(f"{shown(value)} ({pct})", [("", exact(value)), (" %", pct.data[0][1])])


def with_decimal(value: Fraction, digits: int = 4) -> str:
    """`870713/166320 (5.2352)`; in CSV the fraction alone."""
    return Cell(f"{shown(value)} ({decimal(value, digits)})", [("", exact(value))])


def number_and(text: str, number) -> str:
    """A cell that says more than its number (`0.7169 shillings`, `1,000 sessions`): the text for
    people, the number alone in CSV."""
    return Cell(text, [("", str(number))])


class Cell(str):
    """A cell's text for people, with what CSV writes of it: `data`, pairs of (suffix, number) —
    `1979/4032 (49.08%)` is ("", "1979/4032") and ("_percent", "49.08"), each in a column of its
    own (the column's name and the suffix), so that every CSV cell is a number or text."""

    def __new__(cls, text: str, data=()):
        cell = super().__new__(cls, text)
        cell.data = tuple(data)
        return cell


@record
class Table:
    """A table for people and for data. `short` gives a shorter heading for a column, used (with a
    legend under the table) when the full ones do not fit the terminal; `narrow` is the table to
    show instead when this one does not fit (percentages for exact fractions, say), its caption
    saying what it leaves out and where to find it."""

    title: str
    columns: list
    rows: list = field(default_factory=list)
    caption: str | None = None
    align: list | None = None  # "left"/"right" per column
    short: dict | None = None
    narrow: "Table | None" = None

    def add(self, *cells) -> None:
        self.rows.append([c if isinstance(c, Cell) else str(c) for c in cells])

    def without(self, columns, note: str) -> "Table":
        """This table without the named columns, `note` (where to find them) added to its caption."""
        keep = [k for k, c in enumerate(self.columns) if c not in columns]
        return Table(self.title, [self.columns[k] for k in keep], [[row[k] for k in keep] for row in self.rows],
                     "\n".join(filter(None, [self.caption, note])),
                     [self.align[k] for k in keep] if self.align else None, self.short, self.narrow)


def render(tables: list[Table], fmt: str, header: str | None = None, colour: bool = False) -> str:
    """The tables in a format; `colour` (text only) when printing to a terminal that wants it."""
    if fmt == "markdown":
        return _markdown(tables, header)
    if fmt == "html":
        return _html(tables, header)
    if fmt == "csv":
        return _csv(tables)
    from .layout import text  # (rich and the measuring: for the terminal only)

    return text(tables, header, colour)


def _markdown(tables, header) -> str:
    from .escape import markdown, markdown_block

    out = []
    if header:
        out.append(markdown_block(header))
        out.append("")
    for table in tables:
        out.append(f"**{markdown(table.title)}**")
        out.append("")
        out.append("| " + " | ".join(markdown(c) for c in table.columns) + " |")
        out.append("|" + "|".join("---" if k == 0 else "---:" for k in range(len(table.columns))) + "|")
        for row in table.rows:
            out.append("| " + " | ".join(markdown(cell) for cell in row) + " |")
        if table.caption:
            out.append("")
            out.append(markdown_block(table.caption))
        out.append("")
    return "\n".join(out)


def _html(tables, header) -> str:
    """An HTML fragment (what a notebook shows for a result: `hazard_dsl.results`): the header
    and each table with its title and caption, every piece of text through `escape.html`, so a
    rule file's `<script>` is shown as typed. Columns after the first are right-aligned, as in
    Markdown."""
    from .escape import html

    def lines(text: str) -> str:
        return "<br>".join(html(line) for line in str(text).split("\n"))

    out = ['<div class="hazard-dsl">']
    if header:
        out.append(f"<p>{lines(header)}</p>")
    for table in tables:
        right = [k > 0 for k in range(len(table.columns))]
        if table.align:
            right = [a == "right" for a in table.align]
        aligned = {True: ' style="text-align: right"', False: ""}
        out.append("<table>")
        out.append(f'<caption style="text-align: left"><strong>{lines(table.title)}</strong></caption>')
        out.append("<thead><tr>" + "".join(f"<th{aligned[r]}>{lines(c)}</th>" for c, r in zip(table.columns, right))
                   + "</tr></thead>")
        out.append("<tbody>")
        for row in table.rows:
            out.append("<tr>" + "".join(f"<td{aligned[r]}>{lines(cell)}</td>"
                                        for cell, r in zip(row, right + [False] * len(row))) + "</tr>")
        out.append("</tbody>")
        out.append("</table>")
        if table.caption:
            out.append(f"<p><small>{lines(table.caption)}</small></p>")
    out.append("</div>")
    return "\n".join(out) + "\n"


def _csv(tables) -> str:
    """One CSV table for the whole output: a header row once, `table` (the title of the table a
    row comes from) and then every column of every table, by name (a name met again is the same
    column; the unnamed first column is `figure`); a cell that is a number and more (a fraction
    and its percentage, a number and its unit) is written as its numbers, each in its column
    (`NAME` and `NAME %`); "—" (none) is an empty cell; text goes through `csv_cell`."""
    from .escape import csv_cell

    header: list[str] = []
    records = []
    for table in tables:
        names = []
        for k, name in enumerate(table.columns):
            name = str(name).strip() or ("figure" if k == 0 else f"column {k + 1}")
            while name in names:
                name += " (2)"
            names.append(name)
        for k, name in enumerate(names):
            suffixes = [""] + [suffix for row in table.rows if k < len(row) and isinstance(row[k], Cell)
                               for suffix, _ in row[k].data if suffix]
            for suffix in dict.fromkeys(suffixes):
                if name + suffix not in header:
                    header.append(name + suffix)
        for row in table.rows:
            record = {}
            for name, cell in zip(names, row):
                for suffix, value in (cell.data if isinstance(cell, Cell) and cell.data else [("", cell)]):
                    record[name + suffix] = "" if str(value).strip() == "—" else str(value)
            records.append((table.title, record))
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["table", *map(csv_cell, header)])
    for title, record in records:
        writer.writerow([csv_cell(title), *(csv_cell(record.get(name, "")) for name in header)])
    return buffer.getvalue()
