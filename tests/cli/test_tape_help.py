"""`run --help` and `play --help` show a tape of three dice and of dice that land off, and the
tapes they show are tapes the commands take (audit 10, "what the docs lack"; issue 37)."""

from __future__ import annotations

import json

import pytest

from hazard_dsl.cli import main

LANDING_OFF = """\
name: t
dice: 3d6
cocked:
  chance: 1/6
  rules:
    - otherwise: recast off or both by caster
phases:
  cast:
    - otherwise: push thrown
"""


@pytest.mark.parametrize("command", ["run", "play"])
def test_the_help_shows_three_dice_and_dice_off(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert '"3-3-5" for three dice' in said and '"x-x-4 5-x 2"' in said and "off or both" in said


def test_the_tapes_the_help_shows_are_taken(tmp_path, capsys):
    path = tmp_path / "t.yaml"
    path.write_text(LANDING_OFF, encoding="utf-8")
    assert main(["run", str(path), "--dice", "3-3-5", "--json"]) == 0
    assert [json.loads(line)["dice"] for line in capsys.readouterr().out.splitlines()] == [[3, 3, 5]]
    # two dice off with a cater kept, recast together: a cinque lands, the other die is off
    # again and recast alone, a deuce: the throw that stands is 5-2-4
    assert main(["run", str(path), "--dice", "x-x-4 5-x 2", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["dice"] for line in lines] == [[5, 2, 4]]
