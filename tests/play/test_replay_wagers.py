"""`hazard-dsl replay LOG` of a session cut short ends, as `play`'s stop line does, with the
purses and the wagers up (render.recap.wagers_up), then the command that goes on."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT


def cli(*argv, stdin=""):
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, COLUMNS="80"), timeout=120)


def test_the_end_of_a_cut_log_shows_the_wagers_up(tmp_path):
    log = tmp_path / "x.log"
    # Cotton, seed 1: Ann throws seven, the main; Ben stakes 1s 6d, Ann covers; quit at the next throw
    played = cli("play", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", str(log),
                 stdin="\n1s 6d\n\nquit\n")
    assert "Seven is the main." in played.stdout and "Ben sets 1s 6d; Ann covers it." in played.stdout
    assert played.returncode == 0, played.stderr
    replayed = cli("replay", str(log))
    assert replayed.returncode == 0, replayed.stderr
    end = replayed.stdout[replayed.stdout.index("The log ends here"):]
    assert " ".join(end.split()) == (
        "The log ends here, before the session ended. Purses: Ann £1, Ben £1. "
        "Wagers up: "
        "Ann stakes on the cast against Ben: 1s 6d at risk, a win pays 1s 6d. "
        "Ben sets the stake against Ann: 1s 6d at risk, a win pays 1s 6d. "
        f"hazard-dsl play --resume {log} goes on from here.")
    assert all(len(line) <= 80 for line in replayed.stdout.splitlines() if str(log) not in line)
