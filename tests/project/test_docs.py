"""The documentation keeps up with the code.

- The tutorial (docs/tutorial.md): its commands run, and print what the tutorial shows; its
  figures and the README's are made by docs/build.py, so that none of them drifts from the code.
- docs/commands.md names every option of every command; every link between the pages lands.
- docs/performance.md holds the measurements, each benchmark's between its markers, and a
  benchmark run with --write-docs rewrites its own section and nothing else."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_build():
    spec = importlib.util.spec_from_file_location("docs_build", ROOT / "docs" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
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


# --- the user's pages: every command and option documented, every link leads somewhere ---------

PAGES = ["README.md", "CHANGELOG.md", *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")))]


def commands_and_options() -> dict[str, list[str]]:
    """Each command of `hazard-dsl` (aliases left out) and its long options but --help and those
    its help hides, from the command line's own parser."""
    import argparse

    from hazard_dsl.cli.parser import build_parser

    class Handlers(dict):
        def __missing__(self, name):
            return None

    parser = build_parser(Handlers())
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found, seen = {}, set()
    for name, sub in commands.choices.items():
        if id(sub) in seen:
            continue  # an alias: `analyze` is `analyse`
        seen.add(id(sub))
        found[name] = [o for a in sub._actions if a.help != argparse.SUPPRESS
                       for o in a.option_strings if o.startswith("--") and o != "--help"]
    return found


def sections(text: str) -> dict[str, str]:
    """A page's `## ` sections by heading."""
    parts = re.split(r"^## (.+)\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_every_option_of_every_command_is_in_docs_commands():
    """docs/commands.md has a section for each command, and every long option of the command is
    named in it (or among what every command shares): a flag nobody can read about is a flag
    nobody uses."""
    page = sections((ROOT / "docs" / "commands.md").read_text(encoding="utf-8"))
    shared = page["What every command shares"]
    missing = []
    for command, options in commands_and_options().items():
        own = " ".join(body for heading, body in page.items() if heading.split()[0] == command)
        assert own, f"docs/commands.md has no section '## {command}'"
        missing += [f"{command} {option}" for option in options if option not in own + shared]
    assert not missing, f"add these to their command's section of docs/commands.md: {missing}"


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_pages_leads_somewhere():
    """Links from the README and docs/*.md to a file of the repository, and to a heading of a page,
    land: the README sends a user to docs/ for the details, and a moved section breaks a link."""
    broken = []
    for name in PAGES:
        page = ROOT / name
        if not page.exists():
            continue
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{name}: {target} (no such file)")
            elif anchor and file.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", file.read_text(encoding="utf-8"), flags=re.M)
                if anchor not in {slug(h) for h in headings}:
                    broken.append(f"{name}: {target} (no such heading)")
    assert not broken, broken


# --- docs/performance.md, which the benchmarks keep current -----------------------------------

BENCHMARKS = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if not p.stem.startswith("_"))


