"""A bet without `pays:` beside another bet's rule that lost its `when:` (found by the fuzz of
the language service's per-section reuse, /work/notes/fuzz41/report.md F12): the pays error
was left unsaid as following from the bets section in error, the game explored all the same,
and the bet compiled without its payout — `check` exit 70, the language service an
AttributeError. Now the game waits for such an error, as for any other."""

from __future__ import annotations

from pathlib import Path

from hazard_dsl.cli import main
from hazard_dsl.language.service import LanguageService

SIC_BO = Path(__file__).parents[2] / "rulesets" / "sic_bo.yaml"


def broken() -> str:
    lines = SIC_BO.read_text().split("\n")
    pays = next(i for i, line in enumerate(lines) if line.startswith("  double_2:")) + 4
    assert lines[pays].strip().startswith("pays:")
    when = next(i for i, line in enumerate(lines) if line.strip() == "- when: count(3) == 3")
    return "\n".join(line for i, line in enumerate(lines) if i not in (pays, when))


def test_check_says_the_errors_and_holds_the_game_back(tmp_path, capsys):
    path = tmp_path / "sic_bo_broken.yaml"
    path.write_text(broken())
    assert main(["check", str(path)]) == 1  # was 70, an internal error
    err = capsys.readouterr().err
    assert "a rule needs `when:` and `do:`" in err and "held back: the game itself" in err


def test_the_language_service_answers_it():
    service = LanguageService()
    service.open("file:///tmp/fuzz41/sic_bo.yaml", broken(), 1)
    problems = service.diagnostics("file:///tmp/fuzz41/sic_bo.yaml")  # was AttributeError
    assert any("a rule needs `when:` and `do:`" in repr(p) for p in problems)
