"""`die0` (or `die01`) reads no die: said so, with the file's dice, instead of "undefined name
'die0'" and "did you mean 'die3'?" (audit 10 finding 18), which guessed a die at random."""

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