def load_bench_docs():
    spec = importlib.util.spec_from_file_location("bench_docs", ROOT / "bench" / "_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_has_its_section_and_writes_it():
    """Each benchmark takes --write-docs and has its markers, once, in docs/performance.md: the
    page holds the measurements, and a run replaces exactly its own."""
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    for name in BENCHMARKS:
        source = (ROOT / "bench" / f"{name}.py").read_text(encoding="utf-8")
        assert "_docs.add_option(parser)" in source and f'_docs.recording("{name}"' in source, name
        assert page.count(f"<!-- {name}:begin -->") == 1 and page.count(f"<!-- {name}:end -->") == 1, name
        assert page.index(f"<!-- {name}:begin -->") < page.index(f"<!-- {name}:end -->"), name


def test_the_performance_page_states_the_engines_constants():
    from hazard_dsl.simulate.chunks import GAMES_PER_CHUNK
    from hazard_dsl.simulate.engine import LANES, MAX_BLOCK

    page = " ".join((ROOT / "docs" / "performance.md").read_text(encoding="utf-8").split())
    for phrase in (f"{LANES:,} games advance in lock-step", f"every {MAX_BLOCK} throws the endings are counted",
                   f"chunks of {GAMES_PER_CHUNK:,} games"):
        assert phrase in page, phrase


def test_a_section_is_replaced_and_nothing_else(tmp_path):
    docs = load_bench_docs()
    page = tmp_path / "performance.md"
    page.write_text("# P\n\nprose before\n<!-- bench_x:begin -->\nold figures\n<!-- bench_x:end -->\n"
                    "prose after\n<!-- bench_y:begin -->\ny's figures\n<!-- bench_y:end -->\n", encoding="utf-8")
    text = docs.section("bench_x", "N  seconds\n1  0.5\n```\n", "python bench/bench_x.py --write-docs", 1.5, 0)
    docs.write_section(page, "bench_x", text)
    new = page.read_text(encoding="utf-8")
    assert new.startswith("# P\n\nprose before\n<!-- bench_x:begin -->\n*Written by `python bench/bench_x.py "
                          "--write-docs` on 1970-01-01 00:00 UTC: ")
    assert "; load average 1.50 at the start; commit " in new
    assert "```text\nN  seconds\n1  0.5\n'''\n```\n<!-- bench_x:end -->\nprose after\n" in new  # its fence kept
    assert new.endswith("<!-- bench_y:begin -->\ny's figures\n<!-- bench_y:end -->\n") and "old figures" not in new
    docs.write_section(page, "bench_z", "<!-- bench_z:begin -->\nz\n<!-- bench_z:end -->")  # a new one at the end
    assert page.read_text(encoding="utf-8").endswith("\n\n## bench_z\n\n<!-- bench_z:begin -->\nz\n<!-- bench_z:end -->\n")
    page.write_text("<!-- bench_x:begin -->\nno end\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="not a pair"):
        docs.write_section(page, "bench_x", text)
    assert page.read_text(encoding="utf-8") == "<!-- bench_x:begin -->\nno end\n"


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_benchmark_run_writes_its_figures_into_a_copy_of_the_page(tmp_path):
    """bench_growth with tiny sizes (a second) writes what it printed, with the date and the
    machine, into its own section of a copy of docs/performance.md; the rest of the copy is the
    page as it was."""
    import subprocess
    import sys

    original = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    copy = tmp_path / "performance.md"
    copy.write_text(original, encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_growth.py"), "--sizes", "12", "--stages", "12",
                           "--write-docs", str(copy)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    new = copy.read_text(encoding="utf-8")
    begin, end = "<!-- bench_growth:begin -->", "<!-- bench_growth:end -->"
    assert new[:new.index(begin)] == original[:original.index(begin)]
    assert new[new.index(end):] == original[original.index(end):]
    written = new[new.index(begin):new.index(end)]
    assert "*Written by `python bench/bench_growth.py --sizes 12 --stages 12 --write-docs` on " in written
    assert f"{os.cpu_count()} cores, Python " in written
    assert done.stdout.strip() in written  # what it printed, whole
    assert "    12      27 " in written  # 12 stages: 2N + 3 = 27 states
    assert (ROOT / "docs" / "performance.md").read_text(encoding="utf-8") == original  # the page itself untouched


def test_every_key_a_rule_file_may_use_is_in_docs_rule_files():
    """docs/rule-files.md lists every key the checker accepts (parse.keys, the table the checker
    and the JSON Schema read), each in its place: a key nobody can read about is a key nobody uses."""
    from hazard_dsl.parse.keys import TABLES

    page = (ROOT / "docs" / "rule-files.md").read_text(encoding="utf-8")
    listed = page[page.index("## Every key a rule file may use"):page.index("## What check refuses")]
    missing = [f"{table}: {key}" for table, keys in TABLES.items() for key in keys.allowed
               if not re.search(rf"`{re.escape(key)}[`:]", listed)]
    assert not missing, f"add these keys to 'Every key a rule file may use' in docs/rule-files.md: {missing}"
