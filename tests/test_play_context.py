"""`play` keeps its context (issue 21, item 8): `odds` answers for where the game stands (at a
choice: each value's chance)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from fractions import Fraction

import pytest

from hazard_dsl.render.prompt import chance_words
from hazard_dsl.solve.markov import ONE, ZERO, Solver

from .conftest import ROOT, machine


def cli(*argv, stdin="", data=None, env=None):
    more = dict(env or {}, COLUMNS="100")
    if data is not None:
        more["XDG_DATA_HOME"] = str(data)
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, **more), timeout=120)


# ------------------------------------------------------------------ odds at a choice


@pytest.mark.parametrize("ruleset, options", [("chicken", []), ("cotton", ["--option", "main=called"])])
def test_odds_at_choose_the_main_give_each_mains_chance(ruleset, options):
    result = cli("play", ruleset, *options, "--players", "Ann,Ben", "--seed", "1", stdin="odds\nquit\n")
    assert result.returncode == 0, result.stderr
    m = machine(ruleset, **({"main": "called"} if options else {}))
    start = m.states[m.start.target]
    assert start.kind == "choice" and start.variable == "main"
    solver = Solver(m)
    solver.set_policy("optimal")
    win = solver.backward(lambda s: ONE if s.result == "win" else ZERO)
    listed = re.findall(r"^  (\d+): wins (.*?)(, the best)?$", result.stdout, re.M)
    assert [int(v) for v, _, _ in listed] == [v for v, _ in start.alternatives] == [5, 6, 7, 8, 9]
    for (value, said, _), (_, step) in zip(listed, start.alternatives):
        assert said == chance_words(win[step.target])
    best = [int(v) for v, _, mark in listed if mark]
    assert best == [7]  # seven is the best main: 244 times in 495
    assert win[start.alternatives[2][1].target] == Fraction(244, 495)
    assert "7: wins 244 times in 495 (49.29%), the best" in result.stdout
