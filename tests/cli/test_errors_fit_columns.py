"""`hazard-dsl: error: …` fitted to the COLUMNS asked for into a pipe too (audit 10 finding 14:
with COLUMNS=80, a --dice or --bet error of 92-164 columns and the list of built-ins of 284
came out on one line); with no COLUMNS, a pipe keeps the message on one line (grep, an editor's
list of errors), and a line that fits is never touched. Broken between words only: the words
are those of the one line."""

from __future__ import annotations

import contextlib

import pytest

from hazard_dsl.cli import main

REFUSED = [  # each one longer than 80 columns as one line
    ["analyse", "nosuchgame"],  # the built-ins' names
    ["run", "cotton", "--dice", "3-4 7-7"],
    ["run", "passage", "--dice", "1-2"],
    ["run", "cotton", "--bet", "nosuchbet=5"],
    ["analyse", "cotton", "--polcy=optimal", "--jsno"],  # argparse's own, after its usage
]


def _said(argv, capsys) -> list[str]:
    with contextlib.suppress(SystemExit):
        main(argv)
    return capsys.readouterr().err.splitlines()


def _message(lines: list[str]) -> list[str]:
    """The error's lines: from the one that says `error:` (argparse's usage comes before)."""
    first = next(k for k, line in enumerate(lines) if ": error: " in line)
    return lines[first:]


@pytest.mark.parametrize("argv", REFUSED, ids=" ".join)
def test_an_error_into_a_pipe_fits_the_columns_asked_for(argv, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr("os.get_terminal_size", _no_terminal)
    (one_line,) = _message(_said(argv, capsys))
    assert len(one_line) > 80
    for columns in (80, 60):
        monkeypatch.setenv("COLUMNS", str(columns))
        lines = _message(_said(argv, capsys))
        assert len(lines) > 1 and max(map(len, lines)) <= columns, lines
        assert all(line.startswith("  ") for line in lines[1:])
        assert " ".join(line.strip() for line in lines).split() == one_line.split()  # no word split


def test_a_short_error_is_as_it_was(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert _said(["analyse", "cotton", "--games", "x"], capsys)[-1:] == _said_without_columns(
        ["analyse", "cotton", "--games", "x"], capsys, monkeypatch)[-1:]


def _said_without_columns(argv, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    return _said(argv, capsys)


def _no_terminal(*args):
    raise OSError("not a terminal")
