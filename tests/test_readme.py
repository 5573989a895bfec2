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
