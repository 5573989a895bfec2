"""One small table type, rendered four ways: a terminal table (rich), Markdown, CSV, or kept as
data for JSON. Reports build `Table`s; only this module knows the formats."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from fractions import Fraction

FORMATS = ("text", "json", "markdown", "csv")


def exact(value: Fraction | int) -> str:
    """A fraction in lowest terms as a string: "1979/4032", "0", "1"."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def percent(value: Fraction, digits: int = 2) -> str:
    """Exact rounding (half to even) of a probability to a percentage for people."""
    rounded = round(Fraction(value) * 100, digits)
    return f"{float(rounded):.{digits}f}%"


def decimal(value: Fraction, digits: int = 4) -> str:
    return f"{float(round(Fraction(value), digits)):.{digits}f}"


def both(value: Fraction) -> str:
    return f"{exact(value)} ({percent(value)})"


@dataclass
class Table:
    title: str
    columns: list
    rows: list = field(default_factory=list)
    caption: str | None = None
    align: list | None = None  # "left"/"right" per column

    def add(self, *cells) -> None:
        self.rows.append([str(c) for c in cells])


def render(tables: list[Table], fmt: str, header: str | None = None) -> str:
    if fmt == "markdown":
        return _markdown(tables, header)
    if fmt == "csv":
        return _csv(tables)
    return _text(tables, header)


def _text(tables, header) -> str:
    from rich.console import Console
    from rich.table import Table as RichTable
    from rich import box

    console = Console(record=True, width=220, highlight=False, soft_wrap=False)
    with console.capture() as capture:
        if header:
            console.print(header, markup=False)
        for table in tables:
            t = RichTable(title=table.title, caption=table.caption, box=box.SIMPLE_HEAD, title_justify="left",
                          caption_justify="left")
            for k, column in enumerate(table.columns):
                justify = (table.align[k] if table.align else ("left" if k == 0 else "right"))
                t.add_column(column, justify=justify, overflow="fold")
            for row in table.rows:
                t.add_row(*row)
            console.print(t)
    return capture.get().rstrip() + "\n"


def _markdown(tables, header) -> str:
    out = []
    if header:
        out.append(header.replace("\n", "  \n"))
        out.append("")
    for table in tables:
        out.append(f"**{table.title}**")
        out.append("")
        out.append("| " + " | ".join(table.columns) + " |")
        out.append("|" + "|".join("---" if k == 0 else "---:" for k in range(len(table.columns))) + "|")
        for row in table.rows:
            out.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
        if table.caption:
            out.append("")
            out.append(table.caption)
        out.append("")
    return "\n".join(out)


def _csv(tables) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for number, table in enumerate(tables):
        if number:
            writer.writerow([])
        writer.writerow(["table", *table.columns])
        for row in table.rows:
            writer.writerow([table.title, *row])
    return buffer.getvalue()
