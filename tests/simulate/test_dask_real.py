"""`simulate --scheduler` as users run it: a real `dask scheduler` and two `dask worker` processes
on loopback, the command in a process of its own (where no default Dask client exists) giving the
local run's figures; fake servers on a loopback port that speak HTTP, garbage or nothing; bad
addresses; and a run's chunks made as they are asked for, never listed up front (issue 20).
"""

from __future__ import annotations

import json
import socket
import struct
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import islice

import pytest

from hazard_dsl.cli import main
from hazard_dsl.simulate.chunks import GAMES_PER_CHUNK, ClusterError, Plan
from hazard_dsl.simulate.run import play
from hazard_dsl.simulate.simulation import execute, prepare_games
from tests.conftest import ROOT, machine
from tests.simulate.dask_cluster import start_cluster, stop

distributed = pytest.importorskip("distributed", reason="the cluster extra (pip install 'hazard-dsl[cluster]') "
                                                        "is not installed")

from hazard_dsl.simulate.cluster import scheduler_address  # noqa: E402 - needs the extra

TIMINGS = {"seconds", "games_per_second", "throws_per_second", "sessions_per_second", "workers"}


def _figures(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in TIMINGS}


def _command(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


# --------------------------------------------------------------------------- a real cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """`dask scheduler` and two `dask worker --nworkers 1 --nthreads 1` on 127.0.0.1, as a user
    would start them; the scheduler's address. Every process is stopped at the end."""
    address, processes = start_cluster(tmp_path_factory.mktemp("dask"), 2)
    try:
        yield address
    finally:
        for process in reversed(processes):
            stop(process)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_command_on_a_real_cluster_gives_the_local_figures(cluster):
    games = 3 * GAMES_PER_CHUNK - 1000  # three chunks, the last one short
    remote = _command("simulate", "cotton", "--games", str(games), "--seed", "11", "--scheduler", cluster, "--json")
    assert remote.returncode == 0, remote.stderr
    assert remote.stderr == ""  # none of Dask's log lines
    local = execute(prepare_games(machine("cotton"), games, 11), 1)[0]
    report = json.loads(remote.stdout)
    assert report["games"] == games and report["chunks"] == 3
    assert _figures(report) == _figures(json.loads(json.dumps(local)))


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_sessions_on_a_real_cluster_give_the_local_figures(cluster):
    args = ("simulate", "chicken", "--players", "Ann,Ben,Cat", "--rounds", "2", "--games", "5000", "--seed", "3",
            "--json")
    remote = _command(*args, "--scheduler", cluster)
    local = _command(*args, "--workers", "1")
    assert remote.returncode == 0 == local.returncode, remote.stderr + local.stderr
    report = json.loads(remote.stdout)
    assert report["sessions"] == 5000 and report["money_conserved"] is True
    assert _figures(report) == _figures(json.loads(local.stdout))


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_few_chunks_are_in_flight_not_all(cluster):
    """Two per worker thread (two workers of one thread here), as the local pool keeps two per
    worker: a run of 10**13 games is not five million futures."""
    plan = prepare_games(machine("cotton"), 40 * 5_000, 4, per_chunk=5_000).plan
    with distributed.Client(cluster, timeout=10, set_as_default=False) as client:
        submitted, in_flight = [], []
        submit = client.submit

        def counted(*args, **kwargs):
            submitted.append(args[2])  # the chunk's index
            return submit(*args, **kwargs)

        client.submit = counted
        remote = play(plan, scheduler=client, done=lambda result: in_flight.append(len(submitted) - len(in_flight) - 1))
    assert sorted(submitted) == list(range(40)) and len(in_flight) == 40
    assert max(in_flight) == 4 and in_flight[-1] == 0
    local = play(plan)
    assert remote.count == local.count == 200_000
    assert [c.tolist() for c in remote.counts] == [c.tolist() for c in local.counts]


# --------------------------------------------------------------------------- fake servers


@contextmanager
def _fake_server(speaks: str):
    """A loopback port whose server accepts and then speaks HTTP (answering what it is sent, as
    a web server does), garbage, nothing, or a scheduler's greeting and then nothing."""
    import msgpack

    options = msgpack.packb({"compression": None, "python": [3, 11, 0], "pickle-protocol": 5})
    greeting = struct.pack("QQQ", 16 + len(options), 1, len(options)) + options
    server = socket.create_server(("127.0.0.1", 0))
    held, stop = [], threading.Event()

    def serve():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)  # never closed before the end: "accepts and never answers"
            try:
                if speaks == "http":
                    conn.settimeout(5)
                    conn.recv(1024)
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\n\r\nBad Request")
                elif speaks == "garbage":
                    conn.sendall(bytes(range(256)) * 4)
                elif speaks == "greeting":
                    conn.sendall(greeting)
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        server.close()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_fake_servers_are_one_error_line_in_seconds():
    """All four at once (each waits up to a few seconds for an answer that never comes)."""
    kinds = ("http", "garbage", "nothing", "greeting")
    with _fake_server("http") as http, _fake_server("garbage") as garbage, _fake_server("nothing") as nothing, \
            _fake_server("greeting") as greeting:
        begun = time.monotonic()
        runs = [subprocess.Popen([sys.executable, "-m", "hazard_dsl", "simulate", "cotton", "--games", "1000",
                                  "--scheduler", address], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, cwd=ROOT, start_new_session=True)
                for address in (http, garbage, nothing, greeting)]
        try:
            ended = [run.communicate(timeout=30) + (time.monotonic() - begun,) for run in runs]
        finally:
            for run in runs:
                stop(run)
    for kind, run, (out, err, seconds) in zip(kinds, runs, ended):
        assert run.returncode == 1, (kind, err)
        assert out == "" and "Traceback" not in err, (kind, err)
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("hazard-dsl: error: --scheduler tcp://127.0.0.1:"), (kind, err)
        assert seconds < 12, (kind, seconds)
    said = {kind: err for kind, (out, err, seconds) in zip(kinds, ended)}
    assert "a web server answered" in said["http"]
    assert "not a Dask scheduler" in said["garbage"]
    assert "no answer as a Dask scheduler within 5 s" in said["nothing"]
    assert "did not answer the client" in said["greeting"]


