"""A real Dask cluster for the tests, started as a user would (`dask scheduler`, `dask worker`
on 127.0.0.1, each in a session of its own), and stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time


def stop(process: subprocess.Popen) -> None:
    """A process started here (in a session of its own) stopped: asked, then told."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def start_cluster(folder, workers: int):
    """`dask scheduler` and `workers` × `dask worker --nthreads 1` on 127.0.0.1: (its address,
    the processes, the scheduler's first)."""
    import distributed  # the cluster extra: the tests that start a cluster skip without it

    address_file = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True, "cwd": folder}
    dask = [sys.executable, "-m", "dask"]
    processes = [subprocess.Popen(dask + ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                          "--scheduler-file", str(address_file)], **quiet)]
    try:
        deadline = time.monotonic() + 30
        while not address_file.exists() or not address_file.read_text().strip():
            assert processes[0].poll() is None, "dask scheduler stopped"
            assert time.monotonic() < deadline, "dask scheduler did not start within 30 s"
            time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        for k in range(workers):
            processes.append(subprocess.Popen(dask + ["worker", address, "--nworkers", "1", "--nthreads", "1",
                                                      "--host", "127.0.0.1", "--no-dashboard", "--local-directory",
                                                      str(folder / f"worker{k}")], **quiet))
        with distributed.Client(address, timeout=10, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=30)
    except BaseException:
        for process in reversed(processes):
            stop(process)
        raise
    return address, processes
