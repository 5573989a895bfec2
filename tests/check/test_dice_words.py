"""Words about the dice for any number of them (audit 10 finding 18): `die0` (or `die01`) reads
no die, said so with the file's dice, instead of "undefined name 'die0'" and "did you mean
'die3'?", which guessed a die; an unknown recast is told what `off` and `both` take up in words
that hold for three dice as for two."""

from __future__ import annotations

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.diagnostics import ERROR


@pytest.mark.parametrize("name, dice, listed", [("die0", "3d6", "die1, die2, die3"), ("die00", "2d6", "die1, die2"),
                                                ("die01", "2d6", "die1, die2")])
def test_die_zero_reads_no_die(tmp_path, name, dice, listed):
    path = tmp_path / "z.yaml"
    path.write_text(f"name: z\ndice: {dice}\nphases:\n  cast:\n    - when: {name} == 1\n      do: win\n"
                    "    - otherwise: lose\n")
    (error,) = [d for d in check_file(path) if d.severity == ERROR]
    assert error.message == f"{name!r} reads no die: the dice are counted from 1"
    assert error.hint == f"the dice are {listed}"
    assert (error.position.line, error.position.column) == (5, 13)


def test_an_unknown_recast_is_told_in_words_for_any_number_of_dice(tmp_path):
    # `recast everything` in a file of three dice: `both` is every die, not "the two" (audit 10
    # finding 18: "`off` (the die that landed off) or `both`", words for two dice)
    path = tmp_path / "r.yaml"
    path.write_text("name: r\ndice: 3d6\ncocked:\n  chance: 1/6\n  rules:\n    - otherwise: recast everything\n"
                    "phases:\n  cast:\n    - when: total >= 11\n      do: win\n    - otherwise: lose\n")
    (error,) = [d for d in check_file(path) if d.severity == ERROR]
    assert error.message == ("recast everything: recast names the dice thrown again, `off` (the dice that landed "
                             "off) or `both` (every die)")
