"""The package's imports run one way.

- The pipeline's order is written as contracts in pyproject.toml (`[tool.importlinter]`) and
  checked by import-linter, a maintained tool (issue 36, point 4): a layer imports only the layers
  below it — no package imports a later stage of the pipeline or a front end, directly or through a
  module outside the list (such as the package's `__init__`, whose lazy attributes import `api`);
  `parse` and `compile` do not know the cache exists. The contracts of the package itself are run
  in tests/project/test_import_contracts.py; here they are shown to fail on a small package that
  breaks them, so that a contract that can no longer fail cannot pass silently.
- No circle among the modules of `hazard_dsl`, counting imports inside functions and under
  `if TYPE_CHECKING`: an import moved into a function only postpones a circle, it does not remove it.
- No module takes another module's private name (`from x import _name`, or `x._name` on a module it
  imported, or a private module from outside its package): what two modules share is public and
  lives below both.

import-linter says neither of the last two (its contracts are about named layers and modules, not
any circle or any private name), so a checker of ours does. It reads the source with `ast` and
imports none of it. What counts as an import of what:
`import a.b` and `from a.b import name` import the module `a.b`; `from a import b` where `b` is a
submodule imports `a.b` (the submodule, not `a`'s `__init__`); `from a import b, name` imports both.
That a package's `__init__` runs before its submodules is not counted: every submodule would
otherwise sit in a circle with a package that re-exports it. The checker is tested on small
packages of its own at the end of this file, so that a broken checker cannot pass the real package
silently.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "hazard_dsl"

# The pipeline, bottom to front: none of these may reach the front ends below.
PIPELINE = tuple(f"{PACKAGE}.{name}" for name in (
    "parse", "check", "compile", "solve", "simulate", "play", "render", "model", "records", "diagnostics",
    "language"))  # the language service: engine-side, shared by the language server and the web workbench
# The command line, the web app, the application layer (the Python API and the commands built on
# it) and the language server (a transport over the language service).
FRONT_ENDS = tuple(f"{PACKAGE}.{name}" for name in ("cli", "serve", "commands", "api", "lsp"))


@dataclass(frozen=True)
class Import:
    """One use of the module `target` by the module `source`: an import, or a name read from a
    module it imported (`name`: the name it takes from `target`; None for the module itself)."""

    source: str
    target: str
    name: str | None
    where: str  # "path:line"


@dataclass(frozen=True)
class Package:
    """The modules of one package, by dotted name, and what each imports from the others."""

    modules: dict[str, Path]
    imports: tuple[Import, ...]

    def edges(self) -> dict[str, dict[str, list[str]]]:
        """source -> target -> where each import of `target` is in `source` (modules of this package
        only, a module's imports of itself left out)."""
        graph: dict[str, dict[str, list[str]]] = {module: {} for module in self.modules}
        for imp in self.imports:
            if imp.target in self.modules and imp.target != imp.source:
                wheres = graph[imp.source].setdefault(imp.target, [])
                if imp.where not in wheres:
                    wheres.append(imp.where)
        return graph


def read_package(folder: Path, package: str, shown_from: Path | None = None) -> Package:
    """Every module under `folder` (the package `package`) and every import among them."""
    shown_from = folder.parent if shown_from is None else shown_from
    modules: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join((package, *parts))] = path
    imports: list[Import] = []
    for module, path in modules.items():
        imports += _imports_of(module, path, modules, package, path.relative_to(shown_from).as_posix())
    return Package(modules, tuple(imports))


