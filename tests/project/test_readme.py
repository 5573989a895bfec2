"""The README is a user's README: it opens with the two commands (and CI runs the second one as
written), says what the tool does and how to use it, and leaves development history,
measurements and the code's internals to CHANGELOG.md, docs/performance.md and docs/layout.md.
The rule files' limits, stated in docs/rule-files.md, are the code's constants."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_commands_and_ci_agree():
    block = readme().split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert readme().startswith("# hazard-dsl\n\n```sh\n"), "the two commands come first"
    assert len(block) == 2
    run, test = block
    assert run == ("python3 -m venv .venv && . .venv/bin/activate && pip install . && "
                   "hazard-dsl run rulesets/cotton.yaml")
    assert test == ('python3 -m venv .venv && . .venv/bin/activate && pip install ".[test]" && '
                    'python -m pytest -n auto')
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


# What a development log says and a user's README does not: an issue's number, a round or a
# session of work, figures before and after a change.
HISTORY = re.compile(r"\bissues? #?\d+|(?<![\w&])#\d+\b|\bthis round\b|\b(?:last|previous) round's\b"
                     r"|\blast session\b|\bbefore/after\b", re.I)
# A cell of a table that holds a measurement: a duration, a rate, a ratio, a size in memory.
MEASURED = re.compile(r"\d\s*(?:ms|µs)\b|\d\.\d+ s\b|\d\s*×|games/s|throws/s|\bM/s\b|\bMiB\b|\bload average\b", re.I)


def test_the_readme_has_no_development_history():
    for number, line in enumerate(readme().splitlines(), 1):
        found = HISTORY.search(line)
        assert not found, f"README.md:{number}: {found.group()!r} is development history (CHANGELOG.md)"


def test_the_readme_has_no_measurements():
    """Figures of speed and memory belong to docs/performance.md, which the benchmarks rewrite."""
    for number, line in enumerate(readme().splitlines(), 1):
        found = MEASURED.search(line)
        assert not found, f"README.md:{number}: {found.group()!r} is a measurement (docs/performance.md)"


def test_the_detectors_catch_what_they_are_for():
    """The two tests above could fail: each pattern finds the text the old README had."""
    for text in ("**Cold start (issue 27).**", "One run of this round (load 0.9)", "the last round's run",
                 "see #27", "| measure | before/after |"):
        assert HISTORY.search(text), text
    for text in ("| cotton | 40,567,951 | 43 MiB |", "| 1.43× |", "| chicken | 1.65 ms |", "733 M/s", "12 games/s",
                 "check 5.61× (0.55 s)"):
        assert MEASURED.search(text), text
    for text in ("`--bet odds=3-4-5x`", "1979/4032 (49.08%)", "at most 1,000,000 bytes a line", "Hazard & Craps",
                 "half a guinea, 10s 6d", "within 5 s"):
        assert not HISTORY.search(text) and not MEASURED.search(text), text


def test_the_readme_names_no_internals():
    """Modules and tests are for contributors (docs/layout.md); a user reads commands and files."""
    for number, line in enumerate(readme().splitlines(), 1):
        found = re.search(r"\b(?:hazard_dsl|tests|bench)/\S*|\b\w+\.py\b", line)
        assert not found, f"README.md:{number}: {found.group()!r} is an internal name (docs/layout.md)"


def test_the_readme_lists_every_command_and_links_its_details():
    from tests.project.test_docs import commands_and_options

    table = [line for line in readme().splitlines() if line.startswith("| `hazard-dsl ")]
    for command in commands_and_options():
        assert any(line.startswith(f"| `hazard-dsl {command}") for line in table), \
            f"the README's Commands table has no row for {command}"
    assert "docs/commands.md" in readme() and "docs/performance.md" in readme() and "CHANGELOG.md" in readme()


def test_the_limits_a_rule_file_has_are_the_codes_constants():
    """One number in one place: the limits docs/rule-files.md states are the code's constants."""
    from hazard_dsl.compile.bets import MAX_BET_NODES, MAX_BET_NODES_TOTAL
    from hazard_dsl.compile.fees import MAX_FEE_STATES, MAX_FEE_STATES_TOTAL
    from hazard_dsl.compile.compiler import MAX_ALTERNATIVES, MAX_RULE_TESTS, MAX_STATES
    from hazard_dsl.diagnostics import MAX_DIAGNOSTICS
    from hazard_dsl.parse.expressions import MAX_EXPRESSION_CHARS, MAX_INT_DIGITS, MAX_NESTING
    from hazard_dsl.parse.numbers import MAX_DIGITS, MAX_YAML_DIGITS
    from hazard_dsl.parse.yaml_nodes import MAX_BYTES, MAX_NODES

    page = " ".join((ROOT / "docs" / "rule-files.md").read_text(encoding="utf-8").split())
    for phrase in (f"{MAX_BYTES:,} bytes", f"{MAX_NODES:,} YAML nodes", f"{MAX_EXPRESSION_CHARS:,} characters",
                   f"{MAX_NESTING} levels of nesting", f"{MAX_INT_DIGITS} digits in expressions",
                   f"{MAX_DIGITS} in amounts", f"{MAX_STATES:,} states", f"{MAX_ALTERNATIVES:,} choice alternatives",
                   f"{MAX_DIAGNOSTICS} problems are listed", f"{MAX_RULE_TESTS:,} conditions tried",
                   f"bets of at most {MAX_BET_NODES:,} states with the game each and {MAX_BET_NODES_TOTAL:,} states "
                   f"in all", f"fees of at most {MAX_FEE_STATES} states each and {MAX_FEE_STATES_TOTAL:,} states in all",
                   f"YAML integers of at most {MAX_YAML_DIGITS} digits"):
        assert phrase in page, phrase


def test_readme_python_example_runs_and_says_what_it_shows():
    block = readme().split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    results = []
    for line in block.splitlines():
        code, _, comment = line.partition("  # ")
        if not code.strip():
            continue
        if code.startswith("import ") or "=" in code.split("(")[0]:
            exec(code, namespace)
        else:
            value = eval(code, namespace)
            results.append((repr(value), comment.strip()))
    from fractions import Fraction

    shown = dict((c, v) for v, c in results)
    assert shown["Fraction(1979, 4032)"] == repr(Fraction(1979, 4032))
    assert shown["7"] == "7"
    assert shown["Fraction(7, 1870)"] == repr(Fraction(7, 1870))
