"""`play` keeps its context (issue 21, item 8): `odds` answers for where the game stands (at a
choice: each value's chance); its logs go by default to a data folder, named by the ruleset
and the time, never over another."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import time
from fractions import Fraction

import pytest

from hazard_dsl.play.log import LogError, create_session_log, log_name, sessions_folder
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


# ------------------------------------------------------------------ the default log


def test_default_log_names_never_write_over_a_log(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    when = time.mktime((2025, 3, 1, 14, 22, 33, 0, 0, -1))
    assert log_name("cotton", when) == "cotton-2025-03-01-142233.jsonl"
    assert log_name("rules/My Rules.yaml", when) == "My-Rules-2025-03-01-142233.jsonl"
    made = []
    for _ in range(3):
        log = create_session_log("cotton", when=when)
        log.write({"event": "session"})
        log.close()
        made.append(os.path.basename(log.path))
    assert made == ["cotton-2025-03-01-142233.jsonl", "cotton-2025-03-01-142233-2.jsonl",
                    "cotton-2025-03-01-142233-3.jsonl"]
    for name in made:  # each written once, none over another
        assert (tmp_path / "hazard-dsl" / "sessions" / name).read_text() == '{"event": "session"}\n'


def test_the_data_folder_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert sessions_folder() == str(tmp_path / "data" / "hazard-dsl" / "sessions")
    assert stat.S_IMODE((tmp_path / "data").stat().st_mode) == 0o700  # every folder made is private
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # ignored, as the XDG specification says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert sessions_folder() == str(tmp_path / "home" / ".local" / "share" / "hazard-dsl" / "sessions")
    assert not os.path.exists("relative")
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "file"))
    with pytest.raises(LogError, match="no data folder for session logs"):
        sessions_folder()
