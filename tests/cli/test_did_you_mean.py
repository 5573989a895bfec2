""""Did you mean" for a mistyped command, choice or flag, worked out from the parser's own data,
never from argparse's messages (issue 36): CPython has changed their wording between releases
(3.12.8 and 3.13.1 dropped the quotes round "choose from" choices), which silently broke it.

Each case is run three ways: as it is; with argparse's every message reworded (as a release or a
translation might word them); and under every other Python 3.10+ found on this machine (pyenv's,
or python3.N on PATH), in a process of its own."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hazard_dsl.cli import main

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = "check, list, show, run, play, replay, analyse, analyze, compare, graph, rules, simulate, schema, serve, lsp"

CASES = [
    (["anlyse", "cotton"], f"hazard-dsl: error: no command 'anlyse' (did you mean 'analyse'?); commands: {COMMANDS}"),
    (["lisst", "--json"], f"hazard-dsl: error: no command 'lisst' (did you mean 'list'?); commands: {COMMANDS}"),
    (["xyz"], f"hazard-dsl: error: no command 'xyz'; commands: {COMMANDS}"),
    (["analyse", "cotton", "--format", "jsn"],
     "hazard-dsl analyse: error: --format takes text, json, markdown, csv, not 'jsn' (did you mean 'json'?)"),
    (["graph", "cotton", "--format", "sv"],
     "hazard-dsl graph: error: --format takes dot, mermaid, svg, png, json, not 'sv' (did you mean 'svg'?)"),
    (["schema", "--format", "yaml"], "hazard-dsl schema: error: --format takes json, not 'yaml'"),
    (["simulate", "cotton", "--engine", "numba"],
     "hazard-dsl simulate: error: --engine takes numpy, compiled, not 'numba' (did you mean 'numpy'?)"),
    (["check", "--formt", "json", "x.yaml"],
     "hazard-dsl check: error: unrecognized argument: --formt (did you mean '--format'?)"),
    (["analyse", "cotton", "--polcy=optimal", "--jsno"], "hazard-dsl analyse: error: unrecognized arguments: "
     "--polcy=optimal (did you mean '--policy'?), --jsno (did you mean '--json'?)"),
    (["simulate", "cotton", "--sed", "3"],
     "hazard-dsl simulate: error: unrecognized arguments: --sed (did you mean '--seed'?), 3"),
    # simulate has no --bankroll: its help names analyse's, which is no flag of simulate's
    (["simulate", "cotton", "--bankrol", "3"], "hazard-dsl simulate: error: unrecognized arguments: --bankrol, 3"),
    # a flag is taken only as spelled (allow_abbrev=False): argparse read `--bankrol` as
    # `--bankroll`, its only flag so begun, and said "--bankroll, --goal and --stake go together"
    # (audit 10 finding 12)
    (["analyse", "cotton", "--bankrol", "10"],
     "hazard-dsl analyse: error: unrecognized arguments: --bankrol (did you mean '--bankroll'?), 10"),
    (["analyse", "cotton", "--stop-l=3"],
     "hazard-dsl analyse: error: unrecognized argument: --stop-l=3 (did you mean '--stop-loss'?)"),
    (["--vers"], "hazard-dsl: error: unrecognized argument: --vers (did you mean '--version'?); no command "
                 "given (hazard-dsl --help lists them)"),
    (["analyze", "cotton", "--stop_loss", "3"],
     "hazard-dsl analyse: error: unrecognized arguments: --stop_loss (did you mean '--stop-loss'?), 3"),
    (["list", "--quiet-ish"], "hazard-dsl list: error: unrecognized argument: --quiet-ish"),
    (["--json", "list"],
     "hazard-dsl list: error: unrecognized argument: --json (it goes after the command: hazard-dsl list --json …)"),
    (["--verison"], "hazard-dsl: error: unrecognized argument: --verison (did you mean '--version'?); no command "
                    "given (hazard-dsl --help lists them)"),
    (["--verison", "--json"], "hazard-dsl: error: unrecognized arguments: --verison (did you mean '--version'?), "
                              "--json (did you mean '--version'?); no command given (hazard-dsl --help lists them)"),
    ([], "hazard-dsl: error: the following arguments are required: COMMAND"),
    (["-x"], "hazard-dsl: error: the following arguments are required: COMMAND"),
]


def said(argv: list[str], capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    return exit_.value.code, capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize("argv, expected", CASES)
def test_did_you_mean(argv, expected, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # one line each: the message, not how it is fitted
    assert said(argv, capsys) == (2, expected)


def _reworded(text: str) -> str:
    """argparse's messages in other words, each template's fields kept: CPython 3.12.8's choices
    without quotes, and a translation's words for the rest."""
    text = text.replace("invalid choice: %(value)r (choose from %(choices)s)",
                        "invalid choice: %(value)s (choose from %(choices)s)")
    for english, other in [("invalid choice", "choix invalide"), ("unrecognized arguments", "arguments non reconnus"),
                           ("the following arguments are required", "ces arguments sont requis"),
                           ("argument ", "argument ยง "), ("choose from", "choisir parmi")]:
        text = text.replace(english, other)
    return text


@pytest.mark.parametrize("argv, expected", CASES)
def test_did_you_mean_whatever_argparse_says(argv, expected, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(argparse, "_", _reworded)
    monkeypatch.setattr(argparse, "ngettext", lambda one, many, n: _reworded(one if n == 1 else many))
    assert _reworded("argument %s: invalid choice: %(value)r") != "argument %s: invalid choice: %(value)r"
    assert said(argv, capsys) == (2, expected)


def _other_pythons() -> list[str]:
    """Python 3.10+ interpreters on this machine besides the one running the tests."""
    import glob
    import shutil

    pyenv = os.environ.get("PYENV_ROOT", str(Path.home() / ".pyenv"))
    found = glob.glob(f"{pyenv}/versions/3.*/bin/python3")
    found += [path for path in (shutil.which(f"python3.{minor}") for minor in range(10, 20)) if path]
    others = {}
    for path in found:
        version = subprocess.run([path, "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True,
                                 text=True).stdout.split()
        if len(version) == 2 and (3, 10) <= tuple(map(int, version)) != sys.version_info[:2]:
            others.setdefault(tuple(map(int, version)), path)
    return [others[version] for version in sorted(others)]


@pytest.mark.parametrize("python", _other_pythons() or [pytest.param(None, marks=pytest.mark.skip(
    reason="no other Python 3.10+ on this machine (pyenv's versions or python3.N on PATH)"))])
def test_did_you_mean_on_another_python(python):
    # the parser alone: building it and parsing a command line needs none of the project's
    # dependencies, so the other interpreter runs the working tree's code as it is
    script = ("import contextlib, io, json, sys\n"
              "from hazard_dsl.cli import main\n"
              "out = []\n"
              "for argv in json.loads(sys.argv[1]):\n"
              "    err = io.StringIO()\n"
              "    with contextlib.redirect_stderr(err):\n"
              "        try: main(argv)\n"
              "        except SystemExit as exit_: out.append([exit_.code, err.getvalue().splitlines()[-1]])\n"
              "print(json.dumps([sys.version_info[:2], out]))\n")
    result = subprocess.run([python, "-c", script, json.dumps([argv for argv, _ in CASES])], capture_output=True,
                            text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    version, out = json.loads(result.stdout)
    assert tuple(version) != sys.version_info[:2]
    assert out == [[2, expected] for _, expected in CASES]
