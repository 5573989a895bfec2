"""Output that fits the terminal, colour only where wanted, and rule-file text printed as text."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hazard_dsl.cli import main
from hazard_dsl.diagnostics import Diagnostic, Position, SourceTexts
from hazard_dsl.render.diagnostics import print_diagnostics, render
from hazard_dsl.render.terminal import printable

COMMANDS = [["analyse", "craps"], ["analyse", "cotton", "--by", "main"], ["analyse", "hoyle"],
            ["analyse", "french"], ["compare", "cotton", "petty", "hoyle"],
            ["compare", "cotton", "hoyle", "chicken", "french", "petty", "craps"]]


@pytest.mark.parametrize("columns", [60, 80, 120])
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a))
def test_tables_fit_the_terminal(argv, columns, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) <= columns
    assert not [line for line in lines if line != line.rstrip()]


def test_piped_output_without_columns_is_80_wide(capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["analyse", "craps"]) == 0
    assert max(map(len, capsys.readouterr().out.splitlines())) <= 80


def test_numbers_are_not_folded_in_the_by_table(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["analyse", "cotton", "--by", "main"]) == 0
    out = capsys.readouterr().out
    assert "7295:6961" in out and "49.08" in out


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


def test_colour_only_on_a_terminal_and_never_under_no_color(monkeypatch):
    d = Diagnostic("bad", Position("f.yaml", 1, 1))
    tty = FakeTTY()
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    print_diagnostics([d], tty)
    assert "\x1b[" in tty.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    tty = FakeTTY()
    print_diagnostics([d], tty)
    assert "\x1b[" not in tty.getvalue()
    plain = io.StringIO()
    monkeypatch.delenv("NO_COLOR")
    print_diagnostics([d], plain)
    assert "\x1b[" not in plain.getvalue()


def test_control_characters_are_shown_not_obeyed():
    assert printable("a\x1b[2Jb\x07\x00\u202e") == "a\\x1b[2Jb\\x07\\x00\\u202e"
    assert printable("line one\nline two\twith a tab") == "line one\nline two with a tab"


def test_a_quoted_line_with_escapes_keeps_the_caret_under_its_character():
    sources = SourceTexts()
    sources.add("f.yaml", "name: \x1b[31mred\x07 x")
    out = render(Diagnostic("here", Position("f.yaml", 1, 17)), sources)
    quoted, caret = out.splitlines()[1:3]
    assert "\x1b" not in out and "\x07" not in out
    assert quoted[caret.index("^")] == "x"


HOSTILE = """name: "[/] [link=http://example.com]click[/link] \\e[2J\\a"
description: "[bold red]loud[/]"
labels:
  "nick": "[/]{caster} \\e]0;title\\a nicks"
phases:
  roll:
    - when: total == 7
      do: win nick
    - otherwise: lose
"""


@pytest.mark.parametrize("argv", [["analyse"], ["analyse", "--format", "markdown"], ["analyse", "--format", "csv"],
                                  ["run", "--seed", "3"], ["check"]])
def test_rule_file_text_is_printed_literally(argv, tmp_path, capsys):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE)
    command = [argv[0], str(path), *argv[1:]]
    assert main(command) == 0
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err
    if argv[0] == "analyse" and len(argv) == 1:
        assert "[link=http://example.com]" in out  # markup shown, not turned into a link


def _cli(*argv, **kwargs):
    env = dict(os.environ, **kwargs.pop("env", {}))
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], capture_output=True, text=True, env=env,
                          **kwargs)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", [["list"], ["analyse", "cotton"], ["run", "cotton", "--seed", "1"]])
def test_a_full_device_is_an_error_not_a_crash(argv):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], stdout=full, stderr=subprocess.PIPE,
                                text=True)
    assert result.returncode == 1
    assert "cannot write the output: No space left on device" in result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "LANG": "C"}])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_locale_without_utf8_degrades(env):
    for argv in (["analyse", "cotton"], ["run", "cotton", "--seed", "1"], ["compare", "cotton", "petty"]):
        result = _cli(*argv, env=env)
        assert result.returncode == 0, result.stderr
        assert "cotton" in result.stdout.lower() and "Traceback" not in result.stderr


def test_a_deleted_working_folder(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    script = (f"import os, sys; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); "
              f"from hazard_dsl.cli import main; sys.exit(main(['analyse', 'cotton']))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "1979/4032" in result.stdout


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_long_counter_is_exact_in_json_and_abbreviated_in_text(tmp_path, capsys):
    import json
    from fractions import Fraction

    path = tmp_path / "counter.yaml"
    path.write_text("name: long counter\nvariables:\n  n: 0..3500\nphases:\n  roll:\n    - when: n == 3500\n"
                    "      do: win\n    - when: total == 2\n      do: lose\n    - otherwise: set n = n + 1; throw again\n")
    assert main(["analyse", str(path), "--json"]) == 0
    from hazard_dsl.render.tables import exact

    win = json.loads(capsys.readouterr().out)["win"]
    assert win == exact(Fraction(35, 36) ** 3500)  # survive 3,500 throws without ames-ace
    assert len(win) > 10_000
    assert main(["analyse", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(exact in --json)" in out and max(map(len, out.splitlines())) <= 80
