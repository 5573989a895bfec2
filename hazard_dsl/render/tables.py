"""One small table type, rendered four ways: a terminal table (rich), Markdown, CSV, or kept as
data for JSON. Reports build `Table`s; only this module knows the formats, and every cell, title
and caption is written through that format's escaper (escape.py)."""

from __future__ import annotations

import csv
import io
import sys
from fractions import Fraction

from ..records import field, record

FORMATS = ("text", "json", "markdown", "csv")


def _digits(n: int) -> str:
    """str(n) for an integer we computed ourselves, however long: Python refuses more than
    4300 digits by default, a guard meant for parsing untrusted text, not printing our results."""
    try:
        return str(n)
    except ValueError:
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(n)
        finally:
            sys.set_int_max_str_digits(old)


def exact(value: Fraction | int) -> str:
    """A fraction in lowest terms as a string: "1979/4032", "0", "1" (every digit: for JSON)."""
    value = Fraction(value)
    if value.denominator == 1:
        return _digits(value.numerator)
    return f"{_digits(value.numerator)}/{_digits(value.denominator)}"


LONG_FRACTION = 40  # characters: longer exact fractions are abbreviated in tables for people


def shown(value: Fraction | int) -> str:
    """A fraction for a table: exact when short, else `≈ 0.4908 (exact in --json)`."""
    value = Fraction(value)
    if value.numerator.bit_length() + value.denominator.bit_length() > 3.33 * LONG_FRACTION:
        return f"≈ {approximate(value)} (exact in --json)"
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
    """Exact rounding (half to even) of a probability to a percentage for people."""
    rounded = round(Fraction(value) * 100, digits)
    return f"{float(rounded):.{digits}f}%"


def decimal(value: Fraction, digits: int = 4) -> str:
    return f"{float(round(Fraction(value), digits)):.{digits}f}"


def both(value: Fraction) -> str:
    return f"{shown(value)} ({percent(value)})"


@record
class Table:
    title: str
    columns: list
    rows: list = field(default_factory=list)
    caption: str | None = None
    align: list | None = None  # "left"/"right" per column

    def add(self, *cells) -> None:
        self.rows.append([str(c) for c in cells])


def render(tables: list[Table], fmt: str, header: str | None = None, colour: bool = False) -> str:
    """The tables in a format; `colour` (text only) when printing to a terminal that wants it."""
    if fmt == "markdown":
        return _markdown(tables, header)
    if fmt == "csv":
        return _csv(tables)
    return _text(tables, header, colour)


def _text(tables, header, colour: bool = False) -> str:
    """Tables as wide as the terminal (COLUMNS, else the terminal, else 80), long cells folded
    within their column, no trailing blanks; text from the rule file shown literally."""
    from rich import box
    from rich.console import Console
    from rich.table import Table as RichTable
    from rich.text import Text

    from .terminal import printable, width

    columns = width()
    console = Console(width=columns, highlight=False, soft_wrap=False, emoji=False, markup=False,
                      color_system="standard" if colour else None, force_terminal=colour, no_color=not colour)
    with console.capture() as capture:
        if header:
            console.print(Text(printable(header)), overflow="fold")
        for table in tables:
            t = RichTable(title=Text(printable(table.title), style="bold" if colour else ""),
                          caption=Text(printable(table.caption)) if table.caption else None,
                          box=box.SIMPLE_HEAD, title_justify="left", caption_justify="left",
                          header_style="bold" if colour else "", pad_edge=False, collapse_padding=True)
            # Numbers are never folded when the cells fit side by side (headers wrap instead);
            # otherwise the first column, which names the row, is kept whole at least.
            widest = [max([len(line) for row in table.rows if k < len(row) for line in row[k].split("\n")] + [1])
                      for k in range(len(table.columns))]
            headed = [max(w, len(str(c))) for w, c in zip(widest, table.columns)]
            # what rich adds: a blank edge each side and two spaces between columns: 2 per column
            natural = sum(headed) + 2 * len(headed) <= columns
            cells_fit = sum(widest) + 2 * len(widest) <= columns and max(widest) <= 30
            sizes = list(widest)
            if cells_fit and not natural:  # widen columns whose header words would break, while room lasts
                spare = columns - (sum(widest) + 2 * len(widest))
                for k, column in enumerate(table.columns):
                    word = max((len(w) for w in str(column).split()), default=0)
                    extra = min(spare, max(0, word - sizes[k]))
                    sizes[k] += extra
                    spare -= extra
            for k, column in enumerate(table.columns):
                justify = (table.align[k] if table.align else ("left" if k == 0 else "right"))
                if natural:
                    fixed, least = None, None
                elif cells_fit:  # every column as wide as its widest cell (or header word); headers wrap
                    fixed, least = sizes[k], None
                else:
                    fixed, least = None, (min(widest[0], 24, columns // 3) if k == 0 else None)
                t.add_column(Text(printable(column)), justify=justify, overflow="fold", min_width=least, width=fixed)
            for row in table.rows:
                t.add_row(*(Text(printable(cell)) for cell in row))
            console.print(t)
    lines = [line.rstrip() for line in capture.get().splitlines()]
    return "\n".join(lines).strip("\n") + "\n"


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


def _csv(tables) -> str:
    from .escape import csv_cell

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for number, table in enumerate(tables):
        if number:
            writer.writerow([])
        writer.writerow(["table", *map(csv_cell, table.columns)])
        for row in table.rows:
            writer.writerow([csv_cell(table.title), *map(csv_cell, row)])
    return buffer.getvalue()
