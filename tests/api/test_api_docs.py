"""docs/api.md and the docstrings of the API run as doctests: what the page and `help()` show is
what the code does (run by plain `python -m pytest`, as CI runs it)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import hazard_dsl
import hazard_dsl.api

ROOT = Path(__file__).resolve().parents[2]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture
def at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # file names in the outputs, as a reader in the repository sees them
    monkeypatch.setenv("COLUMNS", "100")


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_api_page_runs(at_the_root):
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=FLAGS,
                              raise_on_error=False, report=True, verbose=False)
    assert result.attempted >= 40, "the examples of docs/api.md were not found"
    assert result.failed == 0, f"{result.failed} of the examples of docs/api.md fail (see the output above)"


@pytest.mark.parametrize("module", [hazard_dsl, hazard_dsl.api], ids=lambda m: m.__name__)
def test_the_docstrings_run(module, at_the_root):
    result = doctest.testmod(module, optionflags=FLAGS, extraglobs={"hazard_dsl": hazard_dsl}, report=True,
                             verbose=False)
    assert result.attempted >= 1
    assert result.failed == 0, f"{result.failed} examples of {module.__name__}'s docstrings fail"


def test_the_table_page_runs(at_the_root):
    """docs/table.md: the questions, actions and events of a session, as a front end sees them."""
    result = doctest.testfile(str(ROOT / "docs" / "table.md"), module_relative=False, optionflags=FLAGS,
                              raise_on_error=False, report=True, verbose=False)
    assert result.attempted >= 10, "the examples of docs/table.md were not found"
    assert result.failed == 0, f"{result.failed} of the examples of docs/table.md fail (see the output above)"
