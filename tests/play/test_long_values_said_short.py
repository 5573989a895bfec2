"""A value of thousands of characters in a refusal is said by its opening, not in full
(issue 40's fuzz: a 5,000-digit purse edited into a log, a 5,000-digit option value)."""

from __future__ import annotations

import json

from hazard_dsl.cli import main


def test_a_huge_purse_edited_into_a_log_is_said_short(tmp_path, capsys):
    log = tmp_path / "session.log"
    assert main(["run", "craps", "--players", "Ann,Ben", "--seed", "1", "--log", str(log)]) == 0
    capsys.readouterr()
    lines = log.read_text().splitlines()
    assert '"purses": {"Ann": "20"' in lines[0]
    lines[0] = lines[0].replace('"purses": {"Ann": "20"', '"purses": {"Ann": "' + "9" * 5000 + '"')
    log.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    assert "(5,024 characters) in the log" in err and len(err) < 400, err
    json.loads(lines[1])  # the rest of the log as it was


def test_a_huge_option_value_is_said_short(capsys):
    assert main(["analyse", "cotton", "--option", "main=" + "9" * 5000]) != 0
    err = capsys.readouterr().err
    assert "option 'main' has no value '9999" in err and len(err) < 300, err
