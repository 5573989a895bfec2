"""The tutorial (docs/tutorial.md): its commands run, and print what the tutorial shows; its
figures and the README's are made by docs/build.py, so that none of them drifts from the code."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_build():
    spec = importlib.util.spec_from_file_location("docs_build", ROOT / "docs" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tutorial_shows_what_its_commands_print_now(tmp_path):
    """Every command of the tutorial is run again on a copy of docs/ (figures included) and
    prints exactly what the tutorial shows; `python docs/build.py` rewrites it when the code
    changes."""
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (apt-get install graphviz; .ci/run installs it): the "
                    "tutorial draws an SVG with it")
    pytest.importorskip("matplotlib", reason="matplotlib is not installed: the tutorial draws charts with it")
    build = load_build()
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    changed = build.build(tmp_path, check=True)
    assert changed == [], f"docs/tutorial.md is out of date (run python docs/build.py): {changed}"
    figures = tmp_path / "docs" / "figures"
    for name in ("tavern.svg", "tavern-analyse.png", "tavern-compare.png", "petty.svg", "edges.png",
                 "tavern-rules.html"):
        assert (figures / name).stat().st_size > 1000, name
    assert (figures / "tavern.svg").read_text(encoding="utf-8").count("<svg") == 1


def test_the_tutorial_walks_through_every_command():
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    commands = re.findall(r"^\$ hazard-dsl (\w+)", text, re.M)
    for command in ("check", "run", "analyse", "compare", "graph", "rules"):
        assert command in commands, command
    # the tutorial's first try has the mistake it explains, and its whole file checks
    assert "error: no rule of phase 'chance_throw' handles the throw" in text
    assert "docs/examples/tavern.yaml: ok" in text


def test_every_figure_the_readme_and_tutorial_show_is_built_and_there():
    build = load_build()
    built = " ".join(build.README_FIGURES) + (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    for document, base in ((ROOT / "README.md", ROOT), (ROOT / "docs" / "tutorial.md", ROOT / "docs")):
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", document.read_text(encoding="utf-8")):
            path = (base / target).resolve()
            assert path.exists(), f"{document.name}: {target} is missing (python docs/build.py makes it)"
            assert path.relative_to(ROOT).as_posix().removeprefix("docs/") in built or \
                path.relative_to(ROOT).as_posix() in built, f"{target}: no command in docs/build.py makes it"


def test_the_runner_understands_head_tail_and_redirects():
    build = load_build()
    assert build._tail("hazard-dsl rules x | head -30") == ("hazard-dsl rules x", ("head", 30), None)
    assert build._tail("hazard-dsl compare a b --plot f.png > /dev/null") == (
        "hazard-dsl compare a b --plot f.png", None, "/dev/null")
