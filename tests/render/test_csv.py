"""`--format csv`: one table per output — a header row once, a `table` column naming the table
each row comes from, no empty column names — and numbers as numbers: a fraction and its
percentage are two cells (`edge`, `edge %`), never `-85/5544 (-1.533%)` in one. Golden files in
tests/data/csv/ hold what analyse, compare and simulate (a fixed seed, a small run) write; set
HAZARD_DSL_WRITE_GOLDEN=1 to write them again after a deliberate change, and read the diff."""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import pytest

from hazard_dsl.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "csv"

COMMANDS = {
    "analyse_chicken": ["analyse", "chicken"],
    "analyse_cotton_by_main": ["analyse", "cotton", "--by", "main", "--hand"],
    "compare_cotton_petty_hoyle": ["compare", "cotton", "petty", "hoyle"],
    "simulate_cotton": ["simulate", "cotton", "--games", "20000", "--seed", "1", "--workers", "1", "--bet", "stake=1"],
    "simulate_sessions": ["simulate", "cotton", "--players", "Ann,Ben", "--games", "50", "--seed", "2", "--workers", "1"],
}

# a number as a spreadsheet reads one: an integer, a decimal, an exponent, or an exact fraction
NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?:/\d+)?")
# the rows whose numbers change from run to run: how long the run took
TIMED = ("time", "games per second", "throws per second")


def csv_of(argv, capsys) -> str:
    assert main([*argv, "--format", "csv"]) == 0
    return capsys.readouterr().out


def steady(text: str) -> str:
    """The CSV without the numbers of the clock (the rows of time and speed keep their names)."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        if any(cell in TIMED for cell in row):
            row = [cell if cell in TIMED or not NUMBER.fullmatch(cell) else "…" for cell in row]
        writer.writerow(row)
    assert header == rows[0]
    return out.getvalue()


@pytest.mark.parametrize("name", COMMANDS)
def test_csv_is_what_the_golden_file_holds(name, capsys):
    text = steady(csv_of(COMMANDS[name], capsys))
    path = GOLDEN / f"{name}.csv"
    if os.environ.get("HAZARD_DSL_WRITE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name}: the CSV changed (see the module's docstring)"


@pytest.mark.parametrize("name", COMMANDS)
def test_one_table_with_one_header_and_numbers_as_numbers(name, capsys):
    rows = list(csv.reader(io.StringIO(csv_of(COMMANDS[name], capsys))))
    header, body = rows[0], rows[1:]
    assert header[0] == "table" and all(name.strip() for name in header)
    assert len(set(header)) == len(header)
    assert body and all(len(row) == len(header) for row in body)
    assert header not in body and not [row for row in body if not any(row)]  # no second header, no blank row
    assert len({row[0] for row in body}) >= 2  # several tables, joined
    for row in body:
        for column, cell in zip(header, row):
            if re.search(r"\d", cell) and not NUMBER.fullmatch(cell):
                # text with digits in it is words (a payout, a condition, a name), never a number
                # with its percentage, its unit or its thousands separators beside it
                assert not re.search(r"\d%|\(\s*[+-]?\d|\d,\d{3}\b|\d\s[a-z]+s\b", cell), (column, cell)
            if column.endswith("%") and cell:
                assert NUMBER.fullmatch(cell), (column, cell)


def test_a_fraction_and_its_percentage_are_two_columns(capsys):
    rows = list(csv.DictReader(io.StringIO(csv_of(["compare", "cotton", "petty"], capsys))))
    edge = next(row for row in rows if row["figure"] == "edge")
    assert (edge["petty"], edge["petty %"]) == ("-85/5544", "-1.533")
    odds = next(row for row in rows if row["figure"] == "setter : caster")
    assert odds["cotton"] == "2053/1979"  # the odds as one exact number, not "2,053 : 1,979"


def test_text_cells_are_still_escaped(tmp_path, capsys):
    """A cell that a spreadsheet would take for a formula is written with a ' before it (escape.csv_cell)."""
    path = tmp_path / "formula.yaml"
    path.write_text("name: formula\nnotes: ['=cmd|x', '@SUM(1)', '-2+3']\nphases:\n  roll:\n"
                    "    - when: total == 7\n      do: win\n    - otherwise: lose\n", encoding="utf-8")
    rows = list(csv.reader(io.StringIO(csv_of(["show", str(path)], capsys))))
    cells = [cell for row in rows for cell in row]
    assert {"'=cmd|x", "'@SUM(1)", "'-2+3"} <= set(cells)
    assert not [cell for cell in cells if cell.lstrip().startswith(("=", "+", "@")) and not NUMBER.fullmatch(cell)]
