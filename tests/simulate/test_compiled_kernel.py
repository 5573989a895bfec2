"""The compiled kernel (`simulate --engine compiled`, the `fast` extra). That it agrees with the
exact solver as the NumPy engine does — every shipped ruleset, under each value of each of its
options, every bet and the bets that back another, within four standard errors — is tested in
tests/simulate/test_simulation_agrees.py, for both engines on the same cases and seeds. It plays exactly N games, and a seed gives the same figures with
it every time and whatever the workers. Its random numbers are its own, so its figures are not
the NumPy engine's (README, "The compiled kernel")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled kernel needs Numba (pip install 'hazard-dsl[fast]')")

from hazard_dsl.simulate import compiled, engine  # noqa: E402
from hazard_dsl.simulate.simulation import execute, prepare_games  # noqa: E402
from tests.conftest import machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("games", [1, 2, 7, 8, 9, 15, 16, 17, 1001])
def test_exactly_n_games_and_the_counts_the_report_reads(games):
    """Exactly N games end (the kernel's fast rounds stop before the N-th start, the rest lane by
    lane), and the rows the report reads are counted as the NumPy engine counts them: each tagged
    row once per visit, so the endings add up to N."""
    table = prepare_games(machine("craps"), 10, 1).tables[0]
    counts, throws = compiled.run_chunk(table, games, np.random.SeedSequence(games))
    assert int(counts[table.first_tag:].sum()) == games
    assert int(counts[:table.first_tag].sum()) == 0  # plain rows are never counted
    assert throws >= 1 * games
    reference, _ = engine.run_chunk(table, games, engine.generator(np.random.SeedSequence(games)))
    assert int(reference[table.first_tag:].sum()) == games


def test_the_same_seed_gives_the_same_figures_whatever_the_workers():
    def run(workers):
        context = prepare_games(machine("cotton"), 300_000, 5, bets=(), per_chunk=50_000, engine="compiled")
        report = execute(context, workers)[0]
        return {k: report[k] for k in ("win", "lose", "labels", "throws", "throws_made")}

    assert run(1) == run(1) == run(2)


def test_the_engines_estimate_the_same_game_from_different_numbers():
    numpy_report = execute(prepare_games(machine("cotton"), 200_000, 9), 1)[0]
    compiled_report = execute(prepare_games(machine("cotton"), 200_000, 9, engine="compiled"), 1)[0]
    assert numpy_report["games"] == compiled_report["games"] == 200_000
    assert numpy_report["win"]["exact"] == compiled_report["win"]["exact"]
    assert numpy_report["win"]["rate"] != compiled_report["win"]["rate"]  # its own random numbers


def _run(*args):
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_the_command_runs_on_the_compiled_kernel():
    done = _run("simulate", "craps", "--games", "20000", "--seed", "4", "--engine", "compiled", "--workers", "1",
                "--bet", "pass=1", "--json")
    assert done.returncode == 0, done.stderr
    import json

    report = json.loads(done.stdout)
    assert report["games"] == 20000 and abs(report["win"]["z"]) <= 4


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_sessions_at_the_table_run_on_the_compiled_kernel():
    """The same command, the same numbers on either side of --workers; other numbers than the
    NumPy engine's (its own random numbers), money conserved in every session."""
    import json

    runs = [json.loads(_run("simulate", "hoyle", "--players", "Ann,Ben,Cat", "--games", "3000", "--seed", "4",
                            "--engine", engine, "--workers", workers, "--json").stdout)
            for engine, workers in (("compiled", "1"), ("compiled", "2"), ("numpy", "1"))]
    for report in runs:
        assert report["sessions"] == 3000 and report["money_conserved"]
    assert runs[0]["seats"] == runs[1]["seats"] and runs[0]["games"] == runs[1]["games"]
    assert runs[0]["seats"] != runs[2]["seats"]


def test_numba_is_imported_only_when_the_compiled_engine_plays():
    code = ("import sys; from hazard_dsl.cli import main; "
            "main(['analyse', 'craps', '--json']); main(['check', 'rulesets/cotton.yaml']); "
            "main(['simulate', 'cotton', '--games', '1000', '--workers', '1', '--json']); "
            "import hazard_dsl.simulate.compiled; print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr[-2000:]


def test_the_python_api_takes_the_engine():
    import hazard_dsl

    cotton = hazard_dsl.load("cotton")
    estimate = cotton.simulate(games=100_000, seed=3, engine="compiled").win
    assert abs(estimate.z) <= 4
    assert cotton.simulate(games=100_000, seed=3, engine="compiled").win == estimate
    with pytest.raises(ValueError, match="engine"):
        cotton.simulate(games=10, engine="fast")
    hoyle = hazard_dsl.load("hoyle")
    at_table = [hoyle.simulate(games=300, seed=2, players=["Ann", "Ben"], engine="compiled") for _ in range(2)]
    assert at_table[0].money_conserved and at_table[0].sessions == 300
    assert at_table[0].games == at_table[1].games and at_table[0].to_json()["seats"] == at_table[1].to_json()["seats"]
