"""The refusals of simulate, analyse and run, said on a terminal of 80 columns: every line fits
(the command line's error layer breaks them between words, cli.output.say_error), no word is
split, and the words are those said on one line to a pipe, where a line is a line."""

from __future__ import annotations

import io

import pytest

from hazard_dsl.cli import main


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


REFUSALS = [  # each one longer than 80 columns as one line
    ["simulate", "cotton", "--players", "Ann,Ben", "--cap", "2", "--goal", "20", "--purse", "10"],
    ["simulate", "crown_and_anchor", "--players", "Ann,Ben", "--strategy", "martingale", "--purse", "5",
     "--goal", "10"],
    ["simulate", "cotton", "--players", "Ann,Ben", "--strategy", "best", "--purse", "10", "--goal", "5000"],
    ["simulate", "cotton", "--players", "Ann,Ben", "--strategy", "martingale", "--purse", "10", "--goal", "20",
     "--workers", "2"],
    ["simulate", "cotton", "--players", "Ann,Ben", "--strategy", "martingale", "--purse", "10", "--goal", "20",
     "--rounds", "2"],
    ["analyse", "cotton", "--strategy", "martingale"],
    ["run", "cotton", "--players", "Ann,Ben", "--cap", "2"],
]


def _said(argv, monkeypatch, capsys, stream) -> str:
    monkeypatch.setattr("sys.stderr", stream)
    assert main(argv) == 2
    return stream.getvalue()


@pytest.mark.parametrize("argv", REFUSALS, ids=lambda a: " ".join(a[:2] + a[-2:]))
def test_a_refusal_fits_eighty_columns_on_a_terminal(argv, monkeypatch, capsys):
    monkeypatch.delenv("COLUMNS", raising=False)  # a pipe is fitted only to the COLUMNS asked for
    piped = _said(argv, monkeypatch, capsys, io.StringIO())
    monkeypatch.setenv("COLUMNS", "80")
    shown = _said(argv, monkeypatch, capsys, _Terminal())
    assert _said(argv, monkeypatch, capsys, io.StringIO()) == shown  # a pipe with COLUMNS=80: alike
    assert piped.startswith("hazard-dsl: error: ") and len(piped.rstrip("\n")) > 80 and "\n" not in piped.rstrip()
    lines = shown.rstrip("\n").split("\n")
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines), lines
    assert all(line.startswith("  ") for line in lines[1:])  # the lines after the first indented
    assert " ".join(line.strip() for line in lines) == piped.strip()  # the same words, none split
    assert "or simulate" not in piped  # simulate gives no advice to simulate
