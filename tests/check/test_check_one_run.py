"""`hazard-dsl check` reports every problem of a file in ONE run, each in the author's file.

Each file of tests/data/broken_one_run/ holds several mistakes of different kinds (layout, names,
types, ranges, reachability, an inherited setting a child breaks, the sources' words for a
role, a game too large to explore whole); beside it, NAME.expected is the whole output of one
run of `hazard-dsl check NAME.yaml` in that folder (not at a terminal: one line a diagnostic,
then its source line and caret). The expected files were written by running check and read
line by line against the comment at the top of each file, which says what must be found: a
change to them is a change to what an author sees, to be read the same way.

Also checked here: no traceback, exit 1, every `file:line:col` in the file checked (never in a
built-in it extends), and at a terminal 80 columns wide every line but the author's own quoted
source line fits.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.diagnostics import SOURCES
from hazard_dsl.render.diagnostics import render

CORPUS = Path(__file__).resolve().parents[1] / "data" / "broken_one_run"
FILES = sorted(CORPUS.glob("*.yaml"))
LOCATED = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning): ", re.M)


def _run(path: Path) -> subprocess.CompletedProcess:
    # the hints wrap at the width COLUMNS says (80 when unset and piped): fixed, as the expected files are
    env = {**os.environ, "COLUMNS": "80"}
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "hazard_dsl", "check", path.name], cwd=CORPUS, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


@pytest.fixture(scope="module")
def runs():
    with ThreadPoolExecutor(max_workers=3) as pool:
        return dict(zip((p.name for p in FILES), pool.map(_run, FILES)))


def test_the_corpus_is_there():
    assert len(FILES) >= 10
    for path in FILES:
        assert path.with_suffix(".expected").is_file(), f"{path.name} has no .expected beside it"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_one_run_reports_everything(path: Path, runs):
    result = runs[path.name]
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert result.returncode == 1, f"exit {result.returncode}\n{result.stderr}"
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    assert result.stderr == expected, f"{path.name}: one run of check printed\n{result.stderr}"
    assert result.stdout == ""
    found = list(LOCATED.finditer(result.stderr))
    assert len(found) >= 2, f"{path.name} is meant to hold several mistakes"
    assert {m["file"] for m in found} == {path.name}, "a problem placed outside the author's file"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_fits_80_columns_at_a_terminal(path: Path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    for d in check_file(path):
        quoted = SOURCES.line(d.position) if d.position is not None else None
        for line in render(d, wrapped=True).split("\n"):
            if quoted is not None and line.strip() and line == f"    {quoted}":
                continue  # the author's own line, quoted as written
            assert len(line) <= 80, f"{path.name}: wider than 80 columns:\n{line}"