# --------------------------------------------------------------------------- addresses


@pytest.mark.parametrize("text, address", [
    ("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"),
    ("127.0.0.1:8786", "tcp://127.0.0.1:8786"),  # Dask's default scheme
    ("TCP://scheduler.example.org:1", "tcp://scheduler.example.org:1"),
    ("tcp://dask_scheduler:65535", "tcp://dask_scheduler:65535"),  # a docker-compose service name
    ("tcp://[::1]:8786", "tcp://[::1]:8786"),
    ("tcp://10.0.0.5:08786", "tcp://10.0.0.5:8786"),
])
def test_good_addresses(text, address):
    assert scheduler_address(text)[0] == address


@pytest.mark.parametrize("text, message", [
    ("", "give the scheduler's address"),
    ("tcp://127.0.0.1", "give the port too: tcp://127.0.0.1:8786"),
    ("127.0.0.1", "give the port too"),
    ("tcp://127.0.0.1:", "the port must be a number from 1 to 65535, not ''"),
    ("tcp://127.0.0.1:abc", "not 'abc'"),
    ("tcp://127.0.0.1:0", "not '0'"),
    ("tcp://127.0.0.1:65536", "not '65536'"),
    ("tcp://127.0.0.1:-1", "not '-1'"),
    ("tcp://127.0.0.1:1e3", "not '1e3'"),
    ("tcp://127.0.0.1:\u0668\u0667\u0668\u0666", "plain characters"),  # Arabic-Indic digits
    ("tcp://127.0.0.1:８７８６", "plain characters"),
    ("tcp://:8786", "the host is missing"),
    ("tcp://bad host:8786", "plain characters"),
    ("tcp://a..b:8786", "not a host name"),
    ("tcp://-a:8786", "not a host name"),
    (" tcp://127.0.0.1:8786", "plain characters"),
    ("tcp://127.0.0.1:8786\n", "plain characters"),
    ("tcp://127.0.0.1:8786/status", "no path"),
    ("tcp://ann@127.0.0.1:8786", "no path, user"),
    ("tcp://::1:8786", "in brackets: tcp://[::1]:8786"),
    ("tcp://[::1", "in brackets"),
    ("tcp://[nope]:8786", "not an IPv6 address"),
    ("http://127.0.0.1:8787", "that is a web address"),
    ("https://dask.example.org/status", "that is a web address"),
    ("inproc://10.0.0.5/1234/1", "inproc:// is a scheduler inside this same process"),
    ("tls://127.0.0.1:8786", "tls:// needs certificates"),
    ("ucx://127.0.0.1:8786", "ucx:// needs UCX"),
    ("ws://127.0.0.1:8786", "ws:// is not supported"),
    ("udp://127.0.0.1:8786", "udp:// is not a Dask scheme"),
    ("tcp://" + "a" * 300 + ":1", "plain characters"),
])
def test_bad_addresses_are_one_error_line_before_any_work(text, message, capsys, monkeypatch):
    with pytest.raises(ClusterError, match="^scheduler=") as caught:
        scheduler_address(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)

    def no_rules(*args):
        raise AssertionError("the rule file is read after the address is checked")

    monkeypatch.setattr("hazard_dsl.commands.loading.load", no_rules)
    assert main(["simulate", "cotton", "--scheduler", text]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hazard-dsl: error: --scheduler ") and message in err


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_bad_address_leaves_no_traceback_at_exit():
    """Dask's client is never made for one, so its destructor has nothing to say ~10 s later."""
    for text in ("tcp://127.0.0.1", "inproc://x", "tls://127.0.0.1:8786"):
        begun = time.monotonic()
        run = _command("simulate", "cotton", "--scheduler", text, timeout=30)
        assert run.returncode == 1 and len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr, run.stderr
        assert time.monotonic() - begun < 5


def test_nothing_listening_is_refused_at_once(capsys):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    assert main(["simulate", "cotton", "--games", "1000", "--scheduler", f"tcp://127.0.0.1:{port}"]) == 1
    assert "the connection was refused" in capsys.readouterr().err


# --------------------------------------------------------------------------- chunks made lazily


def test_the_chunks_of_a_huge_run_are_made_as_asked():
    plan = Plan("games", 10 ** 13, 1)
    tracemalloc.start()
    try:
        chunks = plan.chunks()
        first = list(islice(chunks, 3))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(chunks, Iterator) and peak < 100_000  # the list of all would be >500 MB
    assert first == [(0, GAMES_PER_CHUNK), (1, GAMES_PER_CHUNK), (2, GAMES_PER_CHUNK)]
    assert plan.chunk_count() == -(-10 ** 13 // GAMES_PER_CHUNK) == 4_768_372


@pytest.mark.parametrize("total, size", [(1, 5), (5, 5), (6, 5), (23, 5), (GAMES_PER_CHUNK + 1, 0)])
def test_chunks_cover_the_run_in_order(total, size):
    plan = Plan("games", total, 1, per_chunk=size)
    chunks = list(plan.chunks())
    width = size or GAMES_PER_CHUNK
    assert [i for i, _ in chunks] == list(range(plan.chunk_count()))
    assert sum(n for _, n in chunks) == total and all(n == width for _, n in chunks[:-1])
    assert 1 <= chunks[-1][1] <= width


def test_the_same_seed_gives_the_numbers_it_gave_before_chunks_were_lazy():
    """Pinned from the run before the change (chunk i still seeded by SeedSequence(seed, spawn_key=(i,))),
    and pinned again when the NumPy engine went from 65,536 lanes to 16,384, which deals a chunk's
    draws to the lanes differently (no other change of its numbers since)."""
    for workers in (1, 2):
        report = execute(prepare_games(machine("cotton"), 250_000, 12345, per_chunk=60_000), workers)[0]
        assert report["chunks"] == 5
        assert round(report["win"]["rate"] * 250_000) == 122_013
        assert round(report["throws"]["mean"]["value"] * 250_000) == 1_309_034
