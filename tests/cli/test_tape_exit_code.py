"""Every --dice error exits 2 (audit 10, finding 8): a tape refused as it is read (a face 7, a
throw of the wrong width, `1.5`) and one refused only once played (a recast of the wrong width,
a lone face where the rules want a cast) are the same kind of mistake, a bad argument; the
second exited 1. A log the rules refuse stays exit 1 (a file, not a flag)."""

from __future__ import annotations

import pytest

from hazard_dsl.cli import main

# the audit's rf/cocked3.yaml: three dice landing off one time in six, the caster choosing
COCKED3 = """\
name: Cocked three
dice: 3d6
cocked:
  chance: 1/6
  rules:
    - when: off == 3
      do: recast both
    - otherwise: recast off or both by caster
phases:
  cast:
    - when: total >= 11
      do: win high
    - otherwise: lose low
"""


@pytest.fixture
def cocked3(tmp_path):
    path = tmp_path / "cocked3.yaml"
    path.write_text(COCKED3)
    return str(path)


@pytest.mark.parametrize("tape, words", [
    # refused once played: the dice off (two) are recast together, so two faces, not one
    ("x-x-4 5 2", "--dice: throw 2 is '5', but here the dice want dice 1, 2 recast together: 2 faces, like 5-x"),
    ("5 2", "--dice: throw 1 is '5', but here the dice want a cast of all three dice, like 3-4-3"),
    # issue 40's fuzz: fewer faces than the dice at a cast (a recast's width) were taken as the
    # cast: 5-x and x-x ended in a KeyError (exit 70), and 5-3 was narrated as a throw of two dice
    ("5-x", "--dice: throw 1 is '5-x', but here the dice want a cast of all three dice, like 3-4-3"),
    ("x-x", "--dice: throw 1 is 'x-x', but here the dice want a cast of all three dice, like 3-4-3"),
    ("5-3", "--dice: throw 1 is '5-3', but here the dice want a cast of all three dice, like 3-4-3"),
    ("5-x-4 off 2 6-6", "--dice: throw 4 is '6-6', but here the dice want a cast of all three dice, like 3-4-3"),
    ("off", "--dice: throw 1 is 'off', but here the dice want a throw"),
    # refused as read
    ("7-1-1", "--dice: throw 1 is '7-1-1'; write each throw as three faces 1-6"),
    ("1.5", "--dice: throw 1 is '1.5'; write each throw as three faces 1-6"),
    ("crown-1-1", "--dice: throw 1 is 'crown-1-1'; write each throw as three faces 1-6"),
])
def test_every_tape_error_exits_2(cocked3, capsys, tape, words):
    assert main(["run", cocked3, "--dice", tape]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hazard-dsl: error: {words}"), err
    assert len(err.strip().splitlines()) == 1


def test_a_tape_that_fits_still_plays(cocked3, capsys):
    # 5-x-4: the second die off; `off`: it alone is recast, showing a 2: 5-2-4 stands, 11, high
    assert main(["run", cocked3, "--dice", "5-x-4 off 2", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"dice": [5, 2, 4]' in out and '"label": "high"' in out
