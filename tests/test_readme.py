"""The README opens with the two commands, and CI runs the second one as written."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_commands_and_ci_agree():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert len(block) == 2
    run, test = block
    assert run.endswith("hazard-dsl run rulesets/cotton.yaml")
    assert "pytest" in test and ".[test]" in test
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_states_the_limits_the_code_enforces():
    """One number in one place: the README's limits are the code's constants."""
    from hazard_dsl.compile.bets import MAX_BET_NODES, MAX_BET_NODES_TOTAL, MAX_FEE_STATES, MAX_FEE_STATES_TOTAL
    from hazard_dsl.compile.compiler import MAX_ALTERNATIVES, MAX_RULE_TESTS, MAX_STATES
    from hazard_dsl.diagnostics import MAX_DIAGNOSTICS
    from hazard_dsl.parse.expressions import MAX_EXPRESSION_CHARS, MAX_INT_DIGITS, MAX_NESTING
    from hazard_dsl.parse.numbers import MAX_DIGITS, MAX_YAML_DIGITS
    from hazard_dsl.parse.yaml_nodes import MAX_BYTES, MAX_NODES

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for phrase in (f"{MAX_BYTES:,} bytes", f"{MAX_NODES:,} YAML nodes", f"{MAX_EXPRESSION_CHARS:,} characters",
                   f"{MAX_NESTING} levels of nesting", f"{MAX_INT_DIGITS} digits in expressions",
                   f"{MAX_DIGITS} in amounts", f"{MAX_STATES:,} states", f"{MAX_ALTERNATIVES:,} choice alternatives",
                   f"{MAX_DIAGNOSTICS} problems are listed", f"{MAX_RULE_TESTS:,} conditions tried",
                   f"bets of at most {MAX_BET_NODES:,} states with the game each and {MAX_BET_NODES_TOTAL:,} states "
                   f"in all", f"fees of at most {MAX_FEE_STATES} states each and {MAX_FEE_STATES_TOTAL:,} states in all",
                   f"YAML integers of at most {MAX_YAML_DIGITS} digits"):
        assert phrase in readme, phrase


def test_readme_python_example_runs_and_says_what_it_shows():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```python\n", 1)[1].split("```", 1)[0]
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
