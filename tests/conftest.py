"""Shared helpers: load a built-in ruleset and compile it with options."""

from __future__ import annotations

from pathlib import Path

import pytest

from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.parse.reader import read_ruleset

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
SHIPPED = sorted(p.stem for p in RULESETS.glob("*.yaml"))


def machine(name: str, **options):
    return compile_ruleset(read_ruleset(RULESETS / f"{name}.yaml"), options)


@pytest.fixture
def write_ruleset(tmp_path):
    """Write a rule file into a temporary folder and return its path."""

    def write(text: str, name: str = "ruleset.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write
