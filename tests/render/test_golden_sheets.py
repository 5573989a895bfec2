"""Golden files of what a newcomer reads first: `show` and `rules` of the built-in rulesets, as
printed into an 80-column pipe (COLUMNS=80), and `rules --format markdown`. A change to any of
them is a change a reader sees; set HAZARD_DSL_WRITE_GOLDEN=1 to write them again after a
deliberate change, and read the diff before committing it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hazard_dsl.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"

COMMANDS = {
    "show_cotton": ["show", "cotton"],
    "show_chicken": ["show", "chicken"],
    "show_petty": ["show", "petty"],
    "rules_cotton": ["rules", "cotton"],
    "rules_chicken": ["rules", "chicken"],
    "rules_history_sheet": ["rules", "history_sheet"],
    "rules_french_markdown": ["rules", "french", "--format", "markdown"],
}


@pytest.mark.parametrize("name", COMMANDS)
def test_the_sheet_is_what_the_golden_file_holds(name, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(COMMANDS[name]) == 0
    text = capsys.readouterr().out
    assert text and max(len(line) for line in text.splitlines()) <= 80 or name.endswith("markdown")
    suffix = ".md" if name.endswith("markdown") else ".txt"
    path = GOLDEN / f"{name}{suffix}"
    if os.environ.get("HAZARD_DSL_WRITE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name}: the output changed (see the module's docstring)"