def _imports_of(module: str, path: Path, modules: dict[str, Path], package: str, shown: str) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[Import] = []
    bound: dict[str, str] = {}  # a local name bound to one of our modules -> that module
    for node in ast.walk(tree):
        where = f"{shown}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _within(alias.name, (package,)):
                    found.append(Import(module, alias.name, None, where))
                    if alias.asname:
                        bound[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if path.name != "__init__.py":
                    base = base[:-1]
                if node.level - 1 > len(base) - 1:
                    continue  # beyond the top of the package: Python refuses it anyway
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
                if not _within(target, (package,)):
                    continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if submodule in modules:
                    found.append(Import(module, submodule, None, where))
                    bound[alias.asname or alias.name] = submodule
                else:  # a name of `target` (for "*": every public one, so no name to check)
                    found.append(Import(module, target, None if alias.name == "*" else alias.name, where))
    # `run._PLAN` on an imported module is the same as `from .run import _PLAN`
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
            found.append(Import(module, bound[node.value.id], node.attr, f"{shown}:{node.lineno}"))
    return found


def _places(wheres: list[str]) -> str:
    """"a.py:3", "a.py:12", "b.py:1" -> "a.py:3, 12, b.py:1" (in order of line)."""
    lines: dict[str, list[int]] = {}
    for where in wheres:
        path, line = where.rsplit(":", 1)
        lines.setdefault(path, []).append(int(line))
    return ", ".join(f"{path}:{', '.join(map(str, sorted(numbers)))}" for path, numbers in sorted(lines.items()))


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


# ---------------------------------------------------------------------------------------------
# The three checks; each returns one readable paragraph per problem, empty when there is none.


def cycles(package: Package) -> list[str]:
    """Each knot of modules that import one another (a strongly connected component, Tarjan), shown
    as its shortest circle with where each import is."""
    graph = package.edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    knots: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            knot = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                knot.append(member)
                if member == module:
                    break
            if len(knot) > 1:
                knots.append(sorted(knot))

    for module in sorted(graph):
        if module not in index:
            visit(module)

    found = []
    for knot in sorted(knots):
        circle = _shortest_circle(graph, knot[0], set(knot))
        lines = ["import cycle: " + " → ".join(circle)]
        for source, target in zip(circle, circle[1:]):
            lines.append(f"    {_places(graph[source][target])}: {source} imports {target}")
        rest = [member for member in knot if member not in circle]
        if rest:
            lines.append("    the same knot also holds: " + ", ".join(rest))
        found.append("\n".join(lines))
    return found


def _shortest_circle(graph: dict[str, dict[str, list[str]]], start: str, within: set[str]) -> list[str]:
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for target in sorted(graph[module]):
            if target == start:
                path = [module]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if target in within and target not in came_from:
                came_from[target] = module
                queue.append(target)
    raise AssertionError(f"{start} is in a knot but no circle returns to it")


def private_names(package: Package) -> list[str]:
    """Each private name (or private module) one module takes from another."""
    found = []
    for imp in package.imports:
        if imp.name is not None and is_private(imp.name) and imp.target != imp.source:
            found.append(f"private name: {imp.where}: {imp.source} takes {imp.name} from {imp.target}")
        parts = imp.target.split(".")
        for i, part in enumerate(parts):
            owner = ".".join(parts[:i])
            if is_private(part) and not _within(imp.source, (owner,)):
                found.append(f"private module: {imp.where}: {imp.source} imports {imp.target}, private to {owner}")
                break
    return sorted(set(found))


# ---------------------------------------------------------------------------------------------
# The package itself.


def _ours() -> Package:
    return read_package(ROOT / PACKAGE, PACKAGE, shown_from=ROOT)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_checker_reads_the_whole_package_with_imports_inside_functions():
    package = _ours()
    assert {f"{PACKAGE}.cli", f"{PACKAGE}.parse.reader", f"{PACKAGE}.simulate.run"} <= set(package.modules)
    # `hazard_dsl.__init__` imports api only inside `__getattr__`: the checker must see it
    assert f"{PACKAGE}.api" in package.edges()[PACKAGE]
    # every import of the package resolves to one of its modules: a relative import resolved
    # wrongly would otherwise drop its edge and pass unseen
    assert [imp for imp in package.imports if imp.target not in package.modules] == []


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_no_import_cycle_in_the_package():
    found = cycles(_ours())
    assert not found, "\n\n".join(found)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_no_module_takes_another_modules_private_name():
    found = private_names(_ours())
    assert not found, "\n".join(found)


# ---------------------------------------------------------------------------------------------
# The checker on small packages of its own.


def _package(tmp_path: Path, files: dict[str, str]) -> Package:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in [tmp_path / "pkg", *(p for p in (tmp_path / "pkg").rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    return read_package(tmp_path / "pkg", "pkg")


CLEAN = {
    "__init__.py": "from .version import __version__\n\ndef __getattr__(name):\n    from . import app\n    return getattr(app, name)\n",
    "version.py": "__version__ = '1'\n",
    "low/__init__.py": "",
    "low/base.py": "from ..version import __version__\n_hidden = 1\nshared = 2\nx = _hidden\n",
    "low/top.py": "from .base import shared\nfrom . import base\nimport pkg.low.base as b\n\ndef f():\n    return base.shared, b.shared\n",
    "app.py": "from .low.top import f\nfrom .low import base, top\n",
    "_impl.py": "",
    "uses_impl.py": "from . import _impl\n",
}


def test_a_clean_package_passes(tmp_path):
    package = _package(tmp_path, CLEAN)
    assert cycles(package) == []
    assert private_names(package) == []
    # and the checker did see the imports it passed
    edges = package.edges()
    assert set(edges["pkg.app"]) == {"pkg.low.top", "pkg.low.base"}
    assert set(edges["pkg.low.top"]) == {"pkg.low.base"}
    assert set(edges["pkg.low.base"]) == {"pkg.version"}
    assert "pkg.app" in edges["pkg"]


def test_a_cycle_through_an_import_inside_a_function_is_found_with_its_lines(tmp_path):
    package = _package(tmp_path, {
        "a.py": "from .b import g\n",
        "b.py": "def g():\n    from . import c\n",
        "c.py": "import pkg.a\n",
    })
    [found] = cycles(package)
    assert found.splitlines()[0] == "import cycle: pkg.a → pkg.b → pkg.c → pkg.a"
    assert "pkg/a.py:1: pkg.a imports pkg.b" in found
    assert "pkg/b.py:2: pkg.b imports pkg.c" in found
    assert "pkg/c.py:1: pkg.c imports pkg.a" in found


def test_a_cycle_through_the_package_init_and_type_checking_is_found(tmp_path):
    package = _package(tmp_path, {
        "__init__.py": "__version__ = '1'\n\ndef __getattr__(name):\n    from . import app\n",
        "app.py": "from .low import thing\n",
        "low.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import __version__\nthing = 1\n",
    })
    [found] = cycles(package)
    assert found.splitlines()[0] == "import cycle: pkg → pkg.app → pkg.low → pkg"
    assert "pkg/low.py:3: pkg.low imports pkg" in found


def test_a_knot_bigger_than_its_shortest_circle_names_the_rest(tmp_path):
    package = _package(tmp_path, {"a.py": "from . import b, c\n", "b.py": "from . import a\n", "c.py": "from . import b\n"})
    [found] = cycles(package)
    assert found.splitlines()[0] == "import cycle: pkg.a → pkg.b → pkg.a"
    assert "the same knot also holds: pkg.c" in found


def test_private_names_across_modules_are_found(tmp_path):
    package = _package(tmp_path, {
        "a.py": "_helper = 1\n__version__ = '1'\npublic = _helper\n",
        "b.py": "from .a import _helper, __version__\nfrom .a import public as _public\n",
        "c.py": "from . import a\n\ndef f():\n    return a._helper\n",
        "__init__.py": "from .a import _helper\n",
        "sub/_impl.py": "",
        "d.py": "from .sub import _impl\n",
    })
    assert private_names(package) == [
        "private module: pkg/d.py:1: pkg.d imports pkg.sub._impl, private to pkg.sub",
        "private name: pkg/__init__.py:1: pkg takes _helper from pkg.a",
        "private name: pkg/b.py:1: pkg.b takes _helper from pkg.a",
        "private name: pkg/c.py:4: pkg.c takes _helper from pkg.a",
    ]


def test_relative_imports_resolve_from_modules_and_from_packages(tmp_path):
    package = _package(tmp_path, {
        "x/__init__.py": "from .y import name\nfrom .. import top\n",
        "x/y.py": "from ..top import thing, sub\nfrom ... import nothing\n",
        "top/__init__.py": "thing = 1\n",
        "top/sub.py": "from .. import x\nfrom ..x.y import *\n",
    })
    edges = package.edges()
    assert set(edges["pkg.x"]) == {"pkg.x.y", "pkg.top"}
    assert set(edges["pkg.x.y"]) == {"pkg.top", "pkg.top.sub"}  # a name of top, and top's submodule
    assert set(edges["pkg.top.sub"]) == {"pkg.x", "pkg.x.y"}


# ---------------------------------------------------------------------------------------------
# The contracts of pyproject.toml, on a small package that breaks them.


def contracts_for(package: str) -> str:
    """pyproject.toml's `[tool.importlinter]` tables, as they stand, for the package `package`."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    kept, inside = [], False
    for line in text.splitlines():
        if re.match(r"\[\[?", line):
            inside = re.match(r"\[\[?tool\.importlinter[\].]", line) is not None
        if inside:
            kept.append(line)
    assert kept, "pyproject.toml has no [tool.importlinter]"
    return "\n".join(kept).replace(PACKAGE, package) + "\n"


def lint_imports(folder: Path, config: Path, capsys) -> tuple[int, str]:
    """import-linter's verdict on the package(s) in `folder` under `config`: the exit code, and
    what it printed (the broken contracts, each import that breaks one, with its line)."""
    from importlinter.cli import lint_imports as run

    sys.path.insert(0, str(folder))
    try:
        code = run(config_filename=str(config), no_cache=True, no_logo=True)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name == "fakepkg" or name.startswith("fakepkg.")]:
            del sys.modules[name]
    return code, capsys.readouterr().out


# every layer of the contracts, empty, and a version: a package that keeps them all
_LAYERS = ("cli", "serve", "lsp", "api", "arguments", "commands", "language", "render", "results", "cache",
           "check", "simulate", "play", "solve", "compile", "parse", "model", "diagnostics", "errors",
           "records", "printable", "version", "collector")


def _fake(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Path]:
    folder = tmp_path / "src"
    root = folder / "fakepkg"
    for name in _LAYERS:
        (root / name).mkdir(parents=True)
        (root / name / "__init__.py").write_text("", encoding="utf-8")
    (root / "__init__.py").write_text("", encoding="utf-8")
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    config = tmp_path / "contracts.toml"
    config.write_text(contracts_for("fakepkg"), encoding="utf-8")
    return folder, config


def test_the_contracts_keep_a_package_that_runs_one_way(tmp_path, capsys):
    folder, config = _fake(tmp_path, {
        "parse/reader.py": "from ..model import thing\nfrom ..errors import Error\n",
        "render/words.py": "from ..solve import chain\nfrom ..parse import reader\n",
        "cli/main.py": "from ..serve import app\nfrom ..api import load\n",
    })
    code, out = lint_imports(folder, config, capsys)
    assert code == 0, out
    assert "BROKEN" not in out and "KEPT" in out


def test_the_contracts_fail_on_a_later_stage_imported_even_inside_a_function_or_through_the_package(
        tmp_path, capsys):
    folder, config = _fake(tmp_path, {
        # a later stage of the pipeline, imported inside a function
        "parse/reader.py": "def read():\n    from ..check import game\n",
        "check/game.py": "",
        # a front end, reached through the package's `__init__`, whose lazy attribute imports api
        "__init__.py": "__version__ = '1'\n\ndef __getattr__(name):\n    from . import api\n",
        "solve/chain.py": "from .. import __version__\n",
        # and the cache, which parse and compile do not know
        "compile/machine.py": "from ..cache import disk\n",
        "cache/disk.py": "",
    })
    code, out = lint_imports(folder, config, capsys)
    assert code == 1, out
    assert "Contracts: 0 kept, 2 broken." in out
    assert "fakepkg.parse is not allowed to import fakepkg.check:" in out
    assert "fakepkg.parse.reader -> fakepkg.check.game (l.2)" in out
    assert "fakepkg.solve is not allowed to import fakepkg.api:" in out
    assert "fakepkg.compile.machine -> fakepkg.cache.disk (l.1)" in out
