"""One direction (issue 36): the first stage reaches no later one. No module of `parse/`
imports `check`, `compile`, `render` or anything after them — an import inside a function
counts — and `diagnostics` (below every stage) imports no `render`. The import-linter contracts
of the whole pipeline say the same for every layer; this holds the circles this change broke."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "hazard_dsl"
LATER = ("check", "compile", "solve", "simulate", "play", "render", "commands", "cli", "serve", "lsp",
         "language", "api", "results", "arguments", "cache")


def imported(path: Path, package: Path = PACKAGE) -> set[str]:
    """Every module `path` imports, anywhere in it, as a dotted name inside hazard_dsl."""
    here = path.relative_to(package.parent).with_suffix("").parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = list(here[:len(here) - node.level + 1]) if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found |= {module} | {f"{module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {m for m in found if m.startswith("hazard_dsl.")}


def reaches(path: Path, stages, package: Path = PACKAGE) -> list[str]:
    return sorted(m for m in imported(path, package) if m.split(".")[1] in stages)


def test_parse_reaches_no_later_stage():
    bad = {}
    for path in sorted((PACKAGE / "parse").glob("*.py")):
        if path.name == "cache.py":  # the old name of hazard_dsl.cache.disk, kept until the tests' imports move
            continue
        if reaches(path, LATER):
            bad[path.name] = reaches(path, LATER)
    assert bad == {}


def test_diagnostics_reaches_no_stage_at_all():
    stages = ("parse", *LATER)
    assert reaches(PACKAGE / "diagnostics.py", stages) == []
    assert reaches(PACKAGE / "printable.py", stages) == []


def test_the_check_of_an_import_inside_a_function_fails(tmp_path):
    # the tests above would see an import made late, inside a function, relative or absolute
    sample = tmp_path / "hazard_dsl" / "parse" / "late.py"
    sample.parent.mkdir(parents=True)
    sample.write_text("def f():\n    from ..render.words import fill\n    import hazard_dsl.check.names\n",
                      encoding="utf-8")
    assert reaches(sample, LATER, tmp_path / "hazard_dsl") == [
        "hazard_dsl.check.names", "hazard_dsl.render.words", "hazard_dsl.render.words.fill"]
