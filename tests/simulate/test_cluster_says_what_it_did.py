"""`simulate --scheduler` says what it did and never ignores a flag (issue 36, the third hostile
corpus): the report counts the cluster's workers (two here, not "1 worker"); a scheduler lost
mid-run is one error line, none of Dask's thirty lines of tracebacks; and the runs played one by
one on the table itself (seats' bets, --goal) refuse --scheduler and --workers rather than play
locally and exit 0. A real `dask scheduler` and `dask worker`s on loopback, as users start them
(the fixture of tests/simulate/test_dask_real.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest

from hazard_dsl.cli import main
from tests.conftest import ROOT
from tests.simulate.dask_cluster import start_cluster as _cluster
from tests.simulate.dask_cluster import stop as _stop

distributed = pytest.importorskip("distributed", reason="the cluster extra (pip install 'hazard-dsl[cluster]') "
                                                        "is not installed")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory):
    address, processes = _cluster(tmp_path_factory.mktemp("dask"), 2)
    try:
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)


def _command(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_report_counts_the_clusters_workers(two_workers):
    # four chunks, so that both workers have some to play
    run = _command("simulate", "cotton", "--games", str(4 * (1 << 21)), "--seed", "5", "--scheduler", two_workers,
                   "--json")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert json.loads(run.stdout)["workers"] == 2
    text = _command("simulate", "cotton", "--games", "1000", "--seed", "5", "--scheduler", two_workers)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Hazard (Cotton, 1674) — 1,000 games simulated (seed 5, 2 workers), beside")


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_lost_scheduler_is_one_error_line(tmp_path):
    address, processes = _cluster(tmp_path, 1)
    try:
        run = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "simulate", "cotton", "--games", str(10 ** 12),
                                "--seed", "1", "--scheduler", address], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True)
        try:
            time.sleep(8)  # connected, and chunks in flight
            assert run.poll() is None, run.communicate()
            _stop(processes[0])  # the scheduler, gone mid-run
            out, err = run.communicate(timeout=60)
        finally:
            _stop(run)
    finally:
        for process in reversed(processes):
            _stop(process)
    assert run.returncode == 1 and out == ""
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert re.fullmatch(rf"hazard-dsl: error: --scheduler {re.escape(address)}: the connection to the scheduler "
                        rf"was lost after [0-9,]+ of 476,838 chunks; was the scheduler stopped\?\n", err), err


@pytest.mark.parametrize("args, flag", [
    (["--bet", "Ben:side=1", "--scheduler", "tcp://127.0.0.1:9"], "scheduler"),
    (["--bet", "Ben:side=1", "--workers", "2"], "workers"),
    (["--goal", "30", "--purse", "20", "--scheduler", "tcp://127.0.0.1:9"], "scheduler"),
    (["--goal", "30", "--purse", "20", "--workers", "2"], "workers"),
])
def test_a_run_played_on_the_table_refuses_the_flags_it_cannot_honour(args, flag, capsys):
    assert main(["simulate", "cotton", "--players", "Ann,Ben", "--games", "10", "--seed", "1", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"hazard-dsl: error: --{flag}: sessions with --goal or with seats' bets (--bet "
                            f"SEAT:NAME=AMOUNT) are played in this process alone; leave --{flag} out\n")
