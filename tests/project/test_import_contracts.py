"""The package keeps the contracts of pyproject.toml (`[tool.importlinter]`, checked by
import-linter): the pipeline runs one way, and parse and compile do not know the cache.
tests/project/test_imports.py shows the same contracts failing on a package that breaks them."""

from __future__ import annotations

from tests.project.test_imports import ROOT, lint_imports


def test_the_package_keeps_its_import_contracts(capsys):
    code, out = lint_imports(ROOT, ROOT / "pyproject.toml", capsys)
    assert code == 0, out
